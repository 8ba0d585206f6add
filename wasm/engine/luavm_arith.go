// The Lua 5.1 VM's arithmetic and concatenation (see luavm.go): Lua 5.1's
// coercion of strings to numbers, its %.14g numbers in .., x86's NaN, and
// the cap on one string's length.

package engine

import (
	"math"
	"strings"

	glua "github.com/yuin/gopher-lua"

	"echomq.dev/playground/wasm/lualib"
)

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
