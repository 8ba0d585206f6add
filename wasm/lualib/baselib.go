package lualib

import (
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// openBase replaces tonumber, tostring, pairs, next, assert, unpack,
// select and setmetatable.
func openBase(L *lua.LState, st *state) {
	orig := L.GetGlobal("tostring")
	L.SetGlobal("tonumber", L.NewFunction(baseToNumber))
	L.SetGlobal("unpack", L.NewFunction(baseUnpack))
	L.SetGlobal("select", L.NewFunction(baseSelect))
	L.SetGlobal("pairs", L.NewFunction(basePairs))
	L.SetGlobal("next", L.NewFunction(baseNext))
	L.SetGlobal("assert", L.NewFunction(baseAssert))
	L.SetGlobal("setmetatable", L.NewFunction(baseSetmetatable))
	L.SetGlobal("tostring", L.NewFunction(func(L *lua.LState) int {
		return baseToString(L, st, orig)
	}))
}

// baseToNumber is Lua 5.1's tonumber: base 10 converts as the language
// does (StringToNumber), any other base from 2 to 36 as C's strtoul, with
// only white space after the digits.
func baseToNumber(L *lua.LState) int {
	base := optInt(L, 2, 10)
	if base == 10 {
		checkAny(L, 1)
		if f, ok := toNumber(L.Get(1)); ok {
			L.Push(lua.LNumber(f))
			return 1
		}
		L.Push(lua.LNil)
		return 1
	}
	s := cString(checkString(L, 1))
	if base < 2 || base > 36 {
		argError(L, 2, "base out of range")
	}
	if v, n := strtoul(s, int(base)); n > 0 && skipSpace(s, n) == len(s) {
		L.Push(lua.LNumber(float64(v)))
		return 1
	}
	L.Push(lua.LNil)
	return 1
}

// baseToString is Lua 5.1's tostring: __tostring first, numbers with
// "%.14g", and cjson.null as the NULL light userdata Redis prints.
func baseToString(L *lua.LState, st *state, orig lua.LValue) int {
	checkAny(L, 1)
	v := L.Get(1)
	if mm := L.GetMetaField(v, "__tostring"); mm != lua.LNil {
		L.Push(mm)
		L.Push(v)
		callFromC(L, 1, 1)
		return 1
	}
	switch v := v.(type) {
	case lua.LNumber:
		L.Push(lua.LString(FormatNumber(float64(v))))
		return 1
	case lua.LString:
		L.Push(v)
		return 1
	case *lua.LUserData:
		if v == st.null {
			L.Push(lua.LString("userdata: (nil)"))
			return 1
		}
	}
	L.Push(orig)
	L.Push(v)
	L.Call(1, 1)
	return 1
}

// openTable replaces table.concat, insert, remove, maxn and sort
// (tablib.go) and adds the Lua 5.1 functions gopher-lua
// lacks (foreach, foreachi, setn).
func openTable(L *lua.LState) {
	t, ok := L.GetGlobal("table").(*lua.LTable)
	if !ok {
		return
	}
	setFuncs(L, t, map[string]lua.LGFunction{
		"concat":   tableConcat,
		"insert":   tableInsert,
		"sort":     tableSort,
		"remove":   tableRemove,
		"maxn":     tableMaxn,
		"foreach":  tableForeach,
		"foreachi": tableForeachi,
		"setn": func(L *lua.LState) int {
			L.RaiseError("'setn' is obsolete")
			return 0
		},
	})
}

func checkTable(L *lua.LState, n int) *lua.LTable {
	t, ok := L.Get(n).(*lua.LTable)
	if !ok {
		typeError(L, n, "table")
	}
	return t
}

func checkFunction(L *lua.LState, n int) lua.LValue {
	f, ok := L.Get(n).(*lua.LFunction)
	if !ok {
		typeError(L, n, "function")
	}
	return f
}

// tableConcat is Lua 5.1's table.concat: numbers join as "%.14g".
func tableConcat(L *lua.LState) int {
	sep := optString(L, 2, "")
	t := checkTable(L, 1)
	i := int64(optInt(L, 3, 1))
	var last int64
	if isNone(L, 4) {
		last = int64(luaLen(t))
	} else {
		last = int64(checkInt(L, 4))
	}
	var b strings.Builder
	m := meter{L: L} // a huge table, or a big string many times over
	for ; i <= last; i++ {
		v := t.RawGetInt(int(i))
		s, ok := toString(v)
		if !ok {
			L.RaiseError("invalid value (%s) at index %d in table for 'concat'", v.Type().String(), i)
		}
		m.spend(1 + len(s) + len(sep))
		b.WriteString(s)
		if i != last {
			b.WriteString(sep)
		}
	}
	L.Push(lua.LString(b.String()))
	return 1
}

func tableForeach(L *lua.LState) int {
	t := checkTable(L, 1)
	f := checkFunction(L, 2)
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		if foreachStops(L, f, k, v) {
			return 1
		}
	}
	return 0
}

func tableForeachi(L *lua.LState) int {
	t := checkTable(L, 1)
	f := checkFunction(L, 2)
	n := luaLen(t)
	for i := 1; i <= n; i++ {
		if foreachStops(L, f, lua.LNumber(i), t.RawGetInt(i)) {
			return 1
		}
	}
	return 0
}

// foreachStops calls f(k, v) for table.foreach and table.foreachi: a
// result other than nil stops the walk and is left on the stack as the
// walk's result; nil is popped and the walk goes on.
func foreachStops(L *lua.LState, f, k, v lua.LValue) bool {
	L.Push(f)
	L.Push(k)
	L.Push(v)
	callFromC(L, 2, 1)
	if L.Get(-1) != lua.LNil {
		return true
	}
	L.Pop(1)
	return false
}

// baseAssert is assert(v [, message]): a number message is its text, and
// the message gets the caller's position, as luaL_error gives it.
func baseAssert(L *lua.LState) int {
	checkAny(L, 1)
	if !lua.LVAsBool(L.Get(1)) {
		L.RaiseError("%s", optString(L, 2, "assertion failed!"))
	}
	return L.GetTop()
}
