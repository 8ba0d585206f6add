// The sorted-set commands that take a range (see zspan.go): ZRANGE and its
// older forms, ZRANGESTORE, ZCOUNT, ZLEXCOUNT, ZREMRANGEBY*, and ZDIFF.

package engine

import (
	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
	"echomq.dev/playground/wasm/zset"
)

// storeForm gives a command's name, lower-case for its errors, and where
// its own arguments start: after the name, or, in a store form
// (ZRANGESTORE, ZDIFFSTORE), after the destination key too.
func storeForm(args []string, store bool) (string, int) {
	if store {
		return ascii.Lower(args[0]), 2
	}
	return ascii.Lower(args[0]), 1
}

// zrangeCommand serves ZRANGE (by byAuto) and its older forms, and
// ZRANGESTORE (store).
func zrangeCommand(by int, rev, store bool) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		name, first := storeForm(args, store) // first: the source key
		if len(args) < first+3 {
			if store { // ZRANGESTORE, which miniredis lacks
				return resp.Errorf(errWrongArgCount, name)
			}
			return e.raw(peer, args)
		}
		kind, reverse := by, rev
		withScores := false
		offset, limit := int64(0), int64(-1)
		for j := first + 3; j < len(args); j++ {
			switch opt := ascii.Upper(args[j]); {
			case !store && opt == "WITHSCORES":
				withScores = true
			case opt == "LIMIT" && len(args)-j-1 >= 2:
				var ok1, ok2 bool
				offset, ok1 = parseRedisInt(args[j+1])
				limit, ok2 = parseRedisInt(args[j+2])
				if !ok1 || !ok2 {
					return resp.ErrorReply(errNotInt)
				}
				j += 2
			case by == byAuto && opt == "REV" && !reverse:
				reverse = true
			case by == byAuto && opt == "BYLEX" && kind == byAuto:
				kind = byLex
			case by == byAuto && opt == "BYSCORE" && kind == byAuto:
				kind = byScore
			default:
				return resp.ErrorReply(errSyntax)
			}
		}
		if kind == byAuto {
			kind = byRank
		}
		if limit != -1 && kind == byRank {
			return resp.ErrorReply("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX")
		}
		if withScores && kind == byLex {
			return resp.ErrorReply("ERR syntax error, WITHSCORES not supported in combination with BYLEX")
		}
		lo, hi := args[first+1], args[first+2]
		if reverse && kind != byRank {
			lo, hi = hi, lo // given as max, min
		}
		sp, errRep := parseSpan(kind, lo, hi)
		if errRep != nil {
			return *errRep
		}
		db := e.dbOf[peer]
		ent, st := e.zentryOf(db, args[first], true)
		var nodes []*zset.Node
		switch st {
		case zWrongType:
			return errWrongType
		case zFound:
			nodes = sp.nodes(ent, reverse, offset, limit)
		}
		if store {
			return e.zstoreRange(db, args[1], nodes)
		}
		return nodesReply(nodes, withScores)
	}
}

func nodesReply(nodes []*zset.Node, withScores bool) resp.Reply {
	per := 1
	if withScores {
		per = 2
	}
	out := make([]resp.Reply, 0, per*len(nodes))
	for _, n := range nodes {
		out = append(out, resp.BulkReply(n.Member))
		if withScores {
			out = append(out, scoreText(n.Score))
		}
	}
	return resp.ArrayReply(out...)
}

// zstoreRange writes nodes to dst as a new sorted set, replacing whatever
// dst held (and its TTL); no nodes delete dst, as Redis stores no empty set.
func (e *Engine) zstoreRange(db int, dst string, nodes []*zset.Node) resp.Reply {
	type pair struct {
		m string
		s float64
	}
	// Copied first: dst may be the source.
	pairs := make([]pair, len(nodes))
	big := len(nodes) > zsetListpackEntries
	for i, n := range nodes {
		pairs[i] = pair{n.Member, n.Score}
		big = big || len(n.Member) > zsetListpackValue
	}
	mdb := e.db(db)
	mdb.Del(dst)
	if ks := e.zsets[dst]; ks != nil {
		ks[db] = nil
	}
	if len(pairs) == 0 {
		return resp.IntReply(0)
	}
	ent := e.newZentry(db, dst)
	ent.skiplist = big
	for _, p := range pairs {
		zstore(mdb, dst, ent, nil, p.m, p.s) // the members of one set: each new
	}
	e.zadopt(db, mdb, dst, ent)
	return resp.IntReply(int64(len(pairs)))
}

// spanOf reads what ZCOUNT, ZLEXCOUNT and the ZREMRANGEBY commands share:
// the range in args[2] and args[3] of the sorted set args[1]. When done, r
// is the whole reply: miniredis's to a wrong number of arguments (it words
// that as Redis does), the range's error, WRONGTYPE, or 0 for a key that
// does not exist.
func (e *Engine) spanOf(peer *server.Peer, by int, args []string) (sp zspan, ent *zentry, r resp.Reply, done bool) {
	if len(args) != 4 {
		return sp, nil, e.raw(peer, args), true
	}
	sp, errRep := parseSpan(by, args[2], args[3])
	if errRep != nil {
		return sp, nil, *errRep, true
	}
	ent, st := e.zentryOf(e.dbOf[peer], args[1], true)
	switch st {
	case zWrongType:
		return sp, nil, errWrongType, true
	case zMissing:
		return sp, nil, resp.IntReply(0), true
	}
	return sp, ent, resp.Reply{}, false
}

// zcountCommand is ZCOUNT (byScore) and ZLEXCOUNT (byLex).
func zcountCommand(by int) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		sp, ent, r, done := e.spanOf(peer, by, args)
		if done {
			return r
		}
		first := sp.first(ent)
		if first == nil {
			return resp.IntReply(0)
		}
		if by == byLex && !ent.skiplist {
			// A listpack counts from the first member in range on.
			n := 0
			for x := first; x != nil && sp.belowMax(x); x = x.Next() {
				n++
			}
			return resp.IntReply(int64(n))
		}
		last := sp.last(ent)
		if last == nil {
			return resp.IntReply(0)
		}
		a, b := ent.set.Rank(first), ent.set.Rank(last)
		return resp.IntReply(int64(max(b-a+1, 0)))
	}
}

// zremrangeCommand is ZREMRANGEBYRANK, ZREMRANGEBYSCORE and ZREMRANGEBYLEX.
func zremrangeCommand(by int) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		sp, ent, r, done := e.spanOf(peer, by, args)
		if done {
			return r
		}
		nodes := sp.nodes(ent, false, 0, -1)
		e.zremove(e.dbOf[peer], args[1], ent, nodes)
		return resp.IntReply(int64(len(nodes)))
	}
}

// zdiffCommand serves ZDIFF numkeys key [key ...] [WITHSCORES] and (store)
// ZDIFFSTORE destination numkeys key [key ...], which miniredis lacks: the
// members of the first sorted set that are in none of the others, with the
// first set's scores, in the set's order. As in Redis, a plain set stands
// for a sorted set whose scores are all 1. The checks are Redis 7.0's
// zunionInterDiffGenericCommand's, in its order: numkeys, the keys' types,
// then the options.
func zdiffCommand(store bool) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		name, at := storeForm(args, store) // at: numkeys
		if len(args) < at+2 {
			return resp.Errorf(errWrongArgCount, name)
		}
		n, ok := parseRedisInt(args[at])
		switch {
		case !ok:
			return resp.ErrorReply(errNotInt)
		case n < 1:
			return resp.Errorf("ERR at least 1 input key is needed for '%s' command", name)
		case n > int64(len(args)-at-1):
			return resp.ErrorReply(errSyntax)
		}
		keys := args[at+1 : at+1+int(n)]
		db := e.dbOf[peer]
		// The first set in order; each other one as its members' map.
		first := zset.New()
		others := make([]map[string]float64, len(keys))
		for i, k := range keys {
			ent, st := e.zentryOf(db, k, i == 0)
			switch {
			case st == zFound && i == 0:
				first = ent.set
			case st == zFound:
				others[i] = ent.src
			case st == zWrongType:
				// A plain set, or a key of another type (WRONGTYPE).
				r := e.raw(peer, []string{"SMEMBERS", k})
				if r.Kind != resp.Array {
					return r
				}
				others[i] = map[string]float64{}
				for _, m := range r.Elems {
					others[i][m.Str] = 1
				}
				if i == 0 {
					for m := range others[0] {
						first.Insert(m, 1) // a map's members: each once
					}
				}
			}
		}
		withScores := false
		for _, opt := range args[at+1+int(n):] {
			if store || !ascii.EqualFold(opt, "WITHSCORES") {
				return resp.ErrorReply(errSyntax)
			}
			withScores = true
		}
		var nodes []*zset.Node
	members:
		for x := first.First(); x != nil; x = x.Next() {
			for _, other := range others[1:] {
				if _, in := other[x.Member]; in {
					continue members
				}
			}
			nodes = append(nodes, x)
		}
		if store {
			return e.zstoreRange(db, args[1], nodes)
		}
		return nodesReply(nodes, withScores)
	}
}
