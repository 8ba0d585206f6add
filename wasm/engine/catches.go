// The catches: pcall and xpcall as Lua 5.1 runs them, and the PCall every
// script runs under, with a traceback nothing walks.

package engine

import (
	glua "github.com/yuin/gopher-lua"

	"echomq.dev/playground/wasm/lualib"
	"echomq.dev/playground/wasm/luarun"
)

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
					L.Replace(2, glua.LString(luarun.Lua51Wording(string(msg))))
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
