package engine

import (
	"strconv"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/resp"
)

// Commands the queue scripts call on every run, answered without a trip
// through miniredis's command table. That trip writes the reply as RESP
// and parses it back, and allocates as it goes (miniredis's TIME alone
// made seven objects); for TIME the engine holds the clock itself, and
// EXISTS and HGET read miniredis's keyspace directly.

// timeCommand is TIME on the server clock: seconds and microseconds.
func timeCommand(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) != 1 {
		return e.raw(peer, args)
	}
	sec, ms := e.now/1000, e.now%1000
	if ms < 0 {
		sec, ms = sec-1, ms+1000
	}
	return resp.ArrayReply(resp.BulkReply(strconv.FormatInt(sec, 10)), resp.BulkReply(strconv.FormatInt(ms*1000, 10)))
}

// existsCommand counts the keys that exist, a key named twice twice.
func existsCommand(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) < 2 {
		return e.raw(peer, args)
	}
	mdb := e.db(e.dbOf[peer])
	n := 0
	for _, k := range args[1:] {
		if mdb.Exists(k) {
			n++
		}
	}
	return resp.IntReply(int64(n))
}

func hgetCommand(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) != 3 {
		return e.raw(peer, args)
	}
	return e.hget(peer, args[1], args[2])
}
