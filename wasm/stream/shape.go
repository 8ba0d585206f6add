package stream

import (
	"strings"

	"echomq.dev/playground/wasm/resp"
)

// Shape gives a RESP3 connection the reply types Redis 7.0 sends it: the
// commands build RESP2 replies, where a map is a flat array.
//   - XREAD and XREADGROUP: a map of key to entries;
//   - XINFO STREAM: a map, and with FULL each group and consumer too;
//   - XINFO GROUPS and CONSUMERS: an array of maps.
func Shape(args []string, r resp.Reply) resp.Reply {
	if r.Kind != resp.Array {
		return r
	}
	switch strings.ToUpper(args[0]) {
	case "XREAD", "XREADGROUP":
		m := make([]resp.Reply, 0, 2*len(r.Elems))
		for _, kv := range r.Elems {
			m = append(m, kv.Elems...)
		}
		return resp.Reply{Kind: resp.Map, Elems: m}
	case "XINFO":
		switch strings.ToUpper(args[1]) {
		case "STREAM":
			out := asMap(r)
			for i := 0; i+1 < len(out.Elems); i += 2 {
				if out.Elems[i].Str == "groups" && out.Elems[i+1].Kind == resp.Array {
					out.Elems[i+1] = eachMap(out.Elems[i+1], "consumers")
				}
			}
			return out
		case "GROUPS", "CONSUMERS":
			return eachMap(r, "")
		}
	}
	return r
}

func asMap(r resp.Reply) resp.Reply {
	return resp.Reply{Kind: resp.Map, Elems: append([]resp.Reply(nil), r.Elems...)}
}

// eachMap makes each element a map, and the value under inner (when
// given) an array of maps.
func eachMap(r resp.Reply, inner string) resp.Reply {
	out := make([]resp.Reply, len(r.Elems))
	for i, e := range r.Elems {
		m := asMap(e)
		for j := 0; inner != "" && j+1 < len(m.Elems); j += 2 {
			if m.Elems[j].Str == inner {
				m.Elems[j+1] = eachMap(m.Elems[j+1], "")
			}
		}
		out[i] = m
	}
	return resp.ArrayReply(out...)
}
