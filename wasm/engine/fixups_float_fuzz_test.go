package engine

import (
	"testing"

	"echomq.dev/playground/internal/libc"
	"echomq.dev/playground/wasm/resp"
)

// FuzzIncrByFloat holds INCRBYFLOAT's arithmetic (addLongDouble: the
// reading of both numbers, the 80-bit sum, the printing) to C's, on
// x86-64's long double, with Redis 7.0's checks (see internal/libc): for
// any stored value (or none) and any increment, the same new value or the
// same error.
func FuzzIncrByFloat(f *testing.F) {
	if !libc.Available {
		f.Skip("no C library in this build (cgo is off)")
	}
	for _, s := range [][2]string{
		{"10.5", "0.1"}, {"", "1e3"}, {"1e4900", "1e4900"}, {"0", "1e-5000"}, {"0", "1e5000"}, {"x", "1"}, {"1", " 1"},
		{"1", "1 "}, {"1", "0x1p-3"}, {"1", "0x10"}, {"1", "inf"}, {"-inf", "inf"}, {"1", "nan"}, {"0", "0x1p-16445"},
		{"0", "0x1p-16446"}, {"1", "1e-4951"}, {"-0.0", "0"}, {"1", "1_0"}, {"1.5", "-1.5"}, {"1", "+.5e1"},
	} {
		f.Add(s[0], s[0] != "", s[1])
	}
	f.Fuzz(func(t *testing.T, cur string, hasCur bool, inc string) {
		stored := resp.NilReply()
		if hasCur {
			stored = resp.BulkReply(cur)
		}
		got, errRep := addLongDouble(stored, inc, "ERR hash value is not a float")
		want, code := libc.IncrByFloat(cur, hasCur, inc)
		wantErr := [...]string{"", errNotFloat, "ERR hash value is not a float", "ERR increment would produce NaN or Infinity", "ld2string"}[code]
		gotErr := ""
		if errRep != nil {
			gotErr = errRep.Str
		}
		if gotErr != wantErr || got != want {
			show := func(s string) string {
				if len(s) > 80 {
					return s[:40] + "…" + s[len(s)-40:]
				}
				return s
			}
			t.Fatalf("INCRBYFLOAT on %q (%v) by %q: %q %q; Redis's arithmetic: %q %q",
				show(cur), hasCur, show(inc), show(got), gotErr, show(want), wantErr)
		}
	})
}
