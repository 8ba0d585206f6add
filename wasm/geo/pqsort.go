package geo

// partialSort puts v[lo..hi] in the places a full sort by cmp would give
// them, as Redis's pqsort does for a search with COUNT: the quicksort of
// NetBSD's qsort (median of three, or of nine past 40 elements; equal
// elements gathered at both ends then swapped to the middle; insertion
// sort below 7), which leaves alone a part that holds none of lo..hi.
// Where distances tie, the order it leaves them in is the one Redis
// answers, and no stable sort gives it; so it is written out move for
// move.
func partialSort(v []match, cmp func(a, b *match) int, lo, hi int) {
	swap := func(i, j int) { v[i], v[j] = v[j], v[i] }
	vecswap := func(i, j, n int) {
		for k := range n {
			swap(i+k, j+k)
		}
	}
	med3 := func(a, b, c int) int {
		if cmp(&v[a], &v[b]) < 0 {
			switch {
			case cmp(&v[b], &v[c]) < 0:
				return b
			case cmp(&v[a], &v[c]) < 0:
				return c
			}
			return a
		}
		switch {
		case cmp(&v[b], &v[c]) > 0:
			return b
		case cmp(&v[a], &v[c]) < 0:
			return a
		}
		return c
	}
	// wanted reports whether the n elements from a hold any of lo..hi.
	wanted := func(a, n int) bool {
		return !(lo < a && hi < a || lo >= a+n && hi >= a+n)
	}
	var sort func(a, n int)
	sort = func(a, n int) {
		for {
			if n < 7 {
				for m := a + 1; m < a+n; m++ {
					for l := m; l > a && cmp(&v[l-1], &v[l]) > 0; l-- {
						swap(l, l-1)
					}
				}
				return
			}
			m := a + n/2
			if n > 7 {
				l, r := a, a+n-1
				if n > 40 {
					d := n / 8
					l = med3(l, l+d, l+2*d)
					m = med3(m-d, m, m+d)
					r = med3(r-2*d, r-d, r)
				}
				m = med3(l, m, r)
			}
			swap(a, m)
			pa, pb := a+1, a+1
			pc, pd := a+n-1, a+n-1
			for {
				for pb <= pc {
					c := cmp(&v[pb], &v[a])
					if c > 0 {
						break
					}
					if c == 0 {
						swap(pa, pb)
						pa++
					}
					pb++
				}
				for pb <= pc {
					c := cmp(&v[pc], &v[a])
					if c < 0 {
						break
					}
					if c == 0 {
						swap(pc, pd)
						pd--
					}
					pc--
				}
				if pb > pc {
					break
				}
				swap(pb, pc)
				pb++
				pc--
			}
			end := a + n
			k := min(pa-a, pb-pa)
			vecswap(a, pb-k, k)
			k = min(pd-pc, end-pd-1)
			vecswap(pb, end-k, k)
			if k = pb - pa; k > 1 && wanted(a, k) {
				sort(a, k)
			}
			if k = pd - pc; k <= 1 {
				return
			}
			a, n = end-k, k
			if !wanted(a, n) {
				return
			}
		}
	}
	sort(0, len(v))
}
