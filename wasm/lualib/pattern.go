package lualib

import (
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// Lua 5.1's patterns, matched as Redis 7.0's Lua matches them.
//
// gopher-lua compiles patterns into its own program, which reads some of
// them otherwise than Lua 5.1 (%f, %z, a '%' at the end, the bracket
// forms), words malformed ones otherwise, and builds gsub's result by
// repeated concatenation, quadratic in the subject. This matcher follows the
// 5.1 manual (§5.4.1) and the answers of a live redis-server: a backtracking
// matcher over the pattern text itself, as Lua's is, so it backtracks where
// Lua backtracks and nowhere else, and costs what Lua's costs. It works on
// bytes in the C locale, as Redis's Lua does.
//
// The pattern is read as C reads it: it ends at its first NUL (write %z to
// match one). The subject is read whole.

// maxCaptures is Lua 5.1's LUA_MAXCAPTURES.
const maxCaptures = 32

// A capture's length while it is still open, and the mark of a position
// capture, "()".
const (
	capOpen     = -1
	capPosition = -2
)

// matchDepth bounds the matcher's recursion. Lua 5.1 has no bound of its own
// (its C stack has one); the matcher recurses once per quantified item or
// capture of the pattern, so only a pattern of hundreds of thousands of
// items could reach this.
const matchDepth = 200000

// matcher is one match of a pattern against a subject, from one start.
type matcher struct {
	L     *lua.LState
	src   string
	pat   string
	level int // captures opened so far
	caps  [maxCaptures]struct{ init, len int }
	depth int
	meter meter
}

// char classes, one bit each, byte-wise in the C locale.
const (
	clAlpha = 1 << iota
	clCntrl
	clDigit
	clLower
	clPunct
	clSpace
	clUpper
	clXdigit
)

var classOf = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		var b uint8
		switch {
		case c >= 'a' && c <= 'z':
			b |= clAlpha | clLower
		case c >= 'A' && c <= 'Z':
			b |= clAlpha | clUpper
		case c >= '0' && c <= '9':
			b |= clDigit
		}
		if c < 32 || c == 127 {
			b |= clCntrl
		}
		if c == ' ' || (c >= '\t' && c <= '\r') {
			b |= clSpace
		}
		if c > 32 && c < 127 && b&(clAlpha|clDigit) == 0 {
			b |= clPunct
		}
		if (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') {
			b |= clXdigit
		}
		t[c] = b
	}
	return t
}()

// matchClass is whether c is in the class %cl. An upper-case class letter
// is the complement; a letter that names no class stands for itself.
func matchClass(c, cl byte) bool {
	var want uint8
	lower := cl | 0x20
	switch lower {
	case 'a':
		want = clAlpha
	case 'c':
		want = clCntrl
	case 'd':
		want = clDigit
	case 'l':
		want = clLower
	case 'p':
		want = clPunct
	case 's':
		want = clSpace
	case 'u':
		want = clUpper
	case 'w':
		want = clAlpha | clDigit
	case 'x':
		want = clXdigit
	case 'z':
		in := c == 0
		if cl == 'Z' {
			return !in
		}
		return in
	default:
		return cl == c
	}
	if cl >= 'A' && cl <= 'Z' {
		return classOf[c]&want == 0
	}
	return classOf[c]&want != 0
}

// at is the pattern's byte at p, 0 past its end (C's terminating NUL).
func (m *matcher) at(p int) byte {
	if p < len(m.pat) {
		return m.pat[p]
	}
	return 0
}

// subj is the subject's byte at s, 0 at its end.
func (m *matcher) subj(s int) byte {
	if s < len(m.src) {
		return m.src[s]
	}
	return 0
}

// classEnd is where the single-character class starting at p ends.
func (m *matcher) classEnd(p int) int {
	c := m.at(p)
	p++
	switch c {
	case '%':
		if p >= len(m.pat) {
			m.L.RaiseError("%s", "malformed pattern (ends with '%')")
		}
		return p + 1
	case '[':
		if m.at(p) == '^' {
			p++
		}
		// The first character of a set is never its end: []] is a set of ].
		for {
			if p >= len(m.pat) {
				m.L.RaiseError("malformed pattern (missing ']')")
			}
			c := m.pat[p]
			p++
			if c == '%' && p < len(m.pat) {
				p++
			}
			if m.at(p) == ']' {
				return p + 1
			}
		}
	}
	return p
}

// inSet is whether c is in the set from p (its '[') to end (its ']').
func (m *matcher) inSet(c byte, p, end int) bool {
	in := true
	if m.at(p+1) == '^' {
		in = false
		p++
	}
	for p++; p < end; p++ {
		switch {
		case m.pat[p] == '%':
			p++
			if matchClass(c, m.at(p)) {
				return in
			}
		case m.at(p+1) == '-' && p+2 < end:
			p += 2
			if m.pat[p-2] <= c && c <= m.pat[p] {
				return in
			}
		case m.pat[p] == c:
			return in
		}
	}
	return !in
}

// single is whether c matches the class from p to ep.
func (m *matcher) single(c byte, p, ep int) bool {
	switch m.pat[p] {
	case '.':
		return true
	case '%':
		return matchClass(c, m.at(p+1))
	case '[':
		return m.inSet(c, p, ep-1)
	}
	return m.pat[p] == c
}

// match matches the pattern from p against the subject from s and returns
// where the match ends, or -1.
func (m *matcher) match(s, p int) int {
	m.depth++
	if m.depth > matchDepth {
		m.L.RaiseError("pattern too complex")
	}
	r := m.doMatch(s, p)
	m.depth--
	return r
}

func (m *matcher) doMatch(s, p int) int {
	for {
		m.meter.spend(1)
		if p >= len(m.pat) {
			return s
		}
		switch m.pat[p] {
		case '(':
			if m.at(p+1) == ')' {
				return m.openCapture(s, p+2, capPosition)
			}
			return m.openCapture(s, p+1, capOpen)
		case ')':
			return m.closeCapture(s, p+1)
		case '$':
			if p+1 == len(m.pat) {
				if s == len(m.src) {
					return s
				}
				return -1
			}
		case '%':
			switch next := m.at(p + 1); {
			case next == 'b':
				s = m.balance(s, p+2)
				if s < 0 {
					return -1
				}
				p += 4
				continue
			case next == 'f':
				p += 2
				if m.at(p) != '[' {
					m.L.RaiseError("%s", "missing '[' after '%f' in pattern")
				}
				ep := m.classEnd(p)
				var prev byte
				if s > 0 {
					prev = m.src[s-1]
				}
				if m.inSet(prev, p, ep-1) || !m.inSet(m.subj(s), p, ep-1) {
					return -1
				}
				p = ep
				continue
			case isDigit(next):
				s = m.backRef(s, next)
				if s < 0 {
					return -1
				}
				p += 2
				continue
			}
		}
		// One character class, and what follows it.
		ep := m.classEnd(p)
		ok := s < len(m.src) && m.single(m.src[s], p, ep)
		switch m.at(ep) {
		case '?':
			if ok {
				if r := m.match(s+1, ep+1); r >= 0 {
					return r
				}
			}
			p = ep + 1
			continue
		case '*':
			return m.maxExpand(s, p, ep)
		case '+':
			if !ok {
				return -1
			}
			return m.maxExpand(s+1, p, ep)
		case '-':
			return m.minExpand(s, p, ep)
		}
		if !ok {
			return -1
		}
		s++
		p = ep
	}
}

// maxExpand matches as many of the class as there are, then gives back one
// at a time until the rest of the pattern matches.
func (m *matcher) maxExpand(s, p, ep int) int {
	i := 0
	for s+i < len(m.src) && m.single(m.src[s+i], p, ep) {
		i++
	}
	m.meter.spend(i)
	for ; i >= 0; i-- {
		if r := m.match(s+i, ep+1); r >= 0 {
			return r
		}
	}
	return -1
}

// minExpand matches as few of the class as let the rest match.
func (m *matcher) minExpand(s, p, ep int) int {
	for {
		if r := m.match(s, ep+1); r >= 0 {
			return r
		}
		if s < len(m.src) && m.single(m.src[s], p, ep) {
			s++
			continue
		}
		return -1
	}
}

func (m *matcher) openCapture(s, p, what int) int {
	if m.level >= maxCaptures {
		m.L.RaiseError("too many captures")
	}
	m.caps[m.level].init, m.caps[m.level].len = s, what
	m.level++
	r := m.match(s, p)
	if r < 0 {
		m.level--
	}
	return r
}

func (m *matcher) closeCapture(s, p int) int {
	l := -1
	for i := m.level - 1; i >= 0; i-- {
		if m.caps[i].len == capOpen {
			l = i
			break
		}
	}
	if l < 0 {
		m.L.RaiseError("invalid pattern capture")
	}
	m.caps[l].len = s - m.caps[l].init
	r := m.match(s, p)
	if r < 0 {
		m.caps[l].len = capOpen
	}
	return r
}

// balance is %bxy at p (x and y at p and p+1).
func (m *matcher) balance(s, p int) int {
	if p+1 >= len(m.pat) {
		m.L.RaiseError("unbalanced pattern")
	}
	open, close := m.pat[p], m.pat[p+1]
	if s >= len(m.src) || m.src[s] != open {
		return -1
	}
	depth := 1
	for s++; s < len(m.src); s++ {
		m.meter.spend(1)
		switch m.src[s] {
		case close:
			if depth--; depth == 0 {
				return s + 1
			}
		case open:
			depth++
		}
	}
	return -1
}

// backRef is %1-%9: the text of a closed capture, again.
func (m *matcher) backRef(s int, digit byte) int {
	l := int(digit) - '1'
	if l < 0 || l >= m.level || m.caps[l].len == capOpen {
		m.L.RaiseError("invalid capture index")
	}
	n := m.caps[l].len
	if n < 0 || len(m.src)-s < n {
		return -1 // a position capture has no text, and matches nothing
	}
	m.meter.spend(n)
	if m.src[s:s+n] != m.src[m.caps[l].init:m.caps[l].init+n] {
		return -1
	}
	return s + n
}

// capture is capture i of a match from s to e, as Lua hands it out: the
// whole match when the pattern has no captures and i is 0.
func (m *matcher) capture(i, s, e int) lua.LValue {
	if i >= m.level {
		if i == 0 {
			return lua.LString(m.src[s:e])
		}
		m.L.RaiseError("invalid capture index")
	}
	c := m.caps[i]
	switch c.len {
	case capOpen:
		m.L.RaiseError("unfinished capture")
	case capPosition:
		return lua.LNumber(c.init + 1)
	}
	return lua.LString(m.src[c.init : c.init+c.len])
}

// pushCaptures pushes a match's captures (or the whole match, if wholeOK
// and there are none) and says how many.
func (m *matcher) pushCaptures(s, e int, wholeOK bool) int {
	n := m.level
	if n == 0 && wholeOK {
		n = 1
	}
	for i := 0; i < n; i++ {
		m.L.Push(m.capture(i, s, e))
	}
	return n
}

// newMatcher readies a match of pat (read up to a NUL) against src.
func newMatcher(L *lua.LState, src, pat string) *matcher {
	return &matcher{L: L, src: src, pat: cString(pat), meter: meter{L: L}}
}

// from matches from s, captures reset.
func (m *matcher) from(s, p int) int {
	m.level = 0
	return m.match(s, p)
}

// patternSpecials are the characters that make find search with a pattern.
const patternSpecials = "^$*+?.([%-"

// strFind is string.find and strMatch string.match.
func strFind(L *lua.LState) int  { return findAux(L, true) }
func strMatch(L *lua.LState) int { return findAux(L, false) }

func findAux(L *lua.LState, find bool) int {
	s := checkString(L, 1)
	p := checkString(L, 2)
	init := optInteger(L, 3, 1)
	if init < 0 {
		init += int64(len(s)) + 1
	}
	init--
	if init < 0 {
		init = 0
	} else if init > int64(len(s)) {
		init = int64(len(s))
	}
	start := int(init)
	if find && (lua.LVAsBool(L.Get(4)) || !strings.ContainsAny(cString(p), patternSpecials)) {
		if i := strings.Index(s[start:], p); i >= 0 {
			L.Push(lua.LNumber(start + i + 1))
			L.Push(lua.LNumber(start + i + len(p)))
			return 2
		}
		L.Push(lua.LNil)
		return 1
	}
	m := newMatcher(L, s, p)
	p0 := 0
	anchor := m.at(0) == '^'
	if anchor {
		p0 = 1
	}
	for s1 := start; ; s1++ {
		if e := m.from(s1, p0); e >= 0 {
			if find {
				L.Push(lua.LNumber(s1 + 1))
				L.Push(lua.LNumber(e))
				return m.pushCaptures(0, 0, false) + 2
			}
			return m.pushCaptures(s1, e, true)
		}
		if s1 >= len(s) || anchor {
			break
		}
	}
	L.Push(lua.LNil)
	return 1
}

// strGmatch is string.gmatch. As in Lua 5.1, a '^' at the start of the
// pattern is an ordinary character here, not an anchor.
func strGmatch(L *lua.LState) int {
	s := checkString(L, 1)
	p := checkString(L, 2)
	next := 0
	L.Push(L.NewFunction(func(L *lua.LState) int {
		m := newMatcher(L, s, p)
		for src := next; src <= len(s); src++ {
			if e := m.from(src, 0); e >= 0 {
				next = e
				if e == src {
					next++ // an empty match: go on one byte further
				}
				return m.pushCaptures(src, e, true)
			}
		}
		next = len(s) + 1
		return 0
	}))
	return 1
}

// strGsub is string.gsub.
func strGsub(L *lua.LState) int {
	src := checkString(L, 1)
	p := checkString(L, 2)
	repl := L.Get(3)
	maxN := int64(optInt(L, 4, int32(min(len(src)+1, 1<<31-1))))
	switch repl.(type) {
	case lua.LString, lua.LNumber, *lua.LFunction, *lua.LTable:
	default:
		argError(L, 3, "string/function/table expected")
	}
	var replText string
	if v, ok := toString(repl); ok {
		replText = v
	}
	m := newMatcher(L, src, p)
	p0 := 0
	anchor := m.at(0) == '^'
	if anchor {
		p0 = 1
	}
	limit := stringLimit(L)
	var b []byte
	n := int64(0)
	s := 0
	for n < maxN {
		e := m.from(s, p0)
		if e >= 0 {
			n++
			b = m.addValue(b, s, e, repl, replText)
			if limit > 0 && len(b) > limit {
				L.RaiseError("string length overflow (the playground caps a string at %d MiB)", limit>>20)
			}
		}
		switch {
		case e > s:
			s = e
		case s < len(src):
			b = append(b, src[s])
			s++
		default:
			goto done
		}
		if anchor {
			break
		}
	}
done:
	if limit > 0 && len(b)+len(src)-s > limit {
		L.RaiseError("string length overflow (the playground caps a string at %d MiB)", limit>>20)
	}
	b = append(b, src[s:]...)
	L.Push(lua.LString(b))
	L.Push(lua.LNumber(n))
	return 2
}

// addValue appends the replacement of the match from s to e.
func (m *matcher) addValue(b []byte, s, e int, repl lua.LValue, text string) []byte {
	L := m.L
	var v lua.LValue
	switch r := repl.(type) {
	case lua.LString, lua.LNumber:
		return m.addString(b, s, e, text)
	case *lua.LFunction:
		top := L.GetTop()
		L.Push(r)
		n := m.pushCaptures(s, e, true)
		callFromC(L, n, 1)
		v = L.Get(-1)
		L.SetTop(top)
	case *lua.LTable:
		v = L.GetTable(r, m.capture(0, s, e))
	}
	switch x := v.(type) {
	case *lua.LNilType:
		return append(b, m.src[s:e]...)
	case lua.LBool:
		if !x {
			return append(b, m.src[s:e]...)
		}
	case lua.LString:
		return append(b, x...)
	case lua.LNumber:
		return append(b, FormatNumber(float64(x))...)
	}
	L.RaiseError("invalid replacement value (a %s)", v.Type().String())
	return b
}

// addString appends a replacement string: %0 the whole match, %1-%9 a
// capture, % and any other character that character. A '%' at its very
// end stands before C's terminating NUL, and so adds a NUL.
func (m *matcher) addString(b []byte, s, e int, text string) []byte {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '%' {
			b = append(b, c)
			continue
		}
		i++
		var d byte
		if i < len(text) {
			d = text[i]
		}
		switch {
		case !isDigit(d):
			b = append(b, d)
		case d == '0':
			b = append(b, m.src[s:e]...)
		default:
			switch v := m.capture(int(d-'1'), s, e).(type) {
			case lua.LString:
				b = append(b, v...)
			case lua.LNumber:
				b = append(b, FormatNumber(float64(v))...)
			}
		}
	}
	return b
}
