package redisdiff

// Comparing a keyspace with the real server's. A live run dumps the real
// server and diffs key by key. The recording keeps of that dump only what
// the comparison needs, since a run dumps after every operation and the
// values run to megabytes: the digest of its canonical form, the keys with
// a TTL (compared with PTTLSlack's slack) and the hashes whose order is
// not compared.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"echomq.dev/playground/wasm/resp"
)

// dumpKey is the command under which a recording keeps a dump.
var dumpKey = []string{"#keyspace"}

// DiffKeyspace compares eng, the engine's dump (of s.Databases databases),
// with the keyspace of the real server, after align has put the engine's checked deadlines in the
// real dump (nil: nothing to align). It returns the differences, key by
// key; nil when they agree. On a replay a difference names the keys the
// recording can vouch for, and shows the engine's.
func (s *Server) DiffKeyspace(tb testing.TB, eng Dump, align func(Dump)) []string {
	tb.Helper()
	a := s.admin
	if a.live == nil {
		wire, err := s.replayed(a.label, keyOf(dumpKey))
		if err != nil {
			tb.Fatal(err)
		}
		sealed, err := resp.Parse(wire)
		if err != nil {
			tb.Fatalf("%s: a recorded keyspace: %v", s.rec.path, err)
		}
		return diffSealed(eng, sealed)
	}
	real, err := DumpKeyspace(liveNodes{a}, true, s.Databases)
	if err != nil {
		tb.Fatalf("redis keyspace: %v", err)
	}
	if align != nil {
		align(real)
	}
	if Update() { // sealing a dump of megabytes is not free
		s.record(Exchange{Conn: a.label, Key: keyOf(dumpKey), Reply: string(resp.Append(nil, seal(real)))})
	}
	return DiffDumps(eng, real)
}

// liveNodes reads a live server's dump in one pipeline per step, and
// records none of it: the recording keeps the sealed dump instead.
type liveNodes struct{ c *Real }

func (l liveNodes) Nodes(cmds [][]string) ([]Node, error) {
	wires, err := l.c.live.PipelineWire(cmds)
	if err != nil {
		return nil, err
	}
	out := make([]Node, len(wires))
	for i, w := range wires {
		if out[i], err = ParseNode(w); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// sealWhole is the longest dump (in canonical form) a recording keeps
// whole, so that a replay names the key that differs as a live run does.
const sealWhole = 1 << 10

// seal is what the recording keeps of a real dump: [digest, [key, pttl]...
// for the keys with a TTL, [key...] of the unordered hashes, and, for a
// small dump, [[key, type, pttl, encoding, items...]...]].
func seal(d Dump) resp.Reply {
	unordered := map[string]bool{}
	var ttls, hashes []resp.Reply
	for _, k := range sortedKeys(d) {
		kd := d[k]
		if kd.PTTL >= 0 {
			ttls = append(ttls, resp.BulkReply(k), resp.IntReply(kd.PTTL))
		}
		if kd.Type == "hash" && !HashIsOrdered(kd) {
			unordered[k] = true
			hashes = append(hashes, resp.BulkReply(k))
		}
	}
	text := canonical(d, unordered)
	sealed := resp.ArrayReply(resp.BulkReply(Digest(text)), resp.ArrayReply(ttls...), resp.ArrayReply(hashes...))
	if len(text) <= sealWhole {
		var whole []resp.Reply
		for _, k := range sortedKeys(d) {
			kd := d[k]
			key := []resp.Reply{resp.BulkReply(k), resp.BulkReply(kd.Type), resp.IntReply(kd.PTTL), resp.BulkReply(kd.Encoding)}
			for _, it := range kd.Items {
				key = append(key, resp.BulkReply(it))
			}
			whole = append(whole, resp.ArrayReply(key...))
		}
		sealed.Elems = append(sealed.Elems, resp.ArrayReply(whole...))
	}
	return sealed
}

// unseal is the whole dump a seal keeps, if it keeps it.
func unseal(sealed resp.Reply) (Dump, bool) {
	if len(sealed.Elems) != 4 {
		return nil, false
	}
	d := Dump{}
	for _, k := range sealed.Elems[3].Elems {
		if len(k.Elems) < 4 {
			return nil, false
		}
		kd := KeyDump{Type: k.Elems[1].Str, PTTL: k.Elems[2].Int, Encoding: k.Elems[3].Str}
		for _, it := range k.Elems[4:] {
			kd.Items = append(kd.Items, it.Str)
		}
		d[k.Elems[0].Str] = kd
	}
	return d, true
}

// canonical is a dump as text in one form for equal keyspaces: keys in
// order, an unordered hash's pairs sorted, a TTL only as "has one".
func canonical(d Dump, unordered map[string]bool) string {
	var b strings.Builder
	for _, k := range sortedKeys(d) {
		kd := d[k]
		items := kd.Items
		if unordered[k] {
			items = sortPairs(items)
		}
		ttl := "ttl"
		if kd.PTTL < 0 {
			ttl = strconv.FormatInt(kd.PTTL, 10)
		}
		fmt.Fprintf(&b, "%q %s %s %d", k, kd.Type, ttl, len(items))
		for _, it := range items {
			fmt.Fprintf(&b, " %q", it)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// diffSealed compares the engine's dump with a recorded one.
func diffSealed(eng Dump, sealed resp.Reply) []string {
	if sealed.Kind != resp.Array || len(sealed.Elems) < 3 {
		return []string{fmt.Sprintf("a recorded keyspace that is not one: %v", sealed)}
	}
	if real, ok := unseal(sealed); ok {
		return DiffDumps(eng, real)
	}
	unordered := map[string]bool{}
	for _, h := range sealed.Elems[2].Elems {
		unordered[h.Str] = true
	}
	if Digest(canonical(eng, unordered)) != sealed.Elems[0].Str {
		out := []string{"the engine's keyspace is not the one redis-server left (compare against redis-server to see where); the engine's:"}
		for _, k := range sortedKeys(eng) {
			out = append(out, fmt.Sprintf("  key %s: %v", Short(k), eng[k]))
		}
		return out
	}
	var out []string
	ttls := sealed.Elems[1].Elems
	for i := 0; i+1 < len(ttls); i += 2 {
		k, real := ttls[i].Str, ttls[i+1].Int
		if e := eng[k].PTTL; e-real > PTTLSlack || real-e > PTTLSlack {
			out = append(out, fmt.Sprintf("key %s: PTTL more than %d ms apart: engine %d, redis %d", Short(k), PTTLSlack, e, real))
		}
	}
	return out
}

func sortedKeys(d Dump) []string {
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
