package lualib

import (
	"strconv"
	"strings"
)

// refMatcher is a reference for pattern.go: Lua 5.1's pattern matching
// (manual §5.4.1, lstrlib.c's behaviour) written as plainly as it can be,
// every step a recursive call, nothing shared with the matcher it checks.
// It is slow on purpose and counts its steps, so a test can tell a match
// that takes long from one the budget stopped too early.
//
// Errors are raised as Lua raises them: when the match reaches the bad
// part of the pattern, not before (string.find("abc", "x%") finds
// nothing; string.find("x", "x%") fails).
type refMatcher struct {
	src, pat string
	caps     []refCap
	steps    int
	maxSteps int // past it, the match gives up with refExhausted
}

type refCap struct{ start, n int } // n: refOpen, refPos, or the length

const (
	refOpen = -1
	refPos  = -2
)

// refError is a pattern error, its message as Lua 5.1 words it.
type refError string

// refExhausted is raised when a match takes more than maxSteps.
type refExhausted struct{}

func (m *refMatcher) step(n int) {
	m.steps += n
	if m.steps > m.maxSteps {
		panic(refExhausted{})
	}
}

// p returns the pattern's byte at i, 0 past its end.
func (m *refMatcher) p(i int) byte {
	if i < len(m.pat) {
		return m.pat[i]
	}
	return 0
}

func refIsClass(c, cl byte) bool {
	lower := cl
	if cl >= 'A' && cl <= 'Z' {
		lower = cl + 32
	}
	var in bool
	switch lower {
	case 'a':
		in = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	case 'd':
		in = c >= '0' && c <= '9'
	case 'l':
		in = c >= 'a' && c <= 'z'
	case 'u':
		in = c >= 'A' && c <= 'Z'
	case 's':
		in = c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
	case 'w':
		in = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	case 'x':
		in = c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	case 'c':
		in = c < 32 || c == 127
	case 'p':
		in = c >= 33 && c <= 47 || c >= 58 && c <= 64 || c >= 91 && c <= 96 || c >= 123 && c <= 126
	case 'z':
		in = c == 0
	default:
		return c == cl // any other character is itself; no complement
	}
	if cl >= 'A' && cl <= 'Z' {
		return !in
	}
	return in
}

// itemEnd is the index just past the single-character item at i.
func (m *refMatcher) itemEnd(i int) int {
	switch m.p(i) {
	case '%':
		if i+1 >= len(m.pat) {
			panic(refError("malformed pattern (ends with '%')"))
		}
		return i + 2
	case '[':
		j := i + 1
		if m.p(j) == '^' {
			j++
		}
		return m.setEnd(j, true)
	}
	return i + 1
}

// setEnd finds the ']' that closes a set whose body starts at j; the
// first character of the body is never the end.
func (m *refMatcher) setEnd(j int, first bool) int {
	if j >= len(m.pat) {
		panic(refError("malformed pattern (missing ']')"))
	}
	if !first && m.pat[j] == ']' {
		return j + 1
	}
	if m.pat[j] == '%' && j+1 < len(m.pat) {
		return m.setEnd(j+2, false)
	}
	return m.setEnd(j+1, false)
}

// inSet is whether c is in the set pat[open:close] (its brackets).
func (m *refMatcher) inSet(c byte, open, close int) bool {
	body := m.pat[open+1 : close-1]
	want := true
	if len(body) > 0 && body[0] == '^' {
		want, body = false, body[1:]
	}
	for i := 0; i < len(body); i++ {
		switch {
		case body[i] == '%' && i+1 < len(body):
			i++
			if refIsClass(c, body[i]) {
				return want
			}
		case body[i] == '%': // "%]" ended the set early: a lone '%'
			if c == '%' {
				return want
			}
		case i+2 < len(body) && body[i+1] == '-':
			if body[i] <= c && c <= body[i+2] {
				return want
			}
			i += 2
		case body[i] == c:
			return want
		}
	}
	return !want
}

// one is whether subject byte c matches the item pat[i:end].
func (m *refMatcher) one(c byte, i, end int) bool {
	switch m.pat[i] {
	case '.':
		return true
	case '%':
		return refIsClass(c, m.pat[i+1])
	case '[':
		return m.inSet(c, i, end)
	}
	return c == m.pat[i]
}

// oneAt is whether the subject has a byte at s and it matches the item.
func (m *refMatcher) oneAt(s, i, end int) bool {
	return s < len(m.src) && m.one(m.src[s], i, end)
}

// match matches pat[i:] at src[s:] and returns where the match ends, or -1.
func (m *refMatcher) match(s, i int) int {
	m.step(1)
	if i >= len(m.pat) {
		return s
	}
	switch m.pat[i] {
	case '(':
		if m.p(i+1) == ')' {
			return m.capture(s, i+2, refPos)
		}
		return m.capture(s, i+1, refOpen)
	case ')':
		return m.closeCapture(s, i+1)
	case '$':
		if i+1 == len(m.pat) {
			if s == len(m.src) {
				return s
			}
			return -1
		}
	case '%':
		switch c := m.p(i + 1); {
		case c == 'b':
			return m.balanced(s, i+2)
		case c == 'f':
			return m.frontier(s, i+2)
		case c >= '0' && c <= '9':
			return m.backref(s, i)
		}
	}
	end := m.itemEnd(i)
	switch m.p(end) {
	case '?':
		if m.oneAt(s, i, end) {
			if r := m.match(s+1, end+1); r >= 0 {
				return r
			}
		}
		return m.match(s, end+1)
	case '*':
		return m.greedy(s, i, end)
	case '+':
		if !m.oneAt(s, i, end) {
			return -1
		}
		return m.greedy(s+1, i, end)
	case '-':
		return m.lazy(s, i, end)
	}
	if !m.oneAt(s, i, end) {
		return -1
	}
	return m.match(s+1, end)
}

// greedy takes as many of the item as there are from s, then gives them
// back one by one until the rest matches.
func (m *refMatcher) greedy(s, i, end int) int {
	n := 0
	for m.oneAt(s+n, i, end) {
		n++
	}
	m.step(n)
	for k := n; k >= 0; k-- {
		if r := m.match(s+k, end+1); r >= 0 {
			return r
		}
	}
	return -1
}

// lazy takes as few of the item as let the rest match.
func (m *refMatcher) lazy(s, i, end int) int {
	if r := m.match(s, end+1); r >= 0 {
		return r
	}
	if m.oneAt(s, i, end) {
		return m.lazy(s+1, i, end)
	}
	return -1
}

func (m *refMatcher) capture(s, i, kind int) int {
	if len(m.caps) >= maxCaptures {
		panic(refError("too many captures"))
	}
	m.caps = append(m.caps, refCap{s, kind})
	r := m.match(s, i)
	if r < 0 {
		m.caps = m.caps[:len(m.caps)-1]
	}
	return r
}

func (m *refMatcher) closeCapture(s, i int) int {
	open := -1
	for k := range m.caps {
		if m.caps[k].n == refOpen {
			open = k // the innermost open one is the last
		}
	}
	if open < 0 {
		panic(refError("invalid pattern capture"))
	}
	m.caps[open].n = s - m.caps[open].start
	r := m.match(s, i)
	if r < 0 {
		m.caps[open].n = refOpen
	}
	return r
}

// balanced is %bxy, x and y at pat[i] and pat[i+1].
func (m *refMatcher) balanced(s, i int) int {
	if i+1 >= len(m.pat) {
		panic(refError("unbalanced pattern"))
	}
	x, y := m.pat[i], m.pat[i+1]
	if s >= len(m.src) || m.src[s] != x {
		return -1
	}
	depth := 0
	for k := s; k < len(m.src); k++ {
		m.step(1)
		switch m.src[k] {
		case y:
			depth--
			if depth == 0 {
				return m.match(k+1, i+2)
			}
		case x:
			depth++
		}
	}
	return -1
}

// frontier is %f[set], the set starting at pat[i].
func (m *refMatcher) frontier(s, i int) int {
	if m.p(i) != '[' {
		panic(refError("missing '[' after '%f' in pattern"))
	}
	end := m.itemEnd(i)
	var before, after byte // the subject's start and end read as NUL
	if s > 0 {
		before = m.src[s-1]
	}
	if s < len(m.src) {
		after = m.src[s]
	}
	if m.inSet(before, i, end) || !m.inSet(after, i, end) {
		return -1
	}
	return m.match(s, end)
}

// backref is %1-%9 at pat[i].
func (m *refMatcher) backref(s, i int) int {
	k := int(m.pat[i+1] - '1')
	if k < 0 || k >= len(m.caps) || m.caps[k].n == refOpen {
		panic(refError("invalid capture index"))
	}
	c := m.caps[k]
	if c.n < 0 || len(m.src)-s < c.n { // a position capture matches nothing
		return -1
	}
	m.step(c.n)
	if m.src[s:s+c.n] != m.src[c.start:c.start+c.n] {
		return -1
	}
	return m.match(s+c.n, i+2)
}

// value is capture k of a match from s to e, as text ("s:...") or a
// position ("n:..."); the whole match when there are no captures.
func (m *refMatcher) value(k, s, e int) string {
	if k >= len(m.caps) {
		if k == 0 {
			return "s:" + m.src[s:e]
		}
		panic(refError("invalid capture index"))
	}
	switch c := m.caps[k]; c.n {
	case refOpen:
		panic(refError("unfinished capture"))
	case refPos:
		return "n:" + strconv.Itoa(c.start+1)
	default:
		return "s:" + m.src[c.start:c.start+c.n]
	}
}

func (m *refMatcher) values(s, e int, whole bool) []string {
	n := len(m.caps)
	if n == 0 && whole {
		n = 1
	}
	out := []string{}
	for k := 0; k < n; k++ {
		out = append(out, m.value(k, s, e))
	}
	return out
}

// refRun runs one of find, match, gmatch (every match, at most 50) or
// gsub (with a string replacement) and returns its results as text, or
// "error:" and the message, or "exhausted" when it took too long.
func refRun(op byte, src, pat, repl string, init int, maxSteps int) (out []string, steps int) {
	whole := pat
	if i := indexNUL(pat); i >= 0 {
		pat = pat[:i] // C reads a pattern up to its NUL
	}
	m := &refMatcher{src: src, maxSteps: maxSteps}
	defer func() {
		steps = m.steps
		switch r := recover().(type) {
		case nil:
		case refError:
			out = []string{"error:" + string(r)}
		case refExhausted:
			out = []string{"exhausted"}
		default:
			panic(r)
		}
	}()
	anchored := len(pat) > 0 && pat[0] == '^' && op != 'g'
	m.pat = pat
	if anchored {
		m.pat = pat[1:]
	}
	if op == 'f' && !strings.ContainsAny(pat, patternSpecials) {
		// find without specials is a plain search, for the whole pattern
		if i := strings.Index(src[init:], whole); i >= 0 {
			return []string{"n:" + strconv.Itoa(init+i+1), "n:" + strconv.Itoa(init+i+len(whole))}, 0
		}
		return []string{"nil"}, 0
	}
	switch op {
	case 'f', 'm':
		for s := init; s <= len(src); s++ {
			m.caps = m.caps[:0]
			if e := m.match(s, 0); e >= 0 {
				if op == 'f' {
					return append([]string{"n:" + strconv.Itoa(s+1), "n:" + strconv.Itoa(e)}, m.values(s, e, false)...), 0
				}
				return m.values(s, e, true), 0
			}
			if anchored {
				break
			}
		}
		return []string{"nil"}, 0
	case 'g':
		out := []string{}
		for s, n := 0, 0; s <= len(src) && n < 50; s++ {
			m.caps = m.caps[:0]
			if e := m.match(s, 0); e >= 0 {
				out = append(out, m.values(s, e, true)...)
				out = append(out, "|")
				n++
				if e > s {
					s = e - 1
				}
			}
		}
		return out, 0
	}
	// gsub
	var b []byte
	n := 0
	s := 0
	for {
		m.caps = m.caps[:0]
		e := m.match(s, 0)
		if e >= 0 {
			n++
			b = m.replace(b, repl, s, e)
		}
		if e > s {
			s = e
		} else if s < len(src) {
			b = append(b, src[s])
			s++
		} else {
			break
		}
		if anchored {
			break
		}
	}
	b = append(b, src[s:]...)
	return []string{"s:" + string(b), "n:" + strconv.Itoa(n)}, 0
}

// replace appends gsub's replacement text for a match from s to e.
func (m *refMatcher) replace(b []byte, repl string, s, e int) []byte {
	for i := 0; i < len(repl); i++ {
		if repl[i] != '%' {
			b = append(b, repl[i])
			continue
		}
		i++
		var c byte // a '%' at the very end is followed by C's NUL
		if i < len(repl) {
			c = repl[i]
		}
		switch {
		case c == '0':
			b = append(b, m.src[s:e]...)
		case c >= '1' && c <= '9':
			v := m.value(int(c-'1'), s, e)
			b = append(b, v[2:]...)
		default:
			b = append(b, c)
		}
	}
	return b
}

func indexNUL(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return i
		}
	}
	return -1
}
