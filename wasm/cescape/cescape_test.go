package cescape

import "testing"

func TestLetter(t *testing.T) {
	for _, tc := range []struct {
		desc     string
		c        byte
		accepted string
		want     byte
		ok       bool
	}{
		{"Lua's bell", 'a', "abfnrtv", '\a', true},
		{"backspace", 'b', "bfnrt", '\b', true},
		{"form feed", 'f', "bfnrt", '\f', true},
		{"newline", 'n', "abnrt", '\n', true},
		{"carriage return", 'r', "abnrt", '\r', true},
		{"tab", 't', "bfnrt", '\t', true},
		{"Lua's vertical tab", 'v', "abfnrtv", '\v', true},
		{"JSON has no \\a", 'a', "bfnrt", 0, false},
		{"JSON has no \\v", 'v', "bfnrt", 0, false},
		{"redis-cli has no \\f", 'f', "abnrt", 0, false},
		{"a quote is not a letter escape", '"', "abfnrtv", 0, false},
		{"a letter that is not C's, even if a reader lists it", 'x', "x", 0, false},
	} {
		got, ok := Letter(tc.c, tc.accepted)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: Letter(%q, %q) = %q, %v; want %q, %v", tc.desc, tc.c, tc.accepted, got, ok, tc.want, tc.ok)
		}
	}
}
