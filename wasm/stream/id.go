// Package stream is Redis 7.0's stream type, kept by the engine in place
// of miniredis's: entries in macro nodes with the node boundaries Redis
// draws (stream-node-max-entries and stream-node-max-bytes, counted in
// listpack bytes), the counters XINFO shows (entries-added,
// max-deleted-entry-id, recorded-first-entry-id), consumer groups with
// their pending entries lists, and every X command's parsing, checks and
// reply, worded as Redis 7.0.15 words them.
//
// Trimming with "~" removes only whole nodes, so where the nodes begin and
// end decides what a learner sees after XADD ... MAXLEN ~ n; that is why
// the nodes are modelled byte for byte rather than approximated.
package stream

import (
	"math"
	"strconv"
	"strings"
)

// ID is a stream entry ID, <ms>-<seq>.
type ID struct{ Ms, Seq uint64 }

// MaxID is the largest ID, what "+" and ">" stand for.
var MaxID = ID{math.MaxUint64, math.MaxUint64}

func (a ID) String() string {
	return strconv.FormatUint(a.Ms, 10) + "-" + strconv.FormatUint(a.Seq, 10)
}

// Cmp is -1, 0 or 1 as a is below, equal to or above b.
func (a ID) Cmp(b ID) int {
	switch {
	case a.Ms < b.Ms:
		return -1
	case a.Ms > b.Ms:
		return 1
	case a.Seq < b.Seq:
		return -1
	case a.Seq > b.Seq:
		return 1
	}
	return 0
}

func (a ID) IsZero() bool { return a.Ms == 0 && a.Seq == 0 }

// Next is the ID after a; ok is false past MaxID, where the ID wraps to
// 0-0 as Redis's streamIncrID does.
func (a ID) Next() (ID, bool) {
	switch {
	case a.Seq < math.MaxUint64:
		return ID{a.Ms, a.Seq + 1}, true
	case a.Ms < math.MaxUint64:
		return ID{a.Ms + 1, 0}, true
	}
	return ID{}, false
}

// Prev is the ID before a; ok is false below 0-0.
func (a ID) Prev() (ID, bool) {
	switch {
	case a.Seq > 0:
		return ID{a.Ms, a.Seq - 1}, true
	case a.Ms > 0:
		return ID{a.Ms - 1, math.MaxUint64}, true
	}
	return a, false
}

// ErrInvalidID is the words of every ID that does not parse.
const ErrInvalidID = "ERR Invalid stream ID specified as stream command argument"

// parsed is what ParseID read.
type parsed struct {
	id       ID
	seqGiven bool // false for <ms>-* (only where autoSeq allows it)
}

// ParseID reads an ID as Redis's streamGenericParseIDOrReply does: "-" and
// "+" unless strict, <ms> alone (its sequence missingSeq), <ms>-<seq>, and
// <ms>-* where autoSeq allows. Redis copies the argument into a C string,
// so it reads only up to the first NUL byte, and refuses more than 127
// bytes. Each part is an unsigned number as Redis's string2ull reads it:
// string2ll first (a negative number refused), then strtoull, which allows
// leading spaces and a sign.
func ParseID(s string, missingSeq uint64, strict, autoSeq bool) (parsed, bool) {
	if len(s) > 127 {
		return parsed{}, false
	}
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	if s == "-" || s == "+" {
		if strict {
			return parsed{}, false
		}
		if s == "-" {
			return parsed{seqGiven: true}, true
		}
		return parsed{id: MaxID, seqGiven: true}, true
	}
	msPart, seqPart, dash := strings.Cut(s, "-")
	ms, ok := string2ull(msPart)
	if !ok {
		return parsed{}, false
	}
	p := parsed{id: ID{ms, missingSeq}, seqGiven: true}
	if dash {
		if autoSeq && seqPart == "*" {
			p.id.Seq, p.seqGiven = 0, false
			return p, true
		}
		if p.id.Seq, ok = string2ull(seqPart); !ok {
			return parsed{}, false
		}
	}
	return p, true
}

// string2ull is Redis's: a signed integer string2ll accepts is taken
// as it is (and refused when negative); anything else goes to strtoull.
func string2ull(s string) (uint64, bool) {
	if n, ok := string2ll(s); ok {
		return uint64(n), n >= 0
	}
	return strtoull(s)
}

// string2ll is Redis's strict integer reading: an optional '-', no
// leading zero, no sign '+', no spaces, within int64.
func string2ll(s string) (int64, bool) {
	if s == "" || len(s) > 20 {
		return 0, false
	}
	if s == "0" {
		return 0, true
	}
	neg := s[0] == '-'
	d := s
	if neg {
		d = s[1:]
	}
	if d == "" || d[0] < '1' || d[0] > '9' {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(d); i++ {
		c := d[i]
		if c < '0' || c > '9' || v > math.MaxUint64/10 {
			return 0, false
		}
		v *= 10
		if v > math.MaxUint64-uint64(c-'0') {
			return 0, false
		}
		v += uint64(c - '0')
	}
	if neg {
		if v > 1<<63 {
			return 0, false
		}
		return -int64(v), true
	}
	if v > math.MaxInt64 {
		return 0, false
	}
	return int64(v), true
}

// strtoull is C's, in base 10, as string2ull calls it: leading white
// space, an optional sign (a '-' negates, modulo 2^64), at least one
// digit, nothing after them, and no overflow.
func strtoull(s string) (uint64, bool) {
	i := 0
	for i < len(s) && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	var v uint64
	over := false
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		d := uint64(s[i] - '0')
		if v > (math.MaxUint64-d)/10 {
			over = true
		}
		v = v*10 + d
		i++
	}
	if i == start || i != len(s) || over {
		return 0, false
	}
	if neg {
		v = -v
	}
	return v, true
}

// parseInterval reads a range bound of XRANGE, XPENDING or XAUTOCLAIM:
// "(" before an ID excludes it (and then "-" and "+" are refused).
func parseInterval(s string, missingSeq uint64) (id ID, exclusive, ok bool) {
	if len(s) > 1 && s[0] == '(' {
		p, ok := ParseID(s[1:], missingSeq, true, false)
		return p.id, true, ok
	}
	p, ok := ParseID(s, missingSeq, false, false)
	return p.id, false, ok
}
