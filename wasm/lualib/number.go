package lualib

import (
	"math"
	"strconv"

	"echomq.dev/playground/wasm/ascii"
)

// The NaNs C code on x86-64 meets: 0/0 yields the negative one (glibc
// prints it "-nan"), strtod("nan") the positive one. Go's math.NaN() has a
// payload bit set that LuaBitOp would see, so it is not used.
var (
	posNaN = math.Float64frombits(0x7ff8000000000000)
	negNaN = math.Float64frombits(0xfff8000000000000)
)

// FormatNumber prints f as Lua 5.1 does (LUA_NUMBER_FMT, "%.14g"), the way
// glibc prints it in Redis: 1e+15, 0.33333333333333, -0, inf, -inf, and
// "nan" or "-nan" by the sign of the NaN (0/0 on x86-64 is "-nan").
func FormatNumber(f float64) string {
	if plainInteger(f) {
		return strconv.FormatInt(int64(f), 10) // the common case, quickly
	}
	return printfSpec{prec: 14}.float(f, 'g')
}

// AppendNumber appends FormatNumber(f) to dst. Concatenation uses it to
// write a number into the string it builds without making the number's own
// string first: 'k' .. i in a script's loop then costs one string, not two.
func AppendNumber(dst []byte, f float64) []byte {
	if plainInteger(f) {
		return strconv.AppendInt(dst, int64(f), 10)
	}
	return append(dst, FormatNumber(f)...)
}

// plainInteger reports whether %.14g prints f as its integer digits.
func plainInteger(f float64) bool {
	return f == math.Trunc(f) && math.Abs(f) < 1e14 && !(f == 0 && math.Signbit(f))
}

// StringToNumber converts s as Lua 5.1 does (luaO_str2d): C's strtod on
// the string up to its first NUL, so leading white space, a sign, decimal
// with an exponent, "inf", "infinity" and "nan" in any case, and C99 hex
// floats (0x10, 0x1p4, 0x.8); then nothing but white space may follow.
// "010" is 10; "0b11", "1_000", "1e" and "" are not numbers.
func StringToNumber(s string) (float64, bool) {
	if f, ok := plainDecimal(s); ok {
		return f, true
	}
	s = cString(s)
	i := skipSpace(s, 0)
	f, n := strtod(s[i:])
	if n == 0 {
		return 0, false
	}
	if skipSpace(s, i+n) != len(s) {
		return 0, false
	}
	return f, true
}

// plainDecimal reads the strings scripts convert most (a timestamp from
// TIME, a count, a lease): an optional sign and 1 to 15 decimal digits,
// nothing else. Such a number is exact in a double, so adding up its
// digits gives what strtod gives, without the general parse.
func plainDecimal(s string) (float64, bool) {
	i, neg := 0, false
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		i, neg = 1, s[0] == '-'
	}
	if len(s) == i || len(s)-i > 15 {
		return 0, false
	}
	var n int64
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	f := float64(n)
	if neg {
		f = -f // "-0" is minus zero, as strtod reads it
	}
	return f, true
}

// IsSpace is C's isspace in the C locale: what strtod and Redis's number
// parsers skip or refuse as blank.
func IsSpace(c byte) bool {
	return c == ' ' || c >= '\t' && c <= '\r'
}

func skipSpace(s string, i int) int {
	for i < len(s) && IsSpace(s[i]) {
		i++
	}
	return i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHexDigit(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && ascii.EqualFold(s[:len(prefix)], prefix)
}

// strtod parses the longest prefix of s that C's strtod accepts (without
// the leading white space, which the callers skip) and returns its value
// and length; a length of 0 means no number.
func strtod(s string) (float64, int) {
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	rest := s[i:]
	switch {
	case hasPrefixFold(rest, "infinity"):
		return signed(math.Inf(1), neg), i + 8
	case hasPrefixFold(rest, "inf"):
		return signed(math.Inf(1), neg), i + 3
	case hasPrefixFold(rest, "nan"):
		n := i + 3
		if n < len(s) && s[n] == '(' {
			j := n + 1
			for j < len(s) && (isDigit(s[j]) || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] == '_') {
				j++
			}
			if j < len(s) && s[j] == ')' {
				n = j + 1
			}
		}
		if neg {
			return negNaN, n
		}
		return posNaN, n
	case len(rest) >= 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X'):
		if f, n := hexFloat(rest[2:]); n > 0 {
			return signed(f, neg), i + 2 + n
		}
		return signed(0, neg), i + 1 // just the "0"
	}
	j, digits := mantissa(s, i, isDigit)
	if digits == 0 {
		return 0, 0
	}
	j = exponent(s, j, 'e')
	f, err := strconv.ParseFloat(s[i:j], 64)
	if err != nil && !isRangeError(err) {
		return 0, 0
	}
	return signed(f, neg), j
}

// mantissa is where the digits of a number from i end, with at most one
// point among them, and how many digits there are (none: not a number).
func mantissa(s string, i int, digit func(byte) bool) (end, digits int) {
	j := i
	for j < len(s) && digit(s[j]) {
		j++
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && digit(s[j]) {
			j++
		}
		return j, j - i - 1
	}
	return j, j - i
}

// exponent extends a number that ends at j over an exponent marked by
// letter (e or p), if a complete one follows.
func exponent(s string, j int, letter byte) int {
	if j < len(s) && (s[j] == letter || s[j] == letter-'a'+'A') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			return k
		}
	}
	return j
}

// hexFloat parses the part of a C99 hex float after "0x".
func hexFloat(s string) (float64, int) {
	j, digits := mantissa(s, 0, isHexDigit)
	if digits == 0 {
		return 0, 0
	}
	mant := s[:j]
	k := exponent(s, j, 'p')
	exp := "p0"
	if k > j {
		exp = s[j:k]
	}
	// Go's parser wants an exponent; it also allows underscores, which
	// cannot be in mant or exp here.
	f, err := strconv.ParseFloat("0x"+mant+exp, 64)
	if err != nil && !isRangeError(err) {
		return 0, 0
	}
	return f, k
}

func isRangeError(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func signed(f float64, neg bool) float64 {
	if neg {
		return -f
	}
	return f
}

// strtoul parses as C's strtoul with a base from 2 to 36 and returns the
// value and the length parsed (0 when there are no digits). Out of range
// values saturate; a minus sign negates in unsigned arithmetic.
func strtoul(s string, base int) (uint64, int) {
	i := skipSpace(s, 0)
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	if base == 16 && i+2 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') && isHexDigit(s[i+2]) {
		i += 2
	}
	start := i
	var v uint64
	overflow := false
	for ; i < len(s); i++ {
		d := digitValue(s[i])
		if d >= base {
			break
		}
		hi, lo := mulAdd(v, uint64(base), uint64(d))
		if hi != 0 {
			overflow = true
		}
		v = lo
	}
	if i == start {
		return 0, 0
	}
	if overflow {
		return math.MaxUint64, i
	}
	if neg {
		v = -v
	}
	return v, i
}

func mulAdd(v, m, a uint64) (hi, lo uint64) {
	if v > (math.MaxUint64-a)/m {
		return 1, 0
	}
	return 0, v*m + a
}

func digitValue(c byte) int {
	switch {
	case isDigit(c):
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return 99
}

// Strtod is C's strtod on s, which must not start with white space: the
// value of its longest number prefix and that prefix's length, 0 for no
// number. Telling an overflow or underflow (ERANGE) is the caller's part.
func Strtod(s string) (float64, int) { return strtod(s) }
