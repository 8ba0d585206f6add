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

// FromDump rebuilds a stream from a payload's value; ok is false for one
// whose nodes or pending entries do not hold together. A Redis 6 payload
// (legacy) lacks 7.0's counters, which are then worked out as Redis 7.0
// works them out on load.
func FromDump(d *rdb.Stream, legacy bool) (*Stream, bool) {
	s := &Stream{length: int64(d.Length), last: ID(d.Last), first: ID(d.First), maxDeleted: ID(d.MaxDeleted), added: d.Added}
	for _, dn := range d.Nodes {
		n, ok := nodeOf(dn)
		if !ok {
			return nil, false
		}
		s.nodes = append(s.nodes, n)
	}
	if legacy {
		s.added = uint64(s.length)
		s.first, _ = s.edge(true)
	}
	for _, dg := range d.Groups {
		if !s.addGroup(dg.Name, ID(dg.Last), dg.Read) {
			return nil, false
		}
		g := s.group(dg.Name)
		if legacy {
			g.read = s.estimateRead(g.last)
		}
		for _, p := range dg.Pending {
			g.pel = pelInsert(g.pel, &nack{id: ID(p.ID), delivered: p.Delivered, count: int64(p.Count)})
		}
		for _, dc := range dg.Consumers {
			c := g.addConsumer(dc.Name, dc.Seen)
			if c == nil {
				return nil, false
			}
			for _, id := range dc.Pending {
				i, found := pelFind(g.pel, ID(id))
				if !found || g.pel[i].consumer != nil {
					return nil, false
				}
				g.assign(g.pel[i], c)
			}
		}
		for _, n := range g.pel {
			if n.consumer == nil {
				return nil, false
			}
		}
	}
	return s, true
}

// nodeOf reads one node's listpack elements back into entries.
func nodeOf(dn rdb.StreamNode) (*node, bool) {
	el := dn.Elems
	num := func(i int) (int64, bool) {
		if i >= len(el) {
			return 0, false
		}
		return string2ll(el[i])
	}
	live, ok1 := num(0)
	dead, ok2 := num(1)
	nf, ok3 := num(2)
	if !ok1 || !ok2 || !ok3 || nf < 0 || int64(len(el)) < 4+nf || el[3+nf] != "0" {
		return nil, false
	}
	n := &node{master: ID{dn.Ms, dn.Seq}, masterFields: append([]string(nil), el[3:3+nf]...), live: live, dead: dead}
	for p := int(4 + nf); p < len(el); {
		flags, ok1 := num(p)
		msd, ok2 := num(p + 1)
		seqd, ok3 := num(p + 2)
		if !ok1 || !ok2 || !ok3 {
			return nil, false
		}
		p += 3
		e := entry{id: ID{n.master.Ms + uint64(msd), n.master.Seq + uint64(seqd)}, deleted: flags&1 != 0}
		if flags&2 != 0 {
			if p+int(nf) > len(el) {
				return nil, false
			}
			for i, f := range n.masterFields {
				e.fields = append(e.fields, f, el[p+i])
			}
			p += int(nf)
		} else {
			k, ok := num(p)
			if !ok || k < 0 || p+1+int(2*k) > len(el) {
				return nil, false
			}
			e.fields = append([]string(nil), el[p+1:p+1+int(2*k)]...)
			p += 1 + int(2*k)
		}
		p++ // lp-count
		if p > len(el) {
			return nil, false
		}
		n.entries = append(n.entries, e)
	}
	var l, d int64
	for _, e := range n.entries {
		if e.deleted {
			d++
		} else {
			l++
		}
	}
	if len(n.entries) == 0 || l != live || d != dead || n.entries[0].id != n.master {
		return nil, false
	}
	n.body = dn.Bytes() - lpInt(live) - lpInt(dead)
	return n, true
}
