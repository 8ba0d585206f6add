// Package zset is the ordered index the engine keeps for each sorted set:
// members ordered by score, then by their bytes, as Redis orders them, with
// the rank of every member one search away.
//
// miniredis keeps a sorted set as a Go map and sorts it again for every
// ZPOPMIN, ZRANGE or ZRANK, so a queue's claim costs O(n log n) at depth n.
// The lesson promises "pop the oldest, O(log n)". This is a skiplist whose
// links carry spans (how many members each link jumps over), the structure
// Redis itself uses: finding a member, a score, a lexical bound or a rank
// costs O(log n), and walking from there costs one step per member.
//
// The set keeps no index by member name: its owner holds the scores
// (the engine has miniredis's map of them), and a member is found from its
// score by the same search that orders it. A second map of every member
// would cost a hashed write for each member added, a delete for each one
// removed, and its memory at a depth of 100,000.
package zset

// maxLevel bounds the skiplist's height: 2^32 members at p = 1/4 would
// need 16, so no set the playground can hold reaches it.
const maxLevel = 32

// Node is one member of a set. Walk a range with Next or Prev.
type Node struct {
	Member string
	Score  float64
	prev   *Node
	links  []link
	// first holds the links of a node one level high, three nodes in
	// four: the node is then one allocation, not two.
	first [1]link
}

// link is one forward pointer of a node, and how many ranks it advances.
type link struct {
	next *Node
	span int
}

// Next is the member after n in order, or nil.
func (n *Node) Next() *Node { return n.links[0].next }

// Prev is the member before n in order, or nil.
func (n *Node) Prev() *Node { return n.prev }

// Set is a sorted set. The zero value is not ready: use New.
type Set struct {
	head  Node
	tail  *Node
	level int
	n     int
	seed  uint64
}

// New returns an empty set.
func New() *Set {
	s := &Set{level: 1, seed: 0x9e3779b97f4a7c15}
	s.head.links = make([]link, maxLevel)
	return s
}

// Len is the number of members.
func (s *Set) Len() int { return s.n }

// randomLevel draws a height with P(h > k) = 4^-k, from a xorshift
// generator of the set's own: the order of members never depends on it,
// only the shape of the list.
func (s *Set) randomLevel() int {
	h := 1
	for h < maxLevel {
		s.seed ^= s.seed << 13
		s.seed ^= s.seed >> 7
		s.seed ^= s.seed << 17
		if s.seed&3 != 0 {
			break
		}
		h++
	}
	return h
}

// Find is the node of member at score, or nil when the set does not hold
// member at that score. A caller that goes on to change the member passes
// the node to Rescore or RemoveNode; one that found nil adds it with
// Insert.
func (s *Set) Find(member string, score float64) *Node {
	x := &s.head
	for i := s.level - 1; i >= 0; i-- {
		for y := x.links[i].next; y != nil && (y.Score < score || y.Score == score && y.Member < member); y = x.links[i].next {
			x = y
		}
	}
	if y := x.links[0].next; y != nil && y.Score == score && y.Member == member {
		return y
	}
	return nil
}

// Insert adds member, which is not in the set, with score.
func (s *Set) Insert(member string, score float64) {
	n := &Node{Member: member, Score: score}
	if h := s.randomLevel(); h == 1 {
		n.links = n.first[:]
	} else {
		n.links = make([]link, h)
	}
	s.link(n)
}

// Rescore moves n, a node of the set, to score.
func (s *Set) Rescore(n *Node, score float64) {
	if n.Score == score {
		n.Score = score // the same number, but it may be -0 for 0
		return
	}
	s.unlink(n)
	n.Score = score
	s.link(n)
}

// RemoveNode takes n, a node of the set, out of it.
func (s *Set) RemoveNode(n *Node) { s.unlink(n) }

// path finds, on each level, the last node before (score, member) and its
// rank (the head's is 0, the first member's 1).
func (s *Set) path(score float64, member string, last *[maxLevel]*Node, rank *[maxLevel]int) {
	x := &s.head
	for i := s.level - 1; i >= 0; i-- {
		if i < s.level-1 {
			rank[i] = rank[i+1]
		} else {
			rank[i] = 0
		}
		for y := x.links[i].next; y != nil && (y.Score < score || y.Score == score && y.Member < member); y = x.links[i].next {
			rank[i] += x.links[i].span
			x = y
		}
		last[i] = x
	}
}

// link inserts n, whose Score and Member are set, at its place.
func (s *Set) link(n *Node) {
	var last [maxLevel]*Node
	var rank [maxLevel]int
	s.path(n.Score, n.Member, &last, &rank)
	h := len(n.links)
	if h > s.level {
		for i := s.level; i < h; i++ {
			last[i], rank[i] = &s.head, 0
			s.head.links[i].span = s.n
		}
		s.level = h
	}
	for i := 0; i < h; i++ {
		n.links[i].next = last[i].links[i].next
		last[i].links[i].next = n
		n.links[i].span = last[i].links[i].span - (rank[0] - rank[i])
		last[i].links[i].span = rank[0] - rank[i] + 1
	}
	for i := h; i < s.level; i++ {
		last[i].links[i].span++
	}
	if last[0] != &s.head {
		n.prev = last[0]
	} else {
		n.prev = nil
	}
	if next := n.links[0].next; next != nil {
		next.prev = n
	} else {
		s.tail = n
	}
	s.n++
}

// unlink takes n out of the list.
func (s *Set) unlink(n *Node) {
	var last [maxLevel]*Node
	var rank [maxLevel]int
	s.path(n.Score, n.Member, &last, &rank)
	for i := 0; i < s.level; i++ {
		if last[i].links[i].next == n {
			last[i].links[i].span += n.links[i].span - 1
			last[i].links[i].next = n.links[i].next
		} else {
			last[i].links[i].span--
		}
	}
	if next := n.links[0].next; next != nil {
		next.prev = n.prev
	} else {
		s.tail = n.prev
	}
	for s.level > 1 && s.head.links[s.level-1].next == nil {
		s.level--
	}
	s.n--
	n.prev = nil
	for i := range n.links {
		n.links[i] = link{}
	}
}

// First is the lowest member, or nil.
func (s *Set) First() *Node { return s.head.links[0].next }

// Last is the highest member, or nil.
func (s *Set) Last() *Node { return s.tail }

// Rank is the 0-based rank from the lowest of n, a node of the set.
func (s *Set) Rank(n *Node) int {
	rank, x := 0, &s.head
	for i := s.level - 1; i >= 0; i-- {
		for y := x.links[i].next; y != nil && (y.Score < n.Score || y.Score == n.Score && y.Member <= n.Member); y = x.links[i].next {
			rank += x.links[i].span
			x = y
		}
		if x == n {
			return rank - 1
		}
	}
	return -1 // not reached: n is in the list
}

// At is the member of 0-based rank r from the lowest, or nil.
func (s *Set) At(r int) *Node {
	if r < 0 || r >= s.n {
		return nil
	}
	r++ // ranks in the list start at 1
	traversed, x := 0, &s.head
	for i := s.level - 1; i >= 0; i-- {
		for x.links[i].next != nil && traversed+x.links[i].span <= r {
			traversed += x.links[i].span
			x = x.links[i].next
		}
		if traversed == r {
			return x
		}
	}
	return nil
}

// FirstNotBefore is the lowest member for which below is false, and its
// 0-based rank; nil and Len() when there is none. below must hold for a
// prefix of the set's order: it says a member is below a range's start.
func (s *Set) FirstNotBefore(below func(*Node) bool) (*Node, int) {
	rank, x := 0, &s.head
	for i := s.level - 1; i >= 0; i-- {
		for y := x.links[i].next; y != nil && below(y); y = x.links[i].next {
			rank += x.links[i].span
			x = y
		}
	}
	return x.links[0].next, rank
}

// LastNotAfter is the highest member for which above is false, and its
// 0-based rank; nil and -1 when there is none. above must hold for a
// suffix of the set's order: it says a member is above a range's end.
func (s *Set) LastNotAfter(above func(*Node) bool) (*Node, int) {
	rank, x := 0, &s.head
	for i := s.level - 1; i >= 0; i-- {
		for y := x.links[i].next; y != nil && !above(y); y = x.links[i].next {
			rank += x.links[i].span
			x = y
		}
	}
	if x == &s.head {
		return nil, -1
	}
	return x, rank - 1
}
