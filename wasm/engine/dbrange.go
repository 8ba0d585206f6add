package engine

import (
	"math"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// The commands that name a database by its index, held to Redis's 16
// (miniredis has no upper bound: MOVE k 16 answered 0, SWAPDB 0 16 OK),
// and FLUSHALL/FLUSHDB, which take SYNC as well as ASYNC in Redis 7.0.
// SELECT's range is checked in runCommand. This file is the one home of
// the database-index check.

const errDBRange = "ERR DB index is out of range"

func dbRangeCommands(t commandTable) {
	for _, name := range []string{"MOVE", "COPY", "SWAPDB"} {
		t.wrap(name, "database indexes checked as Redis does", "dbrange.go", func(next fixup) fixup { return dbIndexes(name, next) })
	}
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

// dbIndexes checks the database indexes of MOVE, COPY's DB options and
// SWAPDB as Redis does: miniredis takes any number, and made a database
// for it (MOVE k 9223372036854770000 moved the key where nothing can
// reach it, for good).
func dbIndexes(name string, next fixup) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		switch {
		case name == "MOVE" && len(args) == 3:
			if msg := dbIndexRefused(args[2]); msg != "" {
				return resp.ErrorReply(msg)
			}
		case name == "COPY":
			for i := 3; i+1 < len(args); i++ {
				if ascii.EqualFold(args[i], "DB") {
					if msg := dbIndexRefused(args[i+1]); msg != "" {
						return resp.ErrorReply(msg)
					}
					i++
				}
			}
		case name == "SWAPDB" && len(args) == 3:
			for i, which := range []string{"first", "second"} {
				if n, ok := parseRedisInt(args[1+i]); !ok || n < math.MinInt32 || n > math.MaxInt32 {
					return resp.ErrorReply("ERR invalid " + which + " DB index")
				}
			}
			for _, a := range args[1:] {
				if n, _ := parseRedisInt(a); n < 0 || n >= databases {
					return resp.ErrorReply(errDBRange)
				}
			}
		}
		return runFixup(next, e, peer, args)
	}
}

// dbIndexRefused is Redis's error for a database index that is not one,
// or "" for one that is.
func dbIndexRefused(s string) string {
	n, ok := parseRedisInt(s)
	switch {
	case !ok:
		return errNotInt
	case n < math.MinInt32 || n > math.MaxInt32:
		return "ERR value is out of range, value must between -2147483648 and 2147483647"
	case n < 0 || n >= databases:
		return errDBRange
	}
	return ""
}
