package engine

import "strings"

// underflowed reports whether strtod, reading s (a number it read whole
// as 0), underflowed to get there: s has a digit that is not zero before
// its exponent, so the true value was not 0 and C set ERANGE. Redis
// refuses such a score ("1e-400" is not a valid float to ZADD) where Go's
// parsers quietly give 0.
func underflowed(s string) bool {
	m := strings.TrimLeft(s, "+-")
	digits, marker := "123456789", "eE"
	if len(m) > 1 && m[0] == '0' && (m[1] == 'x' || m[1] == 'X') {
		m, digits, marker = m[2:], "123456789abcdefABCDEF", "pP"
	}
	if i := strings.IndexAny(m, marker); i >= 0 {
		m = m[:i]
	}
	return strings.ContainsAny(m, digits)
}
