package stream

import (
	"sort"
)

// Config is the two settings that draw node boundaries. Redis 7.0's
// defaults are 100 entries and 4096 bytes; 0 lifts a limit (bytes then cap
// at 1 GiB, as in Redis).
type Config struct {
	NodeMaxEntries int64
	NodeMaxBytes   int64
}

// Defaults is Redis 7.0's configuration.
var Defaults = Config{NodeMaxEntries: 100, NodeMaxBytes: 4096}

// entry is one entry as its node holds it; a deleted one stays in its node
// (flagged, as Redis flags it) until the whole node goes.
type entry struct {
	id      ID
	fields  []string // field, value, field, value...
	deleted bool
}

// node is one macro node: a listpack under its master ID in Redis's radix
// tree. Its first entry's ID and fields are the master entry's.
type node struct {
	master       ID
	masterFields []string // the field names of the first entry
	entries      []entry
	live         int64
	dead         int64
	body         int // listpack bytes but for the two counters
}

// bytes is the node's listpack size, as lpBytes would answer.
func (n *node) bytes() int64 { return int64(n.body + lpInt(n.live) + lpInt(n.dead)) }

// Stream is one stream key's value.
type Stream struct {
	nodes      []*node
	length     int64
	last       ID // last-generated-id
	first      ID // recorded-first-entry-id
	maxDeleted ID
	added      uint64 // entries-added
	groups     []*Group
	// Version moves with every change, for WATCH.
	Version uint64
}

// New is an empty stream.
func New() *Stream { return &Stream{} }

func (s *Stream) Len() int64 { return s.length }

// Entry is an entry as a command reads it.
type Entry struct {
	ID     ID
	Fields []string
}

// sameFields reports whether an entry with fields would be kept compressed
// against the node's master entry.
func sameFields(master, fields []string) bool {
	if len(master)*2 != len(fields) {
		return false
	}
	for i, f := range master {
		if fields[2*i] != f {
			return false
		}
	}
	return true
}

// appendEntry adds an entry whose ID is above the last, in the node Redis
// would put it in.
func (s *Stream) appendEntry(cfg Config, id ID, fields []string) {
	var tail *node
	if len(s.nodes) > 0 {
		tail = s.nodes[len(s.nodes)-1]
		maxBytes := cfg.NodeMaxBytes
		if maxBytes <= 0 || maxBytes > 1<<30 {
			maxBytes = 1 << 30
		}
		var elems int64
		for _, f := range fields {
			elems += int64(len(f))
		}
		if tail.bytes()+elems >= maxBytes ||
			(cfg.NodeMaxEntries > 0 && tail.live+tail.dead >= cfg.NodeMaxEntries) {
			tail = nil
		}
	}
	if tail == nil {
		tail = &node{master: id}
		tail.body = lpEmpty + lpInt(int64(len(fields)/2)) + lpInt(0)
		for i := 0; i < len(fields); i += 2 {
			tail.masterFields = append(tail.masterFields, fields[i])
			tail.body += lpString(fields[i])
		}
		s.nodes = append(s.nodes, tail)
	}
	same := sameFields(tail.masterFields, fields)
	size := 0
	if same {
		size += lpInt(2)
	} else {
		size += lpInt(0)
	}
	size += lpInt(int64(id.Ms - tail.master.Ms))
	size += lpInt(int64(id.Seq - tail.master.Seq))
	count := int64(len(fields)/2) + 3
	if !same {
		size += lpInt(int64(len(fields) / 2))
		count += int64(len(fields)/2) + 1
	}
	for i, f := range fields {
		if i%2 == 1 || !same {
			size += lpString(f)
		}
	}
	size += lpInt(count)
	tail.body += size
	tail.entries = append(tail.entries, entry{id: id, fields: fields})
	tail.live++
	s.length++
	s.added++
	s.last = id
	if s.length == 1 {
		s.first = id
	}
}

// locate finds the node and index of id, deleted or not; ok is false when
// no entry has it.
func (s *Stream) locate(id ID) (ni, ei int, ok bool) {
	ni = sort.Search(len(s.nodes), func(i int) bool { return s.nodes[i].master.Cmp(id) > 0 }) - 1
	if ni < 0 {
		return 0, 0, false
	}
	n := s.nodes[ni]
	ei = sort.Search(len(n.entries), func(i int) bool { return n.entries[i].id.Cmp(id) >= 0 })
	return ni, ei, ei < len(n.entries) && n.entries[ei].id == id
}

// Exists reports whether a live entry has id.
func (s *Stream) Exists(id ID) bool {
	ni, ei, ok := s.locate(id)
	return ok && !s.nodes[ni].entries[ei].deleted
}

// Get is the live entry with id.
func (s *Stream) Get(id ID) (Entry, bool) {
	ni, ei, ok := s.locate(id)
	if !ok || s.nodes[ni].entries[ei].deleted {
		return Entry{}, false
	}
	e := s.nodes[ni].entries[ei]
	return Entry{e.id, e.fields}, true
}

// remove flags one live entry deleted, and drops its node when it held the
// node's last live entry, as Redis's XDEL does.
func (s *Stream) remove(id ID) bool {
	ni, ei, ok := s.locate(id)
	if !ok || s.nodes[ni].entries[ei].deleted {
		return false
	}
	n := s.nodes[ni]
	if n.live == 1 {
		s.nodes = append(s.nodes[:ni], s.nodes[ni+1:]...)
	} else {
		n.entries[ei].deleted = true
		n.live--
		n.dead++
	}
	s.length--
	return true
}

// Range calls f with the live entries from start to end, both included,
// in order or reversed, until f answers false.
func (s *Stream) Range(start, end ID, rev bool, f func(Entry) bool) {
	if start.Cmp(end) > 0 {
		return
	}
	if !rev {
		ni := sort.Search(len(s.nodes), func(i int) bool { return s.nodes[i].master.Cmp(start) > 0 }) - 1
		if ni < 0 {
			ni = 0
		}
		for ; ni < len(s.nodes); ni++ {
			n := s.nodes[ni]
			for _, e := range n.entries {
				if e.deleted || e.id.Cmp(start) < 0 {
					continue
				}
				if e.id.Cmp(end) > 0 || !f(Entry{e.id, e.fields}) {
					return
				}
			}
		}
		return
	}
	ni := sort.Search(len(s.nodes), func(i int) bool { return s.nodes[i].master.Cmp(end) > 0 }) - 1
	for ; ni >= 0; ni-- {
		n := s.nodes[ni]
		for j := len(n.entries) - 1; j >= 0; j-- {
			e := n.entries[j]
			if e.deleted || e.id.Cmp(end) > 0 {
				continue
			}
			if e.id.Cmp(start) < 0 || !f(Entry{e.id, e.fields}) {
				return
			}
		}
	}
}

// edge is the first or last live entry's ID, or 0-0 in an empty stream.
func (s *Stream) edge(first bool) (ID, bool) {
	var id ID
	found := false
	if first {
		s.Range(ID{}, MaxID, false, func(e Entry) bool { id, found = e.ID, true; return false })
	} else {
		s.Range(ID{}, MaxID, true, func(e Entry) bool { id, found = e.ID, true; return false })
	}
	return id, found
}

// trim is Redis 7.0's streamTrim: by length (maxlen >= 0) or by minimum
// ID; approx removes whole nodes only, and limit (0 for none) caps the
// entries it removes. It answers how many went.
func (s *Stream) trim(maxlen int64, minid ID, byLen, approx bool, limit int64) int64 {
	var deleted int64
	for len(s.nodes) > 0 {
		if byLen && s.length <= maxlen {
			break
		}
		n := s.nodes[0]
		entries := n.live
		if limit > 0 && deleted+entries > limit {
			break
		}
		var removeNode bool
		if byLen {
			removeNode = s.length-entries >= maxlen
		} else {
			removeNode = n.entries[len(n.entries)-1].id.Cmp(minid) < 0
		}
		if removeNode {
			s.nodes = s.nodes[1:]
			s.length -= entries
			deleted += entries
			continue
		}
		if approx {
			break
		}
		for i := range n.entries {
			e := &n.entries[i]
			var stop bool
			if byLen {
				stop = s.length <= maxlen
			} else {
				stop = e.id.Cmp(minid) >= 0
			}
			if stop {
				break
			}
			if !e.deleted {
				e.deleted = true
				n.live--
				n.dead++
				s.length--
				deleted++
			}
		}
		break
	}
	if deleted > 0 {
		s.first, _ = s.edge(true)
	}
	return deleted
}

// raxNodes is how many nodes Redis's radix tree has over the node keys:
// each key is the master ID's 16 bytes, big-endian, and the tree is kept
// compressed (a run of bytes with one child is one node).
func (s *Stream) raxNodes() int64 {
	keys := make([][16]byte, len(s.nodes))
	for i, n := range s.nodes {
		for b := 0; b < 8; b++ {
			keys[i][b] = byte(n.master.Ms >> (56 - 8*b))
			keys[i][8+b] = byte(n.master.Seq >> (56 - 8*b))
		}
	}
	if len(keys) == 0 {
		return 1
	}
	return raxCount(keys, 0)
}

// raxCount counts the nodes under depth for sorted keys that share their
// first depth bytes.
func raxCount(keys [][16]byte, depth int) int64 {
	if depth == 16 {
		return 1
	}
	if len(keys) == 1 {
		return 2
	}
	first, last := keys[0], keys[len(keys)-1]
	p := depth
	for p < 16 && first[p] == last[p] {
		p++
	}
	var n int64
	if p > depth {
		n++
	}
	n++ // the branch at p
	for i := 0; i < len(keys); {
		j := i
		for j < len(keys) && keys[j][p] == keys[i][p] {
			j++
		}
		n += raxCount(keys[i:j], p+1)
		i = j
	}
	return n
}

// lastValid is the last live entry's ID, 0-0 when there is none.
func (s *Stream) lastValid() ID {
	id, _ := s.edge(false)
	return id
}

// hasTombstones is Redis's streamRangeHasTombstones from start on.
func (s *Stream) hasTombstones(start ID) bool {
	if s.length == 0 || s.maxDeleted.IsZero() {
		return false
	}
	if s.first.Cmp(s.maxDeleted) > 0 {
		return false
	}
	return start.Cmp(s.maxDeleted) <= 0
}

// invalidRead is SCG_INVALID_ENTRIES_READ: a group's count of entries read
// is not known.
const invalidRead = -1

// estimateRead is Redis's streamEstimateDistanceFromFirstEverEntry: how
// many entries were added up to id, or invalidRead.
func (s *Stream) estimateRead(id ID) int64 {
	if s.added == 0 {
		return 0
	}
	if s.length == 0 && id.Cmp(s.last) < 1 {
		return int64(s.added)
	}
	switch c := id.Cmp(s.last); {
	case c == 0:
		return int64(s.added)
	case c > 0:
		return invalidRead
	}
	if s.maxDeleted.Cmp(s.first) < 0 {
		switch c := id.Cmp(s.first); {
		case c < 0:
			return int64(s.added) - s.length
		case c == 0:
			return int64(s.added) - s.length + 1
		}
	}
	return invalidRead
}

// Clone is a deep copy, for COPY.
func (s *Stream) Clone() *Stream {
	c := *s
	c.nodes = make([]*node, len(s.nodes))
	for i, n := range s.nodes {
		nn := *n
		nn.entries = append([]entry(nil), n.entries...)
		c.nodes[i] = &nn
	}
	c.groups = make([]*Group, len(s.groups))
	for i, g := range s.groups {
		c.groups[i] = g.clone()
	}
	return &c
}
