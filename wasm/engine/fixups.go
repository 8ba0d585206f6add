package engine

import (
	"math"
	"strconv"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/rdb"
	"echomq.dev/playground/wasm/resp"
)

// A fixup serves one command where miniredis's answer differs from Redis
// 7.0's, or where miniredis would fail outright. It sits on the dispatch
// path, so a learner's console and a script's redis.call meet the same
// behaviour. Each one leans on miniredis for the storage and only corrects
// the part that differs. commandtable.go says which command has which.
type fixup func(e *Engine, peer *server.Peer, args []string) resp.Reply

// keysFixup matches KEYS patterns byte by byte as Redis does. miniredis
// turns the pattern into a Go regexp, which matches by character and
// panics on a class like [b-a].
func keysFixup(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) != 2 {
		return e.raw(peer, args)
	}
	all := e.raw(peer, []string{args[0], "*"})
	if all.Kind != resp.Array || args[1] == "*" {
		return all // Redis, too, takes a lone * as "every key" without matching
	}
	out := all.Elems[:0:0]
	for _, k := range all.Elems {
		if globMatch(args[1], k.Str) {
			out = append(out, k)
		}
	}
	return resp.ArrayReply(out...)
}

// scanFixup applies a SCAN-family MATCH pattern itself, for the same
// reason as KEYS. miniredis returns every element in one reply (cursor 0),
// so filtering that reply is the whole job. first is the index of the first
// option after the cursor; stride is how many reply items make one element
// (2 for HSCAN's field/value and ZSCAN's member/score pairs).
func scanFixup(first, stride int) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		pattern, hasMatch := "", false
		rest := make([]string, 0, len(args))
		rest = append(rest, args[:min(first, len(args))]...)
		for i := first; i < len(args); i++ {
			if ascii.EqualFold(args[i], "MATCH") && i+1 < len(args) {
				pattern, hasMatch = args[i+1], true
				i++
				continue
			}
			rest = append(rest, args[i])
		}
		r := e.raw(peer, rest)
		if !hasMatch || pattern == "*" || r.Kind != resp.Array || len(r.Elems) != 2 || r.Elems[1].Kind != resp.Array {
			return r
		}
		items := r.Elems[1].Elems
		kept := make([]resp.Reply, 0, len(items))
		for i := 0; i+stride <= len(items); i += stride {
			if globMatch(pattern, items[i].Str) {
				kept = append(kept, items[i:i+stride]...)
			}
		}
		return resp.ArrayReply(r.Elems[0], resp.ArrayReply(kept...))
	}
}

// hincrbyFixup checks what Redis checks before it increments, in Redis's
// order and words: the increment, the type of the key, the stored value,
// and overflow. miniredis says "value is not an integer" for a stored value
// that is not a number, and wraps around on overflow.
func hincrbyFixup(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) != 4 {
		return e.raw(peer, args)
	}
	incr, ok := parseRedisInt(args[3])
	if !ok {
		return resp.ErrorReply(errNotInt)
	}
	cur := e.hget(peer, args[1], args[2])
	if r, refused := incrementRefused(cur, incr, "ERR hash value is not an integer"); refused {
		return r
	}
	// Checked as Redis checks: the key is a hash or nothing, the value an
	// integer or nothing, and the sum fits. The sum is written with
	// miniredis's direct HSet, without a trip through its command table
	// (@claim counts each attempt so); its HIncr would read the field
	// again and parse it a second time.
	if e.plain(DirectCommands) {
		return e.raw(peer, args) // checked: miniredis's HINCRBY cannot wrap around now
	}
	v, _ := parseRedisInt(cur.Str) // 0 for a missing field
	sum := v + incr
	e.db(e.dbOf[peer]).HSet(args[1], args[2], strconv.FormatInt(sum, 10))
	return resp.IntReply(sum)
}

// incrementRefused checks, as Redis does, that the value cur (a reply to
// GET or HGET) can be incremented by by: an error reply stands, a stored
// value must read as an integer (notInt says that it does not), and the
// sum must not overflow. A missing value counts as 0.
func incrementRefused(cur resp.Reply, by int64, notInt string) (resp.Reply, bool) {
	switch cur.Kind {
	case resp.Error:
		return cur, true
	case resp.Bulk:
		v, ok := parseRedisInt(cur.Str)
		if !ok {
			return resp.ErrorReply(notInt), true
		}
		if by < 0 && v < math.MinInt64-by || by > 0 && v > math.MaxInt64-by {
			return resp.ErrorReply("ERR increment or decrement would overflow"), true
		}
	}
	return resp.Reply{}, false
}

// parseRedisInt accepts what Redis's string2ll accepts (see rdb.LongLong).
func parseRedisInt(s string) (int64, bool) { return rdb.LongLong(s) }

// hget reads one hash field for a fixup's checks. It asks miniredis
// directly, in the connection's database, which costs no command; the
// direct read cannot tell a missing field (or key, or a key of another
// type) from an empty value, so an empty answer is asked again as a command.
func (e *Engine) hget(peer *server.Peer, key, field string) resp.Reply {
	if e.plain(DirectCommands) {
		return e.raw(peer, []string{"HGET", key, field})
	}
	if v := e.db(e.dbOf[peer]).HGet(key, field); v != "" {
		return resp.BulkReply(v)
	}
	return e.raw(peer, []string{"HGET", key, field})
}
