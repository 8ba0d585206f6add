package engine

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"unsafe"

	glua "github.com/yuin/gopher-lua"

	"echomq.dev/playground/wasm/lualib"
)

// This file and its siblings (luavm_*.go) are the engine's one seam into
// gopher-lua's virtual machine.
//
// gopher-lua runs each opcode through a package-level table of functions,
// jumpTable. Where its opcodes behave differently from the Lua 5.1 that
// Redis embeds, and no library function can be swapped instead, we wrap the
// table's entry. The differences a learner meets are:
//   - coercion: '010' + 0 is 8 in gopher-lua and 10 in Lua 5.1; '1e3' + 0
//     and '0x10' + 0 only work in Lua 5.1;
//   - numbers in ..: 1/3 .. '' is 0.3333333333333333 in gopher-lua and
//     0.33333333333333 (%.14g) in Lua 5.1; 1e15 .. '' is 1e+15 in Lua 5.1;
//   - error wording: "cannot perform add operation between nil and number"
//     where Lua 5.1 says "attempt to perform arithmetic on local 'a' (a nil
//     value)", and the same for calls, indexing, comparison, length and
//     concatenation;
//   - NaN: on x86, 0/0 is a NaN with its sign bit set, which Lua prints as
//     -nan; WebAssembly makes a positive one;
//   - memory: a loop of s = s .. s grows a string past any memory within a
//     few dozen instructions, faster than the time budget can notice.
//
// Every wrapper takes the common path (numbers for arithmetic, tables for
// indexing, functions for calls) first and hands everything it does not
// change to gopher-lua's own implementation.
//
// The table and the call frame are internals of gopher-lua v1.1.2: the
// table is reached with go:linkname, and the current frame's function and
// pc are read through offsets that reflection finds at start-up and checks
// for the expected field types. If gopher-lua's layout ever changes, the
// check fails and the engine refuses to start (see Ready): without the
// wrappers a script would run with none of the limits above, and a doubling
// string would grow until the machine runs out of memory. A test pins the
// version (TestGopherLuaIsTheVersionTheHookWasWrittenFor), so an upgrade
// forces a review of these files before anything runs.

// hookedGopherLua is the gopher-lua release this file was written against.
const hookedGopherLua = "v1.1.2"

// instFunc has the shape of gopher-lua's opcode functions. The frame
// argument is only passed through, so its pointee type does not matter.
type instFunc func(L *glua.LState, inst uint32, baseframe *opaqueFrame) int

type opaqueFrame struct{}

//go:linkname jumpTable github.com/yuin/gopher-lua.jumpTable
var jumpTable [glua.OP_NOP + 1]instFunc

// frameLayout holds where LState.currentFrame, callFrame.Idx, callFrame.Fn,
// callFrame.Pc, callFrame.LocalBase, LState.reg and registry.array live.
var frameLayout struct {
	current, idx, fn, pc, localBase uintptr
	reg, array, top                 uintptr
	// LState.hasErrorFunc and LState.uvcache; Upvalue.next and .index.
	hasErrorFunc, uvcache, uvNext, uvIndex uintptr
}

var (
	installVM sync.Once
	// vmProblem is why the wrappers are not in place, or nil once they are.
	vmProblem error
)

// Ready reports whether the Lua 5.1 opcode wrappers are in place, and if
// not, why. New refuses with this reason when they are not; a caller that
// wants to know before it makes an engine (the WebAssembly module, whose
// page shows the reason) asks Ready.
func Ready() error {
	installLua51VM()
	return vmProblem
}

func installLua51VM() {
	installVM.Do(func() { vmProblem = installOpcodes(findFrameLayout) })
}

// installOpcodes wraps jumpTable's entries once check has found the frame
// layout; when check fails it leaves the table alone and says why. The
// check is an argument so that a test can make it fail.
func installOpcodes(check func() error) error {
	if err := check(); err != nil {
		return fmt.Errorf("the Lua 5.1 hook into gopher-lua cannot be installed (it was written for gopher-lua %s): %w", hookedGopherLua, err)
	}
	for _, op := range []int{glua.OP_ADD, glua.OP_SUB, glua.OP_MUL, glua.OP_DIV, glua.OP_MOD, glua.OP_POW, glua.OP_UNM} {
		jumpTable[op] = arithOp(op)
	}
	jumpTable[glua.OP_CONCAT] = concatOp(jumpTable[glua.OP_CONCAT])
	jumpTable[glua.OP_CALL] = callOp(jumpTable[glua.OP_CALL], true)
	jumpTable[glua.OP_TAILCALL] = callOp(jumpTable[glua.OP_TAILCALL], false)
	for _, op := range []int{glua.OP_GETTABLE, glua.OP_GETTABLEKS, glua.OP_SELF} {
		jumpTable[op] = indexOp(jumpTable[op], argB, argC, "__index")
	}
	for _, op := range []int{glua.OP_SETTABLE, glua.OP_SETTABLEKS} {
		jumpTable[op] = readonlyOp(indexOp(jumpTable[op], argA, argB, "__newindex"))
	}
	jumpTable[glua.OP_TFORLOOP] = iteratorOp(jumpTable[glua.OP_TFORLOOP])
	jumpTable[glua.OP_SETGLOBAL] = func(L *glua.LState, _ uint32, _ *opaqueFrame) int {
		L.RaiseError("%s", errReadonly)
		return 0
	}
	jumpTable[glua.OP_LT] = compareOp(jumpTable[glua.OP_LT])
	jumpTable[glua.OP_LE] = compareOp(jumpTable[glua.OP_LE])
	jumpTable[glua.OP_LEN] = lenOp(jumpTable[glua.OP_LEN])
	jumpTable[glua.OP_EQ] = eqOp(jumpTable[glua.OP_EQ])
	return nil
}

// findFrameLayout fills frameLayout from gopher-lua's own types, and says
// which field is not what this file expects.
func findFrameLayout() error {
	st := reflect.TypeOf(glua.LState{})
	cur, ok := st.FieldByName("currentFrame")
	if !ok || cur.Type.Kind() != reflect.Pointer || cur.Type.Elem().Kind() != reflect.Struct {
		return errors.New("LState.currentFrame is not a pointer to a struct")
	}
	cf := cur.Type.Elem()
	idx, ok0 := cf.FieldByName("Idx")
	fn, ok1 := cf.FieldByName("Fn")
	pc, ok2 := cf.FieldByName("Pc")
	lb, ok3 := cf.FieldByName("LocalBase")
	if !ok0 || !ok1 || !ok2 || !ok3 || idx.Type.Kind() != reflect.Int || fn.Type != reflect.TypeOf((*glua.LFunction)(nil)) ||
		pc.Type.Kind() != reflect.Int || lb.Type.Kind() != reflect.Int {
		return errors.New("callFrame has no Idx int, Fn *LFunction, Pc int and LocalBase int")
	}
	reg, ok := st.FieldByName("reg")
	if !ok || reg.Type.Kind() != reflect.Pointer || reg.Type.Elem().Kind() != reflect.Struct {
		return errors.New("LState.reg is not a pointer to a struct")
	}
	arr, ok := reg.Type.Elem().FieldByName("array")
	top, ok2 := reg.Type.Elem().FieldByName("top")
	if !ok || !ok2 || arr.Type != reflect.TypeOf([]glua.LValue(nil)) || top.Type.Kind() != reflect.Int {
		return errors.New("registry has no array []LValue and top int")
	}
	frameLayout.current, frameLayout.idx, frameLayout.fn, frameLayout.pc, frameLayout.localBase = cur.Offset, idx.Offset, fn.Offset, pc.Offset, lb.Offset
	frameLayout.reg, frameLayout.array, frameLayout.top = reg.Offset, arr.Offset, top.Offset
	hef, ok := st.FieldByName("hasErrorFunc")
	uvc, ok2 := st.FieldByName("uvcache")
	if !ok || !ok2 || hef.Type.Kind() != reflect.Bool || uvc.Type != reflect.TypeOf((*glua.Upvalue)(nil)) {
		return errors.New("LState has no hasErrorFunc bool and uvcache *Upvalue")
	}
	ut := reflect.TypeOf(glua.Upvalue{})
	next, ok := ut.FieldByName("next")
	index, ok2 := ut.FieldByName("index")
	if !ok || !ok2 || next.Type != uvc.Type || index.Type.Kind() != reflect.Int {
		return errors.New("Upvalue has no next *Upvalue and index int")
	}
	frameLayout.hasErrorFunc, frameLayout.uvcache, frameLayout.uvNext, frameLayout.uvIndex = hef.Offset, uvc.Offset, next.Offset, index.Offset
	return nil
}

// gopher-lua gets a caught error's upvalues wrong both ways. Raising an
// error with no error function set (pcall's case) closes the open upvalues
// of every frame on the stack, the frames below the pcall too, so a local
// of the caller is cut off from the closures that share it: after
// pcall(g) where g errs, g counts on in a copy of its own. With an error
// function set (xpcall's case) it closes none, not even those of the
// frames the error unwound, which then point at registers the next calls
// reuse (a closure made there reads whatever lands in them). Lua 5.1
// closes exactly the upvalues of the unwound frames. The engine's pcall
// and xpcall mark the state as catching (catchMark), and close those
// upvalues from an error function (closeUpvaluesFrom), which gopher-lua
// runs before it clears the unwound frames' registers.

// catchMark sets gopher-lua's hasErrorFunc, which keeps an error raised
// from closing every upvalue, to on, and returns what it was. gopher-lua's
// PCall clears it as it returns, even inside an outer catch, so each catch
// puts back what it found.
func catchMark(L *glua.LState, on bool) (was bool) {
	mark := (*bool)(unsafe.Add(unsafe.Pointer(L), frameLayout.hasErrorFunc))
	was, *mark = *mark, on
	return was
}

// frameBase is the register where the running function's frame starts.
func frameBase(L *glua.LState) int {
	cf := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(L), frameLayout.current))
	return *(*int)(unsafe.Add(cf, frameLayout.localBase))
}

// closeUpvaluesFrom closes the open upvalues of register base and above,
// as Lua 5.1 does for the frames a caught error unwound.
func closeUpvaluesFrom(L *glua.LState, base int) {
	// The open upvalues are a list in register order.
	link := (**glua.Upvalue)(unsafe.Add(unsafe.Pointer(L), frameLayout.uvcache))
	for uv := *link; uv != nil; uv = *link {
		if *(*int)(unsafe.Add(unsafe.Pointer(uv), frameLayout.uvIndex)) >= base {
			*link = nil
			for ; uv != nil; uv = *(**glua.Upvalue)(unsafe.Add(unsafe.Pointer(uv), frameLayout.uvNext)) {
				uv.Close()
			}
			return
		}
		link = (**glua.Upvalue)(unsafe.Add(unsafe.Pointer(uv), frameLayout.uvNext))
	}
}

// callDepth is how many calls deep the running function is: its frame's
// place on gopher-lua's call stack, plus one.
func callDepth(L *glua.LState) int {
	cf := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(L), frameLayout.current))
	return *(*int)(unsafe.Add(cf, frameLayout.idx)) + 1
}

// checkDepth raises the error gopher-lua raised on its fixed call stack
// when a call would go past luaCallDepth frames. Every opcode that can
// push a frame (a call, or a metamethod's call) checks it first (see
// callOp), since the growing stack the engine uses never reports itself
// full. An operation that would find its metamethod is not a function
// checks it too, which matters only that deep.
func checkDepth(L *glua.LState) {
	if callDepth(L) >= luaCallDepth {
		L.RaiseError("stack overflow")
	}
}

// callsLua runs orig, an opcode that is about to call a metamethod, as
// Lua 5.1 runs it: as a call from C, which may nest only so deep (see
// lualib.EnterC) before Lua raises "C stack overflow" at the running line.
// Each such call is a Go call nested in the last; in WebAssembly that is
// the JavaScript engine's stack, which would overflow long before
// luaCallDepth and end the whole module. Only an opcode's slow path, one
// that calls Lua, comes here.
//
//go:noinline // a slow path; each inlined copy costs the module
func callsLua(L *glua.LState, inst uint32, frameArg *opaqueFrame, orig instFunc) int {
	enterC(L)
	defer lualib.LeaveC(L)
	checkDepth(L)
	return orig(L, inst, frameArg)
}

// enterC counts a call from C the VM makes, or raises Lua 5.1's error for
// it. Pair it with a deferred lualib.LeaveC.
//
//go:noinline // a slow path; each inlined copy costs the module
func enterC(L *glua.LState) {
	if !lualib.EnterC(L) {
		L.RaiseError("C stack overflow")
	}
}

// frame returns the running Lua function and the index of the instruction
// being executed.
func frame(L *glua.LState) (*glua.LFunction, int) {
	cf := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(L), frameLayout.current))
	if cf == nil {
		return nil, 0
	}
	fn := *(**glua.LFunction)(unsafe.Add(cf, frameLayout.fn))
	pc := *(*int)(unsafe.Add(cf, frameLayout.pc))
	return fn, pc - 1
}

// registers returns the running frame's registers: R(0) is the first.
// LState.Get cannot stand in for it: it answers nil above the stack top,
// which the VM does not keep above every register it reads.
func registers(L *glua.LState) []glua.LValue {
	cf := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(L), frameLayout.current))
	base := *(*int)(unsafe.Add(cf, frameLayout.localBase))
	reg := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(L), frameLayout.reg))
	array := *(*[]glua.LValue)(unsafe.Add(reg, frameLayout.array))
	return array[base:]
}

// setRegister stores v in R(a) as the VM's own stores do, raising the
// stack top past it, which later calls and returns read.
func setRegister(L *glua.LState, a int, v glua.LValue) {
	cf := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(L), frameLayout.current))
	i := *(*int)(unsafe.Add(cf, frameLayout.localBase)) + a
	reg := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(L), frameLayout.reg))
	array := *(*[]glua.LValue)(unsafe.Add(reg, frameLayout.array))
	array[i] = v
	if top := (*int)(unsafe.Add(reg, frameLayout.top)); i >= *top {
		*top = i + 1
	}
}

// Instruction fields, as gopher-lua packs them.
func argA(inst uint32) int { return int(inst>>18) & 0xff }
func argB(inst uint32) int { return int(inst & 0x1ff) }
func argC(inst uint32) int { return int(inst>>9) & 0x1ff }

const bitRK = 1 << 8

// rk reads an RK operand: a constant of fn when the K bit is set, else a
// register of the running frame.
func rk(L *glua.LState, fn *glua.LFunction, x int) glua.LValue {
	if x&bitRK != 0 {
		return fn.Proto.Constants[x&^bitRK]
	}
	return registers(L)[x]
}
