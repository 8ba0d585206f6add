// A script's errors in Redis 7.0's and Lua 5.1's words: the error reply
// with its "script: <sha>, on @user_script:<line>." suffix, error(), and
// the line a message names.

package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	glua "github.com/yuin/gopher-lua"

	"echomq.dev/playground/wasm/lualib"
	"echomq.dev/playground/wasm/luarun"
	"echomq.dev/playground/wasm/resp"
)

// scriptLine is the line of the innermost frame that runs the user's script.
func scriptLine(L *glua.LState, chunkName string) int {
	for level := 0; level < 64; level++ {
		dbg, ok := L.GetStack(level)
		if !ok {
			break
		}
		if _, err := L.GetInfo("Sl", dbg, glua.LNil); err != nil {
			continue
		}
		if dbg.Source == chunkName && dbg.CurrentLine > 0 {
			return dbg.CurrentLine
		}
	}
	return 0
}

// errorReply turns a raised Lua error into the reply Redis 7 gives:
// the message (with its error code kept, or ERR added) and the suffix
// "script: <sha>, on @user_script:<line>.".
func (r *runner) errorReply(c *compiled, err error) resp.Reply {
	var msg string
	if r.budget.expired {
		msg = stopError(r.budget.why)
	} else {
		var ae *glua.ApiError
		if errors.As(err, &ae) {
			msg = r.errorMessage(ae.Object)
		} else {
			msg = "ERR " + err.Error()
		}
	}
	line := r.errLine
	if line == 0 {
		// The error handler could not run (a stack overflow leaves it no
		// room): the line is the one the message names.
		line = messageLine(msg, c.chunk())
	}
	// Redis reads the message as a C string: a NUL ends it.
	return resp.ErrorReply(luarun.OneLine(fmt.Sprintf("%s script: %s, on @%s:%d.", cutAtNUL(msg), c.sha, c.chunk(), line)))
}

func cutAtNUL(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}

// messageLine is N in a message "ERR user_script:N: ...", or 0.
func messageLine(msg, chunkName string) int {
	_, rest, ok := strings.Cut(msg, chunkName+":")
	if !ok {
		return 0
	}
	end := strings.IndexByte(rest, ':')
	if end <= 0 {
		return 0
	}
	n, err := strconv.Atoi(rest[:end])
	if err != nil {
		return 0
	}
	return n
}

func (r *runner) errorMessage(v glua.LValue) string {
	switch v := v.(type) {
	case glua.LString:
		if r.callErr != "" && string(v) == r.callErr {
			return r.callErr
		}
		return "ERR " + luarun.Lua51Wording(string(v))
	case *glua.LTable:
		// A raised table's err is the reply as written, a leading dash and
		// all (only redis.error_reply drops one); a number is its text.
		switch e := v.RawGetString("err").(type) {
		case glua.LString:
			return string(e)
		case glua.LNumber:
			return lualib.FormatNumber(float64(e))
		}
	}
	return "ERR " + v.String()
}

// luaError is Lua 5.1's error(message [, level]): a string or number
// message gets the position of the function at level in front of it (1,
// the default, is the caller of error), nothing when that level is not a
// line of the script; any other value, nil included, is raised as it is.
func (r *runner) luaError(L *glua.LState) int {
	v := L.Get(1)
	level := L.OptInt(2, 1)
	switch m := v.(type) {
	case glua.LString, glua.LNumber:
		text := m.String()
		if n, ok := m.(glua.LNumber); ok {
			text = lualib.FormatNumber(float64(n))
		}
		if level > 0 {
			if where := r.where(L, level); where != "" {
				text = where + " " + text
			}
		}
		v = glua.LString(text)
	}
	L.Error(v, 0)
	return 0
}

// where is luaL_where: "chunk:line:" of the function level calls up from
// the running one (1 is its caller), or "" when that is not a line of Lua
// code. The engine's own go-betweens (r.hidden) are not counted.
func (r *runner) where(L *glua.LState, level int) string {
	for i := 1; ; i++ {
		dbg, ok := L.GetStack(i)
		if !ok {
			return ""
		}
		fn, err := L.GetInfo("Slf", dbg, glua.LNil)
		if err != nil {
			return ""
		}
		if r.hidden[fn] {
			continue
		}
		if level--; level > 0 {
			continue
		}
		if dbg.CurrentLine <= 0 || dbg.What == "G" {
			return ""
		}
		return fmt.Sprintf("%s:%d:", dbg.Source, dbg.CurrentLine)
	}
}
