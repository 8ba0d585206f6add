package engine

import (
	"math"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// Arguments that size an allocation. miniredis trusts a count or an offset
// and allocates for it: HRANDFIELD h -9223372036854770000 WITHVALUES grew a
// slice toward that count until the Go runtime died (a fatal error, which
// no recover catches, and which takes down every embed sharing the engine),
// and SETBIT k 4294967295 1 took 512 MiB of a tab's memory for good. Each
// check here runs before miniredis sees the command, and answers as Redis
// 7.0 does where Redis refuses the argument, in Redis's order and words;
// where Redis would go on (and build a reply or a string a browser cannot
// hold), it answers with the playground's cap. TestExtremeArguments runs
// every command with extreme numbers in every numeric place.

// MaxRandomReply is the most elements a random-member command's negative
// count may ask for (a negative count repeats members, so the reply is as
// long as the count however small the key). Redis answers any count up to
// 2^63-1 and hangs on the big ones; miniredis took 2.4 s in WebAssembly
// for -1,000,000.
const MaxRandomReply = 100_000

var errRandomCap = resp.Errorf("ERR value is out of range (the playground caps a random reply at %d elements)", MaxRandomReply)

// capArguments wraps the commands whose arguments size what miniredis
// allocates with their checks (see buildCommands).
func capArguments(t commandTable) {
	for _, c := range []struct{ name, option, kind string }{
		{"HRANDFIELD", "WITHVALUES", "hash"}, {"SRANDMEMBER", "", "set"}, {"ZRANDMEMBER", "WITHSCORES", "zset"},
	} {
		t.wrap(c.name, "the count checked and capped", "argcaps.go", func(next fixup) fixup { return randomCount(c.option, c.kind, next) })
	}
	for _, name := range []string{"SETBIT", "GETBIT"} {
		t.wrap(name, "the bit offset checked and capped", "argcaps.go", func(next fixup) fixup { return bitOffset(name == "SETBIT", next) })
	}
	t.wrap("APPEND", "the string's size capped", "argcaps.go", appendCap)
	t.wrap("LPOS", "COUNT past the list's length read as 0", "argcaps.go", lposCount)
	for _, name := range []string{"SPOP", "LPOP", "RPOP"} {
		t.wrap(name, "the count checked as Redis does", "argcaps.go", func(next fixup) fixup { return popCount(name, next) })
	}
}

// randomCount checks HRANDFIELD's, ZRANDMEMBER's and SRANDMEMBER's count
// as Redis does: it must be a number from -(2^63-1) to 2^63-1, then the
// option (WITHVALUES, WITHSCORES; none for SRANDMEMBER) must be the one
// word after it, and with the option the count may not pass 2^62-1 either
// way (the reply has two elements for each); all before the key is looked
// at. A negative count past MaxRandomReply is the playground's cap, for a
// key of the command's kind (Redis answers a missing key with nothing).
func randomCount(option, kind string, next fixup) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		if len(args) < 3 {
			return runFixup(next, e, peer, args)
		}
		if option == "" && len(args) > 3 {
			return resp.ErrorReply(errSyntax) // SRANDMEMBER reads no count then
		}
		n, ok := parseRedisInt(args[2])
		switch {
		case !ok:
			return resp.ErrorReply(errNotInt)
		case n == math.MinInt64:
			return resp.ErrorReply("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807")
		case len(args) > 3 && (option == "" || len(args) > 4 || !ascii.EqualFold(args[3], option)):
			return resp.ErrorReply(errSyntax)
		case len(args) == 4 && (n > math.MaxInt64/2 || n < -math.MaxInt64/2):
			return resp.ErrorReply("ERR value is out of range")
		case n < -MaxRandomReply && e.db(e.dbOf[peer]).Type(args[1]) == kind:
			return errRandomCap
		}
		return runFixup(next, e, peer, args)
	}
}

// maxBitOffset is the last bit Redis addresses: a string of up to 512 MB.
const maxBitOffset = 1<<32 - 1

// bitOffset checks SETBIT's and GETBIT's offset as Redis does, before the
// key, and caps SETBIT's at the playground's string size: miniredis would
// grow the string to the offset.
func bitOffset(set bool, next fixup) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		if len(args) < 3 {
			return runFixup(next, e, peer, args)
		}
		off, ok := parseRedisInt(args[2])
		if !ok || off < 0 || off > maxBitOffset {
			return resp.ErrorReply(resp.BitOffsetError)
		}
		if set && off/8 >= MaxStringBytes {
			if len(args) == 4 && args[3] != "0" && args[3] != "1" {
				return resp.ErrorReply("ERR bit is not an integer or out of range")
			}
			if t := e.db(e.dbOf[peer]).Type(args[1]); t != "" && t != "string" {
				return errWrongType
			}
			return errStringCap
		}
		return runFixup(next, e, peer, args)
	}
}

// appendCap refuses an APPEND that would make the string longer than the
// playground's cap; each APPEND is small, but a loop of them is not.
func appendCap(next fixup) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		if len(args) == 3 {
			if n := e.raw(peer, []string{"STRLEN", args[1]}); n.Kind == resp.Int && n.Int+int64(len(args[2])) > MaxStringBytes {
				return errStringCap
			}
		}
		return runFixup(next, e, peer, args)
	}
}

// lposCount hands miniredis a COUNT no longer than the list: miniredis
// makes room for COUNT positions before it looks, and COUNT 2^63-1 panicked
// in makeslice. A count past the list's length finds every match, as COUNT
// 0 does, so the reply is the same.
func lposCount(next fixup) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		for i := 3; i+1 < len(args); i += 2 {
			if !ascii.EqualFold(args[i], "COUNT") {
				continue
			}
			n, ok := parseRedisInt(args[i+1])
			if !ok || n <= 0 {
				break
			}
			if l := e.raw(peer, []string{"LLEN", args[1]}); l.Kind == resp.Int && n > l.Int {
				args = append(args[:i+1:i+1], append([]string{"0"}, args[i+2:]...)...)
			}
			break
		}
		return runFixup(next, e, peer, args)
	}
}

// popCount refuses SPOP's, LPOP's and RPOP's count as Redis does, before
// the key: one that is not a number, or is negative, is "out of range,
// must be positive" (miniredis says "index out of range"); an argument
// after it is a syntax error to SPOP and a wrong count to the list pops;
// and a list pop with a count answers a missing key with a null array.
func popCount(name string, next fixup) fixup {
	tooMany := resp.ErrorReply("ERR wrong number of arguments for '" + ascii.Lower(name) + "' command")
	if name == "SPOP" {
		tooMany = resp.ErrorReply(errSyntax)
	}
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		if len(args) > 3 {
			return tooMany
		}
		if len(args) == 3 {
			if n, ok := parseRedisInt(args[2]); !ok || n < 0 {
				return resp.ErrorReply("ERR value is out of range, must be positive")
			}
		}
		r := runFixup(next, e, peer, args)
		if len(args) == 3 && name != "SPOP" && r.Kind == resp.Nil {
			return resp.NilArrayReply() // a count asks for an array, null when the key is missing
		}
		return r
	}
}
