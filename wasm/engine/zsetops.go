package engine

import (
	"strconv"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// ZUNION, ZINTER and ZINTERCARD where miniredis parts from Redis 7.0:
//
//   - a numkeys under 1 is "at least 1 input key is needed for 'zunion'
//     command", in the words Redis uses for every one of them (miniredis
//     has two other wordings for ZUNION and ZINTER);
//   - a weight is read as Redis reads a double (getDoubleFromObject: no
//     NaN, no overflow, hex allowed), so WEIGHTS nan is "weight value is
//     not a float", where miniredis took it, and 0x10 is 16;
//   - ZINTERCARD, which miniredis lacks, is the engine's own.

// zsetOpArgs wraps ZUNION, ZINTER or their STORE forms, whose numkeys is
// at numkeysAt, with Redis's reading of numkeys and WEIGHTS.
func zsetOpArgs(name string, numkeysAt int) func(next fixup) fixup {
	lower := ascii.Lower(name)
	return func(next fixup) fixup {
		return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
			if numkeysAt >= len(args) {
				return next(e, peer, args)
			}
			n, ok := parseRedisInt(args[numkeysAt])
			if ok && n < 1 {
				return resp.ErrorReply("ERR at least 1 input key is needed for '" + lower + "' command")
			}
			if !ok || n > int64(len(args)-numkeysAt-1) {
				return next(e, peer, args)
			}
			// A weight Redis refuses is refused after the keys' types, as
			// Redis checks them first; one it reads that Go's ParseFloat
			// does not (0x10) is handed on as the number it is.
			for i := numkeysAt + 1 + int(n); i < len(args); i++ {
				if !ascii.EqualFold(args[i], "WEIGHTS") || len(args)-i < int(n)+1 {
					continue
				}
				var sent []string
				for j := i + 1; j <= i+int(n); j++ {
					f, ok := parseScore(args[j])
					if !ok {
						for _, key := range args[numkeysAt+1 : numkeysAt+1+int(n)] {
							if t := e.raw(peer, []string{"TYPE", key}).Str; t != "zset" && t != "set" && t != "none" {
								return errWrongType
							}
						}
						return resp.ErrorReply("ERR weight value is not a float")
					}
					if _, err := strconv.ParseFloat(args[j], 64); err != nil {
						if sent == nil {
							sent = append([]string(nil), args...)
						}
						sent[j] = strconv.FormatFloat(f, 'g', -1, 64)
					}
				}
				if sent != nil {
					return next(e, peer, sent)
				}
				break
			}
			return next(e, peer, args)
		}
	}
}

// zintercardCommand is ZINTERCARD numkeys key [key ...] [LIMIT limit]:
// how many members every key holds, counted up to limit (0: no limit). A
// set counts as a sorted set, and a missing key as an empty one. Redis
// checks numkeys, then each key's type, then the options.
func zintercardCommand(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if msg := arityError("ZINTERCARD", args); msg != "" {
		return resp.ErrorReply(msg)
	}
	n, ok := parseRedisInt(args[1])
	switch {
	case !ok:
		return resp.ErrorReply("ERR value is not an integer or out of range")
	case n < 1:
		return resp.ErrorReply("ERR at least 1 input key is needed for 'zintercard' command")
	case n > int64(len(args)-2):
		return resp.ErrorReply("ERR syntax error")
	}
	keys := args[2 : 2+n]
	members := make([][]string, len(keys))
	missing := false
	for i, key := range keys {
		switch e.raw(peer, []string{"TYPE", key}).Str {
		case "zset":
			members[i], _ = e.raw(peer, []string{"ZRANGE", key, "0", "-1"}).Strings()
		case "set":
			members[i], _ = e.raw(peer, []string{"SMEMBERS", key}).Strings()
		case "none":
			missing = true
		default:
			return errWrongType
		}
	}
	limit := int64(0)
	for i := 2 + int(n); i < len(args); i++ {
		if !ascii.EqualFold(args[i], "LIMIT") || i+1 >= len(args) {
			return resp.ErrorReply("ERR syntax error")
		}
		l, ok := parseRedisInt(args[i+1])
		if !ok || l < 0 {
			return resp.ErrorReply("ERR LIMIT can't be negative")
		}
		limit = l
		i++
	}
	if missing {
		return resp.IntReply(0)
	}
	// Walk the smallest input, as Redis does, and look each member up in
	// the others.
	small := 0
	for i := range members {
		if len(members[i]) < len(members[small]) {
			small = i
		}
	}
	others := make([]map[string]bool, 0, len(members)-1)
	for i, m := range members {
		if i == small {
			continue
		}
		set := make(map[string]bool, len(m))
		for _, s := range m {
			set[s] = true
		}
		others = append(others, set)
	}
	count := int64(0)
	for _, m := range members[small] {
		inAll := true
		for _, set := range others {
			inAll = inAll && set[m]
		}
		if inAll {
			count++
			if limit > 0 && count >= limit {
				break
			}
		}
	}
	return resp.IntReply(count)
}
