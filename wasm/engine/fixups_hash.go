package engine

import (
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
// and a read puts any field the engine did not see written (RESTORE,
// COPY) after the known ones. It is kept for database 0, the one the
// playground uses.

func init() {
	for _, name := range []string{"HSET", "HMSET", "HSETNX", "HINCRBY", "HINCRBYFLOAT", "HDEL"} {
		fixups[name] = trackHashOrder(fixups[name])
	}
	fixups["HGETALL"] = orderedHash(2, 0)
	fixups["HKEYS"] = orderedHash(1, 0)
	fixups["HVALS"] = orderedHash(1, 1)
	scan := fixups["HSCAN"]
	fixups["HSCAN"] = func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		r := scan(e, peer, args)
		if r.Kind == resp.Array && len(r.Elems) == 2 && len(args) > 1 {
			r.Elems[1] = e.reorderPairs(args[1], r.Elems[1])
		}
		return r
	}
}

// trackHashOrder runs a hash write and updates the key's field order: a
// hash that did not exist before starts a new order; the fields the command
// added follow the ones already there, in the order it named them; HDEL
// takes its fields out. Fields a write named but did not add were there
// before, so they keep their places.
func trackHashOrder(next fixup) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		if len(args) < 2 {
			return runFixup(next, e, peer, args)
		}
		key := args[1]
		if e.dbOf[peer] != 0 {
			return runFixup(next, e, peer, args) // orders are kept for database 0
		}
		existed := e.m.Exists(key)
		r := runFixup(next, e, peer, args)
		if r.IsError() {
			return r
		}
		known := e.hashOrder[key]
		order := known
		if !existed {
			order = nil
		}
		if strings.EqualFold(args[0], "HDEL") {
			order = without(order, args[2:])
		} else {
			first, step := commandFields(args)
			for i := first; i < len(args); i += step {
				if !contains(order, args[i]) {
					order = append(order, args[i])
				}
			}
		}
		switch {
		case len(order) == 0:
			delete(e.hashOrder, key)
		case len(order) != len(known) || &order[0] != &known[0]:
			e.hashOrder[key] = order
		} // else: the write changed no field's place (a claim's HSET state)
		return r
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// without returns list less the given fields, in a new slice.
func without(list, fields []string) []string {
	out := make([]string, 0, len(list))
	for _, f := range list {
		if !contains(fields, f) {
			out = append(out, f)
		}
	}
	return out
}

func runFixup(f fixup, e *Engine, peer *server.Peer, args []string) resp.Reply {
	if f == nil {
		return e.raw(peer, args)
	}
	return f(e, peer, args)
}

// commandFields says where a hash write names its fields: args[first],
// then every step-th argument (HSET's field/value pairs), up to the end.
func commandFields(args []string) (first, step int) {
	switch strings.ToUpper(args[0]) {
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
func (e *Engine) order(key string, present []string) []string {
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
		pairs := e.reorderPairs(args[1], all)
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
func (e *Engine) reorderPairs(key string, r resp.Reply) resp.Reply {
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
