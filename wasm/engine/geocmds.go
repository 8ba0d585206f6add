package engine

import (
	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/geo"
	"echomq.dev/playground/wasm/resp"
	"echomq.dev/playground/wasm/zset"
)

// The GEO commands are Redis 7.0's (wasm/geo), over the sorted sets the
// engine keeps in order. miniredis's own compute every member's distance
// and sort what they find, where Redis reads the members of nine geohash
// cells around the centre: which members a search finds at its edges,
// and the order of a search without ASC or DESC, come from those cells.
// miniredis also lacks GEOHASH, GEOSEARCHSTORE, GEOADD's NX, XX and CH,
// and ANY.
//
// GEOADD is the ZADD Redis turns it into, served from the index like any
// ZADD. The searches read the index; a STORE writes miniredis's keyspace
// directly, and dispatch drops the index of the keys it names
// (zsetsAfter), as after any write the index does not serve.

// geoCommands are the commands, upper case, in the order the table lists
// them.
var geoCommands = []string{
	"GEOADD", "GEOPOS", "GEODIST", "GEOHASH",
	"GEORADIUS", "GEORADIUS_RO", "GEORADIUSBYMEMBER", "GEORADIUSBYMEMBER_RO", "GEOSEARCH", "GEOSEARCHSTORE",
}

// geoCommand serves one of geoCommands, checked for its arity first.
func geoCommand(name string) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		if msg := arityError(name, args); msg != "" {
			return resp.ErrorReply(msg)
		}
		ks := &geoKeyspace{e, peer}
		switch name {
		case "GEOADD":
			zadd, bad := geo.AddArgs(ks, args)
			if bad != nil {
				return *bad
			}
			return zaddCommand(e, peer, zadd)
		case "GEOPOS":
			return geo.Pos(ks, args)
		case "GEODIST":
			return geo.Dist(ks, args)
		case "GEOHASH":
			return geo.HashOf(ks, args)
		}
		return geo.Search(ks, geo.Searches[name], args)
	}
}

// geoKeyspace is the database peer has selected, as wasm/geo reads and
// writes it.
type geoKeyspace struct {
	e    *Engine
	peer *server.Peer
}

func (k *geoKeyspace) Zset(key string) (geo.Set, bool) {
	ent, st := k.e.zentryOf(k.e.dbOf[k.peer], key, true)
	switch st {
	case zWrongType:
		return nil, true
	case zMissing:
		return nil, false
	}
	return geoSet{ent}, false
}

// Store replaces key with a sorted set of the members, or deletes it when
// there are none, as setKey and dbDelete do: a new key, without a TTL.
func (k *geoKeyspace) Store(key string, members []string, scores []float64) {
	db := k.e.db(k.e.dbOf[k.peer])
	db.Del(key)
	for i, m := range members {
		db.ZAdd(key, scores[i], m)
	}
}

func (k *geoKeyspace) Double(s string) (float64, bool) { return parseScore(s) }

// geoSet is a sorted set's entry, its order built.
type geoSet struct{ ent *zentry }

func (s geoSet) Score(member string) (float64, bool) {
	f, ok := s.ent.src[member]
	return f, ok
}

func (s geoSet) Range(min, max float64, visit func(member string, score float64) bool) {
	n, _ := s.ent.set.FirstNotBefore(func(n *zset.Node) bool { return n.Score < min })
	for ; n != nil && n.Score < max; n = n.Next() {
		if !visit(n.Member, n.Score) {
			return
		}
	}
}
