package engine

import (
	"strconv"
	"strings"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/rdb"
	"echomq.dev/playground/wasm/resp"
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
	if len(args) != 2 {
		return e.raw(peer, args)
	}
	db, key := e.dbOf[peer], args[1]
	read := func(cmd string, more ...string) resp.Reply {
		return e.raw(peer, append([]string{cmd, key}, more...))
	}
	var v rdb.Value
	switch read("TYPE").Str {
	case "none":
		return resp.NilReply()
	case "string":
		v = rdb.Value{Kind: rdb.String, Str: read("GET").Str}
	case "list":
		v = rdb.Value{Kind: rdb.List, Elems: strs(read("LRANGE", "0", "-1"))}
	case "set":
		v = rdb.Value{Kind: rdb.Set, Elems: strs(read("SMEMBERS"))}
	case "hash":
		v = rdb.Value{Kind: rdb.Hash, Elems: strs(e.reorderPairs(orderKey{db, key}, read("HGETALL")))}
	case "zset":
		ent, _ := e.zentryOf(db, key, true)
		v = rdb.Value{Kind: rdb.Zset, Skiplist: ent.skiplist}
		for n := ent.set.First(); n != nil; n = n.Next() {
			v.Elems, v.Scores = append(v.Elems, n.Member), append(v.Scores, n.Score)
		}
	default:
		return resp.ErrorReply(rdb.ErrStream.Error())
	}
	return resp.BulkReply(string(rdb.Dump(v)))
}

// strs is an array reply's strings.
func strs(r resp.Reply) []string {
	out := make([]string, len(r.Elems))
	for i, el := range r.Elems {
		out[i] = el.Str
	}
	return out
}

// restoreCommand is RESTORE key ttl payload [REPLACE] [ABSTTL] [IDLETIME
// seconds] [FREQ frequency], checked in Redis 7.0's order: the options,
// then an existing key (BUSYKEY), the TTL, the payload's footer, and the
// value. A TTL already past restores nothing, and REPLACE has deleted the
// old key by then, as in Redis. The idle time and frequency are checked and
// otherwise ignored: the engine keeps neither.
func restoreCommand(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) < 4 {
		return e.raw(peer, args)
	}
	replace, absttl, idle, freq := false, false, false, false
	for j := 4; j < len(args); j++ {
		more := j+1 < len(args)
		switch opt := args[j]; {
		case strings.EqualFold(opt, "REPLACE"):
			replace = true
		case strings.EqualFold(opt, "ABSTTL"):
			absttl = true
		case strings.EqualFold(opt, "IDLETIME") && more && !freq:
			n, ok := parseRedisInt(args[j+1])
			if !ok {
				return resp.ErrorReply(errNotInt)
			}
			if n < 0 {
				return resp.ErrorReply("ERR Invalid IDLETIME value, must be >= 0")
			}
			idle, j = true, j+1
		case strings.EqualFold(opt, "FREQ") && more && !idle:
			n, ok := parseRedisInt(args[j+1])
			if !ok {
				return resp.ErrorReply(errNotInt)
			}
			if n < 0 || n > 255 {
				return resp.ErrorReply("ERR Invalid FREQ value, must be >= 0 and <= 255")
			}
			freq, j = true, j+1
		default:
			return resp.ErrorReply("ERR syntax error")
		}
	}
	db, key := e.dbOf[peer], args[1]
	if !replace && e.raw(peer, []string{"EXISTS", key}).Int == 1 {
		return resp.ErrorReply("BUSYKEY Target key name already exists.")
	}
	ttl, ok := parseRedisInt(args[2])
	if !ok {
		return resp.ErrorReply(errNotInt)
	}
	if ttl < 0 {
		return resp.ErrorReply("ERR Invalid TTL value, must be >= 0")
	}
	v, err := rdb.Load([]byte(args[3]))
	if err != nil {
		return resp.ErrorReply(err.Error())
	}
	if replace {
		e.raw(peer, []string{"DEL", key})
		delete(e.hashOrder, orderKey{db, key})
	}
	if ttl != 0 && !absttl {
		ttl += e.now
	}
	if ttl != 0 && ttl <= e.now {
		return resp.OK()
	}
	d := e.m.DB(db)
	switch v.Kind {
	case rdb.String:
		d.Set(key, v.Str)
	case rdb.List:
		d.Push(key, v.Elems...)
	case rdb.Set:
		d.SetAdd(key, v.Elems...)
	case rdb.Hash:
		d.HSet(key, v.Elems...)
		o := &fieldOrder{}
		for i := 0; i < len(v.Elems); i += 2 {
			o.add(v.Elems[i])
		}
		if o.pos == nil {
			o = e.internOrder(o.fields)
		}
		e.hashOrder[orderKey{db, key}] = o
	case rdb.Zset:
		for i, m := range v.Elems {
			d.ZAdd(key, v.Scores[i], m)
		}
	}
	if ttl != 0 {
		e.raw(peer, []string{"PEXPIREAT", key, strconv.FormatInt(ttl, 10)})
	}
	return resp.OK()
}
