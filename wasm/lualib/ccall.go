package lualib

import lua "github.com/yuin/gopher-lua"

// maxCCalls is Lua 5.1's LUAI_MAXCCALLS: how deep calls made from C code
// (pcall, a gsub replacement function, a sort comparator) may nest before
// Lua raises "C stack overflow". A script starts one deep: Redis called
// it from C.
const maxCCalls = 200

// EnterC notes that C code is about to call a Lua function, as pcall does,
// and reports false, noting nothing, where Lua 5.1 would raise "C stack
// overflow" instead. Each EnterC that reports true is paired with LeaveC,
// deferred, so that an error unwinding through the call counts it out.
func EnterC(L *lua.LState) bool {
	st := stateOf(L)
	if st == nil {
		return true
	}
	if st.cCalls+2 >= maxCCalls {
		return false
	}
	st.cCalls++
	return true
}

// LeaveC is the end of a call EnterC let through.
func LeaveC(L *lua.LState) {
	if st := stateOf(L); st != nil && st.cCalls > 0 {
		st.cCalls--
	}
}

// callFromC calls fn with nargs arguments (pushed after it) for nret
// results, as C code calls it in Lua 5.1: past maxCCalls it raises "C
// stack overflow", with no position, as Lua raises it inside a C function.
func callFromC(L *lua.LState, nargs, nret int) {
	if !EnterC(L) {
		L.Error(lua.LString("C stack overflow"), 0)
	}
	defer LeaveC(L)
	L.Call(nargs, nret)
}

// InCCall reports whether a call from C code (a pcall, most often) is under
// way: an error raised now may be caught.
func InCCall(L *lua.LState) bool {
	st := stateOf(L)
	return st != nil && st.cCalls > 0
}
