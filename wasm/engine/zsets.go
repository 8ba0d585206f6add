package engine

import (
	"unsafe"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/resp"
	"echomq.dev/playground/wasm/zset"
)

// Sorted sets in order. miniredis keeps a sorted set as a map and sorts it
// for every ZPOPMIN, ZRANGE or ZRANK, which makes a claim at depth 100,000
// cost milliseconds. The engine keeps an ordered index (wasm/zset) next to
// each map it has read in order, and serves the ordered commands from it
// (zsetcmds.go). miniredis's map stays the storage every other command
// reads (TYPE, EXISTS, DEL, RENAME, DUMP, expiry...), and the engine writes
// it, member by member, wherever it serves a write.
//
// The index must never be stale. Three rules keep it exact:
//   - A zentry remembers the very map it was built from. miniredis makes a
//     new map whenever a key is made again (after DEL, expiry, a store
//     command, RESTORE, FLUSHDB...), so an index whose map is not the
//     key's map now is rebuilt, whatever happened in between.
//   - The only writes that change a map in place and that the engine does
//     not serve itself (GEOADD, say) come through dispatch naming the key;
//     dispatch drops the index of every key a write names (zsetsAfter),
//     but for the writes that refuse a sorted set (otherTypeWrites).
//   - The writes the engine serves update map and index together.
//
// A zentry also keeps the encoding Redis 7.0 would hold the set in: a
// listpack while it is small, a skiplist once it has had more than 128
// members or a member longer than 64 bytes, for good. That shows in OBJECT
// ENCODING, in how a score of -0 is kept (a listpack stores it as 0), and in
// lexical ranges over members of different scores.

// Redis 7.0's zset-max-listpack-entries and zset-max-listpack-value.
const (
	zsetListpackEntries = 128
	zsetListpackValue   = 64
)

// zentry is what the engine knows of one sorted set.
type zentry struct {
	// src is the miniredis map the entry describes. nil means "the next
	// map seen under this name": COPY carries an encoding to a key whose
	// map the engine has not seen yet.
	src      map[string]float64
	set      *zset.Set // the order; nil until asked for, or after a write the engine did not serve
	skiplist bool      // Redis 7.0 keeps this set as a skiplist
	checked  uint64    // the Engine.zgen at which src was last found to be the key's map
}

// node is member's node in the order, found at its score in miniredis's
// map (the index keeps no map of its own), or nil when the set lacks it.
// The order must be built (zentryOf with ordered) and src the key's map.
func (ent *zentry) node(member string) *zset.Node {
	score, ok := ent.src[member]
	if !ok {
		return nil
	}
	return ent.set.Find(member, score)
}

// zkeys are the entries of one key name, by database.
type zkeys [databases]*zentry

// sameMap reports whether a and b are one map. Go maps do not compare,
// but a map value is one pointer to the map's header: the same pointer is
// the same map.
func sameMap(a, b map[string]float64) bool {
	return *(*unsafe.Pointer)(unsafe.Pointer(&a)) == *(*unsafe.Pointer)(unsafe.Pointer(&b))
}

// bigZset reports whether a set made from members as they are would be a
// skiplist in Redis 7.0.
func bigZset(members map[string]float64) bool {
	if len(members) > zsetListpackEntries {
		return true
	}
	for m := range members {
		if len(m) > zsetListpackValue {
			return true
		}
	}
	return false
}

// zstate says what a key holds, for the sorted-set commands.
type zstate int

const (
	zMissing zstate = iota
	zWrongType
	zFound
)

// zentryOf returns the entry of key in db, made right for the map the key
// holds now, and with its order built when ordered is set.
//
// Making it right reads miniredis's keyspace (SortedSet: its lock, and
// three lookups and a write in its maps). An entry checked at the engine's
// current zgen needs no second look: since then only commands that keep
// every sorted set as the index has it (zsetKeeper) have run, and the
// clock has not moved. A claim's ZPOPMIN and ZADD, and an enqueue's ZADD,
// find their entries so.
func (e *Engine) zentryOf(db int, key string, ordered bool) (*zentry, zstate) {
	ks := e.zsets[key]
	plain := e.plain(SortedSetIndex)
	if ks != nil && !plain {
		if ent := ks[db]; ent != nil && ent.checked == e.zgen && ent.src != nil && (ent.set != nil || !ordered) {
			return ent, zFound
		}
	}
	live, err := e.db(db).SortedSet(key)
	if err != nil {
		if ks != nil {
			ks[db] = nil
		}
		if err == miniredis.ErrWrongType {
			return nil, zWrongType
		}
		return nil, zMissing
	}
	if ks == nil {
		if e.zsets == nil {
			e.zsets = map[string]*zkeys{}
		}
		ks = &zkeys{}
		e.zsets[key] = ks
	}
	ent := ks[db]
	switch {
	case ent == nil:
		ent = &zentry{src: live, skiplist: bigZset(live)}
		ks[db] = ent
	case ent.src == nil:
		ent.src, ent.skiplist = live, ent.skiplist || bigZset(live)
	case !sameMap(ent.src, live):
		*ent = zentry{src: live, skiplist: bigZset(live)}
	}
	if ent.set != nil && (ent.set.Len() != len(live) || plain) {
		ent.set = nil // cannot happen by the rules above; rebuilt rather than trusted
	}
	if ordered && ent.set == nil {
		// A write the engine did not serve may have grown the set past
		// the listpack's limits.
		ent.skiplist = ent.skiplist || bigZset(live)
		s := zset.New()
		for m, score := range live {
			s.Insert(m, score) // a map's members: each once
		}
		ent.set = s
	}
	ent.checked = e.zgen
	return ent, zFound
}

// newZentry is the entry of a sorted set the engine is about to create.
func (e *Engine) newZentry(db int, key string) *zentry {
	if e.zsets == nil {
		e.zsets = map[string]*zkeys{}
	}
	ks := e.zsets[key]
	if ks == nil {
		ks = &zkeys{}
		e.zsets[key] = ks
	}
	ent := &zentry{set: zset.New()}
	ks[db] = ent
	return ent
}

// zsetEffect is what a command does to the index, worked out once per
// command name (see command.zset).
type zsetEffect uint8

const (
	zsetUntouched zsetEffect = iota // reads, and the writes the engine serves
	zsetNamed                       // may change any key it names
	zsetFirstKey                    // may change args[1], its only key
	zsetRename                      // RENAME, RENAMENX: the entry goes with the key
	zsetMove                        // MOVE
	zsetCopy                        // COPY
	zsetSwap                        // SWAPDB
	zsetFlushDB                     // FLUSHDB
	zsetFlushAll                    // FLUSHALL
)

func zsetEffectOf(upper string, readOnly, indexed bool) zsetEffect {
	switch upper {
	case "RENAME", "RENAMENX":
		return zsetRename
	case "MOVE":
		return zsetMove
	case "COPY":
		return zsetCopy
	case "SWAPDB":
		return zsetSwap
	case "FLUSHDB":
		return zsetFlushDB
	case "FLUSHALL":
		return zsetFlushAll
	}
	if readOnly || indexed || otherTypeWrites[upper] {
		return zsetUntouched
	}
	if oneKeyWrites[upper] {
		return zsetFirstKey
	}
	return zsetNamed
}

// oneKeyWrites are the write commands whose one key is args[1], and which
// may replace or remove a sorted set there (SET, an expiry) or change one
// in place (GEOADD): the rest of their arguments are values or options,
// which zsetsAfter need not look up as key names. A script's loop of SET
// then pays one lookup per call in the index, not one per argument.
var oneKeyWrites = map[string]bool{
	"SET": true, "SETNX": true, "SETEX": true, "PSETEX": true,
	"EXPIRE": true, "PEXPIRE": true, "EXPIREAT": true, "PEXPIREAT": true, "PERSIST": true,
	"GEOADD": true,
}

// otherTypeWrites are the write commands of one key, args[1], that write a
// type other than a sorted set and refuse a key of any other type with
// WRONGTYPE: they never change, replace or remove a sorted set, so the
// index has nothing to check after them. The queue scripts' HSET and
// HINCRBY are among them, which spares each a lookup in the index.
// (PFMERGE and PFCOUNT read the other keys they name too, and refuse a
// sorted set there as well.)
var otherTypeWrites = map[string]bool{
	"GETSET": true, "GETDEL": true, "GETEX": true,
	"APPEND": true, "SETRANGE": true, "INCR": true, "DECR": true, "INCRBY": true, "DECRBY": true, "INCRBYFLOAT": true,
	"HSET": true, "HMSET": true, "HSETNX": true, "HDEL": true, "HINCRBY": true, "HINCRBYFLOAT": true,
	"LPUSH": true, "RPUSH": true, "LPUSHX": true, "RPUSHX": true, "LPOP": true, "RPOP": true, "LSET": true, "LREM": true, "LTRIM": true, "LINSERT": true,
	"SADD": true, "SREM": true, "SPOP": true,
	"XADD": true, "XDEL": true, "XTRIM": true, "PFADD": true, "PFMERGE": true, "PFCOUNT": true,
}

// zsetKeeper reports whether a command keeps every sorted set as the
// index has it, so that dispatch need not make the index check the sets
// again (see zentryOf): the commands served from the index keep it right
// themselves, the writes of other types refuse a sorted set, and these
// reads change nothing. Any other command moves Engine.zgen on, a read
// that miniredis flags read-only among them (GEORADIUS can STORE).
func zsetKeeper(upper string, indexed bool) bool {
	return indexed || otherTypeWrites[upper] || zsetSafeReads[upper]
}

// zsetSafeReads are reads the queue scripts and the lesson make; a read
// left out costs only a second look at the sets it reads next.
var zsetSafeReads = map[string]bool{
	"GET": true, "MGET": true, "STRLEN": true, "EXISTS": true, "TYPE": true, "TTL": true, "PTTL": true,
	"HGET": true, "HMGET": true, "HGETALL": true, "HKEYS": true, "HVALS": true, "HLEN": true, "HEXISTS": true,
	"LLEN": true, "LRANGE": true, "LINDEX": true, "SCARD": true, "SMEMBERS": true, "SISMEMBER": true,
	"ZCARD": true, "ZSCORE": true, "ZMSCORE": true, "TIME": true, "PING": true, "ECHO": true, "DBSIZE": true,
}

// zsetsAfter brings the index up to date after command c ran with args on
// peer and answered r, and carries the hash field orders (fixups_hash.go)
// of the keys a command moved, copied or dropped whole, as the sets' entries
// are carried.
func (e *Engine) zsetsAfter(peer *server.Peer, c *command, args []string, r resp.Reply) {
	if r.IsError() {
		return
	}
	// RENAMENX, MOVE and COPY answer 0 when they moved nothing.
	moved := r.Kind != resp.Int || r.Int == 1
	db := e.dbOf[peer]
	switch c.zset {
	case zsetNamed, zsetFirstKey:
		names := args[1:]
		if c.zset == zsetFirstKey {
			names = args[1:2]
		}
		for _, a := range names {
			if ks := e.zsets[a]; ks != nil {
				for _, ent := range ks {
					if ent != nil {
						ent.set = nil
					}
				}
			}
		}
	case zsetRename:
		if moved && len(args) == 3 && args[1] != args[2] {
			e.carryKey(db, args[1], db, args[2], true)
		}
	case zsetMove:
		if to, ok := parseDB(args, 2); moved && ok && len(args) == 3 {
			e.carryKey(db, args[1], to, args[1], true)
		}
	case zsetCopy:
		if to, ok := copyTarget(args, db); moved && ok && to >= 0 && to < databases {
			e.carryKey(db, args[1], to, args[2], false)
		}
	case zsetSwap:
		a, okA := parseDB(args, 1)
		b, okB := parseDB(args, 2)
		if okA && okB && len(args) == 3 && a != b {
			for _, ks := range e.zsets {
				ks[a], ks[b] = ks[b], ks[a]
			}
			e.swapOrders(a, b)
		}
	case zsetFlushDB:
		for _, ks := range e.zsets {
			ks[db] = nil
		}
		e.hashOrder[db] = nil
	case zsetFlushAll:
		e.zsets = nil
		e.hashOrder = hashOrders{}
	}
}

// carryKey carries what the engine keeps beside a key (a hash's field
// order, a sorted set's entry) from from in fromDB to to in toDB.
func (e *Engine) carryKey(fromDB int, from string, toDB int, to string, move bool) {
	e.moveOrder(orderKey{fromDB, from}, orderKey{toDB, to}, move)
	e.carryZset(fromDB, from, toDB, to, move)
}

// carryZset gives the key to in database toDB the entry of from in fromDB,
// as a command that moved or copied the key carries its encoding. The
// entries are checked against miniredis's maps when next used, so a
// command that moved nothing leaves nothing wrong behind.
func (e *Engine) carryZset(fromDB int, from string, toDB int, to string, move bool) {
	var ent *zentry
	if ks := e.zsets[from]; ks != nil {
		ent = ks[fromDB]
		if move {
			ks[fromDB] = nil
		}
	}
	ks := e.zsets[to]
	if ks == nil {
		if ent == nil {
			return
		}
		ks = &zkeys{}
		if e.zsets == nil {
			e.zsets = map[string]*zkeys{}
		}
		e.zsets[to] = ks
	}
	if ent != nil && !move {
		// A copy is a new map with the same encoding.
		ent = &zentry{skiplist: ent.skiplist}
	}
	ks[toDB] = ent
}

// parseDB reads args[i] as a database number.
func parseDB(args []string, i int) (int, bool) {
	if i >= len(args) {
		return 0, false
	}
	n, ok := parseRedisInt(args[i])
	return int(n), ok && n >= 0 && n < databases
}
