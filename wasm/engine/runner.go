package engine

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/alicebob/miniredis/v2/server"
	glua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	emqlua "echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/lualib"
	"echomq.dev/playground/wasm/luasyntax"
	"echomq.dev/playground/wasm/resp"
)

// scriptWork, when tests set it, is the work a run may do in every engine
// in place of its own (see runner.workFor).
// scriptLastResort, when tests set it, is the last resort of every engine
// in place of its own (Options.LastResort).
var (
	scriptWork       uint64
	scriptLastResort time.Duration
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

// caught is one pcall or xpcall under way.
type caught struct {
	base    int
	handler glua.LValue
}

// closeCaught is the error function of the engine's pcall and xpcall: it
// closes the upvalues of the frames the error unwound, then hands the
// error to xpcall's handler, or back unchanged for pcall.
func (r *runner) closeCaught(L *glua.LState) int {
	c := r.catches[len(r.catches)-1]
	closeUpvaluesFrom(L, c.base)
	if c.handler == nil {
		return 1
	}
	L.Insert(c.handler, 1)
	L.Call(L.GetTop()-1, 1)
	return 1
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
	L.SetGlobal("loadstring", L.NewFunction(loadString))
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

// eval serves EVAL, EVALSHA and their _RO forms for the caller's
// connection, whose protocol the reply is shaped for and whose database the
// script starts in.
func (r *runner) eval(caller *server.Peer, cmd string, args []string) resp.Reply {
	keys, argv, bad := evalArgs(cmd, args)
	if bad != nil {
		return *bad
	}
	var c *compiled
	if strings.HasPrefix(cmd, "EVALSHA") {
		if c = r.byHash(args[0]); c == nil {
			return resp.ErrorReply("NOSCRIPT No matching script. Please use EVAL.")
		}
	} else {
		var errRep resp.Reply
		if c, errRep = r.load(args[0]); c == nil {
			return errRep
		}
	}
	ro := strings.HasSuffix(cmd, "_RO")
	if ro && c.flags.shebang && !c.flags.noWrites {
		return resp.ErrorReply("ERR Can not execute a script with write flag using *_ro command.")
	}
	return forProtocol(r.run(c, r.e.dbOf[caller], keys, argv, ro || c.flags.noWrites, nil), caller.Resp3)
}

// evalArgs checks EVAL's arguments after its name (the script or its SHA1,
// numkeys, then the keys and the arguments) as Redis does before it looks
// for the script, and cuts out KEYS and ARGV; bad is the error reply of
// arguments that do not pass, and then no script runs. The review of a
// link (ScriptReview) asks it too.
func evalArgs(cmd string, args []string) (keys, argv []string, bad *resp.Reply) {
	fail := func(r resp.Reply) ([]string, []string, *resp.Reply) { return nil, nil, &r }
	if len(args) < 2 {
		return fail(resp.Errorf("ERR wrong number of arguments for '%s' command", ascii.Lower(cmd)))
	}
	n, ok := smallCount(args[1])
	if !ok {
		n, ok = parseRedisInt(args[1])
	}
	switch {
	case !ok:
		return fail(resp.ErrorReply("ERR value is not an integer or out of range"))
	case n < 0:
		return fail(resp.ErrorReply("ERR Number of keys can't be negative"))
	case n > int64(len(args)-2):
		return fail(resp.ErrorReply("ERR Number of keys can't be greater than number of args"))
	}
	return args[2 : 2+n], args[2+n:], nil
}

// smallCount reads a numkeys of one digit, which is what a script is
// called with nearly always, without the general parse.
func smallCount(s string) (int64, bool) {
	if len(s) == 1 && s[0] >= '0' && s[0] <= '9' {
		return int64(s[0] - '0'), true
	}
	return 0, false
}

// byHash is EVALSHA's lookup in the cache. The protocol scripts are called
// in turn by the same SHA1s, so the two scripts found last are compared
// first: a hit is a comparison of the strings, where the cache's is a
// scan for upper case and a hash of forty bytes, slow in WebAssembly.
func (r *runner) byHash(sha string) *compiled {
	if r.e.plain(RecentScripts) {
		return r.cache[strings.ToLower(sha)]
	}
	for _, c := range r.recent {
		if c != nil && c.sha == sha {
			return c
		}
	}
	c := r.cache[scriptKey(sha)]
	if c != nil {
		r.recent = [2]*compiled{c, r.recent[0]}
	}
	return c
}

// scriptCommand serves SCRIPT LOAD, EXISTS, FLUSH and KILL.
func (r *runner) scriptCommand(args []string) resp.Reply {
	if len(args) == 0 {
		return resp.ErrorReply("ERR wrong number of arguments for 'script' command")
	}
	sub, _ := scriptSubcommand(args)
	switch {
	case sub == "LOAD" && len(args) == 2:
		c, errRep := r.load(args[1])
		if c == nil {
			return errRep
		}
		return resp.BulkReply(c.sha)
	case sub == "EXISTS" && len(args) >= 2:
		out := make([]resp.Reply, len(args)-1)
		for i, sha := range args[1:] {
			if r.cache[scriptKey(sha)] != nil {
				out[i] = resp.IntReply(1)
			} else {
				out[i] = resp.IntReply(0)
			}
		}
		return resp.ArrayReply(out...)
	case sub == "FLUSH" && (len(args) == 1 || len(args) == 2 && isFlushMode(args[1])):
		r.flush()
		return resp.OK()
	case sub == "KILL" && len(args) == 1:
		// A script never outlives the command that runs it here, so there
		// is never one to kill when this command is heard.
		return resp.ErrorReply("NOTBUSY No scripts in execution right now.")
	case sub == "FLUSH" && len(args) >= 2:
		return resp.ErrorReply("ERR SCRIPT FLUSH only support SYNC|ASYNC option")
	case sub == "LOAD" || sub == "EXISTS" || sub == "FLUSH" || sub == "KILL":
		return resp.Errorf("ERR wrong number of arguments for 'script|%s' command", ascii.Lower(sub))
	}
	return resp.Errorf("ERR unknown subcommand '%s'. Try SCRIPT HELP.", args[0])
}

// scriptSubcommand is SCRIPT's subcommand as the runner reads it, in
// upper case, and the arguments after it ("" and none for a bare SCRIPT).
func scriptSubcommand(args []string) (sub string, rest []string) {
	if len(args) == 0 {
		return "", nil
	}
	return ascii.Upper(args[0]), args[1:]
}

// scriptKey is a SHA1 as the script cache files it: in lower case, as
// Redis reads EVALSHA's and SCRIPT EXISTS's.
func scriptKey(sha string) string { return ascii.Lower(sha) }

func isFlushMode(s string) bool {
	s = ascii.Upper(s)
	return s == "SYNC" || s == "ASYNC"
}

// load compiles src and caches it under its SHA1, as EVAL and SCRIPT LOAD
// do. A script that compiles stays cached even if it later fails at run time.
func (r *runner) load(src string) (*compiled, resp.Reply) {
	sha := emqlua.SHA1Hex(src)
	if c := r.cache[sha]; c != nil {
		return c, resp.Reply{}
	}
	var c *compiled
	var errRep resp.Reply
	if r.e.plain(SharedProtos) {
		c, errRep = compile(src)
	} else {
		c, errRep = compileShared(src, sha)
	}
	if c == nil {
		return nil, errRep
	}
	r.cache[sha] = c
	return c, resp.Reply{}
}

// protocolCompiled holds the protocol scripts (lua/, @enqueue and @claim),
// compiled once for every engine in the process, by SHA1. A course page's
// shared worker runs one engine per embed, and each used to parse and
// compile both scripts again on its first call (about a third of a new
// keyspace's first enqueue and claim). A FunctionProto is read-only once
// compile has finished, so engines share it; each runner still makes its
// own function of it in its own Lua state, and keeps its own KEYS and ARGV.
// Other scripts (a learner's, the console's) are compiled per engine as
// before, so the map holds two entries at most.
var protocolCompiled sync.Map

// compileShared is compile, shared between engines for a protocol script.
func compileShared(src, sha string) (*compiled, resp.Reply) {
	if v, ok := protocolCompiled.Load(sha); ok {
		return v.(*compiled).copy(), resp.Reply{}
	}
	c, errRep := compile(src)
	if c != nil && isProtocolScript(sha) {
		protocolCompiled.Store(sha, c.copy())
	}
	return c, errRep
}

// copy is a fresh cache entry for the same compiled script: the proto is
// shared, the runner's function and last tables are not.
func (c *compiled) copy() *compiled {
	return &compiled{sha: c.sha, src: c.src, flags: c.flags, proto: c.proto, argsStayPut: c.argsStayPut}
}

// isProtocolScript reports whether sha names one of the embedded protocol
// scripts.
func isProtocolScript(sha string) bool {
	for _, s := range emqlua.All() {
		if s.SHA == sha {
			return true
		}
	}
	return false
}

// compile turns a script into a function, as EVAL and SCRIPT LOAD do.
// Whether it compiles, and how an error reads, is Lua 5.1's answer from
// luasyntax: gopher-lua's parser takes chunks Lua 5.1 refuses (goto and
// labels, empty statements) and words its errors otherwise. gopher-lua's
// own messages remain only for a chunk luasyntax passes and gopher-lua
// still cannot compile (a hexadecimal number with a "p" exponent, a NUL
// that Lua 5.1 reads as part of a token).
func compile(src string) (*compiled, resp.Reply) {
	flags, body, errRep := parseShebang(src)
	if errRep != nil {
		return nil, *errRep
	}
	proto, msg := compileChunk(chunkName, body)
	if proto == nil {
		return nil, resp.ErrorReply("ERR Error compiling script (new function): " + msg)
	}
	return &compiled{sha: emqlua.SHA1Hex(src), src: src, flags: flags, proto: proto, argsStayPut: argTablesStayPut(proto)}, resp.Reply{}
}

// compileChunk compiles body as the chunk called name (user_script for a
// script, user_function for a library), or says why it does not compile,
// in Lua 5.1's words.
func compileChunk(name, body string) (*glua.FunctionProto, string) {
	if err := luasyntax.Check(name, body); err != nil {
		return nil, oneLine(err.Error())
	}
	chunk, err := parse.Parse(strings.NewReader(body), name)
	if err != nil {
		return nil, describeSyntaxError(err, body, name)
	}
	padForLists(chunk)
	proto, err := glua.Compile(chunk, name)
	if err != nil {
		return nil, name + ": " + oneLine(err.Error())
	}
	x86Constants(proto)
	noArgTable(proto)
	return proto, ""
}

// x86Constants gives NaN constants the sign x86 gives them. Lua source has
// no NaN literal, so a NaN constant is gopher-lua's compiler folding 0/0 or
// x % 0, with whatever sign the platform it runs on produced (positive in
// WebAssembly, and always positive from math.Mod). Redis, on x86, prints
// those as -nan.
func x86Constants(p *glua.FunctionProto) {
	for i, k := range p.Constants {
		if n, ok := k.(glua.LNumber); ok && math.IsNaN(float64(n)) {
			p.Constants[i] = glua.LNumber(math.Copysign(math.NaN(), -1))
		}
	}
	for _, child := range p.FunctionPrototypes {
		x86Constants(child)
	}
}

// noArgTable stops gopher-lua from building Lua 5.0's "arg" table each
// time the script's main chunk is called. gopher-lua compiles a chunk as a
// vararg function whose varargs "need" that table (its compatibility mode
// fills one with the extra arguments and an "n" field on every call), but
// it gives the chunk no local to reach it by, so the table only ever sits
// in a register the chunk's own code overwrites before reading. Lua 5.1
// marks a main chunk vararg without that need, so nothing is lost; and a
// table plus its string-keyed part per script run is a cost every EVAL
// paid. Nested functions keep the flag: theirs is a real local ("arg"),
// as in Lua 5.1 with LUA_COMPAT_VARARG.
func noArgTable(p *glua.FunctionProto) {
	p.IsVarArg &^= glua.VarArgNeedsArg
}

// describeSyntaxError words a gopher-lua parse error the way Lua 5.1's
// compiler reports one: "user_script:LINE: MESSAGE near 'TOKEN'".
func describeSyntaxError(err error, src, chunkName string) string {
	var pe *parse.Error
	if !errors.As(err, &pe) {
		return chunkName + ": " + oneLine(err.Error())
	}
	token := pe.Token
	if token == "" || token == "EOF" || pe.Pos.Line == parse.EOF {
		token = "<eof>"
	}
	line := pe.Pos.Line
	if line == parse.EOF || line <= 0 {
		// Lua reports an error at the end of input on the last line.
		line = strings.Count(src, "\n") + 1
	}
	msg := pe.Message
	if msg == "syntax error" || msg == "parse error" {
		msg = "unexpected symbol"
	}
	return fmt.Sprintf("%s:%d: %s near '%s'", chunkName, line, msg, token)
}

// run executes a compiled script with its KEYS and ARGV in database db and
// converts what it returns, or the error it raised, into a reply. Writes
// made before an error stay, as in Redis. A SELECT inside the script moves
// only the script's own connection, and the next script starts in its
// caller's database again, as in Redis 7.
func (r *runner) run(c *compiled, db int, keys, argv []string, readOnly bool, t *tracer) resp.Reply {
	if rep, no := r.refused(c); no {
		return rep
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

// catch calls the function below it on the stack with the arguments above
// it, with raised as the state's Panic, for a PCall: the script itself
// (run) and every pcall inside it (protectCatches).
//
// gopher-lua's PCall swaps in a Panic of its own for the call, whose error
// carries no stack traceback, and then builds the traceback as the error
// reaches it: each of its lines found by walking the frames from the top,
// so at a stack overflow, 16,384 frames deep, 134 million steps (half a
// second natively, more than the whole budget in WebAssembly) for a
// traceback nothing reads. raised hands PCall an error whose traceback is
// already filled in. (An error handler passed to PCall would not help: at
// a stack overflow it has no room to run.)
func (r *runner) catch(L *glua.LState) int {
	L.Panic = r.raiser
	L.Call(L.GetTop()-1, glua.MultRet)
	return L.GetTop()
}

// raised runs where an error is raised, before the stack unwinds. For an
// error no pcall catches, it notes the script line Redis names in its "on
// @user_script:N" suffix.
func (r *runner) raised(L *glua.LState) {
	if !lualib.Catching(L) {
		r.errLine = scriptLine(L, r.chunkRunning())
	}
	panic(&glua.ApiError{Type: glua.ApiErrorRun, Object: L.Get(-1), StackTrace: "(not kept)"})
}

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
	if r.budget.expired && r.budget.why == StoppedByMemory {
		msg = fmt.Sprintf("ERR Script used more than %d MiB of memory; the playground stopped it, as it stops a script that runs too long", MemoryBudget>>20)
	} else if r.budget.expired {
		msg = KilledError
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

// protectCatches makes pcall and xpcall hand the script the message in Lua
// 5.1's words, as the top-level error reply does.
func (r *runner) protectCatches(L *glua.LState) {
	for _, name := range []string{"pcall", "xpcall"} {
		orig := L.GetGlobal(name)
		if name == "xpcall" {
			r.hidden[orig] = true
		}
		L.SetGlobal(name, L.NewFunction(func(L *glua.LState) int {
			// pcall is C code calling Lua: 200 deep, Lua 5.1 refuses,
			// and the pcall itself catches the error.
			if !lualib.EnterCatch(L) {
				return refusedFromC(L, glua.LFalse)
			}
			defer lualib.LeaveCatch(L)
			was := catchMark(L, true)
			r.catches = append(r.catches, caught{base: frameBase(L)})
			defer func() {
				r.catches = r.catches[:len(r.catches)-1]
				catchMark(L, was)
			}()
			if name == "pcall" {
				r.pcall(L)
			} else {
				if h, ok := L.Get(2).(*glua.LFunction); ok {
					// gopher-lua's xpcall checks and calls the handler:
					// it calls the closer, which calls the handler.
					r.catches[len(r.catches)-1].handler = h
					L.Replace(2, r.closer)
				}
				L.Insert(orig, 1)
				L.Call(L.GetTop()-1, glua.MultRet)
			}
			if L.GetTop() >= 2 && L.Get(1) == glua.LFalse {
				switch msg := L.Get(2).(type) {
				case glua.LString:
					L.Replace(2, glua.LString(lua51Wording(string(msg))))
				case *glua.LTable:
					// Redis's pcall hands over a raised error table's text.
					if e, ok := msg.RawGetString("err").(glua.LString); ok {
						L.Replace(2, e)
					}
				}
			}
			return L.GetTop()
		}))
	}
}

// pcall is Lua's pcall(f, ...), run through catch (see there), leaving
// its results on the stack.
func (r *runner) pcall(L *glua.LState) int {
	if L.GetTop() == 0 {
		L.RaiseError("bad argument #1 to 'pcall' (value expected)")
	}
	if v := L.Get(1); v.Type() != glua.LTFunction && L.GetMetaField(v, "__call").Type() != glua.LTFunction {
		L.SetTop(0)
		L.Push(glua.LFalse)
		L.Push(glua.LString("attempt to call a " + v.Type().String() + " value"))
		return 2
	}
	L.Insert(r.catcher, 1)
	if err := L.PCall(L.GetTop()-1, glua.MultRet, r.closer); err != nil {
		L.SetTop(0)
		L.Push(glua.LFalse)
		if ae, ok := err.(*glua.ApiError); ok {
			L.Push(ae.Object)
		} else {
			L.Push(glua.LString(err.Error()))
		}
		return 2
	}
	L.Insert(glua.LTrue, 1)
	return L.GetTop()
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

// budgetCoroutines makes coroutines run under the script's budget. gopher-lua
// gives a new thread a context derived from its parent's, which never ends
// for ours (the budget is not a cancellable context), so a runaway loop in
// a coroutine would never stop. create and wrap are replaced by versions
// that hand each thread the budget itself.
func (r *runner) budgetCoroutines(L *glua.LState) {
	co := L.GetGlobal("coroutine").(*glua.LTable)
	create, running := co.RawGetString("create"), co.RawGetString("resume")
	// Resuming is a call from C: past the limit it fails as Lua 5.1's
	// lua_resume does, with no position (wrap adds one a level).
	resume := L.NewFunction(countedFromC(running, lualib.EnterResume, glua.LFalse))
	newThread := func(L *glua.LState) *glua.LState {
		L.Push(create)
		L.Push(L.Get(1))
		L.Call(1, 1)
		th := L.ToThread(-1)
		th.SetContext(r.budget)
		return th
	}
	// Lua 5.1 makes a coroutine of a Lua function only.
	luaFunction := func(L *glua.LState, name string) {
		if fn, ok := L.Get(1).(*glua.LFunction); !ok || fn.IsG {
			L.RaiseError("bad argument #1 to '%s' (Lua function expected)", name)
		}
	}
	co.RawSetString("create", L.NewFunction(func(L *glua.LState) int {
		luaFunction(L, "create")
		newThread(L)
		return 1
	}))
	co.RawSetString("resume", L.NewFunction(func(L *glua.LState) int {
		if _, ok := L.Get(1).(*glua.LState); !ok {
			L.RaiseError("bad argument #1 to 'resume' (coroutine expected)")
		}
		L.Insert(resume, 1)
		L.Call(L.GetTop()-1, glua.MultRet)
		if L.Get(1) == glua.LFalse {
			if msg, ok := L.Get(2).(glua.LString); ok {
				L.Replace(2, glua.LString(coroutineWording(string(msg))))
			}
		}
		return L.GetTop()
	}))
	co.RawSetString("yield", L.NewFunction(func(L *glua.LState) int {
		if L.Parent == nil {
			// The script's own thread: Redis called it from C.
			L.Error(glua.LString("attempt to yield across metamethod/C-call boundary"), 0)
		}
		return -1 // what gopher-lua's yield returns: the VM yields
	}))
	co.RawSetString("wrap", L.NewFunction(func(L *glua.LState) int {
		luaFunction(L, "wrap")
		th := newThread(L)
		L.Push(L.NewFunction(func(L *glua.LState) int {
			n := L.GetTop()
			L.Push(resume)
			L.Push(th)
			for i := 1; i <= n; i++ {
				L.Push(L.Get(i))
			}
			L.Call(n+1, glua.MultRet)
			if L.Get(n+1) == glua.LFalse {
				// Lua 5.1's wrap raises the coroutine's error in the caller.
				L.Error(L.Get(n+2), 1)
			}
			return L.GetTop() - n - 1
		}))
		return 1
	}))
}

// countedFromC makes a library function that calls Lua (load its reader,
// resume its coroutine) count as a call from C with enter: past the limit
// it answers failed and "C stack overflow", as Lua 5.1's does.
func countedFromC(fn glua.LValue, enter func(*glua.LState) bool, failed glua.LValue) glua.LGFunction {
	return func(L *glua.LState) int {
		if !enter(L) {
			return refusedFromC(L, failed)
		}
		defer lualib.LeaveC(L)
		L.Insert(fn, 1)
		L.Call(L.GetTop()-1, glua.MultRet)
		return L.GetTop()
	}
}

// refusedFromC is what a library function that calls Lua answers when
// Lua 5.1 would refuse the call from C: failed, and "C stack overflow".
func refusedFromC(L *glua.LState, failed glua.LValue) int {
	L.SetTop(0)
	L.Push(failed)
	L.Push(glua.LString("C stack overflow"))
	return 2
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

// loadString is Lua 5.1's loadstring(s [, chunkname]): a chunk that does
// not compile gives nil and Lua 5.1's message, with the chunk named as Lua
// names it ([string "first line..."]).
func loadString(L *glua.LState) int {
	src, ok := lualib.ToString(L.Get(1))
	if !ok {
		got := "no value"
		if L.GetTop() >= 1 {
			got = L.Get(1).Type().String()
		}
		L.RaiseError("bad argument #1 to 'loadstring' (string expected, got %s)", got)
	}
	name := src
	if v, ok := L.Get(2).(glua.LString); ok {
		name = string(v)
	}
	id := chunkID(name)
	fail := func(msg string) int {
		L.Push(glua.LNil)
		L.Push(glua.LString(msg))
		return 2
	}
	if err := luasyntax.Check(id, src); err != nil {
		return fail(err.Error())
	}
	chunk, err := parse.Parse(strings.NewReader(src), id)
	if err != nil {
		return fail(id + ": " + err.Error())
	}
	padForLists(chunk)
	proto, err := glua.Compile(chunk, id)
	if err != nil {
		return fail(id + ": " + err.Error())
	}
	L.Push(L.NewFunctionFromProto(proto))
	return 1
}

// chunkID is Lua 5.1's luaO_chunkid for a chunk loaded from a string: "=x"
// is x, "@file" the file, anything else [string "its first line"], cut to
// fit Lua's 60 bytes with "..." where it was cut.
func chunkID(name string) string {
	const idSize = 60
	if i := strings.IndexByte(name, 0); i >= 0 {
		name = name[:i] // C reads the name up to a NUL
	}
	switch {
	case strings.HasPrefix(name, "="):
		if name = name[1:]; len(name) > idSize-1 {
			name = name[:idSize-1]
		}
		return name
	case strings.HasPrefix(name, "@"):
		name = name[1:]
		if room := idSize - len(" '...' ") - 1; len(name) > room {
			return "..." + name[len(name)-room:]
		}
		return name
	}
	n := strings.IndexAny(name, "\n\r")
	cut := n >= 0
	if !cut {
		n = len(name)
	}
	if room := idSize - len(" [string \"...\"] ") - 1; n > room {
		n, cut = room, true
	}
	if cut {
		return `[string "` + name[:n] + `..."]`
	}
	return `[string "` + name + `"]`
}

// coroutineWording puts gopher-lua's words for a coroutine that cannot be
// resumed in Lua 5.1's.
func coroutineWording(msg string) string {
	switch msg {
	case "can not resume a dead thread":
		return "cannot resume dead coroutine"
	case "can not resume a running thread":
		return "cannot resume non-suspended coroutine"
	}
	return msg
}

// setResp is redis.setresp: with RESP3 on, redis.call hands the script
// RESP3 replies (maps, sets, doubles, booleans, nil for a null) and a
// boolean the script returns is a RESP3 boolean.
func (r *runner) setResp(resp3 bool) {
	r.resp3 = resp3
	r.e.script.Resp3 = resp3
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
