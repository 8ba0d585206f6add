package engine

import (
	"math"
	"strconv"
	"strings"
)

// Temporary: replaced by package lualib's conversions when it lands.

// StringToNumber reads s as Lua 5.1 does (C's strtod, hex integers).
func StringToNumber(s string) (float64, bool) {
	t := strings.Trim(s, " \t\n\v\f\r")
	if t == "" {
		return 0, false
	}
	body := strings.TrimLeft(t, "+-")
	if len(body) > 1 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X') && !strings.ContainsAny(body, "pP") {
		n, err := strconv.ParseUint(body[2:], 16, 64)
		if err != nil {
			return 0, false
		}
		f := float64(n)
		if t[0] == '-' {
			f = -f
		}
		return f, true
	}
	if strings.ContainsAny(t, "_") {
		return 0, false
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true
		}
		return 0, false
	}
	return f, true
}

// FormatNumber prints f with Lua 5.1's "%.14g".
func FormatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		if math.Signbit(f) {
			return "-nan"
		}
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'g', 14, 64)
	mant, exp, hasExp := strings.Cut(s, "e")
	if strings.Contains(mant, ".") {
		mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
	}
	if !hasExp {
		return mant
	}
	sign, digits := exp[:1], exp[1:]
	if len(digits) < 2 {
		digits = "0" + digits
	}
	return mant + "e" + sign + digits
}
