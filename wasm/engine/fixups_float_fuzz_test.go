package engine

import (
	"math"
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

// FuzzParseScore holds parseScore (ZADD's, ZINCRBY's scores) to Redis's
// getDoubleFromObject in C on any text: the same value or the same
// refusal.
func FuzzParseScore(f *testing.F) {
	if !libc.Available {
		f.Skip("no C library in this build (cgo is off)")
	}
	for _, s := range []string{"1", "-0", "1e-400", "4e-320", "1e400", "inf", "-Infinity", "nan", " 1", "1 ", "0x10", "1\x00", "",
		"0x1p-1080", "0.0000e-999", "00012", "+5", ".5", "5."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseScore(s)
		want, wok := libc.RedisDouble(s)
		if ok != wok || ok && (got != want || math.Signbit(got) != math.Signbit(want)) {
			t.Fatalf("parseScore(%q) = %v, %v; Redis reads %v, %v", s, got, ok, want, wok)
		}
	})
}

// FuzzParseScoreBound holds parseScoreBound (ZRANGEBYSCORE's, ZCOUNT's
// bounds) to zslParseRange in C on any text: the same value, the same
// exclusiveness, or the same refusal.
func FuzzParseScoreBound(f *testing.F) {
	if !libc.Available {
		f.Skip("no C library in this build (cgo is off)")
	}
	for _, s := range []string{"1", "(1", "(", "", " 1", "1 ", "-1\x00ab", "\x00", "(nan", "1e999", "-inf", "(+inf", "0x1p3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ex, ok := parseScoreBound(s)
		want, wex, wok := libc.ZslBound(s)
		if ok != wok || ok && (got != want || ex != wex) {
			t.Fatalf("parseScoreBound(%q) = %v, %v, %v; Redis reads %v, %v, %v", s, got, ex, ok, want, wex, wok)
		}
	})
}
