package engine

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// ZUNION, ZINTER and their STORE forms when a sum or a weighted score is
// not a number: inf + -inf, or 0 * inf. Redis 7.0 counts such a score as 0
// (and sorts the member there); miniredis keeps the NaN and prints -nan.

// isNaNScore reports whether a printed score is a NaN.
func isNaNScore(s string) bool { return strings.Contains(ascii.Lower(s), "nan") }

// combination is what a ZUNION or ZINTER combines: its keys, their
// weights and the aggregate, read from arguments the command has accepted.
type combination struct {
	keys    []string
	weights []float64
	agg     string
}

// readCombination reads the combination from args, whose numkeys is at
// first (1 for ZUNION, 2 for ZUNIONSTORE).
func readCombination(args []string, first int) (combination, bool) {
	n, ok := parseRedisInt(args[first])
	if !ok || n < 1 || int(n) > len(args)-first-1 {
		return combination{}, false
	}
	c := combination{keys: args[first+1 : first+1+int(n)], agg: "SUM"}
	c.weights = make([]float64, n)
	for i := range c.weights {
		c.weights[i] = 1
	}
	for i := first + 1 + int(n); i < len(args); i++ {
		switch {
		case ascii.EqualFold(args[i], "WEIGHTS") && i+int(n) < len(args):
			for j := range c.weights {
				c.weights[j], _ = strconv.ParseFloat(args[i+1+j], 64)
			}
			i += int(n)
		case ascii.EqualFold(args[i], "AGGREGATE") && i+1 < len(args):
			c.agg = ascii.Upper(args[i+1])
			i++
		}
	}
	return c, true
}

// score is member's score in the combination as Redis works it out: each
// input's score times its weight, a NaN product counted as 0, then summed
// (a NaN sum counted as 0 too), or the least or the greatest. A set's
// members score 1.
func (c combination) score(e *Engine, peer *server.Peer, member string) float64 {
	var total float64
	seen := false
	for i, key := range c.keys {
		var s float64
		switch e.raw(peer, []string{"TYPE", key}).Str {
		case "zset":
			r := e.raw(peer, []string{"ZSCORE", key, member})
			if r.Kind != resp.Bulk {
				continue
			}
			s, _ = strconv.ParseFloat(r.Str, 64)
		case "set":
			if e.raw(peer, []string{"SISMEMBER", key, member}).Int != 1 {
				continue
			}
			s = 1
		default:
			continue
		}
		v := s * c.weights[i]
		if math.IsNaN(v) {
			v = 0
		}
		switch {
		case !seen:
			total = v
		case c.agg == "MIN":
			total = math.Min(total, v)
		case c.agg == "MAX":
			total = math.Max(total, v)
		default:
			if total += v; math.IsNaN(total) {
				total = 0
			}
		}
		seen = true
	}
	return total
}

// nanAsZero wraps ZUNION and ZINTER: the reply is asked for with its
// scores, a member whose score came out NaN gets the score Redis works out
// for it, the members are put back in the result's order (score, then
// member), and the scores are dropped again when the caller did not ask.
func nanAsZero(next fixup) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		asked := slices.ContainsFunc(args[2:], func(a string) bool { return ascii.EqualFold(a, "WITHSCORES") })
		sent := args
		if !asked {
			sent = append(slices.Clip(args), "WITHSCORES")
		}
		r := runFixup(next, e, peer, sent)
		if !slices.ContainsFunc(r.Elems, func(s resp.Reply) bool { return isNaNScore(s.Str) }) {
			if asked {
				return r
			}
			return runFixup(next, e, peer, args)
		}
		c, _ := readCombination(args, 1)
		type scored struct {
			member resp.Reply
			score  float64
		}
		all := make([]scored, 0, len(r.Elems)/2)
		for i := 0; i+1 < len(r.Elems); i += 2 {
			f, _ := strconv.ParseFloat(r.Elems[i+1].Str, 64)
			if isNaNScore(r.Elems[i+1].Str) {
				f = c.score(e, peer, r.Elems[i].Str)
			}
			all = append(all, scored{r.Elems[i], f})
		}
		// sort.SliceStable, not slices.SortStableFunc: a generic sort is
		// a copy of the sort's code for each type, ~10 KB for this one.
		sort.SliceStable(all, func(i, j int) bool {
			a, b := all[i], all[j]
			if a.score != b.score {
				return a.score < b.score
			}
			return a.member.Str < b.member.Str
		})
		out := make([]resp.Reply, 0, len(r.Elems))
		for _, m := range all {
			out = append(out, m.member)
			if asked {
				out = append(out, resp.BulkReply(resp.FormatDouble(m.score)))
			}
		}
		return resp.ArrayReply(out...)
	}
}

// nanStoredAsZero wraps ZUNIONSTORE and ZINTERSTORE: a member stored with
// a NaN score is given the score Redis works out for it.
func nanStoredAsZero(next fixup) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		var c combination
		var ok bool
		if len(args) > 3 {
			c, ok = readCombination(args, 2)
		}
		// A destination that is one of the inputs is overwritten by the
		// store: the scores are worked out before, by the reading form.
		var before map[string]string
		if ok && slices.Contains(c.keys, args[1]) {
			read := append([]string{strings.TrimSuffix(ascii.Upper(args[0]), "STORE")}, args[2:]...)
			got := e.lookup(read[0]).fix(e, peer, append(read, "WITHSCORES"))
			before = map[string]string{}
			for i := 0; i+1 < len(got.Elems); i += 2 {
				before[got.Elems[i].Str] = got.Elems[i+1].Str
			}
		}
		r := runFixup(next, e, peer, args)
		if !ok || r.Kind != resp.Int || r.Int == 0 {
			return r
		}
		stored := e.raw(peer, []string{"ZRANGE", args[1], "0", "-1", "WITHSCORES"})
		for i := 0; i+1 < len(stored.Elems); i += 2 {
			if m := stored.Elems[i].Str; isNaNScore(stored.Elems[i+1].Str) {
				score, known := before[m]
				if !known {
					score = resp.FormatDouble(c.score(e, peer, m))
				}
				e.raw(peer, []string{"ZADD", args[1], score, m})
			}
		}
		return r
	}
}
