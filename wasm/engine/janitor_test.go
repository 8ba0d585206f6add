package engine

import (
	"runtime"
	"strconv"
	"testing"
)

// heapInUse is the Go heap's live bytes after a full collection: what the
// engine holds on to, whatever garbage the last commands left.
func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// leveledOff runs cycle n times, twice, and fails when the second n grew
// the live heap by bound bytes or more: memory that levels off, not memory
// that grows with every key ever made. Each cycle leaves the keyspace as it
// found it.
func leveledOff(t *testing.T, what string, n int, bound int64, cycle func(i int)) {
	t.Helper()
	for i := range n {
		cycle(i)
	}
	first := heapInUse()
	for i := n; i < 2*n; i++ {
		cycle(i)
	}
	grown := heapInUse() - first
	t.Logf("%s: %d more cycles grew the heap by %d B (%.1f B a cycle)", what, n, grown, float64(grown)/float64(n))
	if grown >= bound {
		t.Errorf("%s: cycles %d to %d grew the live heap by %d B, want under %d: something is kept for every key made and deleted", what, n, 2*n, grown, bound)
	}
}

// TestKeysMadeAndDeletedLeaveNoMemory: a key made and deleted leaves
// nothing behind, of any type. miniredis kept a version for every key
// ever written (72 B a key) and the engine a field order for every hash
// (102 B with the version) and an index entry, holding the old map, for
// every sorted set.
func TestKeysMadeAndDeletedLeaveNoMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("makes 600,000 keys")
	}
	const n, bound = 100_000, 1 << 20
	e := MustNew()
	for _, c := range []struct {
		desc string
		make []string
	}{
		{"string", []string{"SET", "", "v"}},
		{"hash", []string{"HSET", "", "state", "pending", "attempts", "0"}},
		{"sorted set", []string{"ZADD", "", "1", "a", "2", "b"}},
	} {
		leveledOff(t, c.desc, n, bound, func(i int) {
			key := c.desc + ":" + strconv.Itoa(i)
			args := append([]string{c.make[0], key}, c.make[2:]...)
			if c.desc == "sorted set" {
				e.exec("ZRANGE", key, "0", "-1") // builds the index entry
			}
			if r := e.exec(args...); r.IsError() {
				t.Fatalf("%q: %s", args, r)
			}
			if r := e.exec("DEL", key); r.Int != 1 {
				t.Fatalf("DEL %s: %s", key, r)
			}
		})
	}
	do(t, e, "(integer) 0", "DBSIZE")
}

// TestFlushallGivesTheMemoryBack: FLUSHALL and FLUSHDB leave nothing of the
// keys they emptied, miniredis's versions included, at once.
func TestFlushallGivesTheMemoryBack(t *testing.T) {
	const n, bound = 100_000, 1 << 20
	e := MustNew()
	for round, flush := range [][]string{{"FLUSHALL"}, {"FLUSHDB"}, {"FLUSHALL", "ASYNC"}} {
		before := heapInUse()
		for i := range n {
			k := strconv.Itoa(round) + ":" + strconv.Itoa(i)
			e.exec("HSET", k, "f", "v")
		}
		do(t, e, "OK", flush...)
		grown := heapInUse() - before
		t.Logf("%d hashes made and flushed with %q: %d B", n, flush, grown)
		if grown >= bound {
			t.Errorf("%d hashes made and flushed with %q left %d B in the live heap, want under %d", n, flush, grown, bound)
		}
	}
}

// TestJanitorKeepsWhatLiveKeysNeed: a sweep drops only what belongs to keys
// that are gone. A hash that is there keeps its field order, a sorted set
// its encoding, and a hash deleted and made again starts a new order,
// swept or not.
func TestJanitorKeepsWhatLiveKeysNeed(t *testing.T) {
	e := MustNew()
	do(t, e, "(integer) 3", "HSET", "row", "state", "pending", "attempts", "0", "payload", "p")
	do(t, e, "(integer) 1", "HSET", "gone", "z", "1")
	do(t, e, "(integer) 1", "DEL", "gone")
	for i := range 130 {
		e.exec("ZADD", "big", strconv.Itoa(i), "m"+strconv.Itoa(i))
	}
	do(t, e, "(integer) 128", "ZREMRANGEBYRANK", "big", "0", "127") // 2 left, still a skiplist
	for i := range 3 * janitorSlack {
		k := "tmp" + strconv.Itoa(i)
		e.exec("HSET", k, "f", "v")
		e.exec("ZADD", "z"+k, "1", "m")
		e.exec("DEL", k, "z"+k)
	}
	e.mu.Lock()
	e.sweep(true)
	orders, zsets := len(e.hashOrder[0]), len(e.zsets)
	l, err := miniredisLayout()
	if err != nil {
		t.Fatal(err)
	}
	versions := len(*l.versions(e.db(0)))
	e.mu.Unlock()
	if orders != 1 || zsets != 1 || versions != 2 {
		t.Errorf("after a sweep: %d hash orders, %d sorted-set entries, %d key versions; want 1, 1 and 2 (row and big)", orders, zsets, versions)
	}
	do(t, e, "1) \"state\"\n2) \"pending\"\n3) \"attempts\"\n4) \"0\"\n5) \"payload\"\n6) \"p\"", "HGETALL", "row")
	do(t, e, "\"skiplist\"", "OBJECT", "ENCODING", "big")
	do(t, e, "(integer) 1", "HSET", "gone", "a", "1")
	do(t, e, "1) \"a\"", "HKEYS", "gone")
}
