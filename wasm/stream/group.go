package stream

import "sort"

// Group is a consumer group: where it has read to, how many entries that
// is (entries-read, invalidRead when unknown), its pending entries list
// (PEL) and its consumers, both kept in Redis's order (by ID, by name).
type Group struct {
	Name      string
	last      ID
	read      int64
	pel       []*nack
	consumers []*Consumer
}

// nack is one pending entry: delivered and not yet acknowledged.
type nack struct {
	id        ID
	consumer  *Consumer
	delivered int64 // Unix ms of the last delivery
	count     int64 // deliveries
}

// Consumer is one consumer of a group, with its own PEL.
type Consumer struct {
	Name string
	seen int64 // Unix ms it was last seen
	pel  []*nack
}

func (g *Group) clone() *Group {
	c := *g
	byName := map[*Consumer]*Consumer{}
	c.consumers = make([]*Consumer, len(g.consumers))
	for i, k := range g.consumers {
		nk := &Consumer{Name: k.Name, seen: k.seen}
		byName[k] = nk
		c.consumers[i] = nk
	}
	c.pel = make([]*nack, len(g.pel))
	for i, n := range g.pel {
		nn := *n
		nn.consumer = byName[n.consumer]
		c.pel[i] = &nn
		nn.consumer.pel = append(nn.consumer.pel, &nn)
	}
	return &c
}

// group is the group named name, or nil.
func (s *Stream) group(name string) *Group {
	i := sort.Search(len(s.groups), func(i int) bool { return s.groups[i].Name >= name })
	if i < len(s.groups) && s.groups[i].Name == name {
		return s.groups[i]
	}
	return nil
}

// addGroup makes a group; false when the name is taken.
func (s *Stream) addGroup(name string, last ID, read int64) bool {
	i := sort.Search(len(s.groups), func(i int) bool { return s.groups[i].Name >= name })
	if i < len(s.groups) && s.groups[i].Name == name {
		return false
	}
	s.groups = append(s.groups, nil)
	copy(s.groups[i+1:], s.groups[i:])
	s.groups[i] = &Group{Name: name, last: last, read: read}
	return true
}

func (s *Stream) dropGroup(name string) bool {
	i := sort.Search(len(s.groups), func(i int) bool { return s.groups[i].Name >= name })
	if i < len(s.groups) && s.groups[i].Name == name {
		s.groups = append(s.groups[:i], s.groups[i+1:]...)
		return true
	}
	return false
}

// consumer is the consumer named name, or nil; a consumer found is seen
// now, unless refresh is false.
func (g *Group) consumer(name string, now int64, refresh bool) *Consumer {
	i := sort.Search(len(g.consumers), func(i int) bool { return g.consumers[i].Name >= name })
	if i < len(g.consumers) && g.consumers[i].Name == name {
		if refresh {
			g.consumers[i].seen = now
		}
		return g.consumers[i]
	}
	return nil
}

// addConsumer makes a consumer seen now; nil when it exists.
func (g *Group) addConsumer(name string, now int64) *Consumer {
	i := sort.Search(len(g.consumers), func(i int) bool { return g.consumers[i].Name >= name })
	if i < len(g.consumers) && g.consumers[i].Name == name {
		return nil
	}
	c := &Consumer{Name: name, seen: now}
	g.consumers = append(g.consumers, nil)
	copy(g.consumers[i+1:], g.consumers[i:])
	g.consumers[i] = c
	return c
}

// consumerOrNew finds a consumer (seen now) or makes it.
func (g *Group) consumerOrNew(name string, now int64) *Consumer {
	if c := g.consumer(name, now, true); c != nil {
		return c
	}
	return g.addConsumer(name, now)
}

// dropConsumer deletes a consumer and its pending entries, answering how
// many it had.
func (g *Group) dropConsumer(name string) int64 {
	i := sort.Search(len(g.consumers), func(i int) bool { return g.consumers[i].Name >= name })
	if i >= len(g.consumers) || g.consumers[i].Name != name {
		return 0
	}
	c := g.consumers[i]
	for _, n := range c.pel {
		g.pel = pelRemove(g.pel, n.id)
	}
	g.consumers = append(g.consumers[:i], g.consumers[i+1:]...)
	return int64(len(c.pel))
}

// pelFind is the index of id in a PEL, and whether it is there.
func pelFind(pel []*nack, id ID) (int, bool) {
	i := sort.Search(len(pel), func(i int) bool { return pel[i].id.Cmp(id) >= 0 })
	return i, i < len(pel) && pel[i].id == id
}

func pelInsert(pel []*nack, n *nack) []*nack {
	i, found := pelFind(pel, n.id)
	if found {
		pel[i] = n
		return pel
	}
	pel = append(pel, nil)
	copy(pel[i+1:], pel[i:])
	pel[i] = n
	return pel
}

func pelRemove(pel []*nack, id ID) []*nack {
	if i, found := pelFind(pel, id); found {
		return append(pel[:i], pel[i+1:]...)
	}
	return pel
}

// unpend removes a pending entry from the group's PEL and its consumer's.
func (g *Group) unpend(n *nack) {
	g.pel = pelRemove(g.pel, n.id)
	if n.consumer != nil {
		n.consumer.pel = pelRemove(n.consumer.pel, n.id)
	}
}

// assign gives a pending entry to c.
func (g *Group) assign(n *nack, c *Consumer) {
	if n.consumer == c {
		return
	}
	if n.consumer != nil {
		n.consumer.pel = pelRemove(n.consumer.pel, n.id)
	}
	n.consumer = c
	c.pel = pelInsert(c.pel, n)
}

// lag is XINFO's lag of g, and false where Redis answers nil.
func (s *Stream) lag(g *Group) (int64, bool) {
	if s.added == 0 {
		return 0, true
	}
	if g.read != invalidRead && !s.hasTombstones(g.last) {
		return int64(s.added) - g.read, true
	}
	if read := s.estimateRead(g.last); read != invalidRead {
		return int64(s.added) - read, true
	}
	return 0, false
}

// delivered moves g's last-delivered ID to id, keeping entries-read as
// Redis 7.0 does.
func (s *Stream) delivered(g *Group, id ID) {
	if id.Cmp(g.last) <= 0 {
		return
	}
	if g.read != invalidRead && !s.hasTombstones(id) {
		g.read++
	} else if s.added != 0 {
		g.read = s.estimateRead(id)
	}
	g.last = id
}
