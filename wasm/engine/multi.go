package engine

import (
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
// WATCH leans on miniredis for the one thing only it can see: which keys a
// command wrote. Every write it makes to a key bumps that key's version,
// and its own WATCH and EXEC compare versions; so the engine sends it
// WATCH, and at EXEC asks it, with an empty MULTI/EXEC, whether a watched
// key moved. That covers a write from any connection, from a script, from
// the watching connection itself, DEL, RENAME, and a key expiring as the
// clock moves (miniredis deletes it on the next command, which counts as a
// write, as Redis's expiry does). miniredis does not count FLUSHDB,
// FLUSHALL or SWAPDB as writes to the keys they empty or swap, so the
// engine does that part itself (see wholeDB).

// transaction is one connection's transaction state.
type transaction struct {
	multi   bool       // between MULTI and EXEC or DISCARD
	queue   [][]string // the commands EXEC will run
	abort   bool       // a command could not be queued: EXEC answers EXECABORT
	watched []dbKey    // the keys WATCH named, in the database each was named in
	// dirty says a watched key was written in a way miniredis's versions
	// do not show (see wholeDB): EXEC will answer nil.
	dirty bool
	peer  *server.Peer
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
	switch c.upper {
	case "MULTI", "EXEC", "DISCARD", "WATCH", "UNWATCH":
	default:
		if t == nil || !t.multi {
			return resp.Reply{}, false
		}
		return e.enqueue(t, c, args), true
	}
	if t == nil {
		t = &transaction{peer: peer}
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
		if r := e.raw(peer, args); r.IsError() {
			return r, true
		}
		for _, k := range args[1:] {
			t.watched = append(t.watched, dbKey{e.dbOf[peer], k})
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
	if _, known := redisArity[c.upper]; !known {
		t.abort = true
		return unknownCommand(args)
	}
	if noMulti[c.upper] {
		t.abort = true
		return resp.ErrorReply("ERR Command not allowed inside a transaction")
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

// unwatch forgets t's watched keys, on miniredis's side too.
func (e *Engine) unwatch(t *transaction) {
	if len(t.watched) > 0 {
		e.raw(t.peer, []string{"UNWATCH"})
	}
	t.watched, t.dirty = nil, false
}

// touched reports whether a key t watches was written since WATCH. Asking
// miniredis ends its watch, so the caller unwatches or watches again.
func (e *Engine) touched(t *transaction) bool {
	if t.dirty {
		return true
	}
	if len(t.watched) == 0 {
		return false
	}
	e.raw(t.peer, []string{"MULTI"})
	return e.raw(t.peer, []string{"EXEC"}).Kind == resp.Nil
}

// rewatch has miniredis watch t's keys again from now on, each in its own
// database, leaving the connection in the database it was in.
func (e *Engine) rewatch(t *transaction) {
	back := e.dbOf[t.peer]
	for _, k := range t.watched {
		e.useDB(t.peer, k.db)
		e.raw(t.peer, []string{"WATCH", k.key})
	}
	e.useDB(t.peer, back)
}

// wholeDB runs FLUSHDB, FLUSHALL and SWAPDB while some connection watches
// keys, and touches the watched keys they change, as Redis does: a watched
// key that existed in a database that is emptied, or in either database of
// a swap, spoils its watcher's EXEC. (A watched key that existed in neither
// is left alone.) miniredis does not count these as writes, and after a
// swap its versions belong to the other database, so every watcher of an
// affected database is settled first and then watched afresh. ok is false
// for any other command.
func (e *Engine) wholeDB(peer *server.Peer, c *command, args []string) (r resp.Reply, ok bool) {
	if e.inWholeDB {
		return resp.Reply{}, false
	}
	var dbs []int
	switch c.upper {
	case "FLUSHDB":
		dbs = []int{e.dbOf[peer]}
	case "FLUSHALL":
		for i := range databases {
			dbs = append(dbs, i)
		}
	case "SWAPDB":
		if len(args) != 3 {
			return resp.Reply{}, false
		}
		a, errA := strconv.Atoi(args[1])
		b, errB := strconv.Atoi(args[2])
		if errA != nil || errB != nil || a < 0 || b < 0 || a >= databases || b >= databases {
			return resp.Reply{}, false // refused before it changes anything
		}
		dbs = []int{a, b}
	default:
		return resp.Reply{}, false
	}
	affects := func(db int) bool {
		for _, d := range dbs {
			if d == db {
				return true
			}
		}
		return false
	}
	var settle []*transaction
	hit := map[*transaction]bool{}
	for _, t := range e.tx {
		mine := false
		for _, k := range t.watched {
			if !affects(k.db) {
				continue
			}
			mine = true
			for _, d := range dbs {
				// FLUSHDB and FLUSHALL empty the key's own database; a
				// swap brings in the other one's key of the same name.
				if (d == k.db || c.upper == "SWAPDB") && e.m.DB(d).Exists(k.key) {
					hit[t] = true
				}
			}
		}
		if mine && !t.dirty {
			t.dirty = e.touched(t)
			settle = append(settle, t)
		}
	}
	e.inWholeDB = true
	r = e.dispatchCommand(peer, c, args)
	e.inWholeDB = false
	for _, t := range settle {
		if !r.IsError() && hit[t] {
			t.dirty = true
		}
		if !t.dirty {
			e.rewatch(t)
		}
	}
	return r, true
}

// arity is a command's arity in Redis's table (see arity_table.go).
type arity struct {
	n    int
	subs map[string]int // a container's subcommands and their arities
}

// arityError is Redis's error for a command it would refuse before running
// it because of its argument count, or for an unknown subcommand of a
// container command; "" when there is none. A command Redis does not know
// is not this function's to judge.
func arityError(upper string, args []string) string {
	a, ok := redisArity[upper]
	if !ok {
		return ""
	}
	n, name := a.n, strings.ToLower(upper)
	if a.subs != nil && len(args) > 1 {
		sub := strings.ToUpper(args[1])
		sn, ok := a.subs[sub]
		if !ok {
			s := args[1]
			if len(s) > 128 {
				s = s[:128]
			}
			return "ERR unknown subcommand '" + s + "'. Try " + upper + " HELP."
		}
		n, name = sn, name+"|"+strings.ToLower(sub)
	}
	if n > 0 && len(args) != n || len(args) < -n {
		return "ERR wrong number of arguments for '" + name + "' command"
	}
	return ""
}

// CommandArity is Redis 7.0's arity for a command ("get") or a subcommand
// ("client|setname"), as COMMAND reports it, and whether Redis knows it.
// It is there so a test can hold the table to a real server.
func CommandArity(name string) (int, bool) {
	base, sub, isSub := strings.Cut(strings.ToUpper(name), "|")
	a, ok := redisArity[base]
	if !ok || !isSub {
		return a.n, ok
	}
	n, ok := a.subs[sub]
	return n, ok
}

// CommandNames lists every command and subcommand in the arity table, in
// COMMAND's spelling ("get", "client|setname").
func CommandNames() []string {
	var out []string
	for name, a := range redisArity {
		out = append(out, strings.ToLower(name))
		for sub := range a.subs {
			out = append(out, strings.ToLower(name+"|"+sub))
		}
	}
	return out
}
