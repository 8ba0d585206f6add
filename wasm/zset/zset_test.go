package zset

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// model is the obvious sorted set: a map, sorted on demand.
type model map[string]float64

func (m model) sorted() []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b string) int {
		switch {
		case m[a] < m[b]:
			return -1
		case m[a] > m[b]:
			return 1
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	})
	return out
}

// TestSetAgreesWithSortingAMap adds, moves and removes members at random and
// checks order, ranks, At and the range searches against the sorted map,
// and that Find finds a member at its score and at no other. The model
// holds the scores, as the engine's miniredis map does.
func TestSetAgreesWithSortingAMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	s, m := New(), model{}
	for step := 0; step < 20000; step++ {
		member := "m" + strconv.Itoa(r.IntN(600))
		old, had := m[member]
		n := s.Find(member, old)
		if (n != nil) != had || n != nil && (n.Member != member || n.Score != old) {
			t.Fatalf("step %d: Find(%s, %v) = %v, want it found: %v", step, member, old, n, had)
		}
		if s.Find(member, old+0.5) != nil {
			t.Fatalf("step %d: Find(%s) found it at a score it does not have", step, member)
		}
		switch r.IntN(3) {
		case 0, 1:
			score := float64(r.IntN(50))
			if had {
				s.Rescore(n, score)
			} else {
				s.Insert(member, score)
			}
			m[member] = score
		case 2:
			if had {
				s.RemoveNode(n)
			}
			delete(m, member)
		}
		if step%97 != 0 {
			continue
		}
		want := m.sorted()
		if s.Len() != len(want) {
			t.Fatalf("step %d: Len = %d, want %d", step, s.Len(), len(want))
		}
		var fwd, back []string
		for n := s.First(); n != nil; n = n.Next() {
			fwd = append(fwd, n.Member)
		}
		for n := s.Last(); n != nil; n = n.Prev() {
			back = append(back, n.Member)
		}
		slices.Reverse(back)
		if !slices.Equal(fwd, want) || !slices.Equal(back, want) {
			t.Fatalf("step %d: order\n got %v\n back %v\nwant %v", step, fwd, back, want)
		}
		for i, k := range want {
			if rk := s.Rank(s.Find(k, m[k])); rk != i {
				t.Fatalf("step %d: Rank(%s) = %d, want %d", step, k, rk, i)
			}
			if n := s.At(i); n == nil || n.Member != k {
				t.Fatalf("step %d: At(%d) = %v, want %s", step, i, n, k)
			}
		}
		min := float64(r.IntN(50))
		first, rank := s.FirstNotBefore(func(n *Node) bool { return n.Score < min })
		wantRank := slices.IndexFunc(want, func(k string) bool { return m[k] >= min })
		if wantRank < 0 {
			if first != nil || rank != len(want) {
				t.Fatalf("step %d: FirstNotBefore(%v) = %v %d, want none", step, min, first, rank)
			}
		} else if first == nil || first.Member != want[wantRank] || rank != wantRank {
			t.Fatalf("step %d: FirstNotBefore(%v) = %v %d, want %s %d", step, min, first, rank, want[wantRank], wantRank)
		}
		last, rank := s.LastNotAfter(func(n *Node) bool { return n.Score > min })
		wantRank = -1
		for i, k := range want {
			if m[k] <= min {
				wantRank = i
			}
		}
		if wantRank < 0 && last != nil || wantRank >= 0 && (last == nil || last.Member != want[wantRank]) || rank != wantRank {
			t.Fatalf("step %d: LastNotAfter(%v) = %v %d, want rank %d", step, min, last, rank, wantRank)
		}
	}
}
