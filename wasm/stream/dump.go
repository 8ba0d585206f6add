package stream

import (
	"strconv"

	"echomq.dev/playground/wasm/rdb"
)

// Dump is the stream as Redis 7.0 saves it (wasm/rdb): every node's
// listpack rebuilt element by element, deleted entries and all, in the
// layout streamAppendItem writes.
func (s *Stream) Dump() rdb.Stream {
	out := rdb.Stream{Length: uint64(s.length), Last: rid(s.last), First: rid(s.first), MaxDeleted: rid(s.maxDeleted), Added: s.added}
	num := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, n := range s.nodes {
		el := []string{num(n.live), num(n.dead), num(int64(len(n.masterFields)))}
		el = append(el, n.masterFields...)
		el = append(el, "0")
		for _, e := range n.entries {
			same := sameFields(n.masterFields, e.fields)
			flags := int64(0)
			if same {
				flags = 2
			}
			if e.deleted {
				flags |= 1
			}
			el = append(el, num(flags), num(int64(e.id.Ms-n.master.Ms)), num(int64(e.id.Seq-n.master.Seq)))
			count := int64(len(e.fields)/2) + 3
			if !same {
				el = append(el, num(int64(len(e.fields)/2)))
				count += int64(len(e.fields)/2) + 1
			}
			for i, f := range e.fields {
				if i%2 == 1 || !same {
					el = append(el, f)
				}
			}
			el = append(el, num(count))
		}
		out.Nodes = append(out.Nodes, rdb.StreamNode{Ms: n.master.Ms, Seq: n.master.Seq, Elems: el})
	}
	for _, g := range s.groups {
		dg := rdb.StreamGroup{Name: g.Name, Last: rid(g.last), Read: g.read}
		for _, p := range g.pel {
			dg.Pending = append(dg.Pending, rdb.StreamNack{ID: rid(p.id), Delivered: p.delivered, Count: uint64(p.count)})
		}
		for _, c := range g.consumers {
			dc := rdb.StreamConsumer{Name: c.Name, Seen: c.seen}
			for _, p := range c.pel {
				dc.Pending = append(dc.Pending, rid(p.id))
			}
			dg.Consumers = append(dg.Consumers, dc)
		}
		out.Groups = append(out.Groups, dg)
	}
	return out
}

func rid(id ID) rdb.StreamID { return rdb.StreamID{Ms: id.Ms, Seq: id.Seq} }
