// A sorted set's ranges: a range of ranks, scores or members, read as
// Redis 7.0's zslParseRange and zslParseLexRange read it, and walked over
// the index (see zsets.go).

package engine

import (
	"math"
	"strings"

	"echomq.dev/playground/wasm/lualib"
	"echomq.dev/playground/wasm/resp"
	"echomq.dev/playground/wasm/zset"
)

// How a range is given.
const (
	byAuto = iota // ZRANGE: by rank unless BYSCORE or BYLEX says otherwise
	byRank
	byScore
	byLex
)

// zspan is a parsed range: ranks, scores or members.
type zspan struct {
	by          int
	start, stop int64 // byRank

	min, max     float64 // byScore
	minEx, maxEx bool

	lmin, lmax string // byLex
	// lminAll is "-" (below every member), lmaxAll "+"; "+" as a min or
	// "-" as a max is a bound past every member on the other side.
	lminKind, lmaxKind int
}

// Kinds of lexical bound.
const (
	lexValue = iota
	lexBottom
	lexTop
)

// parseScoreBound reads a score range bound as zslParseRange does: "(" for
// an exclusive bound, then strtod over the rest as C sees it (up to a
// NUL), which may have leading space, may overflow to infinity, and must
// not be NaN.
func parseScoreBound(s string) (float64, bool, bool) {
	ex := strings.HasPrefix(s, "(")
	if ex {
		s = s[1:]
	}
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	i := 0
	for i < len(s) && lualib.IsSpace(s[i]) {
		i++
	}
	if i == len(s) {
		// strtod reads nothing and leaves its end at the start: at the
		// string's end only if there was nothing, not even white space.
		return 0, ex, len(s) == 0
	}
	if lualib.IsSpace(s[len(s)-1]) {
		return 0, ex, false
	}
	f, ok := lualib.StringToNumber(s[i:])
	if !ok || math.IsNaN(f) {
		return 0, ex, false
	}
	return f, ex, true
}

// parseLexBound reads a lexical range bound as zslParseLexRangeItem does.
func parseLexBound(s string) (string, int, bool, bool) {
	if s == "" {
		return "", 0, false, false
	}
	switch s[0] {
	case '+', '-':
		if len(s) > 1 && s[1] != 0 {
			return "", 0, false, false
		}
		if s[0] == '+' {
			return "", lexTop, true, true
		}
		return "", lexBottom, true, true
	case '(':
		return s[1:], lexValue, true, true
	case '[':
		return s[1:], lexValue, false, true
	}
	return "", 0, false, false
}

// parseSpan reads the range lo..hi (already in min, max order) as by says.
func parseSpan(by int, lo, hi string) (zspan, *resp.Reply) {
	sp := zspan{by: by}
	var ok1, ok2 bool
	switch by {
	case byRank:
		sp.start, ok1 = parseRedisInt(lo)
		sp.stop, ok2 = parseRedisInt(hi)
		if !ok1 || !ok2 {
			r := resp.ErrorReply(errNotInt)
			return sp, &r
		}
	case byScore:
		sp.min, sp.minEx, ok1 = parseScoreBound(lo)
		sp.max, sp.maxEx, ok2 = parseScoreBound(hi)
		if !ok1 || !ok2 {
			r := resp.ErrorReply(errScoreRange)
			return sp, &r
		}
	case byLex:
		sp.lmin, sp.lminKind, sp.minEx, ok1 = parseLexBound(lo)
		sp.lmax, sp.lmaxKind, sp.maxEx, ok2 = parseLexBound(hi)
		if !ok1 || !ok2 {
			r := resp.ErrorReply(errLexRange)
			return sp, &r
		}
	}
	return sp, nil
}

// lexCompare compares a member with a lexical bound.
func lexCompare(m string, kind int, bound string) int {
	switch kind {
	case lexBottom:
		return 1
	case lexTop:
		return -1
	}
	return strings.Compare(m, bound)
}

func (sp *zspan) aboveMin(n *zset.Node) bool {
	if sp.by == byScore {
		if sp.minEx {
			return n.Score > sp.min
		}
		return n.Score >= sp.min
	}
	c := lexCompare(n.Member, sp.lminKind, sp.lmin)
	return c > 0 || c == 0 && !sp.minEx
}

func (sp *zspan) belowMax(n *zset.Node) bool {
	if sp.by == byScore {
		if sp.maxEx {
			return n.Score < sp.max
		}
		return n.Score <= sp.max
	}
	c := lexCompare(n.Member, sp.lmaxKind, sp.lmax)
	return c < 0 || c == 0 && !sp.maxEx
}

// empty reports a range no member can be in, as zslIsInRange and
// zslIsInLexRange decide before they look for one.
func (sp *zspan) empty() bool {
	if sp.by == byScore {
		return sp.min > sp.max || sp.min == sp.max && (sp.minEx || sp.maxEx)
	}
	c := 0
	switch {
	case sp.lminKind == sp.lmaxKind && sp.lminKind != lexValue:
		c = 0
	case sp.lminKind == lexTop || sp.lmaxKind == lexBottom:
		c = 1
	case sp.lminKind == lexBottom || sp.lmaxKind == lexTop:
		c = -1
	default:
		c = strings.Compare(sp.lmin, sp.lmax)
	}
	return c > 0 || c == 0 && (sp.minEx || sp.maxEx)
}

// first is the lowest member in the range, or nil; last the highest.
// Scores are ordered in every set. Members are ordered only among equal
// scores: Redis walks a listpack from its start (or end) to find a lexical
// bound, and the engine does the same for a set Redis would hold as one;
// in a skiplist Redis's search depends on its random levels, and so does
// ours, which is why Redis leaves lexical ranges over mixed scores undefined.
func (sp *zspan) first(ent *zentry) *zset.Node { return sp.edge(ent, false) }

func (sp *zspan) last(ent *zentry) *zset.Node { return sp.edge(ent, true) }

// edge is first, or with top last: the same walk from the other end, the
// two bounds trading places.
func (sp *zspan) edge(ent *zentry, top bool) *zset.Node {
	s := ent.set
	if sp.empty() || s.Len() == 0 || !sp.aboveMin(s.Last()) || !sp.belowMax(s.First()) {
		return nil
	}
	near, far := sp.aboveMin, sp.belowMax // the bound walked to, and the other
	start, step, search := s.First(), (*zset.Node).Next, s.FirstNotBefore
	if top {
		near, far = sp.belowMax, sp.aboveMin
		start, step, search = s.Last(), (*zset.Node).Prev, s.LastNotAfter
	}
	var n *zset.Node
	if sp.by == byLex && !ent.skiplist {
		for n = start; n != nil && !near(n); n = step(n) {
		}
	} else {
		n, _ = search(func(n *zset.Node) bool { return !near(n) })
	}
	if n == nil || !far(n) {
		return nil
	}
	return n
}

// ranks turns a rank range into the first rank and a count, as
// genericZrangebyrankCommand does; count 0 is an empty range.
func (sp *zspan) ranks(length int64) (start, count int64) {
	start, end := sp.start, sp.stop
	if start < 0 {
		start += length
	}
	if end < 0 {
		end += length
	}
	if start < 0 {
		start = 0
	}
	if start > end || start >= length {
		return 0, 0
	}
	if end >= length {
		end = length - 1
	}
	return start, end - start + 1
}

// nodes lists the members of the range in order (reversed for rev), after
// skipping offset of them and taking at most limit (negative: all).
func (sp *zspan) nodes(ent *zentry, rev bool, offset, limit int64) []*zset.Node {
	s := ent.set
	var out []*zset.Node
	if sp.by == byRank {
		start, count := sp.ranks(int64(s.Len()))
		if count == 0 {
			return nil
		}
		out = make([]*zset.Node, 0, count)
		var n *zset.Node
		if rev {
			n = s.At(s.Len() - 1 - int(start))
		} else {
			n = s.At(int(start))
		}
		for ; count > 0 && n != nil; count-- {
			out = append(out, n)
			if rev {
				n = n.Prev()
			} else {
				n = n.Next()
			}
		}
		return out
	}
	if offset < 0 || offset > 0 && offset >= int64(s.Len()) {
		return nil // Redis walks a negative offset off the end
	}
	var n *zset.Node
	if rev {
		n = sp.last(ent)
	} else {
		n = sp.first(ent)
	}
	step := func(n *zset.Node) *zset.Node {
		if rev {
			return n.Prev()
		}
		return n.Next()
	}
	for ; n != nil && offset > 0; offset-- {
		n = step(n)
	}
	for ; n != nil && limit != 0; limit-- {
		if rev && !sp.aboveMin(n) || !rev && !sp.belowMax(n) {
			break
		}
		out = append(out, n)
		n = step(n)
	}
	return out
}
