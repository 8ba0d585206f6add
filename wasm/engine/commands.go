package engine

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// command is what the engine needs to know about one command name before
// it runs it: its upper-case form, its fixup and RESP3 shape if any,
// whether clients or scripts may call it, and how miniredis files it.
//
// Finding it out takes half a dozen map lookups on the upper-cased name
// (two of them inside miniredis, under its lock), and a script pays for
// it on every redis.call: in WebAssembly, where hashing a string is slow,
// that shows. So it is worked out once per name and kept. None of it can
// change while an engine lives: the tables are fixed at start-up, and
// miniredis registers its commands when it starts.
type command struct {
	upper      string
	session    func(e *Engine, peer *server.Peer, args []string) (resp.Reply, bool)
	fix        fixup
	shape      func(args []string, r resp.Reply) resp.Reply
	refusedMsg string        // why clients cannot use it; "" if they can
	refused    bool          // it is in refusedFromClient
	redis      *redisCommand // Redis 7.0's entry for it; nil if Redis lacks it
	registered bool          // miniredis knows it
	readOnly   bool          // miniredis files it as read-only, and Redis does not count it a write
	reuseArgs  bool          // see argsNotKept
	quick      bool          // see quickCommands
	tx         bool          // MULTI, EXEC, DISCARD, WATCH or UNWATCH (see multi.go)
	keepsZsets bool          // see zsetKeeper
	zset       zsetEffect
	lua        luaKind       // see route.lua
	undef      undefinedKind // see noteUndefined
}

// plainRoute is the path of a command the table does not name: miniredis.
var plainRoute route

// maxCommandCache bounds the cache of command names: a learner can type
// any name at all, and unknown ones need not be remembered forever.
const maxCommandCache = 512

// lookup returns what the engine knows of the command called name, spelt
// as the caller spelt it. The engine lock must be held.
func (e *Engine) lookup(name string) *command {
	// A script names its commands with the constants of its compiled
	// chunk, the same bytes on every run: a name whose bytes were looked
	// up lately is found by where they are, without hashing it (in
	// WebAssembly, Go hashes a string without the CPU's help). The slot
	// holds the string, so those bytes cannot be reused for another name.
	if len(name) == 0 || e.plain(NameSlots) {
		return e.lookupName(name)
	}
	// Each call site is its own constant (a round trip names eleven), and
	// Go's own constants sit a few bytes apart ("EVALSHA" next to
	// "EXISTS"): the address, every bit of it mixed, picks a pair of
	// slots out of 64, and a name takes the pair's free one.
	p := uint64(uintptr(unsafe.Pointer(unsafe.StringData(name))))
	i := p * 0x9e3779b97f4a7c15 >> 58
	for _, j := range [2]uint64{i, i ^ 1} {
		if s := &e.recent[j]; unsafe.StringData(s.name) == unsafe.StringData(name) && len(s.name) == len(name) {
			return s.c
		}
	}
	c := e.lookupName(name)
	if e.recent[i].c != nil && e.recent[i^1].c == nil {
		i ^= 1
	}
	e.recent[i] = recentName{name, c}
	return c
}

// recentName is one slot of Engine.recent: a name lookup was asked for,
// by its bytes, and what it found.
type recentName struct {
	name string
	c    *command
}

func (e *Engine) lookupName(name string) *command {
	if c := e.cmds[name]; c != nil && !e.plain(NameCache) {
		return c
	}
	// Redis reads a name in ASCII: "ſet" (a long s) is no command.
	// miniredis upper-cases names with Go's Unicode rules, to which it is
	// SET, so it is asked only about a name those rules leave as it is.
	up := ascii.Upper(name)
	known := strings.ToUpper(up) == up
	rt := commandRoutes()[up]
	if rt == nil {
		rt = &plainRoute
	}
	c := &command{
		upper:   up,
		session: rt.session,
		fix:     rt.run,
		shape:   rt.shape,
		lua:     rt.lua,
		// Redis 7.0 must know it too: miniredis v2.40.0 answers commands
		// newer than 7.0 (HEXPIRE...), which 7.0 calls unknown.
		registered: known && e.srv.IsRegisteredCommand(up) && redisTable()[up] != nil || rt.absent,
		readOnly:   (known && e.srv.IsReadOnlyCommand(up) || rt.readOnly) && !rt.mayReplicate,
	}
	c.zset = zsetEffectOf(up, c.readOnly, rt.indexed)
	c.keepsZsets = zsetKeeper(up, rt.indexed)
	c.refusedMsg, c.refused = refusedFromClient[up]
	c.redis = redisTable()[up]
	c.reuseArgs = argsNotKept[up]
	c.quick = quickCommands[up]
	c.undef = undefinedOf(up)
	switch up {
	case "MULTI", "EXEC", "DISCARD", "WATCH", "UNWATCH":
		c.tx = true
	}
	if e.cmds == nil {
		e.cmds = map[string]*command{}
	}
	if len(e.cmds) < maxCommandCache && !e.plain(NameCache) {
		e.cmds[name] = c
	}
	return c
}

// argsNotKept are the commands a script may call with arguments in a
// reused slice (see runner.argBuffer): neither their fixups nor their
// miniredis handlers keep the slice, or a part of it, after they return;
// they keep the strings, which do not change. These were read for that,
// and they are the commands queue scripts are made of; any other command
// gets a slice of its own, so a handler that did keep its arguments (a
// stream entry, say) could never see them overwritten.
var argsNotKept = map[string]bool{
	"EXISTS": true, "GET": true, "SET": true, "DEL": true, "TIME": true,
	"HGET": true, "HSET": true, "HDEL": true, "HINCRBY": true, "HGETALL": true,
	"ZADD": true, "ZREM": true, "ZSCORE": true, "ZCARD": true, "ZRANGE": true,
	"ZPOPMIN": true, "ZPOPMAX": true, "LPUSH": true, "RPUSH": true, "SADD": true,
}

// dispatch runs one command on peer and returns its reply: c is what lookup
// found for args[0]. Every command the engine runs, from a connection
// (after do) or from a script's redis.call, comes through here; the
// fixups correct the commands whose miniredis answer differs from Redis
// 7.0's. The engine lock must be held.
func (e *Engine) dispatch(peer *server.Peer, c *command, args []string) resp.Reply {
	if !c.registered {
		return unknownCommand(args)
	}
	if len(e.tx) > 0 || e.plain(TxGuard) {
		if r, ok := e.watchedWrite(peer, c, args); ok {
			return r
		}
	}
	if !c.keepsZsets {
		e.forget(zsetsMayChange) // before, for the entries it reads; after, for what it wrote
	}
	r := e.runCommand(peer, c, args)
	if !c.keepsZsets {
		e.forget(zsetsMayChange)
	}
	if c.undef != definedReply {
		e.noteUndefined(peer, c, args, r)
	}
	if w := &e.runner.walk; w.walked && !c.readOnly {
		w.wroteAfter = true
	}
	if c.zset == zsetSwap {
		e.forget(dbsSwapped)
	}
	if c.zset != zsetUntouched && (len(e.zsets) > 0 || c.zset != zsetNamed && c.zset != zsetFirstKey) {
		e.zsetsAfter(peer, c, args, r)
	}
	switch {
	case c.zset == zsetFlushAll && !r.IsError():
		e.flushed(-1)
	case c.zset == zsetFlushDB && !r.IsError():
		e.flushed(e.dbOf[peer])
	}
	e.tick()
	e.budgetAfterCommand(c, args, r)
	return r
}

// budgetAfterCommand counts a command a running script called as work:
// commandUnits, one unit per argument and per argBytesPerUnit bytes of
// them, and for a command whose work grows with the keyspace or the value
// it touches (one not in quickCommands), one unit per element of its reply
// and per replyBytesPerUnit bytes of it, what it walked to make the reply.
// Such a command also looks at the clock, the last resort: a loop around a
// slow command whose reply is small (a big ZUNIONSTORE) is stopped by the
// first command that ends past it, not a hundred commands later when the
// VM next looks.
func (e *Engine) budgetAfterCommand(c *command, args []string, r resp.Reply) {
	b := e.runner.budget
	if !b.armed || b.expired {
		return
	}
	units := commandUnits + len(args)
	for _, a := range args {
		units += len(a) / argBytesPerUnit
	}
	if c.quick {
		b.charge(units)
		return
	}
	b.charge(units + replyUnits(r))
	if !b.expired && b.deadline != math.MaxInt64 && time.Since(clockBase) > b.deadline {
		b.stop(StoppedByClock)
	}
}

// replyUnits is what making reply r is worth: one unit per element, and
// one per replyBytesPerUnit bytes of text.
func replyUnits(r resp.Reply) int {
	n := 1 + len(r.Str)/replyBytesPerUnit
	for _, el := range r.Elems {
		n += replyUnits(el)
	}
	return n
}

// quickCommands are the commands whose work does not grow with the
// keyspace or the value they touch, only with their arguments: one key,
// one field or member each, found by hash or in the sorted-set index in
// O(log n). Any command that walks a key's members (SMEMBERS, HGETALL,
// ZRANGE, KEYS) or copies a value (APPEND, LPUSH's slice, COPY) is left
// out: its reply is counted too, and it reads the clock after every call.
var quickCommands = map[string]bool{
	"GET": true, "SET": true, "EXISTS": true, "DEL": true, "UNLINK": true, "TYPE": true, "TIME": true,
	"INCR": true, "INCRBY": true, "DECR": true, "DECRBY": true,
	"EXPIRE": true, "PEXPIRE": true, "TTL": true, "PTTL": true, "PERSIST": true,
	"HGET": true, "HSET": true, "HSETNX": true, "HEXISTS": true, "HINCRBY": true, "HDEL": true, "HLEN": true,
	"SADD": true, "SREM": true, "SISMEMBER": true, "SCARD": true,
	"ZADD": true, "ZREM": true, "ZSCORE": true, "ZCARD": true, "ZINCRBY": true,
}

// runCommand runs a command that is known to exist: its fixup, or
// miniredis as it is.
func (e *Engine) runCommand(peer *server.Peer, c *command, args []string) resp.Reply {
	if c.fix == nil {
		if c.upper == "SELECT" && len(args) == 2 && !selectable(args[1]) {
			return resp.ErrorReply("ERR DB index is out of range")
		}
		r := e.raw(peer, args)
		if c.upper == "SELECT" && r.Kind == resp.Status {
			e.noteSelect(peer, args[1])
		}
		return r
	}
	if !peer.Resp3 {
		return c.fix(e, peer, args)
	}
	// The fixups work on RESP2 replies; shape the result for RESP3 after.
	peer.Resp3 = false
	r := c.fix(e, peer, args)
	peer.Resp3 = true
	if c.shape != nil && !r.IsError() {
		r = c.shape(args, r)
	}
	return r
}

// databases is how many databases the server has: Redis's default, 16.
const databases = 16

// selectable reports whether SELECT may switch to index, or, for an index
// that is not a number, leaves the error to miniredis. miniredis has no
// upper bound; Redis refuses any database past its last.
func selectable(index string) bool {
	n, err := strconv.ParseInt(index, 10, 64)
	return err != nil || (n >= 0 && n < databases)
}

// unknownCommand is Redis 7.0's reply to a command name it does not know,
// given instead of miniredis's (which quotes with backquotes and lists
// every argument): the name and the first arguments in single quotes, each
// cut so that the list stops near 128 bytes, and no line breaks. Like the
// C it mirrors, a NUL ends a name or an argument.
func unknownCommand(args []string) resp.Reply {
	cString := func(s string) string {
		if i := strings.IndexByte(s, 0); i >= 0 {
			return s[:i]
		}
		return s
	}
	var list strings.Builder
	for _, a := range args[1:] {
		if list.Len() >= 128 {
			break
		}
		a = cString(a)
		if room := 128 - list.Len(); len(a) > room {
			a = a[:room]
		}
		list.WriteString("'" + a + "' ")
	}
	name := cString(args[0])
	if len(name) > 128 {
		name = name[:128]
	}
	msg := "ERR unknown command '" + name + "', with args beginning with: " + list.String()
	return resp.ErrorReply(strings.NewReplacer("\r", " ", "\n", " ").Replace(msg))
}
