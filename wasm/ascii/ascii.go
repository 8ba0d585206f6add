// Package ascii folds case the way Redis does: in ASCII only, byte by
// byte, as C's strcasecmp, toupper and tolower do in the C locale.
//
// Go's strings.ToUpper, ToLower and EqualFold follow Unicode instead, and
// four characters fold to ASCII letters there: ſ (U+017F, long s) and ı
// (U+0131, dotless i) upper-case to S and I, İ (U+0130) lower-cases to i,
// and K (U+212A, the Kelvin sign) lower-cases to k; EqualFold takes ſ for
// s and K for k. For Redis none of them is a letter it knows, so "ſet" is
// an unknown command and "SET k v KEEPTTL" spelt with the Kelvin sign a
// syntax error. Every comparison of a command's name, a subcommand or an
// option in the engine goes through here. (Bytes that are not UTF-8 stay
// as they are, where strings.ToUpper would write U+FFFD for them.)
package ascii

// Upper is s with a to z in upper case and every other byte unchanged. It
// allocates only when s has a lower-case letter.
func Upper(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'a' <= c && c <= 'z' {
			return mapFrom(s, i, 'a', 'z')
		}
	}
	return s
}

// Lower is s with A to Z in lower case and every other byte unchanged. It
// allocates only when s has an upper-case letter.
func Lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			return mapFrom(s, i, 'A', 'Z')
		}
	}
	return s
}

// mapFrom flips the case of the letters from first to last in s, from
// byte i on.
func mapFrom(s string, i int, first, last byte) string {
	b := []byte(s)
	for ; i < len(b); i++ {
		if c := b[i]; first <= c && c <= last {
			b[i] = c ^ 0x20
		}
	}
	return string(b)
}

// EqualFold reports whether a and b are the same bytes but for the case
// of ASCII letters: C's strcasecmp(a, b) == 0, for strings without a NUL.
func EqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lower(a[i]) != lower(b[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c | 0x20
	}
	return c
}
