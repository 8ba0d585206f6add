package lualib

import (
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// openString builds the string library whole, as Lua 5.1 has it (the
// names Redis's Lua lists, gfind included), in place of gopher-lua's:
// gopher-lua's pattern functions are not Lua 5.1's (pattern.go has ours),
// and without its library the module carries neither it nor gopher-lua's
// pattern compiler. Strings get a metatable whose __index is the library,
// so that s:upper() works, and the library itself has no __index field.
func openString(L *lua.LState) {
	t := L.NewTable()
	// find and match remember their answers for short subjects.
	findMemo, matchMemo := &searchMemo{}, &searchMemo{}
	setList(L, t, []libFunc{
		{"byte", strByte}, {"char", strChar}, {"dump", strDump}, {"format", strFormat}, {"gmatch", strGmatch},
		{"gfind", strGmatch}, {"gsub", strGsub}, {"len", strLen}, {"lower", strLower}, {"rep", strRep},
		{"reverse", strReverse}, {"sub", strSub}, {"upper", strUpper},
		{"find", func(L *lua.LState) int { return findMemo.call(L, strFind) }},
		{"match", func(L *lua.LState) int { return matchMemo.call(L, strMatch) }},
	})
	L.SetGlobal("string", t)
	mt := L.NewTable()
	mt.RawSetString("__index", t)
	L.SetMetatable(lua.LString(""), mt)
}

func strLower(L *lua.LState) int { return mapBytes(L, 'A', 'Z', 32) }
func strUpper(L *lua.LState) int { return mapBytes(L, 'a', 'z', -32) }

func strLen(L *lua.LState) int {
	L.Push(lua.LNumber(len(checkString(L, 1))))
	return 1
}

// strRep is string.rep(s, n), n a C int; n below 1 gives "".
func strRep(L *lua.LState) int {
	s := checkString(L, 1)
	n := checkInt(L, 2)
	if n <= 0 || s == "" {
		L.Push(lua.LString(""))
		return 1
	}
	L.Push(lua.LString(strings.Repeat(s, int(n))))
	return 1
}

func strReverse(L *lua.LState) int {
	s := checkString(L, 1)
	b := make([]byte, len(s))
	for i := range b {
		b[i] = s[len(s)-1-i]
	}
	L.Push(lua.LString(b))
	return 1
}

// strSub is string.sub(s, i [, j]), positions counted from the end when
// negative and clamped to the string.
func strSub(L *lua.LState) int {
	s := checkString(L, 1)
	start := posRelative(checkInteger(L, 2), len(s))
	end := posRelative(optInteger(L, 3, -1), len(s))
	start = max(start, 1)
	end = min(end, int64(len(s)))
	if start > end {
		L.Push(lua.LString(""))
		return 1
	}
	L.Push(lua.LString(s[start-1 : end]))
	return 1
}

// strDump is string.dump, which would need Lua 5.1's bytecode: the engine
// compiles to gopher-lua's, which a Redis could not load.
func strDump(L *lua.LState) int {
	L.RaiseError("string.dump is not available in the playground (it has no Lua 5.1 bytecode)")
	return 0
}

// searchMemo remembers what string.find or string.match answered for a
// short subject and pattern. gopher-lua compiles the pattern afresh on
// every call, which in WebAssembly costs several microseconds and a few
// dozen allocations, and a script mostly matches the same few patterns
// against the same few strings (a lease against '^[1-9]%d*$', run after
// run). Both functions depend on nothing but their arguments, and their
// answers are strings and numbers, which are values, so a remembered
// answer is the answer; a call that raises an error is never remembered.
type searchMemo struct {
	answers map[searchKey][]lua.LValue

	// The last call's key and answer, checked before the map: a script
	// that runs over and over asks the same question each time, and
	// comparing two strings is cheaper than hashing them.
	lastKey    searchKey
	lastAnswer []lua.LValue
}

type searchKey struct {
	s, pattern string
	init       lua.LNumber
}

// Bounds of what a searchMemo keeps: only short strings, and a handful of
// them; when it is full it starts over.
const (
	memoMaxLen     = 64
	memoMaxAnswers = 64
)

// call runs search (the library's find or match, arguments checked) or
// answers from memory. Only the plain form is remembered: a string, a
// pattern and an optional start, so the answer cannot depend on anything
// else (find's fourth argument is not remembered).
func (m *searchMemo) call(L *lua.LState, search lua.LGFunction) int {
	top := L.GetTop()
	s, ok1 := L.Get(1).(lua.LString)
	p, ok2 := L.Get(2).(lua.LString)
	if top > 3 || !ok1 || !ok2 || len(s) > memoMaxLen || len(p) > memoMaxLen {
		return search(L)
	}
	key := searchKey{s: string(s), pattern: string(p), init: 1}
	if top == 3 {
		switch v := L.Get(3).(type) {
		case lua.LNumber:
			key.init = v
		case *lua.LNilType:
		default:
			return search(L)
		}
	}
	answer, ok := m.lastAnswer, m.lastAnswer != nil && key == m.lastKey
	if !ok {
		answer, ok = m.answers[key]
	}
	if ok {
		m.lastKey, m.lastAnswer = key, answer
		for _, v := range answer {
			L.Push(v)
		}
		return len(answer)
	}
	n := search(L)
	answer = make([]lua.LValue, n)
	for i := range answer {
		answer[i] = L.Get(-n + i)
	}
	if m.answers == nil || len(m.answers) >= memoMaxAnswers {
		m.answers = make(map[searchKey][]lua.LValue, memoMaxAnswers)
	}
	m.answers[key] = answer
	m.lastKey, m.lastAnswer = key, answer
	return n
}

// strChar is string.char: each argument a C int that must fit a byte.
func strChar(L *lua.LState) int {
	n := L.GetTop()
	b := make([]byte, n)
	for i := 1; i <= n; i++ {
		c := checkInt(L, i)
		if c < 0 || c > 255 {
			argError(L, i, "invalid value")
		}
		b[i-1] = byte(c)
	}
	L.Push(lua.LString(b))
	return 1
}

// mapBytes is string.upper or string.lower in the C locale: only ASCII
// letters change, every other byte (UTF-8 included) stays as it is.
func mapBytes(L *lua.LState, lo, hi byte, delta int) int {
	s := checkString(L, 1)
	b := []byte(s)
	for i, c := range b {
		if c >= lo && c <= hi {
			b[i] = byte(int(c) + delta)
		}
	}
	L.Push(lua.LString(b))
	return 1
}

// formatFlags are the flags Lua 5.1's string.format lets through.
const formatFlags = "-+ #0"

// strFormat is Lua 5.1's string.format with glibc's printf behind it.
func strFormat(L *lua.LState) int {
	top := L.GetTop()
	arg := 1
	f := checkString(L, arg)
	var b strings.Builder
	m, wrote := meter{L: L}, 0 // '%s' of a big string, many times over
	for i := 0; i < len(f); {
		m.spend(1 + b.Len() - wrote)
		wrote = b.Len()
		c := f[i]
		i++
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i < len(f) && f[i] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		arg++
		if arg > top {
			argError(L, arg, "no value")
		}
		// The spec: at most 5 flag characters, then two digits of width
		// and two of precision. C reads the format up to a NUL.
		start := i
		for i < len(f) && f[i] != 0 && strings.IndexByte(formatFlags, f[i]) >= 0 {
			i++
		}
		if i-start >= len(formatFlags)+1 {
			L.RaiseError("invalid format (repeated flags)")
		}
		i = skipDigits(f, i, 2)
		if i < len(f) && f[i] == '.' {
			i = skipDigits(f, i+1, 2)
		}
		if i < len(f) && isDigit(f[i]) {
			L.RaiseError("invalid format (width or precision too long)")
		}
		sp := parseSpec(f[start:i])
		conv := byte(0)
		if i < len(f) {
			conv = f[i]
			i++
		}
		switch conv {
		case 'c':
			b.WriteString(cString(sp.pad("", "", string([]byte{byte(cInt32(checkNumber(L, arg)))}), false)))
		case 'd', 'i':
			b.WriteString(sp.signedInt(CInt64(checkNumber(L, arg))))
		case 'o', 'u', 'x', 'X':
			b.WriteString(sp.unsignedInt(cUint64(checkNumber(L, arg)), conv))
		case 'e', 'E', 'f', 'g', 'G':
			b.WriteString(sp.float(checkNumber(L, arg), conv))
		case 'q':
			addQuoted(&b, checkString(L, arg))
		case 's':
			s := checkString(L, arg)
			if sp.prec < 0 && len(s) >= 100 {
				b.WriteString(s) // Lua keeps a long string whole, NULs too
			} else {
				b.WriteString(sp.str(cString(s)))
			}
		default:
			// C prints the option with %c; a NUL there ends the text.
			opt := ""
			if conv != 0 {
				opt = string([]byte{conv})
			}
			L.RaiseError("invalid option '%%%s' to 'format'", opt)
		}
	}
	L.Push(lua.LString(b.String()))
	return 1
}

func skipDigits(s string, i, most int) int {
	for n := 0; n < most && i < len(s) && isDigit(s[i]); n++ {
		i++
	}
	return i
}

// addQuoted is the %q conversion: a string Lua can read back.
func addQuoted(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\', '\n':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\r':
			b.WriteString("\\r")
		case 0:
			b.WriteString("\\000")
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}
