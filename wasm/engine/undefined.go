package engine

import (
	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/rdb"
	"echomq.dev/playground/wasm/resp"
)

// Where Redis itself leaves an answer open, no engine can match it byte for
// byte, and a learner comparing the playground with a real server would
// meet a silent difference: the order of a hash table's members, a member
// picked at random, the order a script's pairs or next walk a table in.
// The engine cannot give Redis's answer there, but it can notice, at run
// time, that a reply came from such a place, and say so. Client.LastUndefined
// reports it for the last command, and the JS API carries it to the page as
// a note beside the reply.
//
// What is noticed, and what is not:
//   - A set of strings is a hash table in Redis 7.0 (listpack sets came in
//     7.2), so SMEMBERS, SSCAN, SINTER, SUNION and SDIFF of one reply in an
//     order of Redis's internals; a set of at most 512 integers is an
//     intset, kept in numeric order, which is defined and matched.
//   - A hash past 128 fields, or with a field or value past 64 bytes, is a
//     hash table; a smaller one is a listpack in insertion order, which the
//     engine keeps (fixups_hash.go).
//   - KEYS, SCAN and RANDOMKEY read the database's own hash table.
//   - SRANDMEMBER, SPOP, HRANDFIELD, ZRANDMEMBER and RANDOMKEY pick at
//     random from two or more.
//   - pairs and next walk a table in Lua 5.1's order, which wasm/lualib
//     models from where Lua 5.1 puts each key; a key it cannot be sure of
//     (a table or a function, hashed by its address; a number outside the
//     array part) leaves the order in doubt. A script that walked such a table, and then wrote, or
//     returned a string or two or more values, may have built them in an
//     order Redis would not take. A walk whose result cannot depend on the
//     order (a sum) is not noted when the script only returns a number.
//   - Not noticed: # over a table with holes, where Lua 5.1 may answer any
//     border. Telling that apart costs a scan of the table at every #, the
//     operator of the idiom t[#t+1] = v; the engine answers gopher-lua's
//     border, the last non-nil index of the array part.

// Undefined says which answers of the last command Redis leaves open.
type Undefined uint8

const (
	// UndefinedOrder: a reply in the order of one of Redis's hash tables.
	UndefinedOrder Undefined = 1 << iota
	// UndefinedPick: a member or key picked at random.
	UndefinedPick
	// UndefinedWalk: a script built its reply or writes from a walk of a
	// table's hash part with pairs or next.
	UndefinedWalk
)

// undefinedKind is how a command's reply can depend on something Redis
// leaves open: see noteUndefined.
type undefinedKind uint8

const (
	definedReply  undefinedKind = iota
	setOrder                    // a set's members, in its order
	setsOrder                   // a set made from sets (SINTER, SUNION, SDIFF)
	hashOrder                   // a hash's fields or values, in its order
	keyspaceOrder               // the database's keys, in its order
	setPick                     // a random set member
	hashPick                    // a random hash field
	zsetPick                    // a random sorted-set member
	keyPick                     // a random key
)

// undefinedOf says how the reply of the command named up can depend on an
// order or a pick Redis leaves open. (A switch, not a map literal: a map
// literal is code that runs at every page load.)
func undefinedOf(up string) undefinedKind {
	switch up {
	case "SMEMBERS", "SSCAN":
		return setOrder
	case "SINTER", "SUNION", "SDIFF":
		return setsOrder
	case "HGETALL", "HKEYS", "HVALS", "HSCAN":
		return hashOrder
	case "KEYS", "SCAN":
		return keyspaceOrder
	case "SRANDMEMBER", "SPOP":
		return setPick
	case "HRANDFIELD":
		return hashPick
	case "ZRANDMEMBER":
		return zsetPick
	case "RANDOMKEY":
		return keyPick
	}
	return definedReply
}

// noteUndefined looks at a command's reply, once it has run, and adds to
// e.undefined what it depends on that Redis leaves open. Only the commands
// undefinedOf names come here, so the others pay nothing.
func (e *Engine) noteUndefined(peer *server.Peer, c *command, args []string, r resp.Reply) {
	if r.IsError() {
		return
	}
	kind := c.undef
	members := r.Elems
	switch c.upper {
	case "SCAN", "SSCAN", "HSCAN":
		if len(r.Elems) == 2 {
			members = r.Elems[1].Elems // [cursor, page]
		}
	}
	read := func(cmd string) resp.Reply { return e.raw(peer, []string{cmd, args[1]}) }
	switch kind {
	case setOrder:
		if len(members) > 1 && len(args) > 1 && !intset(read("SMEMBERS")) {
			e.undefined |= UndefinedOrder
		}
	case setsOrder:
		if len(members) < 2 {
			return
		}
		for _, k := range args[1:] {
			if !intset(e.raw(peer, []string{"SMEMBERS", k})) {
				e.undefined |= UndefinedOrder
				return
			}
		}
	case hashOrder:
		if len(members) > 1 && len(args) > 1 {
			// HGETALL's reply is the hash whole (RESP3's map has the same
			// elements); only the other commands need it read again.
			whole := r
			whole.Kind = resp.Array // a copy: Strings reads an array
			if c.upper != "HGETALL" {
				whole = read("HGETALL")
			}
			items, _ := whole.Strings()
			if rdb.Encoding(rdb.Value{Kind: rdb.Hash, Elems: items}) == "hashtable" {
				e.undefined |= UndefinedOrder
			}
		}
	case keyspaceOrder:
		if len(members) > 1 {
			e.undefined |= UndefinedOrder
		}
	case setPick, hashPick, zsetPick:
		if len(args) < 2 || r.Kind == resp.Nil || r.Kind != resp.Bulk && len(r.Elems) == 0 {
			return
		}
		size := "SCARD"
		if kind == hashPick {
			size = "HLEN"
		} else if kind == zsetPick {
			size = "ZCARD"
		}
		n := read(size).Int
		if c.upper == "SPOP" {
			n += int64(max(len(r.Elems), 1)) // what it took out
		}
		if n > 1 {
			e.undefined |= UndefinedPick
		}
	case keyPick:
		if r.Kind == resp.Bulk && e.raw(peer, []string{"DBSIZE"}).Int > 1 {
			e.undefined |= UndefinedPick
		}
	}
}

// intset reports whether a set, read whole, is one Redis 7.0 keeps as an
// intset, in numeric order.
func intset(members resp.Reply) bool {
	all, _ := members.Strings()
	return rdb.Encoding(rdb.Value{Kind: rdb.Set, Elems: all}) == "intset"
}

// walkNoted is the runner's record of a walk of a table's hash part during
// the running script, for run to judge at the end (see judgeWalk).
type walkNoted struct {
	walked     bool // pairs or next began a walk in an order the model cannot give
	wroteAfter bool // and the script wrote after it
}

// judge decides, as a script ends with reply rep, whether what it
// returned or wrote may have come from a walk in an order Redis would not
// take.
func (w *walkNoted) judge(rep resp.Reply) bool {
	if !w.walked {
		return false
	}
	switch rep.Kind {
	case resp.Array, resp.Set, resp.Map:
		return w.wroteAfter || len(rep.Elems) > 1
	case resp.Bulk, resp.Status, resp.Verbatim:
		return true
	}
	return w.wroteAfter
}
