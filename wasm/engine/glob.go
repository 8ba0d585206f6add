package engine

// globMatch reports whether s matches the glob pattern p the way Redis 7.0's
// stringmatchlen does: byte by byte (not by character), with *, ?, [...]
// classes (^ to negate, a-z ranges in either order, \ to escape), and
// unterminated classes and trailing backslashes read as Redis reads them.
// miniredis compiles patterns to Go regexps instead, which matches by UTF-8
// character and panics on a class such as [b-a], so KEYS and the SCAN family
// go through this.
func globMatch(p, s string) bool {
	skipLonger := false
	return globFrom(p, s, &skipLonger, 0)
}

// at reads byte i of b, or 0 past its end, as C reads the terminator.
func at(b string, i int) byte {
	if i < len(b) {
		return b[i]
	}
	return 0
}

// globFrom matches from the start of p and s. skipLonger is Redis's shortcut:
// once a star has tried every suffix of s and failed, no longer match for an
// earlier star can succeed either.
func globFrom(p, s string, skipLonger *bool, nesting int) bool {
	// Redis gives up on patterns nested this deep rather than overflow.
	if nesting > 1000 {
		return false
	}
	for len(p) > 0 && len(s) > 0 {
		switch p[0] {
		case '*':
			for len(p) > 1 && p[1] == '*' {
				p = p[1:]
			}
			if len(p) == 1 {
				return true
			}
			for len(s) > 0 {
				if globFrom(p[1:], s, skipLonger, nesting+1) {
					return true
				}
				if *skipLonger {
					return false
				}
				s = s[1:]
			}
			*skipLonger = true
			return false
		case '?':
			s = s[1:]
		case '[':
			p = p[1:]
			negate := at(p, 0) == '^'
			if negate {
				p = p[1:]
			}
			matched := false
			for {
				if at(p, 0) == '\\' && len(p) >= 2 {
					p = p[1:]
					if p[0] == s[0] {
						matched = true
					}
				} else if at(p, 0) == ']' {
					break
				} else if len(p) == 0 {
					// An unterminated class ends the pattern; step back so
					// the advance below lands on its end.
					p = "]"
					break
				} else if len(p) >= 3 && p[1] == '-' {
					// Redis compares these as C chars, which are signed.
					lo, hi, c := int8(p[0]), int8(p[2]), int8(s[0])
					if lo > hi {
						lo, hi = hi, lo
					}
					p = p[2:]
					if c >= lo && c <= hi {
						matched = true
					}
				} else if p[0] == s[0] {
					matched = true
				}
				p = p[1:]
			}
			if negate {
				matched = !matched
			}
			if !matched {
				return false
			}
			s = s[1:]
		case '\\':
			if len(p) >= 2 {
				p = p[1:]
			}
			fallthrough
		default:
			if p[0] != s[0] {
				return false
			}
			s = s[1:]
		}
		p = p[1:]
		if len(s) == 0 {
			for len(p) > 0 && p[0] == '*' {
				p = p[1:]
			}
			break
		}
	}
	return len(p) == 0 && len(s) == 0
}
