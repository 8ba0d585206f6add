package engine

import (
	"slices"
	"sort"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/rdb"
	"echomq.dev/playground/wasm/resp"
)

// Integer sets. Redis 7.0 keeps a set of up to set-max-intset-entries (512)
// integers as an intset: a sorted array, so every read that walks one sees
// its members in numeric order. miniredis keeps every set in a Go map and
// answers in sorted-string or map order. These wrappers put the members of
// a reply in numeric order wherever Redis would have walked an intset:
//
//   - SMEMBERS, SSCAN (which walks an intset whole, in one call), SORT BY
//     nosort, and SRANDMEMBER and SPOP with a count that takes the whole
//     set: the key is an intset;
//   - SINTER walks its smallest set (the first of the smallest, in the
//     order named), keeping the members in every other;
//   - SUNION and SDIFF build their result in a new set that starts as an
//     intset and stays one while every member added is an integer and
//     there are at most 512 of them. SDIFF adds only the result's members
//     when its first set is small against the rest (Redis's "algorithm 1"),
//     and otherwise the whole first set, then takes the others out.
//
// A set that is a hash table in Redis has no order anyone can match, and
// is left as miniredis answers it. Which sets are intsets is decided from
// what they hold now (rdb.Encoding, as OBJECT ENCODING and DUMP decide);
// Redis keeps a set that grew past the limit a hash table after it shrinks
// back, which the engine does not follow (FIDELITY.md says so).

// isIntset reports whether members make an intset.
func isIntset(members []string) bool {
	return rdb.Encoding(rdb.Value{Kind: rdb.Set, Elems: members}) == "intset"
}

// replyIsIntset reports whether the members of an array reply make one.
func replyIsIntset(elems []resp.Reply) bool {
	members := make([]string, len(elems))
	for i, el := range elems {
		if el.Kind != resp.Bulk {
			return false
		}
		members[i] = el.Str
	}
	return isIntset(members)
}

// keyIsIntset reports whether the set at key is an intset now.
func (e *Engine) keyIsIntset(peer *server.Peer, key string) bool {
	r := e.raw(peer, []string{"SMEMBERS", key})
	return r.Kind == resp.Array && len(r.Elems) > 0 && replyIsIntset(r.Elems)
}

// numeric puts members that are all integers in numeric order.
func numeric(elems []resp.Reply) []resp.Reply {
	out := slices.Clone(elems)
	// sort.Slice, not slices.SortFunc: each type slices sorts generically is
	// a sort of its own in the module, ~20 KB of code for []resp.Reply.
	sort.Slice(out, func(i, j int) bool {
		x, _ := parseRedisInt(out[i].Str)
		y, _ := parseRedisInt(out[j].Str)
		return x < y
	})
	return out
}

// inIntsetOrder wraps a set read: when intset says the set it walked was
// an intset, the reply's members come in numeric order.
func inIntsetOrder(intset func(e *Engine, peer *server.Peer, args []string, members []resp.Reply) bool) func(next fixup) fixup {
	return func(next fixup) fixup {
		return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
			r := runFixup(next, e, peer, args)
			if r.Kind != resp.Array || len(r.Elems) < 2 || !intset(e, peer, args, r.Elems) {
				return r
			}
			r.Elems = numeric(r.Elems)
			return r
		}
	}
}

// sscanIntset wraps SSCAN: Redis walks an intset whole in one call, whatever
// the cursor and COUNT say, so the reply is cursor 0 and every member that
// MATCH lets through, in numeric order. The command itself runs first, for
// its checks of the cursor and the options.
func sscanIntset(next fixup) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		r := runFixup(next, e, peer, args)
		if r.Kind != resp.Array || len(r.Elems) != 2 || !e.keyIsIntset(peer, args[1]) {
			return r
		}
		pattern := "*"
		for i := 3; i+1 < len(args); i += 2 {
			if ascii.EqualFold(args[i], "MATCH") {
				pattern = args[i+1]
			}
		}
		all := e.raw(peer, []string{"SMEMBERS", args[1]}).Elems
		kept := make([]resp.Reply, 0, len(all))
		for _, m := range all {
			if pattern == "*" || globMatch(pattern, m.Str) {
				kept = append(kept, m)
			}
		}
		return resp.ArrayReply(resp.BulkReply("0"), resp.ArrayReply(numeric(kept)...))
	}
}

// theKey: the command walks the set at args[1].
func theKey(e *Engine, peer *server.Peer, args []string, _ []resp.Reply) bool {
	return e.keyIsIntset(peer, args[1])
}

// theResult: the command walks a new set of the reply's members.
func theResult(_ *Engine, _ *server.Peer, _ []string, members []resp.Reply) bool {
	return replyIsIntset(members)
}

// wholeSet: SRANDMEMBER and SPOP key count walk the whole set when the
// count takes all of it (a negative SRANDMEMBER count repeats at random).
// SPOP has deleted the key by the time its reply is here: it took the
// whole set when none is left.
func wholeSet(e *Engine, peer *server.Peer, args []string, members []resp.Reply) bool {
	if len(args) != 3 {
		return false
	}
	card := e.raw(peer, []string{"SCARD", args[1]}).Int
	if ascii.EqualFold(args[0], "SPOP") {
		return card == 0 && replyIsIntset(members)
	}
	n, ok := parseRedisInt(args[2])
	return ok && n >= card && e.keyIsIntset(peer, args[1])
}

// noSort: SORT key BY nosort, with nothing else, walks the set.
func noSort(e *Engine, peer *server.Peer, args []string, _ []resp.Reply) bool {
	return len(args) == 4 && ascii.EqualFold(args[2], "BY") && ascii.EqualFold(args[3], "nosort") &&
		e.raw(peer, []string{"TYPE", args[1]}).Str == "set" && e.keyIsIntset(peer, args[1])
}

// smallest: SINTER walks the first of its smallest sets.
func smallest(e *Engine, peer *server.Peer, args []string, _ []resp.Reply) bool {
	first, least := "", int64(-1)
	for _, key := range args[1:] {
		n := e.raw(peer, []string{"SCARD", key}).Int
		if least < 0 || n < least {
			first, least = key, n
		}
	}
	return e.keyIsIntset(peer, first)
}

// diffBuild: SDIFF's result set, built by one of Redis's two algorithms.
func diffBuild(e *Engine, peer *server.Peer, args []string, members []resp.Reply) bool {
	keys := args[1:]
	first := e.raw(peer, []string{"SCARD", keys[0]}).Int
	var one, two int64
	for _, key := range keys {
		if n := e.raw(peer, []string{"SCARD", key}).Int; n > 0 { // a missing key is not counted
			one += first
			two += n
		}
	}
	if one/2 <= two {
		return replyIsIntset(members) // algorithm 1: only the result's members go in
	}
	return e.keyIsIntset(peer, keys[0]) // algorithm 2: the whole first set goes in
}
