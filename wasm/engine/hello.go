package engine

import (
	"strconv"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// hello serves HELLO [protover]: it switches the connection to RESP2 or
// RESP3 and describes the server, as Redis 7.0 does.
func hello(peer *server.Peer, args []string) resp.Reply {
	proto := 2
	if peer.Resp3 {
		proto = 3
	}
	if len(args) > 1 {
		v, err := strconv.ParseInt(args[1], 10, 64)
		if err != nil {
			return resp.ErrorReply("ERR Protocol version is not an integer or out of range")
		}
		if v != 2 && v != 3 {
			return resp.ErrorReply("NOPROTO unsupported protocol version")
		}
		proto = int(v)
		// SETNAME is taken (there is nothing to show a name in), and
		// AUTH as the default user, who has no password in the playground.
		for opt := args[2:]; len(opt) > 0; {
			switch {
			case ascii.EqualFold(opt[0], "SETNAME") && len(opt) >= 2:
				opt = opt[2:]
			case ascii.EqualFold(opt[0], "AUTH") && len(opt) >= 3:
				if opt[1] != "default" {
					return resp.ErrorReply("WRONGPASS invalid username-password pair or user is disabled.")
				}
				opt = opt[3:]
			default:
				return resp.Errorf("ERR Syntax error in HELLO option '%s'", opt[0])
			}
		}
	}
	peer.Resp3 = proto == 3
	info := []resp.Reply{
		resp.BulkReply("server"), resp.BulkReply("redis"),
		resp.BulkReply("version"), resp.BulkReply(RedisVersion),
		resp.BulkReply("proto"), resp.IntReply(int64(proto)),
		resp.BulkReply("id"), resp.IntReply(1),
		resp.BulkReply("mode"), resp.BulkReply("standalone"),
		resp.BulkReply("role"), resp.BulkReply("master"),
		resp.BulkReply("modules"), resp.ArrayReply(),
	}
	return forProtocol(resp.Reply{Kind: resp.Map, Elems: info}, peer.Resp3)
}

// forProtocol turns a reply into what a client on the given protocol
// receives: RESP3 kinds as they are, or, for RESP2, a map and a set as a
// flat array, a double, big number and verbatim string as a bulk string,
// and a boolean as 1 or 0.
//
// Like luaToReply it walks the reply with a stack of its own, since a
// script's reply can nest thousands of arrays deep.
func forProtocol(r resp.Reply, resp3 bool) resp.Reply {
	if resp3 || !hasRESP3(r) {
		return r
	}
	out := r
	work := []*resp.Reply{&out}
	for len(work) > 0 {
		at := work[len(work)-1]
		work = work[:len(work)-1]
		switch at.Kind {
		case resp.Map, resp.Set, resp.Array:
			// A fresh slice: the reply given may be shared, and is not ours
			// to change.
			elems := make([]resp.Reply, len(at.Elems))
			copy(elems, at.Elems)
			*at = resp.ArrayReply(elems...)
			for i := range elems {
				work = append(work, &elems[i])
			}
		case resp.Double, resp.BigNumber, resp.Verbatim:
			*at = resp.BulkReply(at.Str)
		case resp.Bool:
			*at = resp.IntReply(at.Int)
		}
	}
	return out
}

// hasRESP3 reports whether r holds any RESP3-only kind.
func hasRESP3(r resp.Reply) bool {
	var buf [16]*resp.Reply
	work := buf[:0]
	for at := &r; ; {
		switch at.Kind {
		case resp.Map, resp.Set, resp.Double, resp.BigNumber, resp.Verbatim, resp.Bool:
			return true
		case resp.Array:
			for i := range at.Elems {
				work = append(work, &at.Elems[i])
			}
		}
		if len(work) == 0 {
			return false
		}
		at = work[len(work)-1]
		work = work[:len(work)-1]
	}
}
