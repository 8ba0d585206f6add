package engine

import (
	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/extracmds"
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
			return k.Do(append([]string{"GETRANGE"}, args[1:]...)...)
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

// keyspaceAt is the database peer has selected, as wasm/extracmds reads
// and writes it: through miniredis's own commands, whose code the module
// has already, and the engine's sorted-set index. A key those commands
// make again is a new map to the index, so it needs no telling.
type keyspaceAt struct {
	e    *Engine
	peer *server.Peer
}

func (k *keyspaceAt) Do(args ...string) resp.Reply { return k.e.raw(k.peer, args) }

func (k *keyspaceAt) SortedSet(key string) []string {
	ent, _ := k.e.zentryOf(k.e.dbOf[k.peer], key, true)
	ent.skiplist = true
	out := make([]string, 0, ent.set.Len())
	for n := ent.set.First(); n != nil; n = n.Next() {
		out = append(out, n.Member)
	}
	return out
}
