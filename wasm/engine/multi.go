package engine

import (
	"bufio"
	"slices"
	"strconv"
	"strings"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/resp"
)

// Transactions: MULTI, EXEC, DISCARD, WATCH and UNWATCH, per connection, as
// Redis 7.0 runs them.
//
// The engine queues a transaction's commands itself rather than leaving it
// to miniredis, because miniredis could only queue the commands it runs:
// EVAL and EVALSHA are our runner's, and every fixup would be skipped. At
// EXEC the queue runs through Engine.do, each command exactly as if the
// connection had sent it then, so nothing can slip in between (the engine
// lock is held throughout).
//
// WATCH is the engine's own too. miniredis keeps a version per key for
// its WATCH, but bumps it for writes that change nothing (SADD of a member
// that is there) and not for some that do (ZREM of one member of many), so
// the engine cannot ask it. Instead, while any connection watches keys,
// every write command that names a watched key, from a client or from
// inside a script, runs between two readings of that key (see
// watchedWrite), and a key whose type, value or expiry changed is touched,
// as Redis touches a key a command modified. That covers DEL, RENAME, FLUSHDB and FLUSHALL (only a
// key that was there is touched) and scripts. Three cases need more:
//   - a write Redis counts though the value stays the same (SET of the
//     value a key holds already): see alwaysTouches;
//   - SWAPDB, which Redis counts for a watched key found in either
//     database, even when both hold the same value;
//   - a key that expires as the clock moves: EXEC reads every watched key
//     once more and compares it with what WATCH read, and a key that is
//     gone now was touched, as Redis 7.0's EXEC checks for expired keys.

// transaction is one connection's transaction state.
type transaction struct {
	multi   bool       // between MULTI and EXEC or DISCARD
	queue   [][]string // the commands EXEC will run
	abort   bool       // a command could not be queued: EXEC answers EXECABORT
	watched []dbKey    // the keys WATCH named, in the database each was named in
	seen    []string   // each watched key as WATCH read it (see fingerprint)
	dirty   bool       // a watched key was touched: EXEC will answer nil
}

type dbKey struct {
	db  int
	key string
}

// idle reports whether t holds nothing worth keeping.
func (t *transaction) idle() bool { return !t.multi && len(t.watched) == 0 && !t.dirty }

const (
	msgExecAbort = "EXECABORT Transaction discarded because of previous errors."
	msgNested    = "ERR MULTI calls can not be nested"
)

// transaction serves the transaction commands, and queues every other
// command of a connection that is inside MULTI. ok is false for a command
// it leaves to the rest of do.
func (e *Engine) transaction(peer *server.Peer, c *command, args []string) (r resp.Reply, ok bool) {
	t := e.tx[peer]
	if !c.tx {
		// RESET is not queued: it ends the transaction (clientcmds.go).
		if t == nil || !t.multi || c.upper == "RESET" {
			return resp.Reply{}, false
		}
		return e.enqueue(t, c, args), true
	}
	if t == nil {
		t = &transaction{}
	}
	defer func() {
		switch {
		case t.idle():
			delete(e.tx, peer)
		case e.tx[peer] == nil:
			if e.tx == nil {
				e.tx = map[*server.Peer]*transaction{}
			}
			e.tx[peer] = t
		}
	}()
	if msg := arityError(c.upper, args); msg != "" {
		// Redis checks arity before it looks at MULTI: a malformed command
		// inside a transaction is refused, and spoils it, like any other;
		// a malformed EXEC ends the transaction (and the watch) on the spot,
		// in MULTI or not.
		if c.upper == "EXEC" {
			e.discard(t)
			return resp.ErrorReply("EXECABORT Transaction discarded because of: " + strings.TrimPrefix(msg, "ERR ")), true
		}
		if t.multi {
			t.abort = true
		}
		return resp.ErrorReply(msg), true
	}
	switch c.upper {
	case "MULTI":
		if t.multi {
			return resp.ErrorReply(msgNested), true
		}
		t.multi = true
		return resp.OK(), true
	case "DISCARD":
		if !t.multi {
			return resp.ErrorReply("ERR DISCARD without MULTI"), true
		}
		e.discard(t)
		return resp.OK(), true
	case "WATCH":
		if t.multi {
			return resp.ErrorReply("ERR WATCH inside MULTI is not allowed"), true
		}
		if t.dirty {
			return resp.OK(), true // already doomed: no point watching more
		}
		for _, name := range args[1:] {
			k := dbKey{e.dbOf[peer], name}
			t.watched = append(t.watched, k)
			t.seen = append(t.seen, e.fingerprint(k))
		}
		return resp.OK(), true
	case "UNWATCH":
		if t.multi {
			// Inside MULTI, UNWATCH is queued like any command; it runs at
			// EXEC, when the keys have been checked and let go already.
			return e.enqueue(t, c, args), true
		}
		e.unwatch(t)
		return resp.OK(), true
	}
	// EXEC
	if !t.multi {
		return resp.ErrorReply("ERR EXEC without MULTI"), true
	}
	if msg := e.execRefusal(t.queue); msg != "" {
		e.discard(t)
		return resp.ErrorReply("EXECABORT Transaction discarded because of: " + msg), true
	}
	if t.abort {
		e.discard(t)
		return resp.ErrorReply(msgExecAbort), true
	}
	if e.touched(t) {
		e.discard(t)
		return resp.NilArrayReply(), true
	}
	queue := t.queue
	e.discard(t)
	out := make([]resp.Reply, len(queue))
	e.block.execDepth++ // nothing blocks inside a transaction
	defer func() { e.block.execDepth-- }()
	for i, q := range queue {
		// A runtime error is that command's reply; the others still run.
		out[i] = e.do(peer, q)
	}
	return resp.ArrayReply(out...), true
}

// enqueue queues one command of an open transaction, or refuses it and
// spoils the transaction when Redis would refuse it before it ran: a name
// it does not know, or the wrong number of arguments. Any other mistake
// (a bad option, the wrong type) is found when EXEC runs it.
func (e *Engine) enqueue(t *transaction, c *command, args []string) resp.Reply {
	if msg := arityError(c.upper, args); msg != "" {
		t.abort = true
		return resp.ErrorReply(msg)
	}
	if redisTable()[c.upper] == nil {
		t.abort = true
		return unknownCommand(args)
	}
	if noMulti[c.upper] {
		t.abort = true
		return resp.ErrorReply("ERR Command not allowed inside a transaction")
	}
	if e.outOfMemory() {
		// A queue may grow without bound, so past maxmemory Redis queues
		// nothing, denyoom or not.
		t.abort = true
		return resp.ErrorReply(errOOM)
	}
	t.queue = append(t.queue, append([]string(nil), args...))
	return resp.StatusReply("QUEUED")
}

// noMulti are the commands Redis 7.0 flags "no-multi".
var noMulti = map[string]bool{"SAVE": true, "SYNC": true, "PSYNC": true, "SHUTDOWN": true}

// discard ends t's MULTI and forgets its queue and its watched keys, as
// EXEC and DISCARD both do.
func (e *Engine) discard(t *transaction) {
	t.multi, t.abort, t.queue = false, false, nil
	e.unwatch(t)
}

// unwatch forgets t's watched keys.
func (e *Engine) unwatch(t *transaction) {
	t.watched, t.seen, t.dirty = nil, nil, false
}

// touched reports whether a key t watches was touched since WATCH: by a
// write the engine saw, or by the clock (a key that expired).
func (e *Engine) touched(t *transaction) bool {
	if t.dirty {
		return true
	}
	for i, k := range t.watched {
		if e.fingerprint(k) != t.seen[i] {
			return true
		}
	}
	return false
}

// watchedWrite runs a write command while some connection watches keys,
// and touches every watched key the command modified (see the top of this
// file). ok is false when it leaves the command to dispatch: a
// read, no watcher, or the command it is already running.
func (e *Engine) watchedWrite(peer *server.Peer, c *command, args []string) (resp.Reply, bool) {
	// PFDEBUG's GETREG and TODENSE rewrite a key without touching it.
	if e.inWatched || c.readOnly || c.upper == "PFDEBUG" {
		return resp.Reply{}, false
	}
	// A command writes only keys it names, but for the three that empty
	// or swap whole databases: the watched keys it does not name are left
	// out, and a write to some other key costs no reading at all.
	whole := c.upper == "FLUSHDB" || c.upper == "FLUSHALL" || c.upper == "SWAPDB"
	var keys []dbKey
	seen := map[dbKey]bool{}
	for _, t := range e.tx {
		if t.dirty {
			continue
		}
		for _, k := range t.watched {
			if !seen[k] && (whole || slices.Contains(args[1:], k.key)) {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	if len(keys) == 0 {
		return resp.Reply{}, false
	}
	touched := map[dbKey]bool{}
	if c.upper == "SWAPDB" && len(args) == 3 {
		// A watched key found in either database is touched, whatever the
		// other holds; read before the swap, kept if it happens.
		a, errA := strconv.Atoi(args[1])
		b, errB := strconv.Atoi(args[2])
		if errA == nil && errB == nil {
			for _, k := range keys {
				if (k.db == a || k.db == b) && (e.fingerprint(dbKey{a, k.key}) != "" || e.fingerprint(dbKey{b, k.key}) != "") {
					touched[k] = true
				}
			}
		}
	}
	before := make([]string, len(keys))
	for i, k := range keys {
		before[i] = e.fingerprint(k)
	}
	db := e.dbOf[peer]
	// The command runs through dispatch, which must not come back here
	// (even after a panic, which api.Call survives).
	r := func() resp.Reply {
		e.inWatched = true
		defer func() { e.inWatched = false }()
		return e.dispatch(peer, c, args)
	}()
	if r.IsError() {
		clear(touched) // a command that failed changed nothing
	}
	for i, k := range keys {
		if e.fingerprint(k) != before[i] {
			touched[k] = true
		}
	}
	if !r.IsError() {
		for _, name := range alwaysTouches(c.upper, args, r) {
			touched[dbKey{db, name}] = true
		}
	}
	if len(touched) > 0 {
		for _, t := range e.tx {
			for _, k := range t.watched {
				if touched[k] {
					t.dirty = true
				}
			}
		}
	}
	return r, true
}

// alwaysTouches names the keys a command Redis counts as modified even
// when their value comes out the same: SET of the value a key holds,
// HSET of a field's own value, INCRBY by 0, a store that writes what was
// there. A command that does change its key is seen by its fingerprint
// anyway; these are the ones that may not.
func alwaysTouches(cmd string, args []string, r resp.Reply) []string {
	if len(args) < 2 {
		return nil
	}
	switch cmd {
	case "SET":
		if r.Kind == resp.Nil {
			return nil // NX or XX, and it did not set
		}
		return args[1:2]
	case "SETEX", "PSETEX", "GETSET", "HSET", "HMSET", "HINCRBY", "HINCRBYFLOAT",
		"INCR", "DECR", "INCRBY", "DECRBY", "INCRBYFLOAT", "LSET", "SETBIT", "APPEND",
		"ZUNIONSTORE", "ZINTERSTORE", "ZDIFFSTORE", "ZRANGESTORE", "SUNIONSTORE", "SINTERSTORE", "SDIFFSTORE", "PFMERGE":
		return args[1:2]
	case "SETRANGE":
		if len(args) == 4 && args[3] == "" {
			return nil
		}
		return args[1:2]
	case "EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT":
		if r.Kind == resp.Int && r.Int == 1 {
			return args[1:2]
		}
	case "MSET":
		var keys []string
		for i := 1; i < len(args); i += 2 {
			keys = append(keys, args[i])
		}
		return keys
	case "RPOPLPUSH", "LMOVE":
		if r.Kind != resp.Nil && len(args) >= 3 {
			return args[1:3]
		}
	case "COPY":
		if r.Kind == resp.Int && r.Int == 1 && len(args) >= 3 {
			return args[2:3]
		}
	}
	return nil
}

// fingerprint is one key's type, value and expiry deadline, as one string
// to compare: read straight from miniredis on a connection of the engine's
// own, in the key's database.
func (e *Engine) fingerprint(k dbKey) string {
	if e.probe == nil {
		e.probe = server.NewPeer(bufio.NewWriter(&e.out))
	}
	e.useDB(e.probe, k.db)
	typ := e.raw(e.probe, []string{"TYPE", k.key}).Str
	var value resp.Reply
	switch typ {
	case "none":
		return ""
	case "string":
		value = e.raw(e.probe, []string{"GET", k.key})
	case "hash":
		value = e.raw(e.probe, []string{"HGETALL", k.key})
	case "list":
		value = e.raw(e.probe, []string{"LRANGE", k.key, "0", "-1"})
	case "set":
		value = e.raw(e.probe, []string{"SMEMBERS", k.key})
	case "zset":
		value = e.raw(e.probe, []string{"ZRANGE", k.key, "0", "-1", "WITHSCORES"})
	case "stream":
		value = resp.BulkReply(e.streamFingerprint(k.db, k.key))
	}
	ttl := e.raw(e.probe, []string{"PTTL", k.key})
	deadline := int64(-1)
	if ttl.Kind == resp.Int && ttl.Int >= 0 {
		deadline = e.now + ttl.Int
	}
	return typ + "\x00" + string(resp.Append(nil, value)) + "\x00" + strconv.FormatInt(deadline, 10)
}
