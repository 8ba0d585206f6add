package engine

import (
	"math"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
	"echomq.dev/playground/wasm/zset"
)

// The sorted-set commands the engine serves from its index (see zsets.go),
// with Redis 7.0's argument checks, in its order and words: every option
// and range is read before the key is looked at, so a syntax error wins
// over WRONGTYPE, as in Redis. A command with the wrong number of arguments
// goes to miniredis, which words that error as Redis does.

// zsetCommand is one command served here, for the command table.
type zsetCommand struct {
	name   string
	run    fixup
	absent bool // miniredis lacks it
}

// zsetCommands are the commands served here; buildCommands puts them in
// the table, and zsetsAfter leaves them alone.
func zsetCommands() []zsetCommand {
	return []zsetCommand{
		{"ZADD", zaddCommand, false},
		{"ZINCRBY", zincrbyCommand, false},
		{"ZREM", zremCommand, false},
		{"ZPOPMIN", zpopCommand(false), false},
		{"ZPOPMAX", zpopCommand(true), false},
		{"ZRANK", zrankCommand(false), false},
		{"ZREVRANK", zrankCommand(true), false},
		{"ZCOUNT", zcountCommand(byScore), false},
		{"ZLEXCOUNT", zcountCommand(byLex), false},
		{"ZRANGE", zrangeCommand(byAuto, false, false), false},
		{"ZREVRANGE", zrangeCommand(byRank, true, false), false},
		{"ZRANGEBYSCORE", zrangeCommand(byScore, false, false), false},
		{"ZREVRANGEBYSCORE", zrangeCommand(byScore, true, false), false},
		{"ZRANGEBYLEX", zrangeCommand(byLex, false, false), false},
		{"ZREVRANGEBYLEX", zrangeCommand(byLex, true, false), false},
		{"ZRANGESTORE", zrangeCommand(byAuto, false, true), true},
		{"ZREMRANGEBYRANK", zremrangeCommand(byRank), false},
		{"ZREMRANGEBYSCORE", zremrangeCommand(byScore), false},
		{"ZREMRANGEBYLEX", zremrangeCommand(byLex), false},
		{"ZDIFF", zdiffCommand(false), true},
		{"ZDIFFSTORE", zdiffCommand(true), true},
	}
}

// scoreText prints a stored score as Redis does.
func scoreText(f float64) resp.Reply { return resp.BulkReply(resp.FormatDouble(f)) }

// zaddOptions are ZADD's flags.
type zaddOptions struct {
	nx, xx, gt, lt, ch, incr bool
}

func zaddCommand(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) < 4 {
		return e.raw(peer, args)
	}
	var o zaddOptions
	i := 2
flags:
	for ; i < len(args); i++ {
		a := args[i]
		if a == "" || a[0] < 'A' {
			break // a digit, sign or point: the first score (no flag starts so)
		}
		switch ascii.Upper(a) {
		case "NX":
			o.nx = true
		case "XX":
			o.xx = true
		case "GT":
			o.gt = true
		case "LT":
			o.lt = true
		case "CH":
			o.ch = true
		case "INCR":
			o.incr = true
		default:
			break flags
		}
	}
	pairs := len(args) - i
	switch {
	case pairs == 0 || pairs%2 != 0:
		return resp.ErrorReply(errSyntax)
	case o.nx && o.xx:
		return resp.ErrorReply("ERR XX and NX options at the same time are not compatible")
	case o.gt && o.nx || o.lt && o.nx || o.gt && o.lt:
		return resp.ErrorReply("ERR GT, LT, and/or NX options at the same time are not compatible")
	case o.incr && pairs > 2:
		return resp.ErrorReply("ERR INCR option supports a single increment-element pair")
	}
	return e.zadd(peer, args[1], args[i:], o, false)
}

// zincrbyCommand is ZADD key INCR incr member, which is how Redis runs it.
func zincrbyCommand(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) != 4 {
		return e.raw(peer, args)
	}
	return e.zadd(peer, args[1], args[2:], zaddOptions{incr: true}, true)
}

// zadd adds the score/member pairs to key, as Redis's zaddGenericCommand
// does: every score is read first, so a bad one writes nothing.
func (e *Engine) zadd(peer *server.Peer, key string, pairs []string, o zaddOptions, zincrby bool) resp.Reply {
	var one [1]float64
	scores := one[:0]
	if len(pairs) > 2 {
		scores = make([]float64, 0, len(pairs)/2)
	}
	for j := 0; j < len(pairs); j += 2 {
		f, ok := parseScore(pairs[j])
		if !ok {
			return resp.ErrorReply(errNotFloat)
		}
		scores = append(scores, f)
	}
	db := e.dbOf[peer]
	ent, st := e.zentryOf(db, key, true)
	switch st {
	case zWrongType:
		return errWrongType
	case zMissing:
		if o.xx {
			if o.incr {
				return resp.NilReply()
			}
			return resp.IntReply(0)
		}
		ent = e.newZentry(db, key)
	}
	mdb := e.db(db)
	// miniredis makes the key's map with the first member, which ent is
	// tied to at once (node reads it); a set that existed keeps its map,
	// which ent knows already.
	adopt := st == zMissing
	added, updated, processed := 0, 0, 0
	var last float64
	for j, score := range scores {
		member := pairs[2*j+1]
		if n := ent.node(member); n != nil {
			cur := n.Score
			if o.nx {
				continue
			}
			if o.incr {
				score += cur
				if math.IsNaN(score) {
					return resp.ErrorReply(errNaNScore)
				}
			}
			if o.lt && score >= cur || o.gt && score <= cur {
				continue
			}
			processed++
			last = score
			if score != cur { // -0 and 0 are equal: no update
				updated++
				zstore(mdb, key, ent, n, member, score)
			}
			continue
		}
		if o.xx {
			continue
		}
		if !ent.skiplist && (ent.set.Len()+1 > zsetListpackEntries || len(member) > zsetListpackValue) {
			ent.skiplist = true
		}
		zstore(mdb, key, ent, nil, member, score)
		if adopt {
			e.zadopt(db, mdb, key, ent)
			adopt = false
		}
		added++
		processed++
		last = score
	}
	if o.incr {
		if processed == 0 {
			return resp.NilReply()
		}
		return scoreText(last)
	}
	if o.ch {
		return resp.IntReply(int64(added + updated))
	}
	return resp.IntReply(int64(added))
}

// zstore writes one member's score to miniredis's map and to the index:
// n is the member's node when it is in the set, nil when it is new. A
// listpack keeps a score as text and reads "-0" back as the integer 0, so a
// set Redis holds as a listpack never has a score of -0; a skiplist keeps
// the double as it is.
func zstore(mdb *miniredis.RedisDB, key string, ent *zentry, n *zset.Node, member string, score float64) {
	if score == 0 && !ent.skiplist {
		score = 0
	}
	mdb.ZAdd(key, score, member)
	if n != nil {
		ent.set.Rescore(n, score)
	} else {
		ent.set.Insert(member, score)
	}
}

// zadopt ties ent to the map key holds after the engine wrote it, which is
// a new map when the write created the key, and drops it if the key is gone.
func (e *Engine) zadopt(db int, mdb *miniredis.RedisDB, key string, ent *zentry) {
	live, err := mdb.SortedSet(key)
	if err != nil {
		if ks := e.zsets[key]; ks != nil {
			ks[db] = nil
		}
		return
	}
	ent.src, ent.checked = live, e.zgen
}

func zremCommand(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) < 3 {
		return e.raw(peer, args)
	}
	db := e.dbOf[peer]
	ent, st := e.zentryOf(db, args[1], true)
	switch st {
	case zWrongType:
		return errWrongType
	case zMissing:
		return resp.IntReply(0)
	}
	mdb := e.db(db)
	n := 0
	for _, m := range args[2:] {
		if node := ent.node(m); node != nil {
			ent.set.RemoveNode(node)
			mdb.ZRem(args[1], m)
			n++
		}
	}
	e.zremoved(db, mdb, args[1], ent)
	return resp.IntReply(int64(n))
}

// zremove takes the nodes out of the set, in miniredis and in the index.
func (e *Engine) zremove(db int, key string, ent *zentry, nodes []*zset.Node) {
	mdb := e.db(db)
	for _, n := range nodes {
		mdb.ZRem(key, n.Member)
		ent.set.RemoveNode(n)
	}
	e.zremoved(db, mdb, key, ent)
}

// zremoved follows removals from key: miniredis keeps a set's map while it
// has members, and deletes the key with its last, so only an emptied set
// has anything for zadopt to tie again (a claim's ZPOPMIN then reads
// miniredis's keyspace once less).
func (e *Engine) zremoved(db int, mdb *miniredis.RedisDB, key string, ent *zentry) {
	if ent.set.Len() == 0 {
		e.zadopt(db, mdb, key, ent)
	}
}

// zpopCommand is ZPOPMIN (max false) and ZPOPMAX.
func zpopCommand(max bool) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		switch {
		case len(args) < 2:
			return e.raw(peer, args)
		case len(args) > 3:
			return resp.ErrorReply(errSyntax)
		}
		count := int64(1)
		if len(args) == 3 {
			n, ok := parseRedisInt(args[2])
			if !ok || n < 0 {
				return resp.ErrorReply(errNotPositive)
			}
			count = n
		}
		db := e.dbOf[peer]
		ent, st := e.zentryOf(db, args[1], true)
		switch st {
		case zWrongType:
			return errWrongType
		case zMissing:
			return resp.ArrayReply()
		}
		if count == 0 {
			return resp.ArrayReply()
		}
		k := int(min(count, int64(ent.set.Len())))
		out := make([]resp.Reply, 0, 2*k)
		var one [1]*zset.Node
		nodes := one[:0]
		n := ent.set.First()
		if max {
			n = ent.set.Last()
		}
		for len(nodes) < k {
			nodes = append(nodes, n)
			out = append(out, resp.BulkReply(n.Member), scoreText(n.Score))
			if max {
				n = n.Prev()
			} else {
				n = n.Next()
			}
		}
		e.zremove(db, args[1], ent, nodes)
		return resp.ArrayReply(out...)
	}
}

func zrankCommand(rev bool) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		if len(args) != 3 {
			return e.raw(peer, args)
		}
		ent, st := e.zentryOf(e.dbOf[peer], args[1], true)
		switch st {
		case zWrongType:
			return errWrongType
		case zMissing:
			return resp.NilReply()
		}
		n := ent.node(args[2])
		if n == nil {
			return resp.NilReply()
		}
		r := ent.set.Rank(n)
		if rev {
			r = ent.set.Len() - 1 - r
		}
		return resp.IntReply(int64(r))
	}
}
