package engine

import (
	"sort"
	"strconv"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/extracmds"
	"echomq.dev/playground/wasm/rdb"
	"echomq.dev/playground/wasm/resp"
)

// The commands miniredis lacks that wasm/extracmds serves, and the one
// database of the keyspace they work on. They check their own arity, as
// Redis does before a command runs.

// extraCommand is one of them for the command table.
type extraCommand struct {
	name     string
	what     string // for the command table
	readOnly bool   // Redis flags it read-only (miniredis, lacking it, cannot say)
	run      func(k *keyspaceAt, args []string) resp.Reply
}

func extraCommands() []extraCommand {
	return []extraCommand{
		{"SORT", "numbers or ALPHA, BY, GET, LIMIT, STORE", false, func(k *keyspaceAt, args []string) resp.Reply {
			return extracmds.Sort(k, args, false, k.peer == k.e.script)
		}},
		{"SORT_RO", "SORT without STORE", true, func(k *keyspaceAt, args []string) resp.Reply {
			return extracmds.Sort(k, args, true, k.peer == k.e.script)
		}},
		{"LCS", "LEN, IDX, MINMATCHLEN, WITHMATCHLEN", true, func(k *keyspaceAt, args []string) resp.Reply {
			return extracmds.LCS(k, args)
		}},
		{"SUBSTR", "GETRANGE under its old name", true, func(k *keyspaceAt, args []string) resp.Reply {
			return k.e.raw(k.peer, append([]string{"GETRANGE"}, args[1:]...))
		}},
		{"BITFIELD", "GET, SET, INCRBY, OVERFLOW", false, func(k *keyspaceAt, args []string) resp.Reply {
			return extracmds.Bitfield(k, args, false, MaxStringBytes, errStringCap)
		}},
		{"BITFIELD_RO", "BITFIELD's GET alone", true, func(k *keyspaceAt, args []string) resp.Reply {
			return extracmds.Bitfield(k, args, true, MaxStringBytes, errStringCap)
		}},
		// A server that has never saved answers the time it started; the
		// playground never saves, and starts its clock at Start.
		{"LASTSAVE", "the time the server clock started", true, func(*keyspaceAt, []string) resp.Reply {
			return resp.IntReply(Start / 1000)
		}},
	}
}

// errStringCap refuses a write that would make a string longer than the
// playground lets one be.
var errStringCap = resp.Errorf("ERR string exceeds maximum allowed size (the playground caps a string at %d MiB)", MaxStringBytes>>20)

// extraFixup runs c on the database peer has selected.
func extraFixup(c extraCommand) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		if msg := arityError(c.name, args); msg != "" {
			return resp.ErrorReply(msg)
		}
		return c.run(&keyspaceAt{e, peer}, args)
	}
}

// keyspaceAt is the database peer has selected. It reads and writes it
// through miniredis's commands (raw), whose code the module has already,
// rather than its direct methods, which would each add theirs.
type keyspaceAt struct {
	e    *Engine
	peer *server.Peer
}

func (k *keyspaceAt) raw(args ...string) resp.Reply { return k.e.raw(k.peer, args) }

func (k *keyspaceAt) TypeOf(key string) string { return k.raw("TYPE", key).Str }

func (k *keyspaceAt) Get(key string) (string, bool) {
	r := k.raw("GET", key)
	return r.Str, r.Kind == resp.Bulk
}

func (k *keyspaceAt) HGet(key, field string) (string, bool) {
	if k.TypeOf(key) != "hash" {
		return "", false
	}
	r := k.e.hget(k.peer, key, field)
	return r.Str, r.Kind == resp.Bulk
}

// Elements: a list in order; a sorted set by score, from the engine's index,
// and kept as a skiplist from now on, as Redis converts a set it sorts; a
// set that Redis would keep as an intset in its integers' order, which is
// how Redis walks one, and any other set in byte order (Redis walks a hash
// table in an order of its own, which SORT BY nosort shows).
func (k *keyspaceAt) Elements(key string) []string {
	switch k.TypeOf(key) {
	case "list":
		l, _ := k.raw("LRANGE", key, "0", "-1").Strings()
		return l
	case "set":
		m, _ := k.raw("SMEMBERS", key).Strings()
		if rdb.Encoding(rdb.Value{Kind: rdb.Set, Elems: m}) == "intset" {
			sort.Slice(m, func(i, j int) bool {
				x, _ := strconv.ParseInt(m[i], 10, 64)
				y, _ := strconv.ParseInt(m[j], 10, 64)
				return x < y
			})
		}
		return m
	case "zset":
		ent, _ := k.e.zentryOf(k.e.dbOf[k.peer], key, true)
		ent.skiplist = true
		out := make([]string, 0, ent.set.Len())
		for n := ent.set.First(); n != nil; n = n.Next() {
			out = append(out, n.Member)
		}
		return out
	}
	return nil
}

// StoreList replaces key with a new list (its old value and expiry gone),
// or deletes it; a sorted set it held takes its index with it.
func (k *keyspaceAt) StoreList(key string, elems []string) {
	k.raw("DEL", key)
	if ks := k.e.zsets[key]; ks != nil {
		ks[k.e.dbOf[k.peer]] = nil
	}
	if len(elems) > 0 {
		k.e.raw(k.peer, append([]string{"RPUSH", key}, elems...))
	}
}

func (k *keyspaceAt) SetString(key, val string) { k.raw("SET", key, val, "KEEPTTL") }
