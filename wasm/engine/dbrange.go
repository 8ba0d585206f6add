package engine

import (
	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// The commands that name a database by its index, held to Redis's 16
// (miniredis has no upper bound: MOVE k 16 answered 0, SWAPDB 0 16 OK),
// and FLUSHALL/FLUSHDB, which take SYNC as well as ASYNC in Redis 7.0.
// SELECT's range is checked in runCommand.

const errDBRange = "ERR DB index is out of range"

func dbRangeCommands(t commandTable) {
	t.wrap("SWAPDB", "indexes held to the 16 databases", "dbrange.go", func(next fixup) fixup {
		return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
			if len(args) == 3 {
				a, okA := dbIndex(args[1])
				b, okB := dbIndex(args[2])
				switch {
				case !okA:
					return resp.ErrorReply("ERR invalid first DB index")
				case !okB:
					return resp.ErrorReply("ERR invalid second DB index")
				case a < 0 || b < 0 || a >= databases || b >= databases:
					return resp.ErrorReply(errDBRange)
				}
			}
			return runFixup(next, e, peer, args)
		}
	})
	t.wrap("MOVE", "the index held to the 16 databases", "dbrange.go", func(next fixup) fixup {
		return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
			if len(args) == 3 {
				n, ok := dbIndex(args[2])
				_, isInt := parseRedisInt(args[2])
				switch {
				case !ok && isInt:
					return resp.ErrorReply("ERR value is out of range, value must between -2147483648 and 2147483647")
				case !ok:
					return resp.ErrorReply("ERR value is not an integer or out of range")
				case n < 0 || n >= databases:
					return resp.ErrorReply(errDBRange)
				case n == e.dbOf[peer]:
					return resp.ErrorReply("ERR source and destination objects are the same")
				}
			}
			return runFixup(next, e, peer, args)
		}
	})
	t.wrap("COPY", "DB held to the 16 databases", "dbrange.go", func(next fixup) fixup {
		return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
			for i := 3; i+1 < len(args); i++ {
				if ascii.EqualFold(args[i], "DB") {
					if n, ok := dbIndex(args[i+1]); ok && (n < 0 || n >= databases) {
						return resp.ErrorReply(errDBRange)
					}
					break
				}
			}
			return runFixup(next, e, peer, args)
		}
	})
	for _, name := range []string{"FLUSHALL", "FLUSHDB"} {
		t.wrap(name, "SYNC taken as ASYNC is", "dbrange.go", func(next fixup) fixup {
			return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
				if len(args) == 2 && ascii.EqualFold(args[1], "SYNC") {
					args = args[:1] // the engine frees nothing in the background either way
				}
				return runFixup(next, e, peer, args)
			}
		})
	}
}

// dbIndex reads a database index as Redis's getIntFromObject does: a
// 32-bit integer.
func dbIndex(s string) (int, bool) {
	n, ok := parseRedisInt(s)
	if !ok || n < -1<<31 || n > 1<<31-1 {
		return 0, false
	}
	return int(n), true
}
