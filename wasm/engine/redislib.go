package engine

import (
	"math"
	"strings"

	glua "github.com/yuin/gopher-lua"

	emqlua "echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/lualib"
	"echomq.dev/playground/wasm/resp"
)

// Redis's log levels and replication flags, as scripts see them.
const (
	logDebug, logVerbose, logNotice, logWarning = 0, 1, 2, 3
	replNone, replAOF, replSlave, replAll       = 0, 1, 2, 3
)

// redisTable builds the global redis table a script talks to the server with.
func (r *runner) redisTable(L *glua.LState) *glua.LTable {
	t := L.NewTable()
	fns := map[string]glua.LGFunction{
		"call":         func(L *glua.LState) int { return r.call(L, true) },
		"pcall":        func(L *glua.LState) int { return r.call(L, false) },
		"error_reply":  errorReplyFn,
		"status_reply": statusReplyFn,
		// Redis takes exactly one argument, and hashes what lua_tolstring
		// gives: a string, a number's text, or nothing (so sha1hex({}) is
		// the hash of "").
		"sha1hex": func(L *glua.LState) int {
			if L.GetTop() != 1 {
				raiseRedisError(L, "ERR wrong number of arguments")
			}
			s, _ := lualib.ToString(L.Get(1))
			L.Push(glua.LString(emqlua.SHA1Hex(s)))
			return 1
		},
		// The playground keeps no server log; a call Redis would accept is
		// accepted, so that scripts which log still run, and one it would
		// refuse is refused with its words.
		"log": func(L *glua.LState) int {
			if L.GetTop() < 2 {
				raiseRedisError(L, "ERR redis.log() requires two arguments or more.")
			}
			level, ok := L.Get(1).(glua.LNumber)
			if !ok {
				if s, isStr := L.Get(1).(glua.LString); isStr {
					f, conv := lualib.StringToNumber(string(s))
					level, ok = glua.LNumber(f), conv
				}
			}
			if !ok {
				raiseRedisError(L, "ERR First argument must be a number (log level).")
			}
			// Redis reads the level as a C int: 3.9 is 3, NaN is no level.
			if lv := math.Trunc(float64(level)); !(lv >= logDebug && lv <= logWarning) {
				raiseRedisError(L, "ERR Invalid debug level.")
			}
			return 0
		},
		"setresp": func(L *glua.LState) int {
			if L.GetTop() != 1 {
				raiseRedisError(L, "ERR redis.setresp() requires one argument.")
			}
			v, ok := L.Get(1).(glua.LNumber)
			if !ok || v != 2 && v != 3 {
				raiseRedisError(L, "ERR RESP version must be 2 or 3.")
			}
			r.setResp(v == 3)
			return 0
		},
		"set_repl":           setRepl,
		"acl_check_cmd":      aclCheckCmd,
		"replicate_commands": func(L *glua.LState) int { L.Push(glua.LTrue); return 1 },
		"breakpoint":         func(L *glua.LState) int { L.Push(glua.LFalse); return 1 },
		"debug":              func(L *glua.LState) int { return 0 },
	}
	for name, fn := range fns {
		f := L.NewFunction(fn)
		t.RawSetString(name, f)
		switch name {
		case "call":
			r.callFns[0] = f
		case "pcall":
			r.callFns[1] = f
		}
	}
	for name, v := range map[string]int{
		"LOG_DEBUG": logDebug, "LOG_VERBOSE": logVerbose, "LOG_NOTICE": logNotice, "LOG_WARNING": logWarning,
		"REPL_NONE": replNone, "REPL_AOF": replAOF, "REPL_SLAVE": replSlave, "REPL_REPLICA": replSlave, "REPL_ALL": replAll,
	} {
		t.RawSetString(name, glua.LNumber(v))
	}
	t.RawSetString("REDIS_VERSION", glua.LString(RedisVersion))
	t.RawSetString("REDIS_VERSION_NUM", glua.LNumber(0x07000f))
	return t
}

// errorReplyFn and statusReplyFn take exactly one string; anything else
// is not raised but returned, as Redis returns it: an error table saying
// so.
func errorReplyFn(L *glua.LState) int { return replyTable(L, "err", "-") }

func statusReplyFn(L *glua.LState) int { return replyTable(L, "ok", "") }

// replyTable returns {field = the one string argument, without prefix}.
func replyTable(L *glua.LState, field, prefix string) int {
	s, ok := oneString(L)
	t := L.NewTable()
	if !ok {
		t.RawSetString("err", glua.LString("ERR wrong number or type of arguments"))
	} else {
		t.RawSetString(field, glua.LString(strings.TrimPrefix(s, prefix)))
	}
	L.Push(t)
	return 1
}

func oneString(L *glua.LState) (string, bool) {
	s, ok := L.Get(1).(glua.LString)
	return string(s), ok && L.GetTop() == 1
}

// call is redis.call (raise=true) and redis.pcall (raise=false): one command,
// run through the engine's dispatch path on the script's own client.
//
// A statement that drops the reply (redis.call('SET', k, v) on a line of
// its own, most of a script's calls) gets nil instead of the reply's Lua
// value: the VM throws the value away unread, and a status reply's table
// alone is seven allocations. Errors are raised all the same.
func (r *runner) call(L *glua.LState, raise bool) int {
	fn := r.callFns[0]
	if !raise {
		fn = r.callFns[1]
	}
	unused := r.budget.unusedResult(fn) && !r.e.plain(UnusedReplies)
	rep := r.command(L)
	r.releaseArgs()
	if t := r.trace; t != nil {
		t.call(L, rep)
	}
	if rep.reply.IsError() && raise {
		r.callErr = rep.reply.Str
		L.Error(glua.LString(rep.reply.Str), 0)
		return 0
	}
	if unused {
		L.Push(glua.LNil)
		return 1
	}
	L.Push(replyToLua(L, rep.reply, r.resp3))
	return 1
}

// scriptCall is one redis.call as the tracer records it.
type scriptCall struct {
	args  []string // nil when the arguments never formed a command
	reply resp.Reply
	// write says the command ran and is one Redis counts as a write: what
	// a flags=no-writes script is refused.
	write bool
}

func (r *runner) command(L *glua.LState) scriptCall {
	n := L.GetTop()
	if n == 0 {
		return scriptCall{reply: resp.ErrorReply("ERR Please specify at least one argument for this redis lib call")}
	}
	var c *command
	if name, ok := L.Get(1).(glua.LString); ok {
		c = r.e.lookup(string(name))
	}
	var args []string
	if c != nil && c.reuseArgs && r.trace == nil && !r.e.plain(ArgBuffer) {
		args = r.argBuffer(n)
	} else {
		args = make([]string, n)
	}
	if !commandArgs(L, args) {
		return scriptCall{reply: resp.ErrorReply(errLibArgs)}
	}
	if c == nil {
		c = r.e.lookup(args[0]) // a number for a name
	}
	if msg := scriptGate(c, args); msg != "" {
		return scriptCall{args: args, reply: resp.ErrorReply(msg)}
	}
	if !c.registered && !c.refused {
		// Redis has it and a script may call it; miniredis lacks it.
		return scriptCall{args: args, reply: resp.ErrorReply(errScriptUnknown)}
	}
	if r.readOnly && !c.readOnly {
		return scriptCall{args: args, reply: resp.ErrorReply("ERR Write commands are not allowed from read-only scripts.")}
	}
	if r.oomAtStart {
		if msg := r.oomAtWrite(c, args); msg != "" {
			return scriptCall{args: args, reply: resp.ErrorReply(msg)}
		}
	}
	if c.refused {
		return r.refusedCall(c, args)
	}
	return r.runCall(c, args, args)
}

// runCall dispatches a script's call that passed the gate: args as the script
// wrote them (what the tracer shows), run as c and runArgs (the same,
// except for a blocking command run as its non-blocking twin).
func (r *runner) runCall(c *command, args, runArgs []string) scriptCall {
	if r.trace != nil {
		r.trace.beforeCall(args)
	}
	r.wrote = r.wrote || !c.readOnly
	rep := r.e.dispatch(r.e.script, c, runArgs)
	return scriptCall{args: args, reply: rep, write: !c.readOnly}
}

// argBuffer returns the runner's one buffer for a redis.call's arguments,
// n long. An allocation per redis.call is a measurable part of a script
// run in WebAssembly, and the slice is needed only while the command runs.
// command uses it for an untraced run (a traced run keeps every command's
// arguments in its steps) of a command that keeps no part of the slice
// (see reuseArgs in commands.go).
func (r *runner) argBuffer(n int) []string {
	if cap(r.args) < n {
		r.args = make([]string, n)
	}
	return r.args[:n]
}

// releaseArgs forgets the strings of the last redis.call, so that a big
// argument is not kept alive by the buffer after its command ran.
func (r *runner) releaseArgs() {
	clear(r.args)
}

// raiseRedisError raises an error as Redis's own functions do: an error
// table {err = msg}, with no position, which becomes the reply as it is,
// and which pcall hands the script as its text.
func raiseRedisError(L *glua.LState, msg string) {
	t := L.NewTable()
	t.RawSetString("err", glua.LString(msg))
	L.Error(t, 0)
}

// errLibArgs is Redis's error for a redis.call argument that is neither a
// string nor a number.
const errLibArgs = "ERR Lua redis lib command arguments must be strings or integers"

// commandArgs fills args with the script's arguments 1..len(args) as a
// command's words, numbers written as Redis writes them, and reports
// false at the first that is neither a string nor a number.
func commandArgs(L *glua.LState, args []string) bool {
	for i := range args {
		switch v := L.Get(i + 1).(type) {
		case glua.LString:
			args[i] = string(v)
		case glua.LNumber:
			args[i] = formatArgNumber(float64(v))
		default:
			return false
		}
	}
	return true
}
