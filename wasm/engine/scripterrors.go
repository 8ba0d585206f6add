// A script's errors in Redis 7.0's and Lua 5.1's words: the error reply
// with its "script: <sha>, on @user_script:<line>." suffix, error(), and
// the line a message names.

package engine

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	glua "github.com/yuin/gopher-lua"

	"echomq.dev/playground/wasm/lualib"
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
	return resp.ErrorReply(oneLine(fmt.Sprintf("%s script: %s, on @%s:%d.", cutAtNUL(msg), c.sha, c.chunk(), line)))
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
		return "ERR " + lua51Wording(string(v))
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

// oneLine keeps a reply on one RESP line, as Redis does by turning CR and LF
// in error and status replies into spaces.
func oneLine(s string) string {
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}

// badArgument matches gopher-lua's argument errors, which name the function
// bare ("bad argument #1 to sub (...)") where Lua 5.1 quotes it. It is
// compiled when an error first needs it, not as the program starts: in
// WebAssembly, compiling it (and first running Go's regexp code) would
// add to every learner's page load for the sake of an error path.
var badArgument = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`bad argument #(\d+) to ([^\s'(]+) \(`)
})

// lua51Wording rewrites the error messages gopher-lua's libraries raise into
// Lua 5.1's words. (The VM's own messages are raised in Lua 5.1's words in
// the first place; see luavm.go.)
func lua51Wording(msg string) string {
	if !strings.Contains(msg, "bad argument #") {
		return msg
	}
	return badArgument().ReplaceAllString(msg, "bad argument #$1 to '$2' (")
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
