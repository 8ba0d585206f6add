package engine

import (
	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// RESP3 shapes. The fixups read miniredis's RESP2 replies (their parsing
// and reprinting is written for that shape), so on a RESP3 connection the
// dispatcher runs a fixup as if the connection were RESP2 and then gives
// the reply the shape Redis 7.0 gives it under RESP3: scores as doubles,
// WITHSCORES as [member, score] pairs, HGETALL as a map. commandtable.go
// says which command has which shape.

// asMap: HGETALL's field/value array is a map.
func asMap(_ []string, r resp.Reply) resp.Reply {
	if r.Kind == resp.Array {
		r.Kind = resp.Map
	}
	return r
}

func asDouble(_ []string, r resp.Reply) resp.Reply {
	if r.Kind == resp.Bulk {
		return resp.Reply{Kind: resp.Double, Str: r.Str}
	}
	return r
}

func eachDouble(args []string, r resp.Reply) resp.Reply {
	if r.Kind != resp.Array {
		return r
	}
	elems := make([]resp.Reply, len(r.Elems))
	for i, e := range r.Elems {
		elems[i] = asDouble(args, e)
	}
	return resp.ArrayReply(elems...)
}

// zaddShape: ZADD answers a score only with INCR.
func zaddShape(args []string, r resp.Reply) resp.Reply {
	for _, a := range args[2:] {
		if ascii.EqualFold(a, "INCR") {
			return asDouble(args, r)
		}
	}
	return r
}

// popShape: ZPOPMIN key is one [member, score]; with a count, a list of
// them.
func popShape(args []string, r resp.Reply) resp.Reply {
	if len(args) > 2 {
		return pairs(r)
	}
	if r.Kind == resp.Array && len(r.Elems) == 2 {
		return resp.ArrayReply(r.Elems[0], asDouble(args, r.Elems[1]))
	}
	return r
}

func pairsWithScores(args []string, r resp.Reply) resp.Reply {
	for _, a := range args[2:] {
		if ascii.EqualFold(a, "WITHSCORES") {
			return pairs(r)
		}
	}
	return r
}

// pairs turns [m1, s1, m2, s2] into [[m1, s1], [m2, s2]], scores as doubles.
func pairs(r resp.Reply) resp.Reply {
	if r.Kind != resp.Array {
		return r
	}
	out := make([]resp.Reply, 0, len(r.Elems)/2)
	for i := 0; i+1 < len(r.Elems); i += 2 {
		out = append(out, resp.ArrayReply(r.Elems[i], asDouble(nil, r.Elems[i+1])))
	}
	return resp.ArrayReply(out...)
}

// asSet: SMEMBERS, SINTER, SUNION and SDIFF send a set.
func asSet(_ []string, r resp.Reply) resp.Reply {
	if r.Kind == resp.Array {
		r.Kind = resp.Set
	}
	return r
}

// fieldValuePairs: HRANDFIELD key count WITHVALUES sends [field, value]
// pairs, not a map (a negative count may repeat a field).
func fieldValuePairs(args []string, r resp.Reply) resp.Reply {
	if len(args) < 4 || r.Kind != resp.Array {
		return r
	}
	out := make([]resp.Reply, 0, len(r.Elems)/2)
	for i := 0; i+1 < len(r.Elems); i += 2 {
		out = append(out, resp.ArrayReply(r.Elems[i], r.Elems[i+1]))
	}
	return resp.ArrayReply(out...)
}

// streamsMap: XREAD and XREADGROUP send a map from each stream's name to
// its entries.
func streamsMap(_ []string, r resp.Reply) resp.Reply {
	if r.Kind != resp.Array {
		return r
	}
	out := make([]resp.Reply, 0, 2*len(r.Elems))
	for _, kv := range r.Elems {
		out = append(out, kv.Elems...)
	}
	return resp.Reply{Kind: resp.Map, Elems: out}
}

// mpopShape: ZMPOP's [key, [[member, score], ...]] has scores as doubles.
func mpopShape(_ []string, r resp.Reply) resp.Reply {
	if r.Kind != resp.Array || len(r.Elems) != 2 || r.Elems[1].Kind != resp.Array {
		return r
	}
	ps := make([]resp.Reply, len(r.Elems[1].Elems))
	for i, p := range r.Elems[1].Elems {
		ps[i] = popShape([]string{"ZPOPMIN", ""}, p)
	}
	return resp.ArrayReply(r.Elems[0], resp.ArrayReply(ps...))
}

// spopShape: SPOP key count sends a set (SPOP key, one member).
func spopShape(args []string, r resp.Reply) resp.Reply {
	if len(args) > 2 {
		return asSet(args, r)
	}
	return r
}

// coordsShape: GEOPOS sends each position as [longitude, latitude]
// doubles (nil for a missing member).
func coordsShape(_ []string, r resp.Reply) resp.Reply {
	if r.Kind != resp.Array {
		return r
	}
	out := make([]resp.Reply, len(r.Elems))
	for i, p := range r.Elems {
		out[i] = eachDouble(nil, p)
	}
	return resp.ArrayReply(out...)
}

// withCoordShape: GEORADIUS, GEORADIUSBYMEMBER and GEOSEARCH with WITHCOORD
// send each match's [longitude, latitude] as doubles; the distance and the
// hash keep their kinds.
func withCoordShape(args []string, r resp.Reply) resp.Reply {
	if r.Kind != resp.Array || !hasWord(args, "WITHCOORD") {
		return r
	}
	out := make([]resp.Reply, len(r.Elems))
	for i, item := range r.Elems {
		if item.Kind == resp.Array && len(item.Elems) > 1 {
			parts := append([]resp.Reply(nil), item.Elems...)
			parts[len(parts)-1] = eachDouble(nil, parts[len(parts)-1])
			item = resp.ArrayReply(parts...)
		}
		out[i] = item
	}
	return resp.ArrayReply(out...)
}

func hasWord(args []string, w string) bool {
	for _, a := range args {
		if ascii.EqualFold(a, w) {
			return true
		}
	}
	return false
}
