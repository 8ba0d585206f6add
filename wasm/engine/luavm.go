package engine

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"unsafe"

	glua "github.com/yuin/gopher-lua"

	"echomq.dev/playground/wasm/lualib"
)

// This file is the engine's one seam into gopher-lua's virtual machine.
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
// forces a review of this file before anything runs.

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

// ---- catching errors ----------------------------------------------------

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

// ---- arithmetic ---------------------------------------------------------

func arithOp(op int) instFunc {
	return func(L *glua.LState, inst uint32, _ *opaqueFrame) int {
		fn, pc := frame(L)
		b, c := argB(inst), argC(inst)
		lhs := rk(L, fn, b)
		rhs := lhs
		if op != glua.OP_UNM {
			rhs = rk(L, fn, c)
		}
		x, okx := arithNumber(lhs)
		y, oky := arithNumber(rhs)
		if okx && oky {
			setRegister(L, argA(inst), glua.LNumber(arith(op, x, y)))
			return 0
		}
		event := arithEvents[op]
		if mm := metaOf(L, lhs, event); mm != glua.LNil {
			return callBinaryMeta(L, inst, mm, lhs, rhs)
		}
		if mm := metaOf(L, rhs, event); mm != glua.LNil {
			return callBinaryMeta(L, inst, mm, lhs, rhs)
		}
		// Lua 5.1 names the first operand that is not a number.
		bad, reg := lhs, b
		if okx {
			bad, reg = rhs, c
		}
		L.RaiseError("attempt to perform arithmetic on %s", describe(fn, pc, reg, bad))
		return 0
	}
}

var arithEvents = map[int]string{
	glua.OP_ADD: "__add", glua.OP_SUB: "__sub", glua.OP_MUL: "__mul", glua.OP_DIV: "__div",
	glua.OP_MOD: "__mod", glua.OP_POW: "__pow", glua.OP_UNM: "__unm",
}

// arithNumber is Lua 5.1's tonumber for arithmetic: numbers, and strings
// that C's strtod reads whole.
func arithNumber(v glua.LValue) (float64, bool) {
	switch v := v.(type) {
	case glua.LNumber:
		return float64(v), true
	case glua.LString:
		return lualib.StringToNumber(string(v))
	}
	return 0, false
}

// arith computes one operation as Lua 5.1 compiled for x86-64 does.
func arith(op int, x, y float64) float64 {
	var r float64
	switch op {
	case glua.OP_ADD:
		r = x + y
	case glua.OP_SUB:
		r = x - y
	case glua.OP_MUL:
		r = x * y
	case glua.OP_DIV:
		r = x / y
	case glua.OP_MOD:
		r = x - math.Floor(x/y)*y
	case glua.OP_POW:
		r = math.Pow(x, y)
	case glua.OP_UNM:
		return -x
	}
	return x86NaN(r, x, y)
}

// x86NaN gives a NaN result the sign x86 gives it: an operand's NaN passes
// through, and a NaN made from numbers (0/0, inf-inf) has its sign bit set,
// which Lua prints as -nan.
func x86NaN(r, x, y float64) float64 {
	if !math.IsNaN(r) {
		return r
	}
	if math.IsNaN(x) {
		return x
	}
	if math.IsNaN(y) {
		return y
	}
	return math.Copysign(math.NaN(), -1)
}

// callBinaryMeta runs an arithmetic metamethod and stores its result.
func callBinaryMeta(L *glua.LState, inst uint32, mm, lhs, rhs glua.LValue) int {
	enterC(L)
	defer lualib.LeaveC(L)
	checkDepth(L)
	L.Push(mm)
	L.Push(lhs)
	L.Push(rhs)
	L.Call(2, 1)
	v := L.Get(-1)
	L.Pop(1)
	setRegister(L, argA(inst), v)
	return 0
}

func metaOf(L *glua.LState, v glua.LValue, event string) glua.LValue {
	switch v.(type) {
	case *glua.LTable, *glua.LUserData:
		return L.GetMetaField(v, event)
	}
	return glua.LNil
}

// ---- concatenation ------------------------------------------------------

// MaxStringBytes caps one string made by concatenation or string.rep.
// Redis would let a script grow a string until the machine runs out of
// memory; a browser tab dies long before that. It is half of MemoryBudget,
// so that a script may still make, and hold, one string this long.
const MaxStringBytes = MemoryBudget / 2

func concatOp(orig instFunc) instFunc {
	return func(L *glua.LState, inst uint32, frameArg *opaqueFrame) int {
		b, c := argB(inst), argC(inst)
		regs := registers(L)
		// The numbers' text is written first, into digits, so that the
		// string is made at its exact length: 'job:' .. i, a loop's key,
		// then fits a 16-byte allocation instead of a 32-byte one (24
		// bytes were kept for each number), and a script of 100,000 new
		// keys makes 1.6 MB less for the collector to deal with.
		var scratch [64]byte
		var ends [8]int // where the first numbers' text ends in digits
		digits := scratch[:0]
		total, nums := 0, 0
		for i := b; i <= c; i++ {
			switch v := regs[i].(type) {
			case glua.LString:
				total += len(v)
			case glua.LNumber:
				n := len(digits)
				digits = lualib.AppendNumber(digits, float64(v))
				total += len(digits) - n
				if nums < len(ends) {
					ends[nums] = len(digits)
				}
				nums++
			default:
				return concatOther(L, inst, frameArg, orig)
			}
		}
		if total > MaxStringBytes {
			L.RaiseError("string length overflow (the playground caps a string at %d MiB)", MaxStringBytes>>20)
		}
		bigAlloc(L, total)
		var sb strings.Builder
		sb.Grow(total)
		start, nums := 0, 0
		for i := b; i <= c; i++ {
			switch v := regs[i].(type) {
			case glua.LString:
				sb.WriteString(string(v))
			case glua.LNumber:
				if nums < len(ends) {
					sb.Write(digits[start:ends[nums]])
					start = ends[nums]
				} else {
					var again [32]byte
					sb.Write(lualib.AppendNumber(again[:0], float64(v)))
				}
				nums++
			}
		}
		setRegister(L, argA(inst), glua.LString(sb.String()))
		return 0
	}
}

// concatOther handles operands that are neither strings nor numbers: a
// __concat metamethod runs in gopher-lua's own implementation; otherwise
// the error names the operand Lua 5.1 names. Lua concatenates from the
// right, so the failing pair is the rightmost one with a bad member.
func concatOther(L *glua.LState, inst uint32, frameArg *opaqueFrame, orig instFunc) int {
	b, c := argB(inst), argC(inst)
	for i := b; i <= c; i++ {
		if v := registers(L)[i]; metaOf(L, v, "__concat") != glua.LNil {
			return callsLua(L, inst, frameArg, orig)
		}
	}
	fn, pc := frame(L)
	strnum := func(v glua.LValue) bool {
		switch v.(type) {
		case glua.LString, glua.LNumber:
			return true
		}
		return false
	}
	right, rightReg := registers(L)[c], c
	for i := c - 1; i >= b; i-- {
		left := registers(L)[i]
		if !strnum(left) {
			L.RaiseError("attempt to concatenate %s", describe(fn, pc, i, left))
		}
		if !strnum(right) {
			L.RaiseError("attempt to concatenate %s", describe(fn, pc, rightReg, right))
		}
		right, rightReg = glua.LString(""), -1 // a concatenated temporary has no name
	}
	return orig(L, inst, frameArg)
}

// ---- calls, indexing, comparison, length --------------------------------

// callOp checks that the called value can be called. A call of a Go
// function whose results the code drops (OP_CALL with C = 1: a statement
// such as redis.call('SET', k, v)) also tells the script's budget which
// function it calls, for the length of the call, so that redis.call need
// not build a reply table nobody reads (see unusedResult).
//
// It also keeps the call depth to luaCallDepth. The engine's Lua states grow
// their call stacks as scripts call deeper (newState), and gopher-lua's
// growing stack never reports itself full: past its size it panics with
// words of its own. So the check gopher-lua makes on its fixed stack is
// made here, on the same calls and with the same error: every OP_CALL
// pushes a frame, and an OP_TAILCALL pushes one only for a Go function (a
// Lua function reuses the caller's).
func callOp(orig instFunc, plain bool) instFunc {
	return func(L *glua.LState, inst uint32, frameArg *opaqueFrame) int {
		a := argA(inst)
		switch v := registers(L)[a].(type) {
		case *glua.LFunction:
			if plain || v.IsG {
				checkDepth(L)
			}
			if plain && v.IsG {
				if b, ok := L.Context().(*budget); ok {
					b.unused = nil
					if argC(inst) == 1 {
						b.unused = v
					}
					n := orig(L, inst, frameArg)
					b.unused = nil
					return n
				}
			}
			return orig(L, inst, frameArg)
		case *glua.LTable, *glua.LUserData:
			if mm := L.GetMetaField(v, "__call"); mm != glua.LNil {
				if f, ok := mm.(*glua.LFunction); ok && (plain || f.IsG) {
					checkDepth(L)
				}
				return orig(L, inst, frameArg)
			}
		}
		fn, pc := frame(L)
		L.RaiseError("attempt to call %s", describe(fn, pc, a, registers(L)[a]))
		return 0
	}
}

// indexOp reads or writes a field of the table, string or userdata in
// register obj(inst) with the key in operand key(inst); event is the
// metamethod a missing field goes to. A plain table goes straight to
// gopher-lua; for a table with a metatable, a walk of its chain first
// shows whether a metamethod runs.
func indexOp(orig instFunc, obj, key func(uint32) int, event string) instFunc {
	other := guardedOp(orig, obj, "index", func(L *glua.LState, inst uint32, v glua.LValue) (bool, bool) {
		if L.GetMetatable(v) == glua.LNil {
			return false, false
		}
		fn, _ := frame(L)
		return true, fieldLookup(L, v, rk(L, fn, key(inst)), event)
	})
	return func(L *glua.LState, inst uint32, frameArg *opaqueFrame) int {
		t, ok := registers(L)[obj(inst)].(*glua.LTable)
		if !ok {
			return other(L, inst, frameArg)
		}
		if t.Metatable == glua.LNil {
			return orig(L, inst, frameArg)
		}
		fn, _ := frame(L)
		if fieldLookup(L, t, rk(L, fn, key(inst)), event) {
			return callsLua(L, inst, frameArg, orig)
		}
		return orig(L, inst, frameArg)
	}
}

// fieldLookup follows field k of v as gopher-lua does, through the
// tables (or userdata) that event ("__index" or "__newindex") leads to,
// and reports whether the chain ends in a function, which gopher-lua would
// call.
//
//go:noinline // a slow path; each inlined copy costs the module
func fieldLookup(L *glua.LState, v, k glua.LValue, event string) (calls bool) {
	for range 100 { // Lua 5.1's MAXTAGLOOP
		if t, ok := v.(*glua.LTable); ok && t.RawGet(k) != glua.LNil {
			return false
		}
		switch mm := L.GetMetaField(v, event).(type) {
		case *glua.LFunction:
			return true
		case *glua.LTable, *glua.LUserData:
			v = mm
		default:
			return false
		}
	}
	return false
}

// guardedOp runs orig when the operand in register reg(inst) is a string,
// or a userdata that metaOK accepts (one with the metamethod the opcode
// would use; metaOK also says whether the opcode will call it, which then
// counts as a call from C, see callsLua); on anything else it raises Lua
// 5.1's "attempt to <what> <the operand>", where gopher-lua's wording
// differs. Its callers take tables first.
func guardedOp(orig instFunc, reg func(uint32) int, what string, metaOK func(*glua.LState, uint32, glua.LValue) (ok, calls bool)) instFunc {
	return func(L *glua.LState, inst uint32, frameArg *opaqueFrame) int {
		r := reg(inst)
		switch v := registers(L)[r].(type) {
		case glua.LString:
			return orig(L, inst, frameArg)
		case *glua.LUserData:
			if ok, calls := metaOK(L, inst, v); ok {
				if calls {
					return callsLua(L, inst, frameArg, orig)
				}
				return orig(L, inst, frameArg)
			}
		}
		fn, pc := frame(L)
		L.RaiseError("attempt to %s %s", what, describe(fn, pc, r, registers(L)[r]))
		return 0
	}
}

func compareOp(orig instFunc) instFunc {
	return func(L *glua.LState, inst uint32, frameArg *opaqueFrame) int {
		fn, _ := frame(L)
		lhs, rhs := rk(L, fn, argB(inst)), rk(L, fn, argC(inst))
		lt, rt := lhs.Type(), rhs.Type()
		if lt == rt && (lt == glua.LTNumber || lt == glua.LTString) {
			return orig(L, inst, frameArg)
		}
		if lt == rt && (lt == glua.LTTable || lt == glua.LTUserData) {
			event := "__lt"
			if int(inst>>26) == glua.OP_LE {
				event = "__le"
			}
			if L.GetMetaField(lhs, event) != glua.LNil {
				return callsLua(L, inst, frameArg, orig)
			}
		}
		if lt == rt {
			L.RaiseError("attempt to compare two %s values", lt)
		}
		L.RaiseError("attempt to compare %s with %s", lt, rt)
		return 0
	}
}

// eqOp counts an __eq metamethod's call as a call from C (see callsLua):
// two distinct tables, or two userdata, may call one. A constant operand
// is never either, so comparing with a literal stays on the fast path.
func eqOp(orig instFunc) instFunc {
	return func(L *glua.LState, inst uint32, frameArg *opaqueFrame) int {
		b, c := argB(inst), argC(inst)
		if (b|c)&bitRK == 0 {
			lhs, rhs := registers(L)[b], registers(L)[c]
			if lhs != rhs && lhs.Type() == rhs.Type() && (metaOf(L, lhs, "__eq") != glua.LNil || metaOf(L, rhs, "__eq") != glua.LNil) {
				return callsLua(L, inst, frameArg, orig)
			}
		}
		return orig(L, inst, frameArg)
	}
}

// lenOp gives a table's length as Lua 5.1 does, which never calls a
// table's __len (gopher-lua does), and calls a userdata's.
func lenOp(orig instFunc) instFunc {
	lenOf := guardedOp(orig, argB, "get length of", func(L *glua.LState, _ uint32, v glua.LValue) (bool, bool) {
		has := L.GetMetaField(v, "__len") != glua.LNil
		return has, has
	})
	return func(L *glua.LState, inst uint32, frameArg *opaqueFrame) int {
		if t, ok := registers(L)[argB(inst)].(*glua.LTable); ok {
			if t.Metatable != glua.LNil && L.GetMetaField(t, "__len") != glua.LNil {
				setRegister(L, argA(inst), glua.LNumber(t.Len()))
				return 0
			}
			return orig(L, inst, frameArg)
		}
		return lenOf(L, inst, frameArg)
	}
}

// iteratorOp counts the call of a generic for's iterator, when it is a Lua
// function, as a call from C, as Lua 5.1 counts it (see callsLua). An
// iterator in Go (next, or ipairs's) calls no Lua, and stays uncounted,
// the cheaper path for the loops scripts run most.
func iteratorOp(orig instFunc) instFunc {
	return func(L *glua.LState, inst uint32, frameArg *opaqueFrame) int {
		if f, ok := registers(L)[argA(inst)].(*glua.LFunction); ok && f.IsG {
			return orig(L, inst, frameArg)
		}
		return callsLua(L, inst, frameArg, orig)
	}
}

// ---- naming the culprit -------------------------------------------------

// describe words a bad operand as Lua 5.1's error messages do: "local 'a'
// (a nil value)", "global 'x' (a nil value)", "field '?' (a nil value)",
// or just "a nil value" when the register has no name. reg < 0 means the
// value is not in a register (a constant or a temporary).
func describe(fn *glua.LFunction, pc, reg int, v glua.LValue) string {
	kind, name := "", ""
	if reg >= 0 && reg&bitRK == 0 && fn != nil && !fn.IsG {
		kind, name = objectName(fn.Proto, pc, reg)
	}
	if kind == "" {
		return fmt.Sprintf("a %s value", v.Type())
	}
	return fmt.Sprintf("%s '%s' (a %s value)", kind, name, v.Type())
}

// objectName is Lua 5.1's getobjname for gopher-lua's bytecode: a register
// is a local when a local variable is active in it at pc; otherwise the
// instruction that last wrote it says what it held.
func objectName(p *glua.FunctionProto, pc, reg int) (kind, name string) {
	if name, ok := localName(p, reg+1, pc); ok {
		return "local", name
	}
	last := lastWriter(p, pc, reg)
	if last < 0 {
		return "", ""
	}
	inst := p.Code[last]
	switch int(inst >> 26) {
	case glua.OP_GETGLOBAL:
		if s, ok := p.Constants[int(inst&0x3ffff)].(glua.LString); ok {
			return "global", string(s)
		}
	case glua.OP_MOVE:
		if b := argB(inst); b < argA(inst) {
			return objectName(p, last, b)
		}
	case glua.OP_GETTABLE, glua.OP_GETTABLEKS:
		return "field", constantName(p, argC(inst))
	case glua.OP_GETUPVAL:
		if b := argB(inst); b < len(p.DbgUpvalues) {
			return "upvalue", p.DbgUpvalues[b]
		}
	case glua.OP_SELF:
		return "method", constantName(p, argC(inst))
	}
	return "", ""
}

func localName(p *glua.FunctionProto, regno, pc int) (string, bool) {
	for _, l := range p.DbgLocals {
		if l.StartPc > pc {
			break
		}
		if pc < l.EndPc {
			regno--
			if regno == 0 {
				return l.Name, true
			}
		}
	}
	return "", false
}

// constantName is the key of a table access when it is a constant string,
// and "?" otherwise, as Lua 5.1 prints it.
func constantName(p *glua.FunctionProto, c int) string {
	if c&bitRK != 0 {
		if s, ok := p.Constants[c&^bitRK].(glua.LString); ok {
			return string(s)
		}
	}
	return "?"
}

// lastWriter finds the instruction before pc that last stored into reg,
// reading the code in order as Lua 5.1's symbolic execution does for
// straight-line code. It returns -1 when none did.
func lastWriter(p *glua.FunctionProto, pc, reg int) int {
	last := -1
	for i := 0; i < pc && i < len(p.Code); i++ {
		inst := p.Code[i]
		a := argA(inst)
		switch int(inst >> 26) {
		case glua.OP_MOVE, glua.OP_LOADK, glua.OP_LOADBOOL, glua.OP_GETUPVAL, glua.OP_GETGLOBAL,
			glua.OP_GETTABLE, glua.OP_GETTABLEKS, glua.OP_NEWTABLE, glua.OP_ADD, glua.OP_SUB,
			glua.OP_MUL, glua.OP_DIV, glua.OP_MOD, glua.OP_POW, glua.OP_UNM, glua.OP_NOT,
			glua.OP_LEN, glua.OP_CONCAT, glua.OP_CLOSURE:
			if a == reg {
				last = i
			}
		case glua.OP_LOADNIL:
			if reg >= a && reg <= argB(inst) {
				last = i
			}
		case glua.OP_SELF:
			if a == reg || a+1 == reg {
				last = i
			}
		case glua.OP_CALL, glua.OP_VARARG, glua.OP_TFORLOOP:
			if reg >= a {
				last = i
			}
		}
	}
	return last
}

// ---- read-only tables ---------------------------------------------------

// errReadonly is Redis 7.0's word for any write to the globals table or to
// a library table.
const errReadonly = "Attempt to modify a readonly table"

// readonlyKey is where a state keeps its set of read-only tables, in its
// registry: the globals and the libraries, which a script may read and
// never write.
const readonlyKey = "echomq.dev/playground/wasm/engine.readonly"

func isReadonly(L *glua.LState, v glua.LValue) bool {
	t, ok := v.(*glua.LTable)
	if !ok {
		return false
	}
	set, ok := L.G.Registry.RawGetString(readonlyKey).(*glua.LTable)
	return ok && set.RawGet(t) == glua.LTrue
}

// markReadonly marks the globals and every library table in them, and
// makes rawset and setmetatable respect the mark as Redis's patched Lua
// does. Call it once the state's globals are complete. The metatables of
// the globals and of strings are marked too, as Redis 7.0 marks them: a
// field stored in either would outlive the script that stored it.
func markReadonly(L *glua.LState) {
	set := L.NewTable()
	set.RawSet(L.G.Global, glua.LTrue)
	for _, v := range []glua.LValue{L.G.Global, glua.LString("")} {
		if mt, ok := L.GetMetatable(v).(*glua.LTable); ok {
			set.RawSet(mt, glua.LTrue)
		}
	}
	L.G.Global.ForEach(func(k, v glua.LValue) {
		if t, ok := v.(*glua.LTable); ok && k.String() != "KEYS" && k.String() != "ARGV" {
			set.RawSet(t, glua.LTrue)
		}
	})
	L.G.Registry.RawSetString(readonlyKey, set)
	for _, name := range []string{"rawset", "setmetatable"} {
		orig := L.GetGlobal(name)
		L.G.Global.RawSetString(name, L.NewFunction(func(L *glua.LState) int {
			if isReadonly(L, L.Get(1)) {
				// Raised by a C function in Redis, so with no position.
				L.Error(glua.LString(errReadonly), 0)
			}
			L.Insert(orig, 1)
			L.Call(L.GetTop()-1, glua.MultRet)
			return L.GetTop()
		}))
	}
}

// readonlyOp refuses a table store into a read-only table.
func readonlyOp(next instFunc) instFunc {
	return func(L *glua.LState, inst uint32, frameArg *opaqueFrame) int {
		if isReadonly(L, registers(L)[argA(inst)]) {
			L.RaiseError("%s", errReadonly)
		}
		return next(L, inst, frameArg)
	}
}
