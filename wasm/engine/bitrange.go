package engine

import (
	"math/bits"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// BITCOUNT key start end BIT|BYTE and BITPOS key bit start end BIT|BYTE,
// Redis 7.0's range unit, which miniredis does not read (a syntax error).
// The calls without a unit are left to miniredis. Redis's order of checks
// is kept: BITPOS's bit first; then the key (a missing one answers at once,
// BITCOUNT 0 and BITPOS -1 for a 1 and 0 for a 0; another type is
// WRONGTYPE); then start and end as integers, and the unit.

func bitcountFixup(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) != 5 {
		return e.raw(peer, args)
	}
	v, r, ok := e.bitString(peer, args[1], resp.IntReply(0))
	if !ok {
		return r
	}
	from, to, r, ok := bitRange(v, args[2], args[3], args[4])
	if !ok {
		return r
	}
	n := 0
	for i := from; i <= to; i++ {
		if i%8 == 0 && i+7 <= to {
			n += bits.OnesCount8(v[i/8])
			i += 7
			continue
		}
		n += int(v[i/8] >> (7 - i%8) & 1)
	}
	return resp.IntReply(int64(n))
}

func bitposFixup(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) != 6 {
		return e.raw(peer, args)
	}
	bit, ok := parseRedisInt(args[2])
	switch {
	case !ok:
		return resp.ErrorReply(errNotInt)
	case bit != 0 && bit != 1:
		return resp.ErrorReply("ERR The bit argument must be 1 or 0.")
	}
	missing := resp.IntReply(0) // a missing key is all 0 bits
	if bit == 1 {
		missing = resp.IntReply(-1)
	}
	v, r, ok := e.bitString(peer, args[1], missing)
	if !ok {
		return r
	}
	from, to, r, ok := bitRange(v, args[3], args[4], args[5])
	if !ok {
		return r
	}
	for i := from; i <= to; i++ {
		if i%8 == 0 && i+7 <= to && (bit == 1 && v[i/8] == 0 || bit == 0 && v[i/8] == 0xff) {
			i += 7 // a whole byte without the bit
			continue
		}
		if int64(v[i/8]>>(7-i%8)&1) == bit {
			return resp.IntReply(int64(i))
		}
	}
	return resp.IntReply(-1) // an end was given: no padding past it counts
}

// bitString reads the string at key for a bit command: ok is false when
// the reply r is the answer already (missing, for a missing key; WRONGTYPE).
func (e *Engine) bitString(peer *server.Peer, key string, missing resp.Reply) (string, resp.Reply, bool) {
	g := e.raw(peer, []string{"GET", key})
	switch g.Kind {
	case resp.Error:
		return "", g, false
	case resp.Nil:
		return "", missing, false
	}
	return g.Str, resp.Reply{}, true
}

// bitRange reads start, end and the unit as Redis does, and gives the range
// in bits, from and to inclusive (from past to when it is empty); r is the
// error when ok is false.
func bitRange(v, startArg, endArg, unit string) (from, to int, r resp.Reply, ok bool) {
	start, ok1 := parseRedisInt(startArg)
	end, ok2 := parseRedisInt(endArg)
	if !ok1 || !ok2 {
		return 0, 0, resp.ErrorReply(errNotInt), false
	}
	var scale int64
	switch {
	case ascii.EqualFold(unit, "BIT"):
		scale = 1
	case ascii.EqualFold(unit, "BYTE"):
		scale = 8
	default:
		return 0, 0, resp.ErrorReply(errSyntax), false
	}
	total := int64(len(v)) * 8 / scale
	if start < 0 {
		start += total
	}
	if end < 0 {
		end += total
	}
	start, end = max(start, 0), max(end, 0)
	if end >= total {
		end = total - 1
	}
	// Ranges are in units; a unit of a byte covers its eight bits.
	return int(start * scale), int(end*scale + scale - 1), resp.Reply{}, true
}
