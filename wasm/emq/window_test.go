package emq_test

import (
	"fmt"
	"reflect"
	"strconv"
	"testing"

	"echomq.dev/playground/wasm/emq"
)

// fill enqueues JOB-first..JOB-last through @enqueue, zero-padded so that
// byte order (the pending set's order at score 0) is the order they came.
func fill(t *testing.T, j *emq.Jobs, queue string, first, last int) {
	t.Helper()
	for n := first; n <= last; n++ {
		enqueue(t, j, queue, jobID(n), "p"+strconv.Itoa(n))
	}
}

func jobID(n int) string { return fmt.Sprintf("JOB-%05d", n) }

func pendingIDs(s emq.Snapshot) []string {
	var out []string
	for _, p := range s.Pending {
		out = append(out, p.ID)
	}
	return out
}

func rowIDs(s emq.Snapshot) []string {
	var out []string
	for _, r := range s.Rows {
		out = append(out, r.ID)
	}
	return out
}

func ids(ns ...int) []string {
	var out []string
	for _, n := range ns {
		out = append(out, jobID(n))
	}
	return out
}

// TestWindowShowsTheEndsAndCountsTheRest: a bounded snapshot of a queue
// longer than twice the limit holds the first and last ids of each list,
// and says how many it left out and where, on the engine as on Redis.
func TestWindowShowsTheEndsAndCountsTheRest(t *testing.T) {
	for _, srv := range servers {
		t.Run(srv.name, func(t *testing.T) {
			j := emq.NewJobs(srv.open(t))
			fill(t, j, "q", 1, 20)
			for range 8 {
				claim(t, j, "q", "5000")
			}
			got, err := j.Window("q", 3)
			if err != nil {
				t.Fatal(err)
			}
			if want := ids(9, 10, 11, 18, 19, 20); !reflect.DeepEqual(pendingIDs(got), want) {
				t.Errorf("pending = %v, want %v", pendingIDs(got), want)
			}
			if want := (emq.Gap{At: 3, Count: 6}); got.Gaps.Pending != want {
				t.Errorf("pending gap = %+v, want %+v", got.Gaps.Pending, want)
			}
			// Eight leases of one length, all taken at the same server time:
			// equal scores, so the active set is in byte order too.
			var active []string
			for _, a := range got.Active {
				active = append(active, a.ID)
			}
			if want := ids(1, 2, 3, 6, 7, 8); !reflect.DeepEqual(active, want) {
				t.Errorf("active = %v, want %v", active, want)
			}
			if want := (emq.Gap{At: 3, Count: 2}); got.Gaps.Active != want {
				t.Errorf("active gap = %+v, want %+v", got.Gaps.Active, want)
			}
			if want := ids(1, 2, 3, 18, 19, 20); !reflect.DeepEqual(rowIDs(got), want) {
				t.Errorf("rows = %v, want %v", rowIDs(got), want)
			}
			if want := (emq.Gap{At: 3, Count: 14}); got.Gaps.Rows != want {
				t.Errorf("rows gap = %+v, want %+v", got.Gaps.Rows, want)
			}
			if want := (emq.Counts{Pending: 12, Active: 8, Rows: 20}); got.Counts != want {
				t.Errorf("counts = %+v, want %+v", got.Counts, want)
			}
			if got.Rows[0] != (emq.Row{ID: jobID(1), State: "active", Attempts: "1", Payload: "p1"}) {
				t.Errorf("first row = %+v", got.Rows[0])
			}

			// Short lists come whole, with nothing left out.
			small, err := j.Window("q", 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(small.Pending) != 12 || len(small.Active) != 8 || len(small.Rows) != 20 || small.Gaps != (emq.Gaps{}) {
				t.Errorf("Window(q, 10): %d pending, %d active, %d rows, gaps %+v; want 12, 8 and 20, no gap",
					len(small.Pending), len(small.Active), len(small.Rows), small.Gaps)
			}
			whole, err := j.Snapshot("q")
			if err != nil {
				t.Fatal(err)
			}
			if len(whole.Pending) != 12 || len(whole.Rows) != 20 || whole.Gaps != (emq.Gaps{}) {
				t.Errorf("Snapshot: %d pending, %d rows, gaps %+v; want all 12 and 20, no gap", len(whole.Pending), len(whole.Rows), whole.Gaps)
			}
		})
	}
}

// TestWindowOfABigDatabaseReadsOnlyTheRowsItShows: past ListKeys keys the
// rows are not listed with KEYS; the window shows the rows of the ids it
// shows, and counts one row per id in pending or active.
func TestWindowOfABigDatabaseReadsOnlyTheRowsItShows(t *testing.T) {
	for _, srv := range servers {
		t.Run(srv.name, func(t *testing.T) {
			conn := srv.open(t)
			j := emq.NewJobs(conn)
			n := emq.ListKeys + 10
			// A Lua loop writes what @enqueue writes, far faster than
			// n script calls; in chunks that stay inside the script budget
			// under wasm too.
			for first := 1; first <= n; first += 200 {
				r := mustDo(t, conn, "EVAL", `for n = tonumber(ARGV[1]), tonumber(ARGV[2]) do
  local id = string.format('JOB-%05d', n)
  redis.call('HSET', KEYS[1] .. id, 'state', 'pending', 'attempts', '0', 'payload', 'p' .. n)
  redis.call('ZADD', KEYS[2], 0, id)
end`, "2", "emq:{q}:job:", "emq:{q}:pending", strconv.Itoa(first), strconv.Itoa(min(first+199, n)))
				if r.IsError() {
					t.Fatalf("filling the queue: %v", r)
				}
			}
			claim(t, j, "q", "5000")
			claim(t, j, "q", "5000")
			got, err := j.Window("q", 2)
			if err != nil {
				t.Fatal(err)
			}
			if !got.RowsOfSets {
				t.Fatalf("RowsOfSets is false with %d keys", n+2)
			}
			// Active JOB-00001 and 00002, pending 00003, 00004 … n-1, n.
			if want := ids(1, 2, 3, 4, n-1, n); !reflect.DeepEqual(rowIDs(got), want) {
				t.Errorf("rows = %v, want %v", rowIDs(got), want)
			}
			if want := (emq.Gap{At: 4, Count: n - 6}); got.Gaps.Rows != want {
				t.Errorf("rows gap = %+v, want %+v", got.Gaps.Rows, want)
			}
			if want := (emq.Counts{Pending: n - 2, Active: 2, Rows: n}); got.Counts != want {
				t.Errorf("counts = %+v, want %+v", got.Counts, want)
			}
		})
	}
}
