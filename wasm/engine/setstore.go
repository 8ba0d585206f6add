package engine

import (
	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/resp"
)

// emptyStoreDeletes wraps SDIFFSTORE, SINTERSTORE and SUNIONSTORE: an empty
// result deletes the destination, as Redis 7.0 does (a key never holds an
// empty set); miniredis leaves what the destination held.
func emptyStoreDeletes(next fixup) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		r := runFixup(next, e, peer, args)
		if r.Kind == resp.Int && r.Int == 0 && len(args) > 1 {
			e.raw(peer, []string{"DEL", args[1]})
		}
		return r
	}
}
