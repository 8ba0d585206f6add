package api

import (
	"fmt"
	"runtime"
	"strconv"
	"testing"
)

// heapInUse is the Go heap's live bytes after a full collection.
func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// TestRoundTripsLevelOff: a worker's round trip (enqueue, claim, and the
// ack that deletes the row and takes the id out of the active set) keeps
// the queue at 0 to 1 jobs, and memory must level off with it: the second
// 30,000 round trips may not grow the live heap by 1 MiB. Each used to
// leave 116 B behind natively, miniredis's version of the row's key and the
// row's field order, for every job ever made.
//
// Without the ack every claimed job stays in the active set, as in Redis,
// which keeps each in 269 B (redis-server 7.0.15: 26.9 MB for 100,000);
// that memory is the learner's data, not a leak.
func TestRoundTripsLevelOff(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 60,000 round trips")
	}
	const n, bound = 30_000, 1 << 20
	p := New()
	trip := func(i int) {
		id := "JOB-" + strconv.Itoa(i)
		p.Call("enqueue", []any{"q", id, "payload"})
		p.Call("claim", []any{"q", float64(30000)})
		for _, cmd := range [][]any{{"DEL", "emq:{q}:job:" + id}, {"ZREM", "emq:{q}:active", id}} {
			if r := fmt.Sprintf("%s", p.Call("exec", []any{cmd})); r != `{"type":"int","value":"1"}` {
				t.Fatalf("%v: %s", cmd, r)
			}
		}
	}
	for i := range n {
		trip(i)
	}
	first := heapInUse()
	for i := n; i < 2*n; i++ {
		trip(i)
	}
	grown := heapInUse() - first
	t.Logf("round trips %d to %d grew the live heap by %d B (%.1f B each)", n, 2*n, grown, float64(grown)/n)
	if grown >= bound {
		t.Errorf("round trips %d to %d, the queue at 0 to 1 jobs, grew the live heap by %d B, want under %d", n, 2*n, grown, bound)
	}
	runtime.KeepAlive(p)
}
