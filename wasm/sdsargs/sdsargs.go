// Package sdsargs splits a line into arguments as Redis's sdssplitargs
// does: redis-cli's prompt reads a typed line with it (wasm/cli), and
// Redis reads a function library's first line with it (wasm/engine). It
// is a package of its own so that both can use the one splitter.
package sdsargs

import (
	"errors"
	"strings"

	"echomq.dev/playground/wasm/cescape"
)

// ErrInvalid is returned by Split for a line redis-cli refuses to send: an
// unbalanced quote, or a closing quote with a character right after it.
// Its text is what redis-cli prints for such a line.
var ErrInvalid = errors.New("Invalid argument(s)")

// Split cuts a line into arguments as redis-cli's prompt does (sdssplitargs
// in Redis's sds.c):
//
//   - arguments are separated by white space;
//   - "double quotes" take the escapes \n \r \t \b \a, \xHH for any byte,
//     and a backslash before any other character stands for that character;
//   - 'single quotes' take only \' and keep every other byte as it is;
//   - a quote may start in the middle of an argument (a"b c" is `ab c`),
//     but a closing quote must be followed by white space or the end.
//
// A line of only white space gives no arguments and no error. C reads the
// line as a C string, so a NUL byte ends it here too.
func Split(line string) ([]string, error) {
	s := splitter{line: line}
	if i := strings.IndexByte(line, 0); i >= 0 {
		s.line = line[:i]
	}
	var args []string
	for {
		s.skipSpace()
		if s.done() {
			return args, nil
		}
		arg, err := s.token()
		if err != nil {
			return nil, err
		}
		args = append(args, arg)
	}
}

// splitter walks a line byte by byte, as the C code does: arguments are
// bytes, not runes, so UTF-8 passes through untouched.
type splitter struct {
	line string
	i    int
}

func (s *splitter) done() bool { return s.i >= len(s.line) }

// at is the byte at i, or 0 past the end, the way C sees the string's
// terminator.
func (s *splitter) at(i int) byte {
	if i < len(s.line) {
		return s.line[i]
	}
	return 0
}

func (s *splitter) skipSpace() {
	for !s.done() && isSpace(s.line[s.i]) {
		s.i++
	}
}

// token reads one argument, quoted parts and all.
func (s *splitter) token() (string, error) {
	var out []byte
	for {
		c := s.at(s.i)
		switch c {
		case ' ', '\n', '\r', '\t', 0:
			// sdssplitargs ends an unquoted stretch on these four only; a
			// vertical tab or form feed belongs to the argument.
			return string(out), nil
		case '"', '\'':
			s.i++
			part, err := s.quoted(c)
			if err != nil {
				return "", err
			}
			out = append(out, part...)
			return string(out), nil
		default:
			out = append(out, c)
			s.i++
		}
	}
}

// quoted reads from just after an opening quote q (" or ') to just after
// the closing one, with the escapes that quote knows.
func (s *splitter) quoted(q byte) ([]byte, error) {
	escape := s.doubleEscape
	if q == '\'' {
		escape = s.singleEscape
	}
	var out []byte
	for {
		c := s.at(s.i)
		if c == 0 {
			return nil, ErrInvalid // the line ended inside the quotes
		}
		if b, n := escape(); n > 0 {
			out = append(out, b)
			s.i += n
			continue
		}
		if c == q {
			return out, s.closeQuote()
		}
		out = append(out, c)
		s.i++
	}
}

// doubleEscape is the byte the escape at s.i inside double quotes stands
// for, and its length; 0 when no escape starts there.
func (s *splitter) doubleEscape() (byte, int) {
	switch {
	case s.at(s.i) != '\\':
		return 0, 0
	case s.at(s.i+1) == 'x' && isHex(s.at(s.i+2)) && isHex(s.at(s.i+3)):
		return unhex(s.at(s.i+2))<<4 | unhex(s.at(s.i+3)), 4
	case s.at(s.i+1) != 0:
		return unescape(s.at(s.i + 1)), 2
	}
	return 0, 0
}

// singleEscape is doubleEscape inside single quotes, where only \' is an
// escape; every other backslash is kept.
func (s *splitter) singleEscape() (byte, int) {
	if s.at(s.i) == '\\' && s.at(s.i+1) == '\'' {
		return '\'', 2
	}
	return 0, 0
}

// closeQuote steps over a closing quote, which must end the argument:
// redis-cli refuses "a"b rather than guess what was meant.
func (s *splitter) closeQuote() error {
	s.i++
	if next := s.at(s.i); next != 0 && !isSpace(next) {
		return ErrInvalid
	}
	return nil
}

// unescape is the byte a backslash escape inside double quotes stands for:
// one of the C letters redis-cli knows (no \f and no \v), or else the
// character itself.
func unescape(c byte) byte {
	if l, ok := cescape.Letter(c, "abnrt"); ok {
		return l
	}
	return c
}

// isSpace is C's isspace in the C locale, which redis-cli runs in.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// Quote writes arg as one argument of a line Split reads back as exactly
// arg: as it is when it is a plain word, in 'single quotes' when only
// printable bytes without ' or \ need them, and otherwise in "double
// quotes" with " and \ escaped and every byte outside printable ASCII as
// \xHH. The console's own lines (the command cards' examples, the Load
// button's FUNCTION LOAD) are written with it, so a learner can type them.
func Quote(arg string) string {
	plain, printable := arg != "", true
	for i := 0; i < len(arg); i++ {
		c := arg[i]
		if c <= ' ' || c == '"' || c == '\'' || c == '\\' || c > '~' {
			plain = false
		}
		if c < ' ' || c > '~' {
			printable = false
		}
	}
	switch {
	case plain:
		return arg
	case printable && !strings.ContainsAny(arg, `'\`):
		return "'" + arg + "'"
	}
	const hex = "0123456789abcdef"
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(arg); i++ {
		switch c := arg[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < ' ' || c > '~':
			b.WriteString(`\x`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
