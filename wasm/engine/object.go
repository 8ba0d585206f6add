package engine

import (
	"math"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/hll"
	"echomq.dev/playground/wasm/rdb"
	"echomq.dev/playground/wasm/resp"
)

// OBJECT ENCODING, which miniredis lacks, answered as Redis 7.0 decides
// with its default limits. The page's note on hash field order depends on
// it: a listpack keeps insertion order, a hash table does not.
//
//   - A string is "int" when it reads as a 64-bit integer in at most 20
//     bytes, "embstr" up to 44 bytes, "raw" past that.
//   - A list, set or hash is named by rdb.Encoding, from the limits DUMP
//     writes by, so OBJECT ENCODING and DUMP's payload always agree.
//   - A sorted set is a "listpack" or a "skiplist" (see zsets.go), and
//     stays a skiplist once it has been one.
//
// Redis never turns a big encoding back into a small one, and a string
// that APPEND or SETRANGE has changed is "raw" whatever its size: the
// engine follows those histories for sorted sets only, and otherwise
// answers from what the key holds now (FIDELITY.md says so). A string
// that is a HyperLogLog is "raw" too, as every PF command that writes one
// leaves it (in Redis a short one SET or RESTOREd by hand is "embstr").
//
// OBJECT FREQ, REFCOUNT and HELP, which miniredis lacks too, are answered
// as Redis 7.0 answers them with its default configuration.

// embstrMax is the longest string Redis 7.0 keeps as an embstr. The
// collections' limits are rdb.Encoding's, which DUMP writes by.
const embstrMax = 44

func objectFixup(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) < 2 {
		return e.raw(peer, args)
	}
	sub := ascii.Upper(args[1])
	switch sub {
	case "ENCODING", "FREQ", "HELP", "REFCOUNT":
	default:
		return e.raw(peer, args)
	}
	if msg := arityError("OBJECT", args); msg != "" {
		return resp.ErrorReply(msg)
	}
	switch sub {
	case "HELP":
		return objectHelp()
	case "FREQ":
		if e.raw(peer, []string{"TYPE", args[2]}).Str == "none" {
			return resp.NilReply()
		}
		// Redis counts accesses only under an LFU maxmemory policy, and
		// its default policy is noeviction.
		return resp.ErrorReply(errNoLFU)
	case "REFCOUNT":
		return refcount(e.raw(peer, []string{"TYPE", args[2]}).Str, func() string { return e.raw(peer, []string{"GET", args[2]}).Str })
	}
	key := args[2]
	read := func(cmd string) resp.Reply { return e.raw(peer, []string{cmd, key}) }
	switch read("TYPE").Str {
	case "none":
		return resp.NilReply()
	case "string":
		v := read("GET").Str
		switch {
		case len(v) <= 20 && isLongLong(v):
			return resp.BulkReply("int")
		case len(v) <= embstrMax && !hll.Valid(v):
			return resp.BulkReply("embstr")
		}
		return resp.BulkReply("raw")
	case "list":
		return resp.BulkReply(rdb.Encoding(rdb.Value{Kind: rdb.List}))
	case "set":
		members, _ := read("SMEMBERS").Strings()
		return resp.BulkReply(rdb.Encoding(rdb.Value{Kind: rdb.Set, Elems: members, Limits: e.limits}))
	case "hash":
		items, _ := read("HGETALL").Strings()
		return resp.BulkReply(rdb.Encoding(rdb.Value{Kind: rdb.Hash, Elems: items, Limits: e.limits}))
	case "zset":
		ent, st := e.zentryOf(e.dbOf[peer], key, false)
		return resp.BulkReply(rdb.Encoding(rdb.Value{Kind: rdb.Zset, Skiplist: st == zFound && ent.skiplist}))
	case "stream":
		return resp.BulkReply("stream")
	}
	return e.raw(peer, args)
}

// isLongLong reports whether s is what Redis's string2ll reads: the text of
// a 64-bit integer exactly as Redis would print it.
func isLongLong(s string) bool {
	_, ok := parseRedisInt(s)
	return ok
}

const errNoLFU = "ERR An LFU maxmemory policy is not selected, access frequency not tracked. " +
	"Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust."

// objectHelp is Redis 7.0's reply to OBJECT HELP, one status line each.
func objectHelp() resp.Reply {
	lines := []string{
		"OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
		"ENCODING <key>",
		"    Return the kind of internal representation used in order to store the value",
		"    associated with a <key>.",
		"FREQ <key>",
		"    Return the access frequency index of the <key>. The returned integer is",
		"    proportional to the logarithm of the recent access frequency of the key.",
		"IDLETIME <key>",
		"    Return the idle time of the <key>, that is the approximated number of",
		"    seconds elapsed since the last access to the key.",
		"REFCOUNT <key>",
		"    Return the number of references of the value associated with the specified",
		"    <key>.",
		"HELP",
		"    Prints this help.",
	}
	out := make([]resp.Reply, len(lines))
	for i, l := range lines {
		out[i] = resp.StatusReply(l)
	}
	return resp.ArrayReply(out...)
}

// sharedIntegers is how many small integers Redis keeps one shared object
// for (OBJ_SHARED_INTEGERS): a string key holding one of them points at
// the shared object, whose reference count reads as INT_MAX.
const sharedIntegers = 10000

// refcount is OBJECT REFCOUNT of a key of type typ, whose string value get
// reads: nil for no key, INT_MAX for a shared integer, 1 for the rest. Like
// OBJECT ENCODING, it judges a string by what it holds now: one that
// APPEND or SETRANGE made is never shared in Redis.
func refcount(typ string, get func() string) resp.Reply {
	switch typ {
	case "none":
		return resp.NilReply()
	case "string":
		if n, ok := parseRedisInt(get()); ok && n >= 0 && n < sharedIntegers {
			return resp.IntReply(math.MaxInt32)
		}
	}
	return resp.IntReply(1)
}
