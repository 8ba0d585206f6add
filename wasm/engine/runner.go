package engine

import (
	"math"

	glua "github.com/yuin/gopher-lua"

	"echomq.dev/playground/wasm/lualib"
	"echomq.dev/playground/wasm/luarun"
	"echomq.dev/playground/wasm/resp"
)

// RedisVersion is the Redis release the runner answers for, in
// redis.REDIS_VERSION and wherever a script can ask.
const RedisVersion = "7.0.15"

// chunkName is what Redis 7 calls every script in its error messages.
const chunkName = "user_script"

// runner is our replacement for miniredis's EVAL. It keeps one sandboxed Lua
// state for the life of the engine (miniredis builds a fresh one per call,
// which is most of its cost), compiles each script once, and runs each
// redis.call as its own command through the engine's one dispatch path.
//
// It is only ever used with the engine's lock held, so it needs no lock of
// its own, and scripts are serialized like every other command.
type runner struct {
	e      *Engine
	L      *glua.LState
	cache  map[string]*compiled // by lower-case SHA1
	recent [2]*compiled         // the last two EVALSHA found (see byHash)
	budget *budget

	// State of the script that is running.
	running  *compiled
	readOnly bool
	resp3    bool               // the script called redis.setresp(3)
	callErr  string             // the last error redis.call raised, kept verbatim
	errLine  int                // script line of the error being raised
	catcher  *glua.LFunction    // r.catch, made once
	raiser   func(*glua.LState) // r.raised, made once: a method value allocates
	// The catches under way, innermost last: the register each one's
	// frame starts at, and xpcall's handler (nil for pcall). closer is
	// the error function both run (see closeUpvaluesFrom).
	catches []caught
	closer  *glua.LFunction
	threw   bool // the last run ended in an error it raised (not one it returned)

	// oomAtStart: the script started past maxmemory and may not write
	// past it; wrote: it has called a write (see maxmemory.go).
	oomAtStart, wrote bool
	// hidden are the functions the engine calls between a script's own
	// (catch, gopher-lua's xpcall under ours): not frames of Lua 5.1's,
	// so error(msg, level) does not count them.
	hidden map[glua.LValue]bool
	trace  *tracer // non-nil during a traced run

	args  []string   // redis.call's argument buffer (see argBuffer)
	reply resp.Reply // where luaToReply writes a script's reply

	// argTables are the KEYS and ARGV tables the globals hold, and
	// argsMayStay is whether a script that may keep one has run in this
	// state (see run).
	argTables   [2]*glua.LTable
	argsMayStay bool

	// callFns are redis.call and redis.pcall as the script sees them, so
	// that call knows itself in the budget's mark (see unusedResult).
	callFns [2]*glua.LFunction

	// allow, when set, holds the SHA1s of the only scripts that may run
	// (see GuardScripts).
	allow map[string]bool
	// stopped is why the budget stopped a script since takeStop last
	// looked (see Client.LastStop).
	stopped Stop
	// walk is what the running script's pairs and next have walked (see
	// undefined.go).
	walk walkNoted

	// funcs is the function libraries (see functions.go).
	funcs functions
}

// chunkRunning is the name of the chunk whose code runs: a library's
// while it loads or one of its functions runs, a script's otherwise.
func (r *runner) chunkRunning() string {
	if r.running != nil {
		return r.running.chunk()
	}
	if r.funcs.loading != nil {
		return functionChunk
	}
	return chunkName
}

// takeStop is why the budget stopped a script since the last takeStop,
// or NotStopped.
func (r *runner) takeStop() Stop {
	s := r.stopped
	r.stopped = NotStopped
	return s
}

// compiled is one script as the cache holds it.
type compiled struct {
	sha   string
	src   string
	flags scriptFlags
	proto *glua.FunctionProto
	fn    *glua.LFunction // the chunk as a function of the runner's state, made on first run

	// argsStayPut is argTablesStayPut's answer for the script.
	argsStayPut bool
	// The last run's KEYS and ARGV as Lua values (see stringTable).
	lastKeys, lastArgv []glua.LValue

	// function is set for a function of a library (functions.go): fn is
	// its callback, called with the keys and the arguments as its two
	// arguments (there are no KEYS and ARGV globals), sha is its name, and
	// its chunk is user_function.
	function bool
}

// chunk is the name Redis gives the code c runs in its error messages.
func (c *compiled) chunk() string {
	if c.function {
		return functionChunk
	}
	return chunkName
}

// newRunner is called by New only once the Lua 5.1 hook is in place: an
// engine without it would run scripts with no string cap and gopher-lua's
// own wording, and claim to be Redis (see Ready in luavm.go).
func newRunner(e *Engine) *runner {
	return &runner{e: e, budget: &budget{}}
}

// reset gives the runner a fresh Lua state and an empty script cache: the
// scripting side of a server that has just started (math.random's
// generator and cjson's settings included).
func (r *runner) reset() {
	r.flush()
	r.funcs = functions{}
	r.flushFunctions()
	r.hidden = map[glua.LValue]bool{}
	r.L = r.newState()
	r.catcher = r.L.NewFunction(r.catch)
	r.raiser = r.raised
	r.hidden[r.catcher] = true
	r.catches = r.catches[:0]
	r.closer = r.L.NewFunction(r.closeCaught)
	r.hidden[r.closer] = true
	r.argTables, r.argsMayStay = [2]*glua.LTable{}, false
}

// setArgs makes t the global KEYS (i = 0) or ARGV (1). Only the engine
// writes a global, so a table the globals already hold needs no store.
func (r *runner) setArgs(i int, name string, t *glua.LTable) {
	if r.argTables[i] != t {
		var v glua.LValue = glua.LNil
		if t != nil {
			v = t
		}
		r.L.G.Global.RawSetString(name, v)
		r.argTables[i] = t
	}
}

// flush empties the script cache, as SCRIPT FLUSH does.
func (r *runner) flush() {
	r.cache = map[string]*compiled{}
	r.recent = [2]*compiled{}
}

// newState builds the Lua state Redis 7 gives a script: the base, table,
// string and math libraries, cjson, the redis table, no file or module
// loading, and globals that cannot be created or read before they exist.
func (r *runner) newState() *glua.LState {
	// The call stack grows as a script calls deeper (MinimizeStackMemory):
	// 20,000 frames up front are 1.6 MB, allocated for every keyspace and,
	// since a frame holds pointers, scanned by every garbage collection of
	// the module for as long as the keyspace lives. The limit of
	// luaCallDepth is checked on each call (callOp, luavm.go), with room
	// beyond it for the frames calls from Go push (at most maxCCalls deep).
	L := glua.NewState(glua.Options{SkipOpenLibs: true, CallStackSize: luaCallDepth + callStackSlack, MinimizeStackMemory: true, RegistrySize: 1024 * 16, RegistryGrowStep: 1024 * 16, RegistryMaxSize: 1024 * 1024})
	lualib.OpenGopherLibs(L, glua.BaseLibName, glua.TabLibName, glua.MathLibName, glua.CoroutineLibName)
	// Lua 5.1's number conversions, string.format, byte-wise case mapping,
	// Redis's math.random, and the bit, struct, cmsgpack and cjson libraries.
	lualib.Open(L)
	lualib.SetStringLimit(L, MaxStringBytes)
	lualib.OnUnknownOrder(L, func() {
		if r.running != nil {
			r.walk.walked = true
		}
	})
	for _, name := range []string{"dofile", "loadfile", "print", "_printregs", "module", "require", "newproxy", "getfenv", "setfenv"} {
		L.SetGlobal(name, glua.LNil)
	}
	// gopher-lua's math.huge is the largest double; Lua 5.1's is infinity.
	L.GetGlobal("math").(*glua.LTable).RawSetString("huge", glua.LNumber(math.Inf(1)))
	r.protectCatches(L)
	capStrings(L)
	L.SetGlobal("error", L.NewFunction(r.luaError))
	// Lua 5.1's gcinfo, which Redis keeps: the heap in use, in KiB.
	L.SetGlobal("gcinfo", L.NewFunction(func(L *glua.LState) int {
		var b budget
		_, inUse := b.readHeap()
		L.Push(glua.LNumber(inUse / 1024))
		return 1
	}))
	L.SetGlobal("collectgarbage", L.NewFunction(collectGarbage))
	L.SetGlobal("loadstring", L.NewFunction(luarun.LoadString))
	// load calls its reader function from C: a reader that loads again
	// recurses, so it counts, and fails as a failed load does.
	L.SetGlobal("load", L.NewFunction(countedFromC(L.GetGlobal("load"), lualib.EnterC, glua.LNil)))
	L.SetGlobal("redis", r.redisTable(L))

	r.budgetCoroutines(L)

	// Globals protection, worded as Redis 7.0 words it. Reading a global
	// that does not exist is an error; writing any global, or a field of a
	// library table, is refused (see readonly in luavm.go).
	meta := L.NewTable()
	L.SetField(meta, "__index", L.NewFunction(func(L *glua.LState) int {
		L.RaiseError("Script attempted to access nonexistent global variable '%s'", L.ToString(2))
		return 0
	}))
	L.SetField(meta, "__newindex", L.NewFunction(func(L *glua.LState) int {
		L.RaiseError("%s", errReadonly)
		return 0
	}))
	L.SetMetatable(L.G.Global, meta)
	markReadonly(L)
	L.SetContext(r.budget)
	return L
}

// capStrings bounds the library functions that can make a string of any
// size in one call, where the time and memory budgets cannot step in
// before the allocation: string.rep('x', 1e12) asks for a terabyte.
func capStrings(L *glua.LState) {
	str := L.GetGlobal("string").(*glua.LTable)
	rep := str.RawGetString("rep")
	str.RawSetString("rep", L.NewFunction(func(L *glua.LState) int {
		s, n := L.CheckString(1), L.CheckNumber(2)
		size := float64(len(s)) * float64(n)
		if n > 0 && size > MaxStringBytes {
			L.RaiseError("string length overflow (the playground caps a string at %d MiB)", MaxStringBytes>>20)
		}
		bigAlloc(L, int(max(size, 0)))
		L.Insert(rep, 1)
		L.Call(L.GetTop()-1, 1)
		return 1
	}))
}

// collectGarbage is Lua 5.1's collectgarbage. Go's collector runs on its
// own, so the options that drive a collector do nothing here; what each
// returns is what Lua 5.1 returns: "count" the heap in KiB (a number with
// a fraction), "step" whether a cycle ended, "setpause" and "setstepmul"
// the setting before, the rest 0.
func collectGarbage(L *glua.LState) int {
	opt := "collect"
	switch v := L.Get(1).(type) {
	case *glua.LNilType:
	case glua.LString:
		opt = string(v)
	case glua.LNumber:
		opt = lualib.FormatNumber(float64(v))
	default:
		L.RaiseError("bad argument #1 to 'collectgarbage' (string expected, got %s)", v.Type().String())
	}
	switch opt {
	case "count":
		var b budget
		_, inUse := b.readHeap()
		L.Push(glua.LNumber(float64(inUse) / 1024))
	case "step":
		L.Push(glua.LFalse)
	case "setpause", "setstepmul":
		L.Push(glua.LNumber(200)) // Lua 5.1's defaults, both
	case "stop", "restart", "collect":
		L.Push(glua.LNumber(0))
	default:
		L.RaiseError("bad argument #1 to 'collectgarbage' (invalid option '%s')", opt)
	}
	return 1
}

// setResp is redis.setresp: with RESP3 on, redis.call hands the script
// RESP3 replies (maps, sets, doubles, booleans, nil for a null) and a
// boolean the script returns is a RESP3 boolean.
func (r *runner) setResp(resp3 bool) {
	r.resp3 = resp3
	r.e.script.Resp3 = resp3
}
