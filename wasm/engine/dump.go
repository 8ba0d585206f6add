package engine

import (
	"strconv"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/rdb"
	"echomq.dev/playground/wasm/resp"
	"echomq.dev/playground/wasm/stream"
)

// DUMP and RESTORE in Redis 7.0's payload format (wasm/rdb), so a payload
// copied from a real Redis restores here and the other way round.
// miniredis's DUMP is the raw string (and WRONGTYPE for anything else), and
// its RESTORE stores any bytes as a string.
//
// DUMP writes what the engine holds in the encoding Redis 7.0 would choose
// for it: a hash in the engine's field order, a sorted set in its index's
// order and as a skiplist once it has been one. RESTORE checks the payload
// before it touches the keyspace, then writes the value through miniredis
// directly and gives a hash the payload's field order; the sorted-set index
// is rebuilt from the new map when next read (see zsets.go).

func dumpCommand(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if msg := arityError("DUMP", args); msg != "" {
		return resp.ErrorReply(msg)
	}
	db, key := e.dbOf[peer], args[1]
	typ := e.raw(peer, []string{"TYPE", key}).Str
	v := rdb.Value{Kind: rdb.KindOf(typ), Limits: e.limits}
	switch v.Kind {
	case 0:
		if typ == "none" {
			return resp.NilReply()
		}
		if s, _ := e.streamAt(db, key); s != nil {
			return resp.BulkReply(rdb.DumpStream(s.Dump()))
		}
		return resp.ErrorReply(rdb.ErrStream.Error())
	case rdb.Zset:
		ent, _ := e.zentryOf(db, key, true)
		v.Skiplist = ent.skiplist
		for n := ent.set.First(); n != nil; n = n.Next() {
			v.Elems, v.Scores = append(v.Elems, n.Member), append(v.Scores, n.Score)
		}
	default:
		// Read through miniredis's commands, which the module links
		// anyway (its direct API for them would be code of its own).
		read := []string{"LRANGE", key, "0", "-1"}
		switch v.Kind {
		case rdb.String, rdb.Set, rdb.Hash:
			read = []string{[...]string{rdb.String: "GET", rdb.Set: "SMEMBERS", rdb.Hash: "HGETALL"}[v.Kind], key}
		}
		r := e.raw(peer, read)
		if v.Kind == rdb.Hash {
			r = e.reorderPairs(orderKey{db, key}, r)
		}
		v.Str = r.Str
		v.Elems, _ = r.Strings() // none for a string's bulk reply
	}
	return resp.BulkReply(rdb.Dump(v))
}

// restoreCommand is RESTORE key ttl payload [REPLACE] [ABSTTL] [IDLETIME
// seconds] [FREQ frequency], checked in Redis 7.0's order: the options,
// then an existing key (BUSYKEY), the TTL, the payload's footer, and the
// value. A TTL already past restores nothing, and REPLACE has deleted the
// old key by then, as in Redis. The idle time and frequency are checked and
// otherwise ignored: the engine keeps neither.
func restoreCommand(e *Engine, peer *server.Peer, args []string) resp.Reply {
	msg := arityError("RESTORE", args)
	if msg == "" {
		msg = restore(e, peer, args)
	}
	if msg != "" {
		return resp.ErrorReply(msg)
	}
	return resp.OK()
}

// restore is RESTORE's work; it answers the error, if any.
func restore(e *Engine, peer *server.Peer, args []string) string {
	replace, absttl, tuned := false, false, ""
	for j := 4; j < len(args); j++ {
		opt := ascii.Upper(args[j])
		switch {
		case opt == "REPLACE":
			replace = true
		case opt == "ABSTTL":
			absttl = true
		case (opt == "IDLETIME" || opt == "FREQ") && j+1 < len(args) && tuned == "":
			// One of the two, not both: Redis calls the second a syntax error.
			n, ok := parseRedisInt(args[j+1])
			switch {
			case !ok:
				return errNotInt
			case opt == "IDLETIME" && n < 0:
				return "ERR Invalid IDLETIME value, must be >= 0"
			case opt == "FREQ" && (n < 0 || n > 255):
				return "ERR Invalid FREQ value, must be >= 0 and <= 255"
			}
			tuned, j = opt, j+1
		default:
			return errSyntax
		}
	}
	db, key := e.dbOf[peer], args[1]
	d := e.m.DB(db)
	if !replace && d.Exists(key) {
		return "BUSYKEY Target key name already exists."
	}
	ttl, ok := parseRedisInt(args[2])
	if !ok {
		return errNotInt
	}
	if ttl < 0 {
		return "ERR Invalid TTL value, must be >= 0"
	}
	v, err := rdb.Load(args[3])
	if err != nil {
		return err.Error()
	}
	if replace {
		d.Del(key)
		e.hashOrder.drop(orderKey{db, key})
	}
	if ttl != 0 && !absttl {
		ttl += e.now
	}
	if ttl != 0 && ttl <= e.now {
		return ""
	}
	if v.Stream != nil {
		s, ok := stream.FromDump(v.Stream, args[3][0] == 15)
		if !ok {
			return rdb.ErrFormat.Error()
		}
		e.newStreamAt(db, key, s)
		if ttl != 0 {
			e.raw(peer, []string{"PEXPIREAT", key, strconv.FormatInt(ttl, 10)})
		}
		return ""
	}
	if v.Kind == rdb.String {
		v.Elems = []string{v.Str}
	}
	if v.Kind == rdb.Zset {
		for i, m := range v.Elems {
			d.ZAdd(key, v.Scores[i], m)
		}
	} else {
		// SET, RPUSH, SADD or HSET, straight to miniredis: the engine's
		// hash field order is set here, from the payload's.
		e.raw(peer, append([]string{[...]string{rdb.String: "SET", rdb.List: "RPUSH", rdb.Set: "SADD", rdb.Hash: "HSET"}[v.Kind], key}, v.Elems...))
	}
	if v.Kind == rdb.Hash {
		e.restoreOrder(orderKey{db, key}, v.Elems)
	}
	if ttl != 0 {
		e.raw(peer, []string{"PEXPIREAT", key, strconv.FormatInt(ttl, 10)})
	}
	return ""
}

// restoreOrder gives a restored hash its payload's field order (pairs are
// its fields and values in turn).
func (e *Engine) restoreOrder(key orderKey, pairs []string) {
	o := &fieldOrder{}
	for i := 0; i < len(pairs); i += 2 {
		o.add(pairs[i])
	}
	if o.pos == nil {
		o = e.internOrder(o.fields)
	}
	e.hashOrder.set(key, o)
}
