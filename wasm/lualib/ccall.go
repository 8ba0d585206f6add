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
func EnterC(L *lua.LState) bool { return enter(L, 2) }

// enter counts a call from C unless the count, plus slack, reaches
// maxCCalls.
func enter(L *lua.LState, slack int) bool {
	st := stateOf(L)
	if st == nil {
		return true
	}
	if st.cCalls+slack >= maxCCalls {
		return false
	}
	st.cCalls++
	return true
}

// EnterResume is EnterC for coroutine.resume: Lua 5.1's lua_resume checks
// the count before it adds to it, so a coroutine may start one call deeper
// than a function called from C. Pair it with a deferred LeaveC.
func EnterResume(L *lua.LState) bool { return enter(L, 1) }

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

// EnterCatch is EnterC for pcall and xpcall, the calls from C that catch
// errors; pair it with a deferred LeaveCatch.
func EnterCatch(L *lua.LState) bool {
	if !EnterC(L) {
		return false
	}
	stateOf(L).catches++
	return true
}

// LeaveCatch is the end of a call EnterCatch let through.
func LeaveCatch(L *lua.LState) {
	if st := stateOf(L); st != nil && st.catches > 0 {
		st.catches--
	}
	LeaveC(L)
}

// Catching reports whether a pcall or xpcall is under way: an error raised
// now may be caught. Other calls from C (a metamethod, a gsub function)
// catch nothing.
func Catching(L *lua.LState) bool {
	st := stateOf(L)
	return st != nil && st.catches > 0
}
