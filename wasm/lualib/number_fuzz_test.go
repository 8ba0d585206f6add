package lualib

import (
	"math"
	"strconv"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"echomq.dev/playground/internal/libc"
)

// FuzzStrtod holds strtod (tonumber, the string library's numbers,
// cjson's, SORT's) to C's strtod on any text: the same value, its sign
// and a NaN's sign included, and the same length read. (strtod is given
// no leading white space, which its callers skip; C reads to a NUL.)
func FuzzStrtod(f *testing.F) {
	if !libc.Available {
		f.Skip("no C library in this build (cgo is off)")
	}
	for _, s := range []string{"1", "-0", "1e400", "1e-400", "4.9e-324", "2.4703282292062328e-324", "0x1p-1074", "0x1.fffffffffffffp1023",
		"0x", "0x.8p1", "1e", "1e+", ".5", "5.", ".", "inf", "-Infinity", "infinit", "nan", "-nan(abc)", "nan(", "0x1P", "1_0",
		"123456789012345678901234567890", "0.000000000000000000000000000000000000001e39"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if i := strings.IndexByte(s, 0); i >= 0 {
			s = s[:i]
		}
		s = s[skipSpace(s, 0):]
		want, wn, _ := libc.Strtod(s)
		got, n := strtod(s)
		same := got == want && math.Signbit(got) == math.Signbit(want) || math.IsNaN(got) && math.IsNaN(want) && math.Signbit(got) == math.Signbit(want)
		if n != wn || n > 0 && !same {
			t.Fatalf("strtod(%q) = %v, %d bytes; C's strtod %v, %d bytes", s, got, n, want, wn)
		}
	})
}

// FuzzFormatNumber holds FormatNumber (tostring, "..", every number a
// script turns into text) to C's printf("%.14g"), Lua 5.1's number format.
func FuzzFormatNumber(f *testing.F) {
	if !libc.Available {
		f.Skip("no C library in this build (cgo is off)")
	}
	for _, x := range []float64{0, math.Copysign(0, -1), 1e14, 1e15, 0.1, 1 / 3.0, -2.5e-7, math.Inf(-1), negNaN, posNaN, 123456789012345.6} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		if math.IsNaN(x) { // gopher-lua's NaNs are the two C makes
			neg := math.Signbit(x)
			x = posNaN
			if neg {
				x = negNaN
			}
		}
		if got, want := FormatNumber(x), libc.Printf("%.14g", x); got != want {
			t.Fatalf("FormatNumber(%v) = %q; printf %%.14g gives %q", x, got, want)
		}
	})
}

// FuzzStringFormat holds string.format's numeric conversions to C's
// snprintf, as Lua 5.1 calls it: any flags (each once), width and
// precision of up to two digits, and %d %i %o %u %x %X (of a long, as
// Lua 5.1 casts the number) or %e %E %f %g %G (of the double).
func FuzzStringFormat(f *testing.F) {
	if !libc.Available {
		f.Skip("no C library in this build (cgo is off)")
	}
	f.Add(uint8(0), uint8(0), int8(-1), byte('d'), 42.0)
	f.Add(uint8(31), uint8(12), int8(5), byte('g'), -1.5e-7)
	f.Add(uint8(8), uint8(0), int8(0), byte('x'), 0.0)
	f.Add(uint8(16), uint8(20), int8(3), byte('e'), math.Inf(-1))
	f.Add(uint8(4), uint8(7), int8(-1), byte('f'), negNaN)
	f.Fuzz(func(t *testing.T, flagBits, width uint8, prec int8, conv byte, x float64) {
		conv = "dioxXueEfgG"[int(conv)%11]
		var spec strings.Builder
		spec.WriteByte('%')
		for i, fl := range "-+ #0" {
			if flagBits&(1<<i) != 0 {
				spec.WriteRune(fl)
			}
		}
		if width %= 100; width > 0 {
			spec.WriteString(strconv.Itoa(int(width)))
		}
		if prec >= 0 {
			spec.WriteString("." + strconv.Itoa(int(prec)%100))
		}
		var want string
		if strings.IndexByte("dioxXu", conv) >= 0 {
			if math.IsNaN(x) || math.Abs(x) >= 1<<63 {
				return // the cast of such a number to long is undefined in C
			}
			want = libc.PrintfLong(spec.String()+"l"+string(conv), int64(x))
		} else {
			if math.IsNaN(x) { // gopher-lua's NaNs are the two C makes
				neg := math.Signbit(x)
				x = posNaN
				if neg {
					x = negNaN
				}
			}
			want = libc.Printf(spec.String()+string(conv), x)
		}
		format := spec.String() + string(conv)
		L := budgetedState()
		got, err := libCall(t, L, "string.format", lua.LString(format), lua.LNumber(x))
		if err != nil || string(got[0].(lua.LString)) != want {
			t.Fatalf("string.format(%q, %v) = %v, %v; C's printf gives %q", format, x, got, err, want)
		}
	})
}
