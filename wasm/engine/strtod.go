package engine

import (
	"strconv"
	"strings"
)

func isCSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// strtod reads all of s the way C's strtod reads a number: decimal with an
// optional exponent, inf, infinity, nan (any case), and hexadecimal with an
// optional binary exponent (0x10, 0x1.8p3). It reports false when any of s
// is left over. Overflow gives ±inf with ok false, as ERANGE does.
func strtod(s string) (float64, bool) {
	t := s
	sign := ""
	if t != "" && (t[0] == '+' || t[0] == '-') {
		sign, t = t[:1], t[1:]
	}
	low := strings.ToLower(t)
	switch low {
	case "inf", "infinity":
		f, _ := strconv.ParseFloat(sign+"inf", 64)
		return f, true
	case "nan":
		f, _ := strconv.ParseFloat("nan", 64)
		return f, true
	}
	if strings.HasPrefix(low, "0x") {
		if !strings.Contains(low, "p") {
			low += "p0" // Go wants the binary exponent C lets you leave out
		}
		if strings.ContainsRune(low, '_') {
			return 0, false
		}
		f, err := strconv.ParseFloat(sign+low, 64)
		return f, err == nil
	}
	for i := 0; i < len(t); i++ {
		c := t[i]
		if !(c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(sign+t, 64)
	return f, err == nil
}
