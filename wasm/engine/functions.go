package engine

import (
	"runtime"
	"slices"
	"strings"

	"github.com/alicebob/miniredis/v2/server"
	glua "github.com/yuin/gopher-lua"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/lualib"
	"echomq.dev/playground/wasm/luarun"
	"echomq.dev/playground/wasm/rdb"
	"echomq.dev/playground/wasm/resp"
	"echomq.dev/playground/wasm/sdsargs"
)

// Redis 7.0's functions: libraries of Lua functions loaded with FUNCTION
// LOAD and called with FCALL and FCALL_RO. They run in the runner's Lua
// state, under the same budget and with the same redis.* API as EVAL's
// scripts (a function is a compiled whose fn is its callback, see run);
// what is theirs alone is here: the registry of libraries, the load-time
// sandbox, and the FUNCTION subcommands. The DUMP payload is wasm/rdb's
// (functions_rdb.go there).

// functionChunk is what Redis 7 calls a library's code in its errors.
const functionChunk = "user_function"

// library is one loaded library: its name, as its first line gives it,
// its code, as it was loaded (FUNCTION LIST WITHCODE and DUMP give it
// back), and its functions in the order it registered them.
type library struct {
	name string
	code string
	fns  []*function
}

// function is one registered function: its name as registered (the
// compiled's sha, which the error suffix "script: <name>" reads), its
// description if it was given one, and its flags.
type function struct {
	c       *compiled
	lib     *library
	desc    string
	hasDesc bool
	flags   []string // the known flags it declared, in functionFlags' order
}

func (f *function) name() string { return f.c.sha }

// functionFlags are the flags a function may declare, in the order FUNCTION
// LIST names them. Only no-writes changes anything in a single-node
// playground without a memory limit; the others are kept and listed.
var functionFlags = []string{"no-writes", "allow-oom", "allow-stale", "no-cluster", "allow-cross-slot-keys"}

// registry is a set of libraries: by name (case sensitive, as Redis files
// them), and their functions by lower-case name (FCALL finds a function in
// any case).
type registry struct {
	libs map[string]*library
	fns  map[string]*function
}

func newRegistry() registry {
	return registry{libs: map[string]*library{}, fns: map[string]*function{}}
}

// functions is the runner's libraries, and the load-time state.
type functions struct {
	registry
	// env is the globals every library's code sees (see libraryEnv), and
	// envMeta its metatable, whose __index is the load-time API while a
	// library loads and the runner's globals otherwise.
	env, envMeta       *glua.LTable
	loadAPI, runGlobal glua.LValue
	// loading collects the functions the library being loaded registers.
	loading *[]*function
}

// flushFunctions deletes every library, as FUNCTION FLUSH does.
func (r *runner) flushFunctions() {
	r.funcs.registry = newRegistry()
}

// functionCommand serves FUNCTION and its subcommands for a connection.
// Redis has checked the subcommand and its arity before (see do).
func (e *Engine) functionCommand(peer *server.Peer, args []string) resp.Reply {
	r := e.runner
	sub, rest := ascii.Upper(args[1]), args[2:]
	switch sub {
	case "HELP":
		return functionHelp()
	case "FLUSH":
		if len(rest) > 1 {
			return subcommandSyntax(args[1], "FUNCTION")
		}
		if len(rest) == 1 && !isFlushMode(rest[0]) {
			return resp.ErrorReply("ERR FUNCTION FLUSH only supports SYNC|ASYNC option")
		}
		r.flushFunctions()
		return resp.OK()
	case "LOAD":
		replace := false
		for _, o := range rest[:len(rest)-1] {
			if !ascii.EqualFold(o, "REPLACE") {
				return resp.Errorf("ERR Unknown option given: %s", o)
			}
			replace = true
		}
		var clash map[string]*library
		if !replace {
			clash = r.funcs.libs
		}
		lib, msg := r.loadLibrary(rest[len(rest)-1], clash)
		if lib == nil {
			return resp.ErrorReply("ERR " + msg)
		}
		if msg := r.funcs.add([]*library{lib}, replace); msg != "" {
			return resp.ErrorReply("ERR " + msg)
		}
		return resp.BulkReply(lib.name)
	case "DELETE":
		lib := r.funcs.libs[rest[0]]
		if lib == nil {
			return resp.ErrorReply("ERR Library not found")
		}
		r.funcs.drop(lib)
		return resp.OK()
	case "LIST":
		return forProtocol(r.listLibraries(rest), peer.Resp3)
	case "STATS":
		n := 0
		for _, lib := range r.funcs.libs {
			n += len(lib.fns)
		}
		lua := resp.Reply{Kind: resp.Map, Elems: []resp.Reply{resp.BulkReply("libraries_count"), resp.IntReply(int64(len(r.funcs.libs))),
			resp.BulkReply("functions_count"), resp.IntReply(int64(n))}}
		// A function never outlives the command that runs it here, so
		// none is running when this is heard.
		return forProtocol(resp.Reply{Kind: resp.Map, Elems: []resp.Reply{resp.BulkReply("running_script"), resp.NilReply(),
			resp.BulkReply("engines"), {Kind: resp.Map, Elems: []resp.Reply{resp.BulkReply("LUA"), lua}}}}, peer.Resp3)
	case "KILL":
		return resp.ErrorReply(notBusyError)
	case "DUMP":
		return resp.BulkReply(r.dumpFunctions())
	case "RESTORE":
		return r.restoreFunctions(args[1], rest)
	}
	return resp.Errorf("ERR unknown subcommand '%s'. Try FUNCTION HELP.", args[1])
}

// subcommandSyntax is Redis's reply to a subcommand whose arguments its
// own code refuses, past the arity the command table checked.
func subcommandSyntax(sub, cmd string) resp.Reply {
	return resp.Errorf("ERR unknown subcommand or wrong number of arguments for '%s'. Try %s HELP.", sub, cmd)
}

// add adds libs (loaded, not yet registered) to the registry, in one step
// or not at all: a library of the same name is an error unless replace is
// set, when it goes; a function of the same name (in any case) in a
// library that stays is always an error. It returns the error, "" for
// none.
func (g *registry) add(libs []*library, replace bool) string {
	going := map[*library]bool{}
	for _, lib := range libs {
		if old := g.libs[lib.name]; old != nil {
			if !replace {
				return "Library " + lib.name + " already exists" // RESTORE's words: LOAD found it before
			}
			going[old] = true
		}
	}
	for _, lib := range libs {
		for _, f := range lib.fns {
			if old := g.fns[ascii.Lower(f.name())]; old != nil && !going[old.lib] {
				return "Function " + f.name() + " already exists"
			}
		}
	}
	for old := range going {
		g.drop(old)
	}
	for _, lib := range libs {
		g.libs[lib.name] = lib
		for _, f := range lib.fns {
			g.fns[ascii.Lower(f.name())] = f
		}
	}
	return ""
}

// drop deletes lib and its functions.
func (g *registry) drop(lib *library) {
	delete(g.libs, lib.name)
	for _, f := range lib.fns {
		if g.fns[ascii.Lower(f.name())] == f {
			delete(g.fns, ascii.Lower(f.name()))
		}
	}
}

// sorted is the registry's libraries by name. Redis lists them in
// its hash table's order, which a random seed picks at start-up: no order
// is Redis's, and this one is repeatable.
func (g *registry) sorted() []*library {
	libs := make([]*library, 0, len(g.libs))
	for _, lib := range g.libs {
		libs = append(libs, lib)
	}
	slices.SortFunc(libs, func(a, b *library) int { return strings.Compare(a.name, b.name) })
	return libs
}

// listLibraries is FUNCTION LIST [LIBRARYNAME pattern] [WITHCODE], in
// RESP3's shapes (forProtocol gives RESP2 its arrays). The pattern is
// matched without regard to case, as Redis matches it.
func (r *runner) listLibraries(opts []string) resp.Reply {
	var pattern *string
	withCode := false
	for i := 0; i < len(opts); i++ {
		switch o := opts[i]; {
		case ascii.EqualFold(o, "WITHCODE") && !withCode:
			withCode = true
		case ascii.EqualFold(o, "LIBRARYNAME") && pattern == nil:
			if i+1 >= len(opts) {
				return resp.ErrorReply("ERR library name argument was not given")
			}
			i++
			pattern = &opts[i]
		default:
			return resp.Errorf("ERR Unknown argument %s", o)
		}
	}
	out := []resp.Reply{}
	for _, lib := range r.funcs.sorted() {
		if pattern != nil && !globMatch(ascii.Lower(*pattern), ascii.Lower(lib.name)) {
			continue
		}
		fns := make([]resp.Reply, len(lib.fns))
		for i, f := range lib.fns {
			desc := resp.NilReply()
			if f.hasDesc {
				desc = resp.BulkReply(f.desc)
			}
			flags := resp.Reply{Kind: resp.Set, Elems: []resp.Reply{}}
			for _, fl := range f.flags {
				flags.Elems = append(flags.Elems, resp.StatusReply(fl))
			}
			fns[i] = resp.Reply{Kind: resp.Map, Elems: []resp.Reply{resp.BulkReply("name"), resp.BulkReply(f.name()),
				resp.BulkReply("description"), desc, resp.BulkReply("flags"), flags}}
		}
		m := []resp.Reply{resp.BulkReply("library_name"), resp.BulkReply(lib.name), resp.BulkReply("engine"), resp.BulkReply("LUA"),
			resp.BulkReply("functions"), resp.ArrayReply(fns...)}
		if withCode {
			m = append(m, resp.BulkReply("library_code"), resp.BulkReply(lib.code))
		}
		out = append(out, resp.Reply{Kind: resp.Map, Elems: m})
	}
	return resp.ArrayReply(out...)
}

// fcall serves FCALL and FCALL_RO for the caller's connection: the
// function, then the number of keys, as Redis reads them.
func (r *runner) fcall(caller *server.Peer, cmd string, args []string) resp.Reply {
	f := r.funcs.fns[ascii.Lower(args[0])]
	if f == nil {
		return resp.ErrorReply("ERR Function not found")
	}
	n, ok := parseRedisInt(args[1])
	switch {
	case !ok:
		return resp.ErrorReply("ERR Bad number of keys provided")
	case n < 0:
		return resp.ErrorReply("ERR Number of keys can't be negative")
	case n > int64(len(args)-2):
		return resp.ErrorReply("ERR Number of keys can't be greater than number of args")
	}
	noWrites := f.c.flags.noWrites
	ro := cmd == "FCALL_RO"
	if ro && !noWrites {
		return resp.ErrorReply("ERR Can not execute a script with write flag using *_ro command.")
	}
	return forProtocol(r.run(f.c, r.e.dbOf[caller], args[2:2+n], args[2+n:], ro || noWrites, nil), caller.Resp3)
}

// libraryMeta reads a library's first line, "#!lua name=<name>", as Redis
// 7.0 does: split as sdssplitargs splits, the engine after "#!", then
// options of which name= (in any case) is the only one. body is the code
// to compile: the first line emptied, so that lines keep their numbers.
func libraryMeta(code string) (engine, name, body, msg string) {
	if !strings.HasPrefix(code, "#!") {
		return "", "", "", "Missing library metadata"
	}
	line, rest, found := strings.Cut(code, "\n")
	if !found {
		return "", "", "", "Invalid library metadata"
	}
	parts, err := sdsargs.Split(line)
	if err != nil || len(parts) == 0 {
		return "", "", "", "Invalid library metadata"
	}
	engine = parts[0][min(2, len(parts[0])):]
	named := false
	for _, p := range parts[1:] {
		if len(p) < 5 || !ascii.EqualFold(p[:5], "name=") {
			return "", "", "", "Invalid metadata value given: " + p
		}
		if named {
			return "", "", "", "Invalid metadata value, name argument was given multiple times"
		}
		name, named = p[5:], true
	}
	if !named {
		return "", "", "", "Library name was not given"
	}
	return engine, name, "\n" + rest, ""
}

// validName is Redis's rule for a library's or a function's name.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

const errBadName = "Library names can only contain letters, numbers, or underscores(_) and must be at least one character long"

// loadLibrary reads, compiles and runs a library's code, and returns the
// library with the functions it registered, not yet in the registry, or
// why it cannot be loaded (without "ERR "): Redis's checks in Redis's
// order. A library of the same name in clash is one of them: the
// registry's for a FUNCTION LOAD without REPLACE, the payload's libraries
// so far for a RESTORE.
func (r *runner) loadLibrary(code string, clash map[string]*library) (*library, string) {
	engine, name, body, msg := libraryMeta(code)
	switch {
	case msg != "":
		return nil, msg
	case !validName(name):
		return nil, errBadName
	case !ascii.EqualFold(engine, "lua"):
		return nil, "Engine '" + engine + "' not found"
	case clash[name] != nil:
		return nil, "Library '" + name + "' already exists"
	}
	if msg := r.refusedLibrary(code); msg != "" {
		return nil, msg
	}
	proto, msg := luarun.Compile(functionChunk, body)
	if proto == nil {
		return nil, "Error compiling function: " + msg
	}
	lib := &library{name: name, code: code}
	if msg := r.registerFunctions(lib, proto); msg != "" {
		return nil, "Error registering functions: " + msg
	}
	if len(lib.fns) == 0 {
		return nil, "No functions registered"
	}
	for _, f := range lib.fns {
		f.lib, f.c.src = lib, code
	}
	return lib, ""
}

// registerFunctions runs a library's code, under the budget, in the
// load-time sandbox: its globals are redis.register_function, redis.log,
// the LOG_ levels and the version, and nothing else (not even type or
// pairs), as in Redis 7.0. It returns the error the code raised, "" for
// none.
func (r *runner) registerFunctions(lib *library, proto *glua.FunctionProto) string {
	L := r.L
	env := r.libraryEnv()
	fn := L.NewFunctionFromProto(proto)
	fn.Env = env
	r.funcs.envMeta.RawSetString("__index", r.funcs.loadAPI)
	r.funcs.loading = &lib.fns
	r.budget.arm(r.workFor(), r.lastResortFor())
	defer func() {
		if r.budget.expired {
			r.stopped = r.budget.why
		}
		r.budget.disarm()
		r.funcs.envMeta.RawSetString("__index", r.funcs.runGlobal)
		r.funcs.loading = nil
		L.SetTop(0)
		if r.budget.expired {
			runtime.GC()
		}
	}()
	L.Push(r.catcher)
	L.Push(fn)
	err := L.PCall(1, 0, nil)
	switch {
	case r.budget.expired:
		return "ERR FUNCTION LOAD timeout"
	case err == nil:
		return ""
	}
	if ae, ok := err.(*glua.ApiError); ok {
		return r.errorMessage(ae.Object)
	}
	return "ERR " + err.Error()
}

// libraryEnv is the globals table of every library's code, made on first
// use in the runner's state: an empty table no code can write to (every
// global store is refused, see luavm.go), whose reads go to its metatable's
// __index. While a library loads, that is the load-time API, a table with
// redis alone; otherwise, the runner's globals, which hold no KEYS or ARGV
// while a function runs (see run).
func (r *runner) libraryEnv() *glua.LTable {
	if r.funcs.env != nil {
		return r.funcs.env
	}
	L := r.L
	globalMeta := L.GetMetatable(L.G.Global).(*glua.LTable)
	api := L.NewTable()
	redis := L.NewTable()
	full := L.G.Global.RawGetString("redis").(*glua.LTable)
	for _, k := range []string{"log", "LOG_DEBUG", "LOG_VERBOSE", "LOG_NOTICE", "LOG_WARNING", "REDIS_VERSION", "REDIS_VERSION_NUM"} {
		redis.RawSetString(k, full.RawGetString(k))
	}
	redis.RawSetString("register_function", L.NewFunction(r.registerFunction))
	L.SetMetatable(redis, globalMeta)
	L.SetMetatable(api, globalMeta)
	api.RawSetString("redis", redis)
	set := L.G.Registry.RawGetString(readonlyKey).(*glua.LTable)
	set.RawSet(redis, glua.LTrue)
	set.RawSet(api, glua.LTrue)
	r.funcs.loadAPI = api
	r.funcs.runGlobal = L.G.Global
	r.funcs.env, r.funcs.envMeta = L.NewTable(), L.NewTable()
	r.funcs.envMeta.RawSetString("__index", r.funcs.runGlobal)
	L.SetMetatable(r.funcs.env, r.funcs.envMeta)
	set.RawSet(r.funcs.env, glua.LTrue)
	set.RawSet(r.funcs.envMeta, glua.LTrue)
	return r.funcs.env
}

// registerFunction is redis.register_function, at load time: (name,
// callback), or one table of named arguments function_name, callback,
// flags and description. Its errors are raised as Redis raises them, as
// error replies without a position.
func (r *runner) registerFunction(L *glua.LState) int {
	const api = "redis.register_function"
	f := &function{c: &compiled{}}
	var bad string
	if r.funcs.loading == nil {
		// A function that kept the load-time table calls it at run time.
		bad = api + " can only be called on FUNCTION LOAD command"
	} else if L.GetTop() == 1 {
		bad = namedArguments(L, f)
	} else if L.GetTop() != 2 {
		bad = "wrong number of arguments to " + api
	} else if name, ok := luaString(L.Get(1)); !ok {
		bad = "first argument to " + api + " must be a string"
	} else if f.c.fn, _ = L.Get(2).(*glua.LFunction); f.c.fn == nil {
		bad = "second argument to " + api + " must be a function"
	} else {
		f.c.sha = name
	}
	if bad == "" && !validName(f.name()) {
		bad = errBadName
	}
	if bad == "" {
		for _, g := range *r.funcs.loading {
			if g.name() == f.name() {
				bad = "Function already exists in the library"
			}
		}
	}
	if bad != "" {
		raiseRedisError(L, "ERR "+bad)
	}
	f.c.flags.shebang, f.c.function = true, true
	*r.funcs.loading = append(*r.funcs.loading, f)
	return 0
}

// namedArguments reads register_function's one argument, a table of named
// arguments, into f, and says what is wrong with it ("" for nothing).
func namedArguments(L *glua.LState, f *function) string {
	const api = "redis.register_function"
	t, ok := L.Get(1).(*glua.LTable)
	if !ok {
		return "calling " + api + " with a single argument is only applicable to Lua table (representing named arguments)."
	}
	hasName := false
	for k, v := t.Next(glua.LNil); k != glua.LNil; k, v = t.Next(k) {
		key, _ := k.(glua.LString)
		switch key {
		case "function_name":
			if f.c.sha, hasName = luaString(v); !hasName {
				return "function_name argument given to " + api + " must be a string"
			}
		case "description":
			if f.desc, f.hasDesc = luaString(v); !f.hasDesc {
				return "description argument given to " + api + " must be a string"
			}
		case "callback":
			if f.c.fn, _ = v.(*glua.LFunction); f.c.fn == nil {
				return "callback argument given to " + api + " must be a function"
			}
		case "flags":
			ft, ok := v.(*glua.LTable)
			if !ok {
				return "flags argument to " + api + " must be a table representing function flags"
			}
			var seen [8]bool
			for fk, fv := ft.Next(glua.LNil); fk != glua.LNil; fk, fv = ft.Next(fk) {
				i := -1
				if s, ok := fv.(glua.LString); ok {
					for j, name := range functionFlags {
						if ascii.EqualFold(name, string(s)) {
							i = j
						}
					}
				}
				if i < 0 {
					return "unknown flag given"
				}
				seen[i] = true
			}
			f.flags = nil
			for i, name := range functionFlags {
				if seen[i] {
					f.flags = append(f.flags, name)
				}
			}
			f.c.flags.noWrites, f.c.flags.allowOOM = seen[0], seen[1]
		default:
			return "unknown argument given to " + api
		}
	}
	switch {
	case !hasName:
		return api + " must get a function name argument"
	case f.c.fn == nil:
		return api + " must get a callback argument"
	}
	return ""
}

// luaString is v as lua_tolstring reads it: a string, or a number's text.
func luaString(v glua.LValue) (string, bool) {
	switch v := v.(type) {
	case glua.LString:
		return string(v), true
	case glua.LNumber:
		return lualib.FormatNumber(float64(v)), true
	}
	return "", false
}

// dumpFunctions is FUNCTION DUMP's payload: every library, by name.
func (r *runner) dumpFunctions() string {
	libs := r.funcs.sorted()
	codes := make([]string, len(libs))
	for i, lib := range libs {
		codes[i] = lib.code
	}
	return rdb.DumpFunctions(codes)
}

// restoreFunctions is FUNCTION RESTORE payload [FLUSH|APPEND|REPLACE]:
// every library of the payload is loaded as FUNCTION LOAD loads one, and
// then they are added together or not at all.
func (r *runner) restoreFunctions(sub string, rest []string) resp.Reply {
	if len(rest) > 2 {
		return subcommandSyntax(sub, "FUNCTION")
	}
	policy := "APPEND"
	if len(rest) == 2 {
		policy = ascii.Upper(rest[1])
		if policy != "FLUSH" && policy != "APPEND" && policy != "REPLACE" {
			return resp.ErrorReply("ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.")
		}
	}
	codes, err := rdb.LoadFunctions(rest[0])
	if err != nil {
		return resp.ErrorReply(err.Error())
	}
	// The payload's libraries load one by one, as FUNCTION LOAD loads
	// them, into a registry of their own, which then joins the runner's.
	restored := newRegistry()
	libs := make([]*library, 0, len(codes))
	for _, code := range codes {
		lib, msg := r.loadLibrary(code, restored.libs)
		if lib == nil {
			return resp.ErrorReply("ERR " + msg)
		}
		if msg := restored.add([]*library{lib}, false); msg != "" {
			return resp.ErrorReply("ERR " + msg)
		}
		libs = append(libs, lib)
	}
	if policy == "FLUSH" {
		r.flushFunctions()
	}
	if msg := r.funcs.add(libs, policy == "REPLACE"); msg != "" {
		return resp.ErrorReply("ERR " + msg)
	}
	return resp.OK()
}
