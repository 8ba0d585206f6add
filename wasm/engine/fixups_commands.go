package engine

import (
	"math"
	"strconv"
	"strings"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// Commands miniredis answers otherwise than Redis 7.0: the integer
// commands' reading of numbers, SETRANGE's empty write and its size,
// SETEX's and PSETEX's wording, and the empty result of a store.

// copyFixup empties the destination of a COPY ... REPLACE first. miniredis
// replaces a key of another type without dropping the old value, which
// stays behind under the name and comes back when a key of that type is
// made there again.
func copyFixup(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) < 3 {
		return e.raw(peer, args)
	}
	db := e.dbOf[peer]
	to, replace := db, false
	for i := 3; i < len(args); i++ {
		switch {
		case ascii.EqualFold(args[i], "REPLACE"):
			replace = true
		case ascii.EqualFold(args[i], "DB") && i+1 < len(args):
			n, ok := parseDB(args, i+1)
			if !ok {
				return e.raw(peer, args)
			}
			to = n
			i++
		default:
			return e.raw(peer, args)
		}
	}
	if replace && (to != db || args[1] != args[2]) && e.db(db).Exists(args[1]) {
		e.db(to).Del(args[2])
	}
	r := e.raw(peer, args)
	if r.Kind == resp.Int && r.Int == 1 {
		e.streamCopied(to, args[2])
	}
	return r
}

// incrFixup reads numbers as Redis's string2ll does: the step and the
// stored value must be written exactly as Redis prints an integer, so
// "0123" and "+5" are refused, where miniredis's strconv reads them. It
// also refuses a result past int64, which miniredis wraps around.
func incrFixup(name string) fixup {
	step := name == "INCRBY" || name == "DECRBY"
	sign := int64(1)
	if strings.HasPrefix(name, "DECR") {
		sign = -1
	}
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		if step && len(args) != 3 || !step && len(args) != 2 {
			return e.raw(peer, args)
		}
		by := int64(1)
		if step {
			n, ok := parseRedisInt(args[2])
			if !ok {
				return resp.ErrorReply(errNotInt)
			}
			if sign < 0 && n == math.MinInt64 {
				return resp.ErrorReply("ERR decrement would overflow")
			}
			by = n
		}
		by *= sign
		if r, refused := incrementRefused(e.raw(peer, []string{"GET", args[1]}), by, errNotInt); refused {
			return r
		}
		if step {
			return e.raw(peer, []string{"INCRBY", args[1], strconv.FormatInt(by, 10)})
		}
		return e.raw(peer, args)
	}
}

// setrangeFixup: Redis writes nothing for an empty value (not even a key
// that does not exist, which miniredis creates), and refuses a string past
// the playground's cap on one string, where miniredis would build up to
// Redis's 512 MB in the tab's memory.
func setrangeFixup(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) != 4 {
		return e.raw(peer, args)
	}
	off, ok := parseRedisInt(args[2])
	if !ok {
		return resp.ErrorReply(errNotInt)
	}
	if off < 0 {
		return resp.ErrorReply("ERR offset is out of range")
	}
	cur := e.raw(peer, []string{"GET", args[1]})
	switch {
	case cur.Kind == resp.Error:
		return cur
	case args[3] == "":
		return resp.IntReply(int64(len(cur.Str)))
	case off > 512<<20-int64(len(args[3])): // not off+len, which an offset near 2^63 overflows
		return resp.ErrorReply("ERR string exceeds maximum allowed size (proto-max-bulk-len)")
	case off > MaxStringBytes-int64(len(args[3])):
		return errStringCap
	}
	return e.raw(peer, args)
}

// expireWording names the command in quotes, as Redis does, in the error
// for an expire time that is not positive.
func expireWording(name string) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		r := e.raw(peer, args)
		if r.Kind == resp.Error && r.Str == "ERR invalid expire time in "+name {
			r.Str = "ERR invalid expire time in '" + name + "' command"
		}
		return r
	}
}

// zstoreFixup: Redis stores no empty sorted set, so a union or
// intersection that comes out empty deletes the destination; miniredis
// leaves an empty key behind. It also names the command as Redis does in
// the error for no input keys.
func zstoreFixup(name string) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		// Redis looks at every input's type before it reads the options,
		// and writes nothing on WRONGTYPE; miniredis has deleted the
		// destination by then.
		if len(args) > 3 {
			if n, ok := parseRedisInt(args[2]); ok && n >= 1 && n <= int64(len(args)-3) {
				for _, k := range args[3 : 3+n] {
					if t := e.raw(peer, []string{"TYPE", k}).Str; t != "none" && t != "zset" && t != "set" {
						return errWrongType
					}
				}
			}
		}
		r := e.raw(peer, args)
		switch {
		case r.Kind == resp.Error && strings.HasPrefix(r.Str, "ERR at least 1 input key is needed"):
			r.Str = "ERR at least 1 input key is needed for '" + name + "' command"
		case r.Kind == resp.Int && r.Int == 0 && len(args) > 1:
			e.db(e.dbOf[peer]).Del(args[1])
		}
		return r
	}
}

// asVerbatim gives INFO's text the RESP3 type Redis gives it: a verbatim
// string of format txt.
func asVerbatim(_ []string, r resp.Reply) resp.Reply {
	if r.Kind == resp.Bulk {
		return resp.Reply{Kind: resp.Verbatim, Format: "txt", Str: r.Str}
	}
	return r
}

// lmoveFixup refuses an LMOVE whose ends are not LEFT or RIGHT (read in
// ASCII) with Redis's syntax error, before anything moves: miniredis
// pops the element first and only then looks at where it goes, so it
// lost it for LMOVE src dst LEFT sideways.
func lmoveFixup(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) == 5 {
		for _, end := range args[3:] {
			if !ascii.EqualFold(end, "LEFT") && !ascii.EqualFold(end, "RIGHT") {
				return resp.ErrorReply(errSyntax)
			}
		}
	}
	return e.raw(peer, args)
}
