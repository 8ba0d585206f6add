package engine

import (
	"math"
	"strconv"
	"strings"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/lualib"
	"echomq.dev/playground/wasm/resp"
)

// Sorted-set scores. miniredis prints a score its own way (0.1, 1.7e+12)
// where Redis 7.0 prints "%.17g" (0.10000000000000001, 1700000000000), it
// accepts NaN as a score, and it parses only what Go's ParseFloat reads.
// These fixups parse scores as Redis does, hand miniredis a spelling it
// reads back exactly, and reprint the scores in every reply.

func init() {
	for name, fix := range map[string]fixup{
		"ZADD":             zaddFixup,
		"ZINCRBY":          zincrbyFixup,
		"ZSCORE":           scoresAt(everyElement),
		"ZMSCORE":          scoresAt(everyElement),
		"ZPOPMIN":          scoresAt(everySecond),
		"ZPOPMAX":          scoresAt(everySecond),
		"ZRANGE":           withScores,
		"ZREVRANGE":        withScores,
		"ZRANGEBYSCORE":    withScores,
		"ZREVRANGEBYSCORE": withScores,
		"ZRANDMEMBER":      withScores,
		"ZUNION":           withScores,
		"ZINTER":           withScores,
		"ZDIFF":            withScores,
	} {
		fixups[name] = fix
	}
	// Score ranges refuse a NaN bound, which miniredis reads as a number.
	for _, name := range []string{"ZRANGEBYSCORE", "ZREVRANGEBYSCORE", "ZCOUNT", "ZREMRANGEBYSCORE"} {
		fixups[name] = checkScoreRange(fixups[name])
	}
	// ZSCAN already filters its MATCH pattern; reprint its scores after.
	scan := fixups["ZSCAN"]
	fixups["ZSCAN"] = func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		r := scan(e, peer, args)
		if r.Kind == resp.Array && len(r.Elems) == 2 {
			r.Elems[1] = reprintScores(r.Elems[1], everySecond)
		}
		return r
	}
}

// parseScore reads a score as Redis's getDoubleFromObject does: C's strtod
// over the whole string, no leading space, no NaN, no overflow.
func parseScore(s string) (float64, bool) {
	if resp.PlainInteger(s) {
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil
	}
	// strtod must read all of it: no leading or trailing space, no NUL.
	if s == "" || lualib.IsSpace(s[0]) || lualib.IsSpace(s[len(s)-1]) || strings.IndexByte(s, 0) >= 0 {
		return 0, false
	}
	f, ok := lualib.StringToNumber(s)
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) && !isInfSpelling(s) {
		return 0, false // not a number, or out of range (ERANGE)
	}
	return f, true
}

// isInfSpelling reports whether s spells infinity, which strtod reads
// without ERANGE, as opposed to a finite number too big for a double.
func isInfSpelling(s string) bool {
	s = strings.ToLower(strings.TrimLeft(s, "+-"))
	return s == "inf" || s == "infinity"
}

const errNotFloat = "ERR value is not a valid float"

// zaddFixup checks every score, refuses NaN from INCR, and rewrites the
// scores in a spelling miniredis parses to the same double.
func zaddFixup(e *Engine, peer *server.Peer, args []string) resp.Reply {
	i, incr := 2, false
	for ; i < len(args); i++ {
		if a := args[i]; a == "" || a[0] < 'A' {
			break // a digit, sign or point: the first score (no flag starts so)
		}
		switch strings.ToUpper(args[i]) {
		case "NX", "XX", "GT", "LT", "CH":
			continue
		case "INCR":
			incr = true
			continue
		}
		break
	}
	if i >= len(args) || (len(args)-i)%2 != 0 {
		return e.raw(peer, args) // miniredis words the syntax errors
	}
	out := args
	for j := i; j < len(args); j += 2 {
		if resp.PlainInteger(args[j]) {
			continue // miniredis reads a plain integer exactly as Redis does
		}
		f, ok := parseScore(args[j])
		if !ok {
			return resp.ErrorReply(errNotFloat)
		}
		if spelled := resp.FormatDouble(f); spelled != args[j] {
			if &out[0] == &args[0] {
				out = append([]string(nil), args...)
			}
			out[j] = spelled
		}
	}
	if incr && len(args)-i == 2 {
		if r, bad := nanFromIncrement(e, peer, args[1], args[i+1], out[i]); bad {
			return r
		}
	}
	r := e.raw(peer, out)
	if incr {
		return reprintScores(r, everyElement)
	}
	return r
}

// zincrbyFixup is ZINCRBY with Redis's score parsing and its NaN refusal.
func zincrbyFixup(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) != 4 {
		return e.raw(peer, args)
	}
	f, ok := parseScore(args[2])
	if !ok {
		return resp.ErrorReply(errNotFloat)
	}
	inc := resp.FormatDouble(f)
	if r, bad := nanFromIncrement(e, peer, args[1], args[3], inc); bad {
		return r
	}
	return reprintScores(e.raw(peer, []string{args[0], args[1], inc, args[3]}), everyElement)
}

// nanFromIncrement reports whether adding inc to member's score would make
// NaN (inf + -inf), which Redis refuses before it writes anything.
func nanFromIncrement(e *Engine, peer *server.Peer, key, member, inc string) (resp.Reply, bool) {
	cur := e.raw(peer, []string{"ZSCORE", key, member})
	if cur.Kind != resp.Bulk {
		return resp.Reply{}, false
	}
	a, _ := strconv.ParseFloat(cur.Str, 64)
	b, _ := strconv.ParseFloat(inc, 64)
	if math.IsNaN(a + b) {
		return resp.ErrorReply("ERR resulting score is not a number (NaN)"), true
	}
	return resp.Reply{}, false
}

// Which elements of a reply are scores.
const (
	everyElement = 1
	everySecond  = 2
)

func scoresAt(stride int) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		return reprintScores(e.raw(peer, args), stride)
	}
}

// withScores reprints the scores of a range reply that asked for them.
func withScores(e *Engine, peer *server.Peer, args []string) resp.Reply {
	r := e.raw(peer, args)
	for _, a := range args[2:] {
		if strings.EqualFold(a, "WITHSCORES") {
			return reprintScores(r, everySecond)
		}
	}
	return r
}

// reprintScores rewrites the score elements of r (all of them, or every
// second one starting with the second) as Redis 7.0 prints doubles.
func reprintScores(r resp.Reply, stride int) resp.Reply {
	switch r.Kind {
	case resp.Bulk:
		if stride == everyElement {
			r.Str = resp.NormalizeScore(r.Str)
		}
	case resp.Array:
		// The reply was parsed for this command alone, so it is ours to
		// change in place.
		for i := range r.Elems {
			if r.Elems[i].Kind == resp.Bulk && (stride == everyElement || i%2 == 1) {
				r.Elems[i].Str = resp.NormalizeScore(r.Elems[i].Str)
			}
		}
	}
	return r
}

// checkScoreRange refuses a min or max that is NaN ("nan", "(nan"), as
// Redis's zslParseRange does, before the command runs.
func checkScoreRange(next fixup) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		if len(args) >= 4 {
			for _, bound := range args[2:4] {
				if f, ok := lualib.StringToNumber(strings.TrimPrefix(bound, "(")); ok && math.IsNaN(f) {
					return resp.ErrorReply("ERR min or max is not a float")
				}
			}
		}
		return runFixup(next, e, peer, args)
	}
}
