package lualib

import (
	"math"

	lua "github.com/yuin/gopher-lua"
)

// The math functions whose results differ from glibc's on x86-64 in what
// a script can see: the sign of a NaN (which Lua prints as nan or -nan),
// math.modf of an infinity, and the argument errors of max and min.

// nanLike gives a NaN result the sign glibc gives it: an argument's NaN
// passes through as it is; a NaN made from numbers is made, for each
// function, as glibc makes it (most of them negNaN, -nan; log10, acos and
// asin posNaN).
func nanLike(r float64, made float64, args ...float64) float64 {
	if !math.IsNaN(r) {
		return r
	}
	for _, a := range args {
		if math.IsNaN(a) {
			return a
		}
	}
	return made
}

// mathFuncs are the one-argument functions rewritten, with the NaN each
// makes from a number that is out of its domain.
var mathFuncs = map[string]struct {
	f    func(float64) float64
	made float64
}{
	"log":   {math.Log, negNaN},
	"log10": {math.Log10, posNaN},
	"sqrt":  {math.Sqrt, negNaN},
	"sin":   {math.Sin, negNaN},
	"cos":   {math.Cos, negNaN},
	"tan":   {math.Tan, negNaN},
	"acos":  {math.Acos, posNaN},
	"asin":  {math.Asin, posNaN},
	"exp":   {math.Exp, negNaN},
	"floor": {math.Floor, negNaN},
	"ceil":  {math.Ceil, negNaN},
	"atan":  {math.Atan, negNaN},
	"sinh":  {math.Sinh, negNaN},
	"cosh":  {math.Cosh, negNaN},
	"tanh":  {math.Tanh, negNaN},
	"deg":   {func(x float64) float64 { return x * (180 / math.Pi) }, negNaN},
	"rad":   {func(x float64) float64 { return x * (math.Pi / 180) }, negNaN},
}

// mathBinary is a two-argument function of numbers whose NaN made from
// numbers is -nan, as glibc makes it for fmod, pow and atan2.
func mathBinary(f func(a, b float64) float64) lua.LGFunction {
	return func(L *lua.LState) int {
		a, b := checkNumber(L, 1), checkNumber(L, 2)
		L.Push(lua.LNumber(nanLike(f(a, b), negNaN, a, b)))
		return 1
	}
}

func openMathNaN(L *lua.LState, t *lua.LTable) {
	for name, fn := range mathFuncs {
		fn := fn
		t.RawSetString(name, L.NewFunction(func(L *lua.LState) int {
			x := checkNumber(L, 1)
			L.Push(lua.LNumber(nanLike(fn.f(x), fn.made, x)))
			return 1
		}))
	}
	setFuncs(L, t, map[string]lua.LGFunction{
		"fmod":  mathBinary(math.Mod),
		"pow":   mathBinary(math.Pow),
		"atan2": mathBinary(math.Atan2),
		// ldexp's exponent is a C int, as luaL_checkint makes it (-inf is 0).
		"ldexp": func(L *lua.LState) int {
			x, e := checkNumber(L, 1), checkInt(L, 2)
			L.Push(lua.LNumber(nanLike(math.Ldexp(x, int(e)), negNaN, x)))
			return 1
		},
		"modf": mathModf,
		"max":  func(L *lua.LState) int { return mathMinMax(L, func(d, m float64) bool { return d > m }) },
		"min":  func(L *lua.LState) int { return mathMinMax(L, func(d, m float64) bool { return d < m }) },
	})
}

// mathModf is C's modf: the whole part and the fraction, with an infinity's
// fraction a zero of its sign (Go's math.Modf makes it NaN).
func mathModf(L *lua.LState) int {
	x := checkNumber(L, 1)
	var ip, fp float64
	switch {
	case math.IsInf(x, 0):
		ip, fp = x, math.Copysign(0, x)
	case math.IsNaN(x):
		ip, fp = x, x
	default:
		ip, fp = math.Modf(x)
	}
	L.Push(lua.LNumber(ip))
	L.Push(lua.LNumber(fp))
	return 2
}

// mathMinMax is math.max or math.min: the first argument is required, and a
// later one replaces the one kept only when better says so (so a NaN first
// stays, and a NaN later is passed over).
func mathMinMax(L *lua.LState, better func(d, m float64) bool) int {
	m := checkNumber(L, 1)
	for i := 2; i <= L.GetTop(); i++ {
		if d := checkNumber(L, i); better(d, m) {
			m = d
		}
	}
	L.Push(lua.LNumber(m))
	return 1
}
