package sdsargs

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// quote writes arg in double quotes with every byte as \xHH, which Split
// must read back as arg whatever its bytes.
func quote(arg string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(arg); i++ {
		fmt.Fprintf(&b, `\x%02x`, arg[i])
	}
	b.WriteByte('"')
	return b.String()
}

// FuzzSplit: any line splits or is refused with ErrInvalid, without a
// panic; the arguments of a line that splits, each written back quoted,
// split into the same arguments.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"", "set k v", `"a b" 'c\'d' e"f g"`, `"\x41\n"`, `"open`, `"a"b`, "#!lua name=x flags=no-writes", "a\tb\r\nc\vd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args, err := Split(line)
		if err != nil {
			if err != ErrInvalid {
				t.Fatalf("Split(%q): %v", line, err)
			}
			return
		}
		quoted := make([]string, len(args))
		for i, a := range args {
			quoted[i] = quote(a)
		}
		back, err := Split(strings.Join(quoted, " "))
		if err != nil || !slices.Equal(back, args) {
			t.Fatalf("Split(%q) = %q; quoted again it splits into %q, %v", line, args, back, err)
		}
	})
}

// FuzzQuote: whatever its bytes, an argument Quote writes splits back into
// exactly that one argument, alone and between two others.
func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "plain", "two words", "it's", `back\slash`, "\"q\"", "line\nbreak", "\x00nul", "\xff\xfe", "#!lua name=emq\nreturn 'x'\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		q := Quote(arg)
		if got, err := Split(q); err != nil || len(got) != 1 || got[0] != arg {
			t.Fatalf("Quote(%q) = %s, which splits into %q, %v", arg, q, got, err)
		}
		if got, err := Split("a " + q + " b"); err != nil || !slices.Equal(got, []string{"a", arg, "b"}) {
			t.Fatalf("a %s b splits into %q, %v", q, got, err)
		}
	})
}
