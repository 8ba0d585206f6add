package luasyntax

import (
	"strconv"
	"strings"

	"echomq.dev/playground/wasm/cescape"
)

// tokenKind is a token as Lua 5.1's lexer numbers them: a character token
// is its own byte value, everything longer comes after the bytes. Keeping
// characters as themselves is what lets an error show any byte, even a
// control character or a NUL, the way Lua 5.1 does.
type tokenKind int

const (
	// Reserved words, in Lua 5.1's list: goto is not one of them.
	tkAnd tokenKind = 256 + iota
	tkBreak
	tkDo
	tkElse
	tkElseif
	tkEnd
	tkFalse
	tkFor
	tkFunction
	tkIf
	tkIn
	tkLocal
	tkNil
	tkNot
	tkOr
	tkRepeat
	tkReturn
	tkThen
	tkTrue
	tkUntil
	tkWhile
	// Multi-character symbols and the tokens with a value.
	tkConcat
	tkDots
	tkEq
	tkGe
	tkLe
	tkNe
	tkNumber
	tkName
	tkString
	tkEOS
)

// tokenNames are the words an error message uses for the tokens after the
// bytes, in the order of the constants above.
var tokenNames = [...]string{
	"and", "break", "do", "else", "elseif", "end", "false", "for", "function",
	"if", "in", "local", "nil", "not", "or", "repeat", "return", "then", "true",
	"until", "while",
	"..", "...", "==", ">=", "<=", "~=", "<number>", "<name>", "<string>", "<eof>",
}

// String is the token as a message names it, in "'X' expected" and as the
// near part of an error at a token without text of its own.
func (k tokenKind) String() string {
	if k >= tkAnd {
		return tokenNames[k-tkAnd]
	}
	if k < ' ' || k == 0x7f { // iscntrl in the C locale
		return "char(" + strconv.Itoa(int(k)) + ")"
	}
	return string([]byte{byte(k)})
}

// reserved returns the reserved word a name is, or tkName.
func reserved(name string) tokenKind {
	switch name {
	case "and":
		return tkAnd
	case "break":
		return tkBreak
	case "do":
		return tkDo
	case "else":
		return tkElse
	case "elseif":
		return tkElseif
	case "end":
		return tkEnd
	case "false":
		return tkFalse
	case "for":
		return tkFor
	case "function":
		return tkFunction
	case "if":
		return tkIf
	case "in":
		return tkIn
	case "local":
		return tkLocal
	case "nil":
		return tkNil
	case "not":
		return tkNot
	case "or":
		return tkOr
	case "repeat":
		return tkRepeat
	case "return":
		return tkReturn
	case "then":
		return tkThen
	case "true":
		return tkTrue
	case "until":
		return tkUntil
	case "while":
		return tkWhile
	}
	return tkName
}

// token is one token and where its text is in the source.
type token struct {
	kind       tokenKind
	start, end int
}

// lexer reads tokens from a chunk. It keeps no copy of any token: names,
// numbers and strings are spans of the source, and the text an error shows
// for a string is rebuilt from its span only when there is an error.
type lexer struct {
	src  string
	pos  int // the next byte to read
	line int // the line pos is on, which is the line Lua 5.1 reports
	// text is the span of the last name, number or string read. Lua 5.1
	// shows its buffer, which holds the last token lexed (the lookahead,
	// if there is one), not necessarily the current token.
	text token
}

// eoz stands for the end of the chunk where a byte is expected.
const eoz = -1

func (lx *lexer) at(i int) int {
	if i < len(lx.src) {
		return int(lx.src[i])
	}
	return eoz
}

func isNewline(c int) bool { return c == '\n' || c == '\r' }
func isDigit(c int) bool   { return '0' <= c && c <= '9' }
func isAlpha(c int) bool   { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isAlnum(c int) bool   { return isAlpha(c) || isDigit(c) }

// oneOf reports whether c is one of the bytes in set, or NUL. Lua 5.1
// looks a byte up in a set with C's strchr, which finds a NUL in every
// set (it ends the string), so a NUL can stand for the second dot of
// "..", the third of "...", and for a number's exponent letter and sign:
// in Redis "return 1\x00 + 2" is 1 + 2, and "a.\x00b" is a .. b.
func oneOf(c int, set string) bool {
	return c == 0 || c >= 0 && strings.IndexByte(set, byte(c)) >= 0
}

func isDot(c int) bool { return oneOf(c, ".") }

// newline steps over one line break: "\n", "\r", "\r\n" or "\n\r".
func (lx *lexer) newline() {
	lx.pos += breakLen(lx.src[lx.pos:])
	lx.line++
	// Lua 5.1 also stops at "chunk has too many lines", after INT_MAX-2
	// lines; a Redis argument is at most 512 MB, which is fewer lines.
}

// fail raises a lexical error near the text of the token being read, as
// far as it was read, or near "<eof>".
func (lx *lexer) fail(msg, near string) {
	panic(&Error{Line: lx.line, Msg: msg, Near: cut(near), HasNear: true})
}

// next reads the next token.
func (lx *lexer) next() token {
	for {
		start := lx.pos
		c := lx.at(start)
		switch c {
		case eoz:
			return token{kind: tkEOS, start: start, end: start}
		case '\n', '\r':
			lx.newline()
			continue
		case '-':
			if lx.at(start+1) != '-' {
				return lx.char(start)
			}
			lx.comment()
			continue
		case '[':
			level := lx.bracketLevel(start)
			switch {
			case level >= 0:
				lx.longBracket(level, true)
				return lx.valued(tkString, start)
			case level == -1:
				return lx.char(start)
			}
			lx.fail("invalid long string delimiter", lx.src[start:lx.pos])
		case '=':
			return lx.pair(start, '=', tkEq)
		case '<':
			return lx.pair(start, '=', tkLe)
		case '>':
			return lx.pair(start, '=', tkGe)
		case '~':
			return lx.pair(start, '=', tkNe)
		case '"', '\'':
			lx.shortString(start)
			return lx.valued(tkString, start)
		case '.':
			switch {
			case isDot(lx.at(start+1)) && isDot(lx.at(start+2)):
				lx.pos += 3
				return token{kind: tkDots, start: start, end: lx.pos}
			case isDot(lx.at(start + 1)):
				lx.pos += 2
				return token{kind: tkConcat, start: start, end: lx.pos}
			case isDigit(lx.at(start + 1)):
				lx.numeral(start)
				return lx.valued(tkNumber, start)
			}
			return lx.char(start)
		case ' ', '\t', '\v', '\f':
			lx.pos++
			continue
		}
		switch {
		case isDigit(c):
			lx.numeral(start)
			return lx.valued(tkNumber, start)
		case isAlpha(c) || c == '_':
			for lx.pos++; isAlnum(lx.at(lx.pos)) || lx.at(lx.pos) == '_'; lx.pos++ {
			}
			kind := reserved(lx.src[start:lx.pos])
			if kind == tkName {
				return lx.valued(tkName, start)
			}
			return token{kind: kind, start: start, end: lx.pos}
		}
		return lx.char(start)
	}
}

// char is the one-byte token at start.
func (lx *lexer) char(start int) token {
	lx.pos = start + 1
	return token{kind: tokenKind(lx.src[start]), start: start, end: lx.pos}
}

// pair is the token at start, which is kind when followed by second.
func (lx *lexer) pair(start int, second byte, kind tokenKind) token {
	if lx.at(start+1) == int(second) {
		lx.pos = start + 2
		return token{kind: kind, start: start, end: lx.pos}
	}
	return lx.char(start)
}

// valued is a name, number or string ending at pos, which becomes the
// text an error near it shows.
func (lx *lexer) valued(kind tokenKind, start int) token {
	t := token{kind: kind, start: start, end: lx.pos}
	lx.text = t
	return t
}

// comment skips a comment starting at "--": a long bracket right after the
// dashes makes a long comment, anything else runs to the end of the line.
func (lx *lexer) comment() {
	lx.pos += 2
	if lx.at(lx.pos) == '[' {
		if level := lx.bracketLevel(lx.pos); level >= 0 {
			lx.longBracket(level, false)
			return
		}
	}
	for c := lx.at(lx.pos); c != eoz && !isNewline(c); c = lx.at(lx.pos) {
		lx.pos++
	}
}

// bracketLevel reads the "[" or "]" at i and the "="s after it. It returns
// how many "="s there were if the same bracket follows them, which is then
// the next byte to read; otherwise it returns -1 minus that count, having
// read the "="s. So "[" alone is -1 and "[=" without a second "[" is -2.
func (lx *lexer) bracketLevel(i int) int {
	bracket := lx.at(i)
	lx.pos = i + 1
	for lx.at(lx.pos) == '=' {
		lx.pos++
	}
	level := lx.pos - i - 1
	if lx.at(lx.pos) == bracket {
		return level
	}
	return -level - 1
}

// longBracket reads a long string or a long comment of the given level,
// from the second bracket of its opening to the end of its closing. An
// inner "[[" is only text: Redis's Lua 5.1 has no "nesting of [[...]]"
// error.
func (lx *lexer) longBracket(level int, isString bool) {
	lx.pos++ // the second "["
	if isNewline(lx.at(lx.pos)) {
		lx.newline()
	}
	for {
		switch lx.at(lx.pos) {
		case eoz:
			if isString {
				lx.fail("unfinished long string", tkEOS.String())
			}
			lx.fail("unfinished long comment", tkEOS.String())
		case ']':
			if lx.bracketLevel(lx.pos) == level {
				lx.pos++
				return
			}
		case '\n', '\r':
			lx.newline()
		default:
			lx.pos++
		}
	}
}

// shortString reads a string in quotes from its opening quote at start.
func (lx *lexer) shortString(start int) {
	quote := lx.at(start)
	lx.pos = start + 1
	for {
		c := lx.at(lx.pos)
		switch {
		case c == quote:
			lx.pos++
			return
		case c == eoz:
			lx.fail("unfinished string", tkEOS.String())
		case isNewline(c):
			lx.fail("unfinished string", stringText(lx.src[start:lx.pos]))
		case c == '\\':
			escape := lx.pos
			lx.pos++
			switch c := lx.at(lx.pos); {
			case c == eoz: // the next turn finds the end
			case isNewline(c):
				lx.newline()
			case isDigit(c):
				value := 0
				for i := 0; i < 3 && isDigit(lx.at(lx.pos)); i++ {
					value = value*10 + lx.at(lx.pos) - '0'
					lx.pos++
				}
				if value > 0xff {
					lx.fail("escape sequence too large", stringText(lx.src[start:escape]))
				}
			default: // a letter escape, or any other byte standing for itself
				lx.pos++
			}
		default:
			lx.pos++
		}
	}
}

// numeral reads a number from start: digits and dots, an exponent letter
// with its sign, then every letter, digit and underscore that follows, as
// Lua 5.1 does, before it asks C's strtod whether that is a number.
func (lx *lexer) numeral(start int) {
	lx.pos = start
	for c := lx.at(lx.pos); isDigit(c) || c == '.'; c = lx.at(lx.pos) {
		lx.pos++
	}
	if oneOf(lx.at(lx.pos), "Ee") {
		lx.pos++
		if oneOf(lx.at(lx.pos), "+-") {
			lx.pos++
		}
	}
	for c := lx.at(lx.pos); isAlnum(c) || c == '_'; c = lx.at(lx.pos) {
		lx.pos++
	}
	// strtod reads the text as C has it: up to a NUL.
	if !isNumber(cut(lx.src[start:lx.pos])) {
		lx.fail("malformed number", lx.src[start:lx.pos])
	}
}

// isNumber reports whether glibc's strtod reads all of s, which is what
// Lua 5.1 asks of a numeral: a decimal with an optional exponent, or a
// hexadecimal with an optional binary exponent ("0x1p4" is 16 in Redis).
// s starts with a digit or a dot, and any sign in it follows an "e".
func isNumber(s string) bool {
	digits := func(i int, ok func(byte) bool) int {
		for i < len(s) && ok(s[i]) {
			i++
		}
		return i
	}
	dec := func(b byte) bool { return '0' <= b && b <= '9' }
	hex := func(b byte) bool { return dec(b) || 'a' <= b|0x20 && b|0x20 <= 'f' }
	// exponent reports whether s[i:] is empty or a whole exponent.
	exponent := func(i int, letter byte) bool {
		if i == len(s) {
			return true
		}
		if s[i]|0x20 != letter {
			return false
		}
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		end := digits(i, dec)
		return end > i && end == len(s)
	}
	if len(s) > 2 && s[0] == '0' && s[1]|0x20 == 'x' {
		end := digits(2, hex)
		return end > 2 && exponent(end, 'p')
	}
	i := digits(0, dec)
	some := i > 0
	if i < len(s) && s[i] == '.' {
		end := digits(i+1, dec)
		some = some || end > i+1
		i = end
	}
	return some && exponent(i, 'e')
}

// luaLetters are the one-letter escapes Lua 5.1's lexer takes from C: all
// seven of them.
const luaLetters = "abfnrtv"

// stringText is what Lua 5.1's buffer holds for a quoted string read up
// to the end of raw: the opening quote and the characters the escapes
// stand for. An error shows it up to its first NUL, as C prints it.
func stringText(raw string) string {
	b := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' || i == 0 {
			b = append(b, c)
			continue
		}
		i++
		if i == len(raw) {
			break
		}
		c = raw[i]
		if l, ok := cescape.Letter(c, luaLetters); ok {
			b = append(b, l)
			continue
		}
		switch c {
		case '\n', '\r':
			i += breakLen(raw[i:]) - 1
			c = '\n'
		default:
			if isDigit(int(c)) {
				value := 0
				for n := 0; n < 3 && i < len(raw) && isDigit(int(raw[i])); n++ {
					value = value*10 + int(raw[i]-'0')
					i++
				}
				i--
				c = byte(value)
			}
		}
		b = append(b, c)
	}
	return string(b)
}

// longText is what Lua 5.1's buffer holds for a long string: its brackets
// and contents, without the line break that may follow the opening
// bracket, and with every line break as "\n".
func longText(raw string) string {
	i := strings.IndexByte(raw[1:], '[') + 2 // just past the opening bracket
	b := append(make([]byte, 0, len(raw)), raw[:i]...)
	if i < len(raw) && isNewline(int(raw[i])) {
		i += breakLen(raw[i:])
	}
	for i < len(raw) {
		if isNewline(int(raw[i])) {
			b = append(b, '\n')
			i += breakLen(raw[i:])
			continue
		}
		b = append(b, raw[i])
		i++
	}
	return string(b)
}

// breakLen is the length of the line break s starts with: "\r\n" and
// "\n\r" are one break, "\n\n" two.
func breakLen(s string) int {
	if len(s) > 1 && isNewline(int(s[1])) && s[1] != s[0] {
		return 2
	}
	return 1
}

// cut ends s at its first NUL, as C's %s does.
func cut(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return s[:i]
		}
	}
	return s
}
