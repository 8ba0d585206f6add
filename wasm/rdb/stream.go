package rdb

// Streams, as Redis 7.0 saves them (RDB_TYPE_STREAM_LISTPACKS_2): each
// macro node's key (the master ID, 16 bytes big-endian) and listpack, the
// stream's counters, and each consumer group with its pending entries and
// consumers. The listpacks are built here from their elements, each as the
// text Redis appends (lpAppend stores a text that reads as an integer as
// one, as add does).

// StreamNode is one macro node: its master ID and its listpack's elements.
type StreamNode struct {
	Ms, Seq uint64
	Elems   []string
}

// StreamID is an ID as a pair of numbers.
type StreamID struct{ Ms, Seq uint64 }

// StreamNack is one pending entry of a group.
type StreamNack struct {
	ID        StreamID
	Delivered int64 // Unix ms
	Count     uint64
}

// StreamConsumer is one consumer and the IDs it has pending.
type StreamConsumer struct {
	Name    string
	Seen    int64 // Unix ms
	Pending []StreamID
}

// StreamGroup is one consumer group.
type StreamGroup struct {
	Name      string
	Last      StreamID
	Read      int64 // -1 when unknown
	Pending   []StreamNack
	Consumers []StreamConsumer
}

// Stream is a stream's whole value.
type Stream struct {
	Nodes                   []StreamNode
	Length                  uint64
	Last, First, MaxDeleted StreamID
	Added                   uint64
	Groups                  []StreamGroup
}

// DumpStream is the payload Redis 7.0's DUMP gives for s.
func DumpStream(s Stream) string {
	w := writer{b: []byte{typeStream2}}
	w.length(uint64(len(s.Nodes)))
	for _, n := range s.Nodes {
		w.str(string(w.rawID(nil, StreamID{n.Ms, n.Seq})))
		lp := newListpack()
		for _, e := range n.Elems {
			lp.add(e)
		}
		w.str(lp.bytes())
	}
	for _, n := range []uint64{s.Length, s.Last.Ms, s.Last.Seq, s.First.Ms, s.First.Seq, s.MaxDeleted.Ms, s.MaxDeleted.Seq, s.Added, uint64(len(s.Groups))} {
		w.length(n)
	}
	for _, g := range s.Groups {
		w.str(g.Name)
		w.length(g.Last.Ms)
		w.length(g.Last.Seq)
		w.length(uint64(g.Read))
		w.length(uint64(len(g.Pending)))
		for _, p := range g.Pending {
			w.b = w.rawID(w.b, p.ID)
			w.b = appendLE(w.b, uint64(p.Delivered), 8)
			w.length(p.Count)
		}
		w.length(uint64(len(g.Consumers)))
		for _, c := range g.Consumers {
			w.str(c.Name)
			w.b = appendLE(w.b, uint64(c.Seen), 8)
			w.length(uint64(len(c.Pending)))
			for _, id := range c.Pending {
				w.b = w.rawID(w.b, id)
			}
		}
	}
	w.b = appendLE(w.b, Version, 2)
	return string(appendLE(w.b, CRC64(string(w.b)), 8))
}

// rawID appends id's 16 bytes, big-endian, as Redis keys its radix trees.
func (w *writer) rawID(b []byte, id StreamID) []byte {
	for _, v := range [2]uint64{id.Ms, id.Seq} {
		for k := 7; k >= 0; k-- {
			b = append(b, byte(v>>(8*k)))
		}
	}
	return b
}

// Bytes of a node's listpack, as loaded (RESTORE keeps the node's size).
func (n StreamNode) Bytes() int {
	lp := newListpack()
	for _, e := range n.Elems {
		lp.add(e)
	}
	return lp.size()
}

// readStream reads a stream of type t (15, Redis 6's, or 19, Redis
// 7.0's); a Redis 6 payload lacks the counters 7.0 added, which v7 says.
func (r *reader) readStream(t uint64) (*Stream, bool) {
	s := &Stream{}
	for range r.count0() {
		key := r.str()
		items, ok := readListpack(r.str())
		if len(key) != 16 || !ok || len(items) == 0 {
			return nil, false
		}
		s.Nodes = append(s.Nodes, StreamNode{Ms: le64be(key[:8]), Seq: le64be(key[8:]), Elems: items})
	}
	id := func() StreamID { a, _ := r.length(); b, _ := r.length(); return StreamID{a, b} }
	s.Length, _ = r.length()
	s.Last = id()
	v7 := t == typeStream2
	if v7 {
		s.First, s.MaxDeleted = id(), id()
		s.Added, _ = r.length()
	}
	for range r.count0() {
		g := StreamGroup{Name: r.str(), Last: id(), Read: -1}
		if v7 {
			n, _ := r.length()
			g.Read = int64(n)
		}
		for range r.count0() {
			p := StreamNack{ID: r.rawStreamID(), Delivered: int64(le(r.take(8)))}
			p.Count, _ = r.length()
			g.Pending = append(g.Pending, p)
		}
		for range r.count0() {
			c := StreamConsumer{Name: r.str(), Seen: int64(le(r.take(8)))}
			for range r.count0() {
				c.Pending = append(c.Pending, r.rawStreamID())
			}
			g.Consumers = append(g.Consumers, c)
		}
		s.Groups = append(s.Groups, g)
	}
	return s, !r.bad
}

func (r *reader) rawStreamID() StreamID {
	b := r.take(16)
	if len(b) != 16 {
		return StreamID{}
	}
	return StreamID{le64be(b[:8]), le64be(b[8:])}
}

// le64be reads 8 bytes big-endian.
func le64be(b string) uint64 {
	var v uint64
	for i := 0; i < len(b); i++ {
		v = v<<8 | uint64(b[i])
	}
	return v
}

// count0 reads a count that may be zero (a stream's nodes, groups,
// pending entries, consumers), no more than the bytes left could hold.
func (r *reader) count0() int {
	n, enc := r.length()
	if enc || n > uint64(len(r.b)) {
		r.bad = true
		return 0
	}
	return int(n)
}
