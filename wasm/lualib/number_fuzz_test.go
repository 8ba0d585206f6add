package lualib

import (
	"math"
	"strings"
	"testing"

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
