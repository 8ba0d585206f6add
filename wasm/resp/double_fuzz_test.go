package resp

import (
	"math"
	"testing"

	"echomq.dev/playground/internal/libc"
)

// FuzzFormatDouble holds FormatDouble to C's printf("%.17g"), which is
// how Redis prints a double, on any double (a NaN's sign included), and
// NormalizeScore to it on the text FormatDouble writes.
func FuzzFormatDouble(f *testing.F) {
	if !libc.Available {
		f.Skip("no C library in this build (cgo is off)")
	}
	for _, x := range []float64{0, math.Copysign(0, -1), 1, -1.5, 0.1, 1e15, 1e16, 123456789012345678, 1e21, 1e-5, 5e-324,
		math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), math.Copysign(math.NaN(), -1), 1767225630000} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		want := libc.Printf("%.17g", x)
		if got := FormatDouble(x); got != want {
			t.Fatalf("FormatDouble(%v) = %q; printf %%.17g gives %q", x, got, want)
		}
		if got := NormalizeScore(want); got != want && !math.IsNaN(x) {
			t.Fatalf("NormalizeScore(%q) = %q", want, got)
		}
	})
}
