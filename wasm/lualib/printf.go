package lualib

import (
	"math"
	"strconv"
	"strings"
)

// printfSpec is one C printf conversion's flags, width and precision, for
// formatting the way glibc does.
type printfSpec struct {
	minus, plus, space, hash, zero bool
	width                          int
	prec                           int // -1: none given
}

// parseSpec reads the flags, width and precision of a conversion that
// string.format has already checked (at most two digits each).
func parseSpec(s string) printfSpec {
	sp := printfSpec{prec: -1}
	i := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '-':
			sp.minus = true
		case '+':
			sp.plus = true
		case ' ':
			sp.space = true
		case '#':
			sp.hash = true
		case '0':
			sp.zero = true
		default:
			goto width
		}
	}
width:
	for ; i < len(s) && isDigit(s[i]); i++ {
		sp.width = sp.width*10 + int(s[i]-'0')
	}
	if i < len(s) && s[i] == '.' {
		sp.prec = 0
		for i++; i < len(s) && isDigit(s[i]); i++ {
			sp.prec = sp.prec*10 + int(s[i]-'0')
		}
	}
	return sp
}

// pad lays out a converted item in the field width. sign and prefix come
// before any zeros the 0 flag adds.
func (sp printfSpec) pad(sign, prefix, body string, zeroOK bool) string {
	n := len(sign) + len(prefix) + len(body)
	if n >= sp.width {
		return sign + prefix + body
	}
	fill := sp.width - n
	switch {
	case sp.minus:
		return sign + prefix + body + strings.Repeat(" ", fill)
	case sp.zero && zeroOK:
		return sign + prefix + strings.Repeat("0", fill) + body
	default:
		return strings.Repeat(" ", fill) + sign + prefix + body
	}
}

func (sp printfSpec) sign(neg bool) string {
	switch {
	case neg:
		return "-"
	case sp.plus:
		return "+"
	case sp.space:
		return " "
	}
	return ""
}

// float formats f for the conversions e, E, f, g and G.
func (sp printfSpec) float(f float64, verb byte) string {
	neg := math.Signbit(f)
	upper := verb == 'E' || verb == 'G'
	var body string
	switch {
	case math.IsNaN(f):
		body = "nan"
	case math.IsInf(f, 0):
		body = "inf"
	default:
		body = sp.finite(math.Abs(f), verb|0x20)
	}
	if upper {
		body = strings.ToUpper(body)
	}
	finite := !math.IsNaN(f) && !math.IsInf(f, 0)
	return sp.pad(sp.sign(neg), "", body, finite)
}

// finite formats a non-negative finite a for e, f or g (lower case).
func (sp printfSpec) finite(a float64, verb byte) string {
	prec := sp.prec
	if prec < 0 {
		prec = 6
	}
	switch verb {
	case 'f':
		s := strconv.FormatFloat(a, 'f', prec, 64)
		if sp.hash && prec == 0 {
			s += "."
		}
		return s
	case 'e':
		return sp.exp(a, prec)
	}
	// g: precision P (0 counts as 1); the exponent X it would have in e
	// style decides between f style with P-1-X decimals and e style.
	p := prec
	if p == 0 {
		p = 1
	}
	x := 0
	if a != 0 {
		e := strconv.FormatFloat(a, 'e', p-1, 64)
		x, _ = strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	}
	var s string
	if p > x && x >= -4 {
		s = strconv.FormatFloat(a, 'f', p-1-x, 64)
		if sp.hash && !strings.Contains(s, ".") {
			s += "."
		}
	} else {
		s = sp.exp(a, p-1)
	}
	if !sp.hash {
		s = trimFraction(s)
	}
	return s
}

// exp is e style with at least two exponent digits, as C prints it.
func (sp printfSpec) exp(a float64, prec int) string {
	s := strconv.FormatFloat(a, 'e', prec, 64) // Go, too, writes e+00
	if sp.hash && prec == 0 {
		i := strings.IndexByte(s, 'e')
		s = s[:i] + "." + s[i:]
	}
	return s
}

// trimFraction drops the trailing zeros of a fraction, and its point if
// nothing is left of it, keeping any exponent.
func trimFraction(s string) string {
	mant, exp := s, ""
	if i := strings.IndexByte(s, 'e'); i >= 0 {
		mant, exp = s[:i], s[i:]
	}
	if strings.IndexByte(mant, '.') >= 0 {
		mant = strings.TrimRight(mant, "0")
		mant = strings.TrimSuffix(mant, ".")
	}
	return mant + exp
}

// signedInt formats v for d and i.
func (sp printfSpec) signedInt(v int64) string {
	mag := uint64(v)
	if v < 0 {
		mag = -mag
	}
	return sp.pad(sp.sign(v < 0), "", sp.digits(strconv.FormatUint(mag, 10), mag == 0), sp.prec < 0)
}

// unsignedInt formats v for o, u, x and X.
func (sp printfSpec) unsignedInt(v uint64, verb byte) string {
	base := map[byte]int{'o': 8, 'u': 10, 'x': 16, 'X': 16}[verb]
	s := strconv.FormatUint(v, base)
	if verb == 'X' {
		s = strings.ToUpper(s)
	}
	s = sp.digits(s, v == 0)
	prefix := ""
	if sp.hash {
		switch {
		case verb == 'o' && !strings.HasPrefix(s, "0"):
			s = "0" + s
		case verb == 'x' && v != 0:
			prefix = "0x"
		case verb == 'X' && v != 0:
			prefix = "0X"
		}
	}
	return sp.pad("", prefix, s, sp.prec < 0)
}

// digits applies an integer conversion's precision: the least number of
// digits, where a precision of 0 prints nothing for zero.
func (sp printfSpec) digits(s string, zero bool) string {
	if sp.prec < 0 {
		return s
	}
	if zero && sp.prec == 0 {
		return ""
	}
	if len(s) < sp.prec {
		s = strings.Repeat("0", sp.prec-len(s)) + s
	}
	return s
}

// str formats s for the s conversion (glibc pads strings with spaces even
// under the 0 flag).
func (sp printfSpec) str(s string) string {
	if sp.prec >= 0 && len(s) > sp.prec {
		s = s[:sp.prec]
	}
	return sp.pad("", "", s, false)
}
