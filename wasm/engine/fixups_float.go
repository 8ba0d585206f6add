package engine

import (
	"math/big"
	"strings"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/lualib"
	"echomq.dev/playground/wasm/resp"
)

// INCRBYFLOAT and HINCRBYFLOAT. Redis 7.0 adds in C's long double (80-bit
// x87 extended precision: a 64-bit significand) and prints the sum with
// "%.17Lf", trailing zeros removed; so 10.5 + 0.1 + 1e3 is
// 1010.59999999999999998 there, where miniredis's float64 says 1010.6.
// big.Float with 64 bits of precision rounds exactly as the x87 does.

const longDoubleBits = 64

// x87MaxExp bounds the exponent of a finite x87 extended value.
const x87MaxExp = 16384

// x87MinExp: a value below 2^-16446 (half the least subnormal, 2^-16445)
// underflows an x87 long double to zero.
const x87MinExp = -16445

// maxLongDoubleChars is Redis's MAX_LONG_DOUBLE_CHARS: string2ld copies a
// number into a buffer of this size, and refuses a longer one.
const maxLongDoubleChars = 5 * 1024

// parseLongDouble reads s as Redis's getLongDoubleFromObject does: strtold
// over the whole string, no leading space, no NaN, no overflow and no
// underflow to zero (ERANGE, which "1e-5000" sets), and no more than 5119
// bytes.
func parseLongDouble(s string) (*big.Float, bool) {
	if s == "" || len(s) >= maxLongDoubleChars || lualib.IsSpace(s[0]) {
		return nil, false
	}
	// The syntax is strtod's (strtold reads the same texts): all of s must
	// be one number. big.ParseFloat reads more ("0p3", "0b1", "1_0").
	if _, n := lualib.Strtod(s); n != len(s) {
		return nil, false
	}
	low := ascii.Lower(s)
	if strings.Contains(low, "nan") {
		return nil, false
	}
	if word := strings.TrimLeft(low, "+-"); word == "inf" || word == "infinity" {
		return new(big.Float).SetInf(s[0] == '-'), true
	}
	if strings.HasPrefix(strings.TrimLeft(low, "+-"), "0x") && !strings.Contains(low, "p") {
		s += "p0"
	}
	f, _, err := big.ParseFloat(s, 0, longDoubleBits, big.ToNearestEven)
	if err != nil && zeroMantissa(low) {
		// Zero times any power of ten is zero, with no ERANGE; big refuses
		// an exponent past its range even so ("0e10000000000000000000").
		z := new(big.Float).SetPrec(longDoubleBits)
		if low[0] == '-' {
			z.Neg(z) // -0, as strtold reads "-0e99999999999999999999"
		}
		return z, true
	}
	// An infinity here is an overflow (the spellings of one returned
	// above): ERANGE, as past the x87's range is.
	if err != nil || f.IsInf() || f.MantExp(nil) > x87MaxExp {
		return nil, false // not a number, or past the x87's range (ERANGE)
	}
	if f.Sign() != 0 && underflows(f) {
		return nil, false // rounds to zero in an x87: ERANGE too
	}
	return f, true
}

// zeroMantissa reports whether low, a number strtod reads whole (lower
// case), has only zeros before its exponent: it is zero whatever the
// exponent says.
func zeroMantissa(low string) bool {
	m := strings.TrimLeft(low, "+-")
	exp := "e"
	if strings.HasPrefix(m, "0x") {
		m, exp = m[2:], "p"
	}
	m, _, _ = strings.Cut(m, exp)
	return m != "" && strings.Trim(m, "0.") == "" && strings.Contains(m, "0")
}

// underflows reports whether f, not zero, rounds to zero as an x87 long
// double: it is below half the least subnormal, or exactly half of it
// (a tie, rounded to the even zero).
func underflows(f *big.Float) bool {
	mant := new(big.Float)
	exp := f.MantExp(mant) // |f| = |mant| * 2^exp, 0.5 <= |mant| < 1
	half := big.NewFloat(0.5)
	return exp < x87MinExp || exp == x87MinExp && mant.Abs(mant).Cmp(half) == 0
}

// formatLongDouble prints f as Redis's "human friendly" long double: "%.17Lf"
// with the trailing zeros (and a bare point) taken off.
func formatLongDouble(f *big.Float) string {
	s := f.Text('f', 17)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// addLongDouble adds incr (text) to the stored value (text, or absent) and
// returns the new text, or the error Redis gives. notStored is the error
// for a stored value that is not a number, which Redis words differently
// for a string key and for a hash field.
func addLongDouble(stored resp.Reply, incr, notStored string) (string, *resp.Reply) {
	inc, ok := parseLongDouble(incr)
	if !ok {
		r := resp.ErrorReply(errNotFloat)
		return "", &r
	}
	sum := new(big.Float).SetPrec(longDoubleBits).SetMode(big.ToNearestEven)
	if stored.Kind == resp.Bulk {
		cur, ok := parseLongDouble(stored.Str)
		if !ok {
			r := resp.ErrorReply(notStored)
			return "", &r
		}
		if cur.IsInf() || inc.IsInf() {
			// inf + -inf is NaN, where big.Float panics; any sum with an
			// infinity in it is one of the two, which Redis refuses.
			r := resp.ErrorReply("ERR increment would produce NaN or Infinity")
			return "", &r
		}
		sum.Add(cur, inc)
	} else {
		sum.Set(inc)
	}
	if sum.IsInf() || sum.MantExp(nil) > x87MaxExp {
		r := resp.ErrorReply("ERR increment would produce NaN or Infinity")
		return "", &r
	}
	return formatLongDouble(sum), nil
}

func incrbyfloatFixup(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) != 3 {
		return e.raw(peer, args)
	}
	cur := e.raw(peer, []string{"GET", args[1]})
	if cur.IsError() {
		return cur
	}
	v, errRep := addLongDouble(cur, args[2], errNotFloat)
	if errRep != nil {
		return *errRep
	}
	if r := e.raw(peer, []string{"SET", args[1], v, "KEEPTTL"}); r.IsError() {
		return r
	}
	return resp.BulkReply(v)
}

func hincrbyfloatFixup(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) != 4 {
		return e.raw(peer, args)
	}
	cur := e.raw(peer, []string{"HGET", args[1], args[2]})
	if cur.IsError() {
		return cur
	}
	// Redis refuses an infinite increment itself, before adding.
	if inc, ok := parseLongDouble(args[3]); ok && inc.IsInf() {
		return resp.ErrorReply("ERR value is NaN or Infinity")
	}
	v, errRep := addLongDouble(cur, args[3], "ERR hash value is not a float")
	if errRep != nil {
		return *errRep
	}
	if r := e.dispatch(peer, e.lookup("HSET"), []string{"HSET", args[1], args[2], v}); r.IsError() {
		return r
	}
	return resp.BulkReply(v)
}
