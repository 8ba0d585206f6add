package engine

import (
	"math"
	"strconv"
	"strings"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/lualib"
	"echomq.dev/playground/wasm/resp"
)

// Sorted-set scores. miniredis prints a score its own way (0.1, 1.7e+12)
// where Redis 7.0 prints "%.17g" (0.10000000000000001, 1700000000000), it
// accepts NaN as a score, and it parses only what Go's ParseFloat reads.
// parseScore reads scores as Redis does for the commands the engine serves
// (zsetcmds.go); these fixups reprint the scores of the replies miniredis
// still makes.

// zscanScores reprints the scores of scan's ZSCAN reply, which has
// filtered its MATCH pattern already.
func zscanScores(scan fixup) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
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
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) && !isInfSpelling(s) || f == 0 && underflowed(s) {
		return 0, false // not a number, or out of range (ERANGE)
	}
	return f, true
}

// isInfSpelling reports whether s spells infinity, which strtod reads
// without ERANGE, as opposed to a finite number too big for a double.
func isInfSpelling(s string) bool {
	s = ascii.Lower(strings.TrimLeft(s, "+-"))
	return s == "inf" || s == "infinity"
}

const errNotFloat = "ERR value is not a valid float"

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
		if ascii.EqualFold(a, "WITHSCORES") {
			return reprintScores(r, everySecond)
		}
	}
	return r
}

// zrandmemberFixup answers ZRANDMEMBER key count followed by anything but
// one WITHSCORES as Redis does, with a syntax error once the count reads,
// where miniredis counts the arguments wrong; then it is withScores.
func zrandmemberFixup(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) >= 4 && (len(args) > 4 || !ascii.EqualFold(args[3], "WITHSCORES")) {
		if _, ok := parseRedisInt(args[2]); ok {
			return resp.ErrorReply(errSyntax)
		}
	}
	return withScores(e, peer, args)
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
