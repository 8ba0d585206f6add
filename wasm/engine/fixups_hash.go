package engine

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/resp"
)

// Hash field order. Redis keeps a small hash (up to 128 fields of up to 64
// bytes) as a listpack, in the order its fields were first set, so HGETALL
// of a job row reads state, attempts, payload. miniredis sorts the fields.
// The engine remembers each hash's insertion order and replies in it.
//
// A hash past those limits is a hash table in Redis, whose order depends on
// its internals; the engine keeps insertion order there too, which is one
// order Redis could give, not the one it will.
//
// The order is learned from the writes (HSET, HSETNX, HMSET, HINCRBY,
// HINCRBYFLOAT, HDEL); a write to a hash that does not exist starts a new
// order, so a hash deleted by any command and made again starts afresh,
// and a read puts any field the engine did not see written (RESTORE, say)
// after the known ones. Orders are kept per database, and follow a hash
// that RENAME, RENAMENX, COPY, MOVE or SWAPDB carries elsewhere, as
// Redis's listpack goes with its key (see zsetsAfter, which carries them
// with the sorted sets' entries).

// orderKey names one hash: its database and its key.
type orderKey struct {
	db  int
	key string
}

// hscanInOrder puts the fields of scan's HSCAN reply in insertion order.
func hscanInOrder(scan fixup) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		r := scan(e, peer, args)
		if r.Kind == resp.Array && len(r.Elems) == 2 && len(args) > 1 {
			r.Elems[1] = e.reorderPairs(orderKey{e.dbOf[peer], args[1]}, r.Elems[1])
		}
		return r
	}
}

// trackHashOrder runs a hash write and updates the key's field order: a
// hash that did not exist before starts a new order; the fields the command
// added follow the ones already there, in the order it named them; HDEL
// takes its fields out. Fields a write named but did not add were there
// before, so they keep their places.
//
// name is the command the fixup serves (upper-case), so that the command
// is not recognised again from its arguments on every write.
func trackHashOrder(name string, next fixup) fixup {
	hdel := name == "HDEL"
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		if len(args) < 2 {
			return runFixup(next, e, peer, args)
		}
		db := e.dbOf[peer]
		key := orderKey{db, args[1]}
		// Whether the hash existed before the write matters only when an
		// order is known for the key: with none, the order starts afresh
		// either way, and the direct read is skipped (a new job row).
		known := e.hashOrder[key]
		existed := len(known) > 0 && e.m.DB(db).Exists(args[1])
		r := runFixup(next, e, peer, args)
		if r.IsError() {
			return r
		}
		// The new order is worked out in a buffer the engine reuses, so a
		// write that changes no field's place (a claim's HINCRBY and HSET
		// on a job row) allocates nothing.
		order := e.orderBuf[:0]
		if existed {
			order = append(order, known...)
		}
		if hdel {
			kept := order[:0]
			for _, f := range order {
				if !contains(args[2:], f) {
					kept = append(kept, f)
				}
			}
			order = kept
		} else {
			first, step := commandFields(name, args)
			for i := first; i < len(args); i += step {
				if !contains(order, args[i]) {
					order = append(order, args[i])
				}
			}
		}
		switch {
		case len(order) == 0:
			delete(e.hashOrder, key)
		case !slices.Equal(order, known):
			e.hashOrder[key] = e.internOrder(order)
		} // else: the write changed no field's place
		clear(order) // the buffer keeps no field names alive
		e.orderBuf = order[:0]
		return r
	}
}

// internOrder returns a stored copy of order. Hashes written alike have the
// same order (every job row is state, attempts, payload), so the copy made
// for the last new order is handed out again while orders keep matching:
// thousands of job rows then share one slice instead of holding one each,
// which is less to allocate and less for the garbage collector to walk.
// A stored order is never changed in place (the next order is built in
// orderBuf), and its capacity is its length, so sharing one is safe.
func (e *Engine) internOrder(order []string) []string {
	if slices.Equal(order, e.lastOrder) {
		return e.lastOrder
	}
	stored := make([]string, len(order))
	copy(stored, order)
	e.lastOrder = stored
	return stored
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// commandFields says where a hash write names its fields: args[first],
// then every step-th argument (HSET's field/value pairs), up to the end.
func commandFields(name string, args []string) (first, step int) {
	switch name {
	case "HSET", "HMSET":
		if len(args)%2 != 0 {
			return len(args), 1 // malformed: the command fails anyway
		}
		return 2, 2
	case "HSETNX", "HINCRBY", "HINCRBYFLOAT":
		return 2, len(args) // just the one field
	}
	return len(args), 1
}

// order is the key's insertion order, reconciled with the fields it has
// now: known fields in their order, any others (written by a command the
// engine does not follow) after them, in miniredis's order.
func (e *Engine) order(key orderKey, present []string) []string {
	has := make(map[string]bool, len(present))
	for _, f := range present {
		has[f] = true
	}
	out := make([]string, 0, len(present))
	placed := make(map[string]bool, len(present))
	for _, f := range e.hashOrder[key] {
		if has[f] {
			out = append(out, f)
			placed[f] = true
		}
	}
	for _, f := range present {
		if !placed[f] {
			out = append(out, f)
		}
	}
	return out
}

// orderedHash replies to HGETALL (stride 2), HKEYS or HVALS (stride 1) in
// insertion order. pick is the element of each field's group to return.
func orderedHash(stride, pick int) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		if len(args) != 2 {
			return e.raw(peer, args)
		}
		all := e.raw(peer, []string{"HGETALL", args[1]})
		if all.Kind != resp.Array {
			return all
		}
		pairs := e.reorderPairs(orderKey{e.dbOf[peer], args[1]}, all)
		if stride == 2 {
			return pairs
		}
		out := make([]resp.Reply, 0, len(pairs.Elems)/2)
		for i := pick; i < len(pairs.Elems); i += 2 {
			out = append(out, pairs.Elems[i])
		}
		return resp.ArrayReply(out...)
	}
}

// reorderPairs puts a field/value array in the key's insertion order.
func (e *Engine) reorderPairs(key orderKey, r resp.Reply) resp.Reply {
	if r.Kind != resp.Array || len(e.hashOrder[key]) == 0 {
		return r
	}
	values := make(map[string]resp.Reply, len(r.Elems)/2)
	present := make([]string, 0, len(r.Elems)/2)
	for i := 0; i+1 < len(r.Elems); i += 2 {
		values[r.Elems[i].Str] = r.Elems[i+1]
		present = append(present, r.Elems[i].Str)
	}
	out := make([]resp.Reply, 0, len(r.Elems))
	for _, f := range e.order(key, present) {
		out = append(out, resp.BulkReply(f), values[f])
	}
	return resp.ArrayReply(out...)
}

// moveOrder gives to the order of from (or none), and takes it from from
// when the command moved the key rather than copied it.
func (e *Engine) moveOrder(from, to orderKey, move bool) {
	order, ok := e.hashOrder[from]
	if move {
		delete(e.hashOrder, from)
	}
	if ok {
		e.hashOrder[to] = order // stored orders are never changed in place
	} else {
		delete(e.hashOrder, to)
	}
}

// swapOrders trades the orders of databases a and b, as SWAPDB trades
// their keys.
func (e *Engine) swapOrders(a, b int) {
	swapped := make(map[orderKey][]string)
	for k, order := range e.hashOrder {
		switch k.db {
		case a:
			swapped[orderKey{b, k.key}] = order
		case b:
			swapped[orderKey{a, k.key}] = order
		default:
			continue
		}
		delete(e.hashOrder, k)
	}
	maps.Copy(e.hashOrder, swapped)
}

// copyTarget is the database COPY src dst [DB n] [REPLACE] writes to.
func copyTarget(args []string, db int) (int, bool) {
	if len(args) < 3 {
		return 0, false
	}
	for i := 3; i < len(args); i++ {
		if strings.EqualFold(args[i], "DB") && i+1 < len(args) {
			n, err := strconv.Atoi(args[i+1])
			return n, err == nil
		}
	}
	return db, true
}
