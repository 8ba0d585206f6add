// Running one compiled script under its budget: KEYS and ARGV in, the
// reply (or the error it raised) out.

package engine

import (
	"runtime"

	glua "github.com/yuin/gopher-lua"

	"echomq.dev/playground/wasm/resp"
)

// run executes a compiled script with its KEYS and ARGV in database db and
// converts what it returns, or the error it raised, into a reply. Writes
// made before an error stay, as in Redis. A SELECT inside the script moves
// only the script's own connection, and the next script starts in its
// caller's database again, as in Redis 7.
func (r *runner) run(c *compiled, db int, keys, argv []string, readOnly bool, t *tracer) resp.Reply {
	if rep, no := r.refused(c); no {
		return rep
	}
	if msg := r.startOOM(c); msg != "" {
		return resp.ErrorReply(msg)
	}
	L := r.L
	r.e.useDB(r.e.script, db)
	// Redis 7.0 gives each run new KEYS and ARGV tables. A script that
	// cannot hold on to them (argTablesStayPut) is given the ones the
	// globals hold, refilled, for as long as no other script has run in
	// this state: another's code, left behind in a place that outlives a
	// run, could be called from the script and keep the tables for the
	// next run to compare. (In Redis 7.0 no such place is left, see
	// markReadonly; the condition keeps the engine right if one is found.)
	// The protocol scripts then share two tables, and the globals are not
	// written at all from one run to the next.
	r.argsMayStay = r.argsMayStay || !c.argsStayPut
	var keysT, argvT *glua.LTable
	lastKeys, lastArgv := &c.lastKeys, &c.lastArgv
	if r.e.plain(ArgTables) {
		lastKeys, lastArgv = new([]glua.LValue), new([]glua.LValue)
	} else if !r.argsMayStay && t == nil {
		keysT, argvT = r.argTables[0], r.argTables[1]
	}
	if !c.function {
		r.setArgs(0, "KEYS", stringTable(L, keys, lastKeys, keysT))
		r.setArgs(1, "ARGV", stringTable(L, argv, lastArgv, argvT))
	} else {
		// A function has no KEYS or ARGV (in Redis it runs in a Lua state
		// of its own, where no script set them): a script's are taken
		// away, and the next script is given new ones.
		r.setArgs(0, "KEYS", nil)
		r.setArgs(1, "ARGV", nil)
	}
	r.running, r.readOnly, r.callErr, r.errLine, r.threw, r.trace = c, readOnly, "", 0, false, t
	r.walk = walkNoted{}
	r.setResp(false)
	if t != nil {
		r.budget.onTick = func() { t.tick(L) }
	}
	r.budget.arm(r.workFor(), r.lastResortFor())
	defer func() {
		if r.budget.expired {
			r.stopped = r.budget.why
		}
		r.budget.disarm()
		r.setResp(false)
		r.running, r.trace, r.budget.onTick = nil, nil, nil
		r.walk = walkNoted{}
		L.SetTop(0)
		if r.budget.expired {
			// A stopped script may leave up to MemoryBudget of garbage,
			// and in WebAssembly the collector does not run between
			// calls: collect now, or the next script starts on top of it.
			runtime.GC()
		}
	}()

	if c.fn == nil {
		c.fn = L.NewFunctionFromProto(c.proto)
	}
	L.Push(r.catcher)
	L.Push(c.fn)
	nargs := 1
	if c.function {
		L.Push(stringTable(L, keys, lastKeys, nil))
		L.Push(stringTable(L, argv, lastArgv, nil))
		nargs = 3
	}
	if err := L.PCall(nargs, 1, nil); err != nil {
		r.threw = true
		return r.errorReply(c, err)
	}
	if r.budget.expired {
		// A pcall caught the stop, and the script ended before another
		// instruction could raise it again (return pcall(...) is a tail
		// call). It was stopped all the same.
		return r.errorReply(c, errKilled)
	}
	if !luaToReply(L.Get(-1), r.resp3, r.budget, &r.reply) {
		return r.errorReply(c, errKilled)
	}
	rep := r.reply
	r.reply = resp.Reply{} // holds nothing of the reply once it is handed on
	if r.walk.judge(rep) {
		r.e.undefined |= UndefinedWalk
	}
	if rep.Kind == resp.Error || rep.Kind == resp.Status {
		// Redis reads an error or status reply's text as a C string.
		rep.Str = cutAtNUL(rep.Str)
	}
	if t != nil {
		t.finish()
	}
	return rep
}

// luaCallDepth is how many calls deep a script may go: Lua 5.1's
// LUAI_MAXCALLS. (Lua grows its list of calls by doubling, and the first
// overflow in a server's life comes when the list would grow past 16,384
// entries; the list stays grown, and every later one comes at 20,000. The
// engine keeps to the later, lasting limit.)
const luaCallDepth = 20000

// callStackSlack is how far past luaCallDepth a Lua state's call stack
// reaches: the frames pushed by calls that no OP_CALL makes (pcall, a
// sort comparator, a gsub function, a metamethod), a few per level of
// calls from Go, which Lua 5.1 keeps to 200 levels (lualib's maxCCalls).
const callStackSlack = 2048

// stringTable makes the KEYS or ARGV table of one run, or fills reuse
// again when it has the length needed. last holds the strings of the
// script's previous run as Lua values, and an item equal to the one in its
// place last time reuses that value: a Go string becomes a Lua value by a
// small allocation, and a script is mostly called with the same keys (a
// queue's sets, a lease) run after run. A Lua string is immutable, so
// sharing one between runs shows nowhere.
func stringTable(L *glua.LState, items []string, last *[]glua.LValue, reuse *glua.LTable) *glua.LTable {
	t := reuse
	if t == nil || t.Len() != len(items) {
		t = L.CreateTable(len(items), 0)
	}
	prev := *last
	if len(prev) != len(items) {
		prev = make([]glua.LValue, len(items))
		*last = prev
	}
	for i, s := range items {
		v := prev[i]
		if cur, ok := v.(glua.LString); !ok || string(cur) != s {
			v = glua.LString(s)
			if len(s) <= maxReusedArg {
				prev[i] = v
			} else {
				prev[i] = nil // not kept alive by the cache
			}
		}
		t.RawSetInt(i+1, v)
	}
	return t
}

// maxReusedArg bounds the strings stringTable keeps from one run to the
// next, so that a script run once with a big argument does not hold on to
// it for as long as it stays cached.
const maxReusedArg = 256
