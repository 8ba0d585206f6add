package lualib

import (
	"math"

	lua "github.com/yuin/gopher-lua"
)

// rand48 is the generator behind Redis's math.random: the 48-bit linear
// congruential generator of POSIX lrand48, x = (0x5DEECE66D*x + 0xB) mod
// 2^48, each draw giving the top 31 bits. Redis starts it at lrand48's
// unseeded state and never reseeds it on its own.
type rand48 struct{ x uint64 }

const (
	rand48Mult = 0x5DEECE66D
	rand48Add  = 0xB
	rand48Mask = 1<<48 - 1
	rand48Max  = math.MaxInt32 // REDIS_LRAND48_MAX
)

func newRand48() rand48 { return rand48{x: 0x1234ABCD330E} }

// seed is srand48: the seed's 32 bits above the constant 0x330E.
func (r *rand48) seed(s int32) { r.x = uint64(uint32(s))<<16 | 0x330E }

// next is lrand48: the next value in [0, 2^31).
func (r *rand48) next() int32 {
	r.x = (rand48Mult*r.x + rand48Add) & rand48Mask
	return int32(r.x >> 17)
}

func openMath(L *lua.LState, st *state) {
	t, ok := L.GetGlobal("math").(*lua.LTable)
	if !ok {
		return
	}
	setFuncs(L, t, map[string]lua.LGFunction{
		"random":     func(L *lua.LState) int { return mathRandom(L, &st.rand) },
		"randomseed": func(L *lua.LState) int { st.rand.seed(checkInt(L, 1)); return 0 },
	})
	openMathNaN(L, t)
}

// mathRandom is Lua 5.1's math.random over Redis's generator. It draws
// before it looks at its arguments, as Redis does, and does its interval
// arithmetic in C ints.
func mathRandom(L *lua.LState, g *rand48) int {
	r := float64(g.next()%rand48Max) / float64(rand48Max)
	switch L.GetTop() {
	case 0:
		L.Push(lua.LNumber(r))
	case 1:
		u := checkInt(L, 1)
		if u < 1 {
			argError(L, 1, "interval is empty")
		}
		L.Push(lua.LNumber(math.Floor(r*float64(u)) + 1))
	case 2:
		l := checkInt(L, 1)
		u := checkInt(L, 2)
		if l > u {
			argError(L, 2, "interval is empty")
		}
		L.Push(lua.LNumber(math.Floor(r*float64(u-l+1)) + float64(l)))
	default:
		L.RaiseError("wrong number of arguments")
	}
	return 1
}
