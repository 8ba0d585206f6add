package engine

import (
	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// setOptionsFixup reads SET's options the way Redis 7.0 does before
// miniredis sees them. Redis refuses NX with XX, an expiry next to another
// kind of expiry (EX, PX, EXAT, PXAT, KEEPTTL), an expiry with no value
// after it, and any word it does not know, with "syntax error"; the same
// option twice is fine, and the last expiry's value counts. miniredis lets
// clashing options through, so a learner typing SET k v XX NX at the
// console would get (nil). The options that pass go on to miniredis in one
// plain order, which also gives it the last expiry's value.
func setOptionsFixup(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) < 3 {
		return e.raw(peer, args)
	}
	if len(args) == 3 && !e.plain(DirectCommands) {
		// The plain SET, the one scripts make most: written directly,
		// without a RESP round trip through miniredis's command table.
		// miniredis's direct Set refuses a key of another type, which
		// SET replaces: that one goes the long way.
		if e.db(e.dbOf[peer]).Set(args[1], args[2]) == nil {
			return resp.OK()
		}
		return e.raw(peer, args)
	}
	var cond, expiry, expiryValue string
	get := false
	syntax := resp.ErrorReply(errSyntax)
	for i := 3; i < len(args); i++ {
		switch opt := ascii.Upper(args[i]); opt {
		case "NX", "XX":
			if cond != "" && cond != opt {
				return syntax
			}
			cond = opt
		case "GET":
			get = true
		case "KEEPTTL":
			if expiry != "" && expiry != opt {
				return syntax
			}
			expiry = opt
		case "EX", "PX", "EXAT", "PXAT":
			if (expiry != "" && expiry != opt) || i == len(args)-1 {
				return syntax
			}
			expiry, expiryValue = opt, args[i+1]
			i++
		default:
			return syntax
		}
	}
	out := append(make([]string, 0, 7), args[:3]...)
	if cond != "" {
		out = append(out, cond)
	}
	if get {
		out = append(out, "GET")
	}
	switch expiry {
	case "":
	case "KEEPTTL":
		out = append(out, expiry)
	default:
		out = append(out, expiry, expiryValue)
	}
	r := e.raw(peer, out)
	if r.Kind == resp.Error && r.Str == "ERR invalid expire time in set" {
		r = resp.ErrorReply("ERR invalid expire time in 'set' command") // Redis names the command so
	}
	return r
}
