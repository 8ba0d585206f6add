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
// HINCRBYFLOAT, HDEL) by comparing the hash's fields before and after each
// one, so a hash deleted by any command and made again starts afresh. It
// is kept for database 0, the one the playground uses.

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

// fields returns the set of a hash's fields as miniredis holds them.
func (e *Engine) fields(key string) map[string]bool {
	names, err := e.m.HKeys(key)
	if err != nil {
		return nil
	}
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	return set
}

// trackHashOrder runs a hash write and updates the key's field order: the
// fields that were there keep their places, the fields the command added
// follow in the order it named them.
func trackHashOrder(next fixup) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		if len(args) < 2 {
			return runFixup(next, e, peer, args)
		}
		key := args[1]
		before := e.fields(key)
		r := runFixup(next, e, peer, args)
		after := e.fields(key)
		var order []string
		for _, f := range e.hashOrder[key] {
			if before[f] && after[f] {
				order = append(order, f)
			}
		}
		seen := make(map[string]bool, len(order))
		for _, f := range order {
			seen[f] = true
		}
		for _, f := range commandFields(args) {
			if after[f] && !before[f] && !seen[f] {
				order = append(order, f)
				seen[f] = true
			}
		}
		if len(order) == 0 {
			delete(e.hashOrder, key)
		} else {
			e.hashOrder[key] = order
		}
		return r
	}
}

func runFixup(f fixup, e *Engine, peer *server.Peer, args []string) resp.Reply {
	if f == nil {
		return e.raw(peer, args)
	}
	return f(e, peer, args)
}

// commandFields lists the fields a hash write names, in its order.
func commandFields(args []string) []string {
	switch strings.ToUpper(args[0]) {
	case "HSET", "HMSET":
		var out []string
		for i := 2; i+1 < len(args); i += 2 {
			out = append(out, args[i])
		}
		return out
	case "HSETNX", "HINCRBY", "HINCRBYFLOAT":
		if len(args) > 2 {
			return args[2:3]
		}
	}
	return nil
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
