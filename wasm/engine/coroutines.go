// Coroutines under the script's budget, and the calls from C (resume, load's
// reader) that Lua 5.1 keeps to 200 levels.

package engine

import (
	glua "github.com/yuin/gopher-lua"

	"echomq.dev/playground/wasm/lualib"
)

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
