package lualib

import (
	"math"
	"math/bits"

	lua "github.com/yuin/gopher-lua"
)

// bitTable is LuaBitOp as Redis ships it: 32-bit operations on numbers,
// results as signed 32-bit numbers.
func bitTable(L *lua.LState) *lua.LTable {
	t := L.NewTable()
	unary := func(op func(uint32) uint32) lua.LGFunction {
		return func(L *lua.LState) int { return pushBits(L, op(bitArg(L, 1))) }
	}
	fold := func(op func(a, b uint32) uint32) lua.LGFunction {
		return func(L *lua.LState) int {
			b := bitArg(L, 1)
			for i := L.GetTop(); i > 1; i-- { // LuaBitOp reads them last first
				b = op(b, bitArg(L, i))
			}
			return pushBits(L, b)
		}
	}
	shift := func(op func(b uint32, n uint) uint32) lua.LGFunction {
		return func(L *lua.LState) int {
			b := bitArg(L, 1)
			n := bitArg(L, 2) & 31
			return pushBits(L, op(b, uint(n)))
		}
	}
	setFuncs(L, t, map[string]lua.LGFunction{
		"tobit":  unary(func(b uint32) uint32 { return b }),
		"bnot":   unary(func(b uint32) uint32 { return ^b }),
		"bswap":  unary(bits.ReverseBytes32),
		"band":   fold(func(a, b uint32) uint32 { return a & b }),
		"bor":    fold(func(a, b uint32) uint32 { return a | b }),
		"bxor":   fold(func(a, b uint32) uint32 { return a ^ b }),
		"lshift": shift(func(b uint32, n uint) uint32 { return b << n }),
		"rshift": shift(func(b uint32, n uint) uint32 { return b >> n }),
		"arshift": shift(func(b uint32, n uint) uint32 {
			return uint32(int32(b) >> n)
		}),
		"rol":   shift(func(b uint32, n uint) uint32 { return bits.RotateLeft32(b, int(n)) }),
		"ror":   shift(func(b uint32, n uint) uint32 { return bits.RotateLeft32(b, -int(n)) }),
		"tohex": bitToHex,
	})
	return t
}

// bitArg normalizes argument n as LuaBitOp does: it adds 2^52+2^51 to the
// number and keeps the low 32 bits of the double's representation, which
// rounds to the nearest integer (ties to even) and wraps modulo 2^32.
func bitArg(L *lua.LState, n int) uint32 {
	f, ok := toNumber(L.Get(n))
	if !ok {
		f = 0
	}
	b := uint32(math.Float64bits(f + 6755399441055744.0))
	if b == 0 && !ok {
		typeError(L, n, "number")
	}
	return b
}

func pushBits(L *lua.LState, b uint32) int {
	L.Push(lua.LNumber(int32(b)))
	return 1
}

// bitToHex is bit.tohex(x [, n]): n hex digits (8 by default, at most 8),
// upper case when n is negative.
func bitToHex(L *lua.LState) int {
	b := bitArg(L, 1)
	n := int32(8)
	if L.GetTop() >= 2 {
		n = int32(bitArg(L, 2))
	}
	digits := "0123456789abcdef"
	if n < 0 {
		n = -n
		digits = "0123456789ABCDEF"
	}
	if n > 8 {
		n = 8
	}
	if n < 0 { // -(-2^31): C would overrun its buffer; print nothing
		n = 0
	}
	buf := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		buf[i] = digits[b&15]
		b >>= 4
	}
	L.Push(lua.LString(buf))
	return 1
}
