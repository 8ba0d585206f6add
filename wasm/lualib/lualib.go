// Package lualib gives a gopher-lua state the standard library Redis 7.0
// gives its scripts, where gopher-lua's own differs: Lua 5.1's number
// conversions (tonumber, tostring, "%.14g"), string.format, byte-wise
// string.upper and string.lower, table.concat, Redis's math.random, and the
// libraries Redis adds: bit, struct, cmsgpack and cjson.
//
// Everything here is written from the behaviour of a live redis-server
// 7.0.15 (the tests compare with one), including the wording of errors.
//
// Use:
//
//	L := lua.NewState(...)          // base, table, string and math opened
//	lualib.Open(L)                  // replaces and adds globals, before any
//	                                // __newindex guard on _G goes on
//
// Redis 7.0 keeps math.random's generator and the cjson settings running
// from one script to the next, so nothing needs resetting between scripts;
// a state stands for one server from start to finish.
package lualib

import (
	"math"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// registryKey is where Open keeps the per-state data (the random generator)
// in the Lua registry.
const registryKey = "echomq.dev/playground/wasm/lualib"

// state is what one Lua state's libraries share.
type state struct {
	rand rand48
	null *lua.LUserData // cjson.null, a single sentinel per state

	// stringLimit caps a string the library builds piece by piece (gsub's
	// result), in bytes; 0 is no cap. See SetStringLimit.
	stringLimit int

	// cCalls is how deep calls from C code nest now (see EnterC).
	cCalls int
	// catches is how many of them are a pcall or xpcall (see EnterCatch).
	catches int

	// next's last walk (see baseNext), and what to tell when a walk's
	// order is not Redis's (see OnUnknownOrder).
	walk         nextWalk
	unknownOrder func()
}

// SetStringLimit caps the strings string.gsub builds at n bytes: past it,
// the call raises "string length overflow (the playground caps a string at
// N MiB)", the error the engine gives for .. and string.rep past the same
// cap. Redis has no such cap; a browser tab needs one.
func SetStringLimit(L *lua.LState, n int) {
	if st := stateOf(L); st != nil {
		st.stringLimit = n
	}
}

func stringLimit(L *lua.LState) int {
	if st := stateOf(L); st != nil {
		return st.stringLimit
	}
	return 0
}

// Open installs the libraries in L. The base, table, string and math
// libraries must already be open: Open replaces some of their functions
// (tonumber, tostring, string.format, string.upper, string.lower,
// table.concat, math.random, math.randomseed), makes the rest of the
// string library read numbers as Lua 5.1 does, and adds the globals bit,
// struct, cmsgpack and cjson.
func Open(L *lua.LState) {
	st := &state{rand: newRand48()}
	st.null = L.NewUserData()
	ud := L.NewUserData()
	ud.Value = st
	L.G.Registry.RawSetString(registryKey, ud)

	openBase(L, st)
	openString(L)
	openTable(L)
	openMath(L, st)
	L.SetGlobal("bit", bitTable(L))
	L.SetGlobal("struct", structTable(L))
	L.SetGlobal("cmsgpack", msgpackTable(L))
	L.SetGlobal("cjson", cjsonModule(L, st))
}

// OpenGopherLibs opens gopher-lua's own libraries of the given names
// (lua.BaseLibName, TabLibName, StringLibName, MathLibName,
// CoroutineLibName), in order, in a state made with SkipOpenLibs: what a
// state needs before Open.
func OpenGopherLibs(L *lua.LState, names ...string) {
	open := map[string]lua.LGFunction{
		lua.BaseLibName: lua.OpenBase, lua.TabLibName: lua.OpenTable, lua.StringLibName: lua.OpenString,
		lua.MathLibName: lua.OpenMath, lua.CoroutineLibName: lua.OpenCoroutine,
	}
	for _, name := range names {
		L.Push(L.NewFunction(open[name]))
		L.Push(lua.LString(name))
		L.Call(1, 0)
	}
}

// ResetRandom puts math.random's generator back where a freshly started
// redis-server has it, for an engine that stands for a new server.
func ResetRandom(L *lua.LState) {
	if st := stateOf(L); st != nil {
		st.rand = newRand48()
	}
}

func stateOf(L *lua.LState) *state {
	ud, ok := L.G.Registry.RawGetString(registryKey).(*lua.LUserData)
	if !ok {
		return nil
	}
	st, _ := ud.Value.(*state)
	return st
}

// setFuncs sets each function as a field of t.
func setFuncs(L *lua.LState, t *lua.LTable, funcs map[string]lua.LGFunction) {
	for name, fn := range funcs {
		t.RawSetString(name, L.NewFunction(fn))
	}
}

// libFunc is a library function and its name. A list of them costs the
// module less than a map literal of the same functions (a map literal is
// code that builds the map, a list is data): a few KB of brotli each.
type libFunc struct {
	name string
	fn   lua.LGFunction
}

// setList sets each function of the list as a field of t.
func setList(L *lua.LState, t *lua.LTable, funcs []libFunc) {
	for _, f := range funcs {
		t.RawSetString(f.name, L.NewFunction(f.fn))
	}
}

// ---- Argument checks, worded as Lua 5.1's lauxlib words them ----

// calledAs is the name Lua 5.1 would give the running Go function in an
// argument error: the name it was called by, or "?".
func calledAs(L *lua.LState) string {
	dbg, ok := L.GetStack(0)
	if !ok {
		return "?"
	}
	if _, err := L.GetInfo("n", dbg, lua.LNil); err != nil {
		return "?"
	}
	switch name := dbg.Name; {
	case name == "" || name == "(anonymous)" || name == "main chunk" || strings.HasPrefix(name, "<"):
		return "?"
	default:
		return name
	}
}

// argError raises "bad argument #n to 'f' (msg)".
func argError(L *lua.LState, n int, msg string) {
	L.RaiseError("bad argument #%d to '%s' (%s)", n, calledAs(L), msg)
}

// typeName is luaL_typename: the type of argument n, "no value" past the
// last argument.
func typeName(L *lua.LState, n int) string {
	if n > L.GetTop() {
		return "no value"
	}
	return L.Get(n).Type().String()
}

func typeError(L *lua.LState, n int, want string) {
	argError(L, n, want+" expected, got "+typeName(L, n))
}

// isNone reports whether argument n is absent or nil (luaL_opt's test).
func isNone(L *lua.LState, n int) bool {
	return n > L.GetTop() || L.Get(n) == lua.LNil
}

// cString is s as C code sees a Lua string: up to its first NUL.
func cString(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}

// toNumber is lua_tonumber: a number, or a string that converts.
func toNumber(v lua.LValue) (float64, bool) {
	switch v := v.(type) {
	case lua.LNumber:
		return float64(v), true
	case lua.LString:
		return StringToNumber(cString(string(v)))
	}
	return 0, false
}

// ToString is lua_tolstring, for the engine's own library functions.
func ToString(v lua.LValue) (string, bool) { return toString(v) }

// toString is lua_tolstring: a string, or a number printed with "%.14g".
func toString(v lua.LValue) (string, bool) {
	switch v := v.(type) {
	case lua.LString:
		return string(v), true
	case lua.LNumber:
		return FormatNumber(float64(v)), true
	}
	return "", false
}

// checkNumber is luaL_checknumber.
func checkNumber(L *lua.LState, n int) float64 {
	f, ok := toNumber(L.Get(n))
	if !ok {
		typeError(L, n, "number")
	}
	return f
}

// checkInteger is luaL_checkinteger: the number truncated as C's cast to
// a 64-bit integer does on x86-64.
func checkInteger(L *lua.LState, n int) int64 {
	return CInt64(checkNumber(L, n))
}

// checkInt is luaL_checkint: luaL_checkinteger cut to a C int.
func checkInt(L *lua.LState, n int) int32 {
	return int32(checkInteger(L, n))
}

func optInteger(L *lua.LState, n int, def int64) int64 {
	if isNone(L, n) {
		return def
	}
	return checkInteger(L, n)
}

func optInt(L *lua.LState, n int, def int32) int32 {
	if isNone(L, n) {
		return def
	}
	return checkInt(L, n)
}

// checkString is luaL_checklstring.
func checkString(L *lua.LState, n int) string {
	s, ok := toString(L.Get(n))
	if !ok {
		typeError(L, n, "string")
	}
	return s
}

func optString(L *lua.LState, n int, def string) string {
	if isNone(L, n) {
		return def
	}
	return checkString(L, n)
}

func checkAny(L *lua.LState, n int) {
	if n > L.GetTop() {
		argError(L, n, "value expected")
	}
}

// CInt64 converts as x86-64's cvttsd2si does: toward zero, with NaN and
// values out of range becoming the minimum int64. Go leaves this case to
// the platform (wasm answers differently), so it is spelled out. Redis's C
// casts a double so wherever it does: here, and when the engine turns a
// script's number into an integer reply (`return 1/0` replies
// -9223372036854775808).
func CInt64(f float64) int64 {
	if f != f || f >= 9223372036854775808.0 || f < -9223372036854775808.0 {
		return math.MinInt64
	}
	return int64(f)
}

// cInt32 is C's (int) of a double on x86-64.
func cInt32(f float64) int32 {
	if f != f || f >= 2147483648.0 || f <= -2147483649.0 {
		return math.MinInt32
	}
	return int32(f)
}

// cUint64 is C's (unsigned long) of a double as gcc compiles it for
// x86-64: values below 2^63 go through the signed conversion (so -1
// becomes 0xffffffffffffffff), larger ones are offset by 2^63 first.
func cUint64(f float64) uint64 {
	if f >= 9223372036854775808.0 {
		return uint64(CInt64(f-9223372036854775808.0)) ^ (1 << 63)
	}
	return uint64(CInt64(f))
}

// luaLen is lua_objlen of a table: its border, without __len.
func luaLen(t *lua.LTable) int { return t.Len() }
