package resp

import (
	"math"
	"strconv"
	"strings"
)

// FormatDouble formats f as C's printf("%.17g") does, which is how Redis
// 7.0 prints a double: a score in a reply, or a Lua number a script passes
// to redis.call. Integral values print without an exponent up to 17 digits
// (1767225630000, where miniredis prints 1.76722563e+12).
func FormatDouble(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		// glibc prints a NaN's sign: x86's 0/0 has it set.
		if math.Signbit(f) {
			return "-nan"
		}
		return "nan"
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e15 && !(f == 0 && math.Signbit(f)) {
		// A whole number below 10^15 is exact in a double and has fewer
		// than 17 digits, so %.17g prints its digits and nothing else;
		// FormatInt does that without the float formatting. (The common
		// case: a ZADD score of 0, a deadline, an HINCRBY step.)
		return strconv.FormatInt(int64(f), 10)
	}
	s := strconv.FormatFloat(f, 'g', 17, 64)
	mant, exp, hasExp := strings.Cut(s, "e")
	// C drops the trailing zeros of %g's fraction; Go keeps them when the
	// precision is explicit.
	if strings.Contains(mant, ".") {
		mant = strings.TrimRight(mant, "0")
		mant = strings.TrimSuffix(mant, ".")
	}
	if !hasExp {
		return mant
	}
	// C writes at least two exponent digits: e+20, e-05.
	sign, digits := exp[:1], exp[1:]
	if len(digits) < 2 {
		digits = "0" + digits
	}
	return mant + "e" + sign + digits
}

// NormalizeScore reprints a score another server formatted its own way as
// Redis 7 prints it. Text that is not a number is returned as it is.
func NormalizeScore(s string) string {
	if PlainInteger(s) {
		return s // already as Redis prints it (the common case: 0, deadlines)
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return s
	}
	return FormatDouble(f)
}

// PlainInteger reports whether s is an integer of up to 15 digits with no
// sign but '-', no leading zero and no exponent: a double that %.17g prints
// back as the same text.
func PlainInteger(s string) bool {
	d := strings.TrimPrefix(s, "-")
	if d == "" || len(d) > 15 || len(d) > 1 && d[0] == '0' || d == "0" && len(s) != 1 {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}
