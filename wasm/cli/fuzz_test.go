package cli

import (
	"slices"
	"strings"
	"testing"
)

// refSplit is a reference for Split: sdssplitargs as sds.c's loop reads,
// one byte at a time with an in-double-quotes and an in-single-quotes
// flag, written apart from split.go. ok is false for a line redis-cli
// refuses.
func refSplit(line string) (args []string, ok bool) {
	if i := strings.IndexByte(line, 0); i >= 0 {
		line = line[:i]
	}
	at := func(i int) byte {
		if i < len(line) {
			return line[i]
		}
		return 0
	}
	space := func(c byte) bool { return strings.IndexByte(" \t\n\v\f\r", c) >= 0 && c != 0 }
	hex := func(c byte) int { return strings.IndexByte("0123456789abcdef0123456789ABCDEF", c) % 16 }
	p := 0
	for {
		for space(at(p)) {
			p++
		}
		if at(p) == 0 {
			return args, true
		}
		inq, insq, done := false, false, false
		var cur []byte
		for !done {
			c := at(p)
			switch {
			case inq:
				switch {
				case c == '\\' && at(p+1) == 'x' && strings.IndexByte(hexDigits, at(p+2)) >= 0 && strings.IndexByte(hexDigits, at(p+3)) >= 0:
					cur = append(cur, byte(hex(at(p+2))*16+hex(at(p+3))))
					p += 3
				case c == '\\' && at(p+1) != 0:
					p++
					e := at(p)
					if i := strings.IndexByte("nrtba", e); i >= 0 {
						e = "\n\r\t\b\a"[i]
					}
					cur = append(cur, e)
				case c == '"':
					if at(p+1) != 0 && !space(at(p+1)) {
						return nil, false
					}
					done = true
				case c == 0:
					return nil, false
				default:
					cur = append(cur, c)
				}
			case insq:
				switch {
				case c == '\\' && at(p+1) == '\'':
					p++
					cur = append(cur, '\'')
				case c == '\'':
					if at(p+1) != 0 && !space(at(p+1)) {
						return nil, false
					}
					done = true
				case c == 0:
					return nil, false
				default:
					cur = append(cur, c)
				}
			default:
				switch c {
				case ' ', '\n', '\r', '\t', 0:
					done = true
				case '"':
					inq = true
				case '\'':
					insq = true
				default:
					cur = append(cur, c)
				}
			}
			if at(p) != 0 {
				p++
			}
		}
		args = append(args, string(cur))
	}
}

const hexDigits = "0123456789abcdefABCDEF"

// FuzzSplit holds Split to the reference on any line: the same arguments,
// or both refuse it.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		`SET k "two words"`, `a"b c"`, `"a"b`, `'it\'s'`, `"\x41\x4"`, `"\q\n"`, `'\n'`, "a\vb", " \v\f ", `"open`,
		`"\`, "x\x00y", `''`, `""x`, "\"\\\"\"",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		got, err := Split(line)
		want, ok := refSplit(line)
		if (err == nil) != ok || err == nil && !slices.Equal(got, want) {
			t.Fatalf("Split(%q) = %q, %v; sdssplitargs gives %q, %v", line, got, err, want, ok)
		}
	})
}

// FuzzReprSplit holds the console's two halves to each other: a string
// redis-cli prints quoted (appendRepr, sdscatrepr) and a learner pastes
// back into a command line reads as the same string, NUL bytes and all.
func FuzzReprSplit(f *testing.F) {
	f.Add("plain", "two words", "\x00\xff\"\\\a\b\n\r\t€")
	f.Add("", "'", `\x41`)
	f.Fuzz(func(t *testing.T, a, b, c string) {
		var line []byte
		for _, s := range []string{a, b, c} {
			line = append(appendRepr(line, s), ' ')
		}
		got, err := Split(string(line))
		if err != nil || !slices.Equal(got, []string{a, b, c}) {
			t.Fatalf("%q printed as %s reads back as %q, %v", []string{a, b, c}, line, got, err)
		}
	})
}
