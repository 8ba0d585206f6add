package ascii

import (
	"strings"
	"testing"
	"unicode"
)

func TestFoldsASCIIOnly(t *testing.T) {
	for _, tc := range []struct {
		desc, in, upper, lower string
	}{
		{"plain", "Set", "SET", "set"},
		{"nothing to change", "GET", "GET", "get"},
		{"long s stays", "\u017fet", "\u017fET", "\u017fet"},
		{"dotless i stays", "\u0131ncr", "\u0131NCR", "\u0131ncr"},
		{"dotted capital I stays", "\u0130NCR", "\u0130NCR", "\u0130ncr"},
		{"Kelvin sign stays", "\u212aEEPTTL", "\u212aEEPTTL", "\u212aeepttl"},
		{"bytes that are not UTF-8 stay", "a\xffb", "A\xffB", "a\xffb"},
		{"only letters move", "a-z_[@`{", "A-Z_[@`{", "a-z_[@`{"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if got := Upper(tc.in); got != tc.upper {
				t.Errorf("Upper(%q) = %q, want %q", tc.in, got, tc.upper)
			}
			if got := Lower(tc.in); got != tc.lower {
				t.Errorf("Lower(%q) = %q, want %q", tc.in, got, tc.lower)
			}
		})
	}
}

func TestEqualFoldIsStrcasecmp(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"match", "MATCH", true},
		{"MaTcH", "match", true},
		{"\u017fet", "SET", false},
		{"\u212aeepttl", "KEEPTTL", false},
		{"set", "sets", false},
		{"@", "`", false}, // 0x40 and 0x60 differ by the case bit, and are not letters
		{"[", "{", false},
	} {
		if got := EqualFold(tc.a, tc.b); got != tc.want {
			t.Errorf("EqualFold(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestEveryCharacterGoFoldsToASCII is where the package's reason is
// checked: the characters outside ASCII that Go's Unicode case mapping
// turns into an ASCII letter are exactly the four the doc names, and none
// of them folds here. A Go release that adds one fails this test.
func TestEveryCharacterGoFoldsToASCII(t *testing.T) {
	var got []rune
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		s := string(r)
		folds := false
		for _, f := range []string{strings.ToUpper(s), strings.ToLower(s)} {
			folds = folds || len(f) == 1 && f[0] < 0x80
		}
		for c := byte('A'); c <= 'Z'; c++ {
			folds = folds || strings.EqualFold(s, string(c))
		}
		if folds {
			got = append(got, r)
			if Upper(s) != s || Lower(s) != s {
				t.Errorf("%q (U+%04X) folds here", s, r)
			}
		}
	}
	want := []rune{0x130, 0x131, 0x17f, 0x212a}
	if string(got) != string(want) {
		t.Errorf("Go folds %q (%U) to ASCII letters; want %q", string(got), got, string(want))
	}
}
