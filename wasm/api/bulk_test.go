package api

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func ids(list any) []string {
	var out []string
	for _, x := range list.([]any) {
		out = append(out, x.(map[string]any)["id"].(string))
	}
	return out
}

func TestEnqueueManyNumbersAfterTheLastID(t *testing.T) {
	p := New()
	call(t, p, "enqueue", "q", "JOB-7", "{}")
	got := call(t, p, "enqueueMany", "q", 5.0, `{"bulk":true}`)
	if got["first"] != "JOB-000008" || got["last"] != "JOB-000012" || got["enqueued"] != 5.0 || got["duplicate"] != 0.0 {
		t.Fatalf("enqueueMany(q, 5) = %v, want JOB-000008 to JOB-000012, 5 enqueued", got)
	}
	if ms, ok := got["ms"].(float64); !ok || ms < 0 {
		t.Errorf("ms = %v, want a number of milliseconds", got["ms"])
	}
	// Every score is 0, so the pending set is in byte order, which for the
	// ids the page mints is the order they were minted in; the JOB-7 a
	// learner typed sorts after them.
	snap := call(t, p, "snapshot", "q", 2.0)
	if want := []string{"JOB-000008", "JOB-000009", "JOB-000012", "JOB-7"}; !reflect.DeepEqual(ids(snap["pending"]), want) {
		t.Errorf("pending = %v, want %v", ids(snap["pending"]), want)
	}
	if want := map[string]any{"at": 2.0, "count": 2.0}; !reflect.DeepEqual(snap["gaps"].(map[string]any)["pending"], want) {
		t.Errorf("gaps = %v, want pending %v", snap["gaps"], want)
	}
	if want := map[string]any{"pending": 6.0, "active": 0.0, "rows": 6.0}; !reflect.DeepEqual(snap["counts"], want) {
		t.Errorf("counts = %v, want %v", snap["counts"], want)
	}
	if snap["fresh"] != "JOB-000013" {
		t.Errorf("fresh = %v, want JOB-000013", snap["fresh"])
	}
	row := snap["rows"].([]any)[0].(map[string]any)
	if row["id"] != "JOB-000008" || row["payload"] != `{"bulk":true}` || row["state"] != "pending" {
		t.Errorf("first row = %v", row)
	}
}

func TestClaimManyStopsWhenTheQueueIsEmpty(t *testing.T) {
	p := New()
	call(t, p, "enqueueMany", "q", 6.0, "{}")
	got := call(t, p, "claimMany", "q", 30000.0, 4.0)
	if got["claimed"] != 4.0 || got["empty"] != false || got["first"] != "JOB-000001" || got["last"] != "JOB-000004" {
		t.Fatalf("claimMany(q, 4) = %v, want JOB-000001 to JOB-000004 and not empty", got)
	}
	got = call(t, p, "claimMany", "q", 30000.0, 100.0)
	if got["claimed"] != 2.0 || got["empty"] != true || got["paused"] != false || got["last"] != "JOB-000006" {
		t.Fatalf("claimMany(q, 100) = %v, want 2 claimed, then empty", got)
	}
	snap := call(t, p, "snapshot", "q", 25.0)
	if n := len(snap["pending"].([]any)); n != 0 {
		t.Errorf("pending has %d ids after claiming all", n)
	}
	if c := snap["counts"].(map[string]any); c["active"] != 6.0 {
		t.Errorf("counts = %v, want 6 active", c)
	}
	if got := call(t, p, "claimMany", "q", 30000.0, 100.0); got["claimed"] != 0.0 || got["empty"] != true {
		t.Errorf("claimMany of an empty queue = %v", got)
	}
}

func TestClaimManyOfAPausedQueueClaimsNothing(t *testing.T) {
	p := New()
	call(t, p, "enqueueMany", "q", 3.0, "{}")
	call(t, p, "pause", "q")
	got := call(t, p, "claimMany", "q", 30000.0, 10.0)
	if got["claimed"] != 0.0 || got["paused"] != true {
		t.Fatalf("claimMany of a paused queue = %v, want 0 claimed, paused", got)
	}
}

func TestClaimManyWithABadLeaseIsRefusedAndPopsNothing(t *testing.T) {
	p := New()
	call(t, p, "enqueueMany", "q", 3.0, "{}")
	// Each claim is claim/3's, so a lease that fails its guard is refused
	// before anything is sent.
	got := call(t, p, "claimMany", "q", "soon", 10.0)
	if got["error"] != "guard" || got["function"] != "EchoMQ.Jobs.claim/3" {
		t.Fatalf("claimMany with lease \"soon\" = %v, want {error: guard}", got)
	}
	got = call(t, p, "claimMany", "q", "1234567890123456", 10.0)
	if got["error"] != "lease" {
		t.Fatalf("claimMany with a 16-digit lease = %v, want @claim's {error: lease}", got)
	}
	if c := call(t, p, "snapshot", "q", 25.0)["counts"].(map[string]any); c["pending"] != 3.0 {
		t.Errorf("counts after a refused claimMany = %v, want 3 pending", c)
	}
}

func TestBulkArgumentsAreChecked(t *testing.T) {
	p := New()
	for _, tc := range []struct {
		method string
		args   []any
		want   string
	}{
		{"enqueueMany", []any{"q", 0.0, "{}"}, "count must be a whole number from 1 to 10000, got 0"},
		{"enqueueMany", []any{"q", 1.5, "{}"}, "got 1.5"},
		{"enqueueMany", []any{"q", 10001.0, "{}"}, "got 10001"},
		{"enqueueMany", []any{"q", "5", "{}"}, "got a string"},
		{"enqueueMany", []any{"q", 5.0}, "takes 3 arguments"},
		{"claimMany", []any{"q", 30000.0}, "takes 3 arguments"},
		{"claimMany", []any{"q", 30000.0, -1.0}, "max must be a whole number"},
		{"snapshot", []any{"q", 0.0}, "limit must be a whole number"},
	} {
		got := call(t, p, tc.method, tc.args...)
		if got["error"] != "args" || !strings.Contains(got["message"].(string), tc.want) {
			t.Errorf("%s%v = %v, want {error: args} with %q", tc.method, tc.args, got, tc.want)
		}
	}
	if got := call(t, p, "enqueueMany", "{q}", 5.0, "{}"); got["error"] != "queue" {
		t.Errorf("enqueueMany on queue {q} = %v, want {error: queue}", got)
	}
	if got := call(t, p, "snapshot", "q", 25.0)["counts"].(map[string]any); got["rows"] != 0.0 {
		t.Errorf("the refused calls wrote rows: %v", got)
	}
}

// TestFreshIDAtDepth: past emq.ListKeys keys the fresh id is not found by
// listing the rows but from the last id minted, and still follows the
// keyspace when a learner deletes that row.
func TestFreshIDAtDepth(t *testing.T) {
	p := New()
	n := 2100
	// In chunks that stay inside the script budget under wasm too.
	for first := 1; first <= n; first += 300 {
		r := call(t, p, "exec", []any{"EVAL", `for n = tonumber(ARGV[1]), tonumber(ARGV[2]) do
  redis.call('HSET', KEYS[1] .. 'JOB-' .. n, 'state', 'pending', 'attempts', '0', 'payload', '{}')
  redis.call('ZADD', KEYS[2], 0, 'JOB-' .. n)
end`, "2", "emq:{q}:job:", "emq:{q}:pending", strconv.Itoa(first), strconv.Itoa(min(first+299, n))})
		if r["type"] == "error" {
			t.Fatalf("filling the queue: %v", r)
		}
	}
	if got := call(t, p, "snapshot", "q", 25.0); got["fresh"] != "JOB-002101" || got["rowsOfSets"] != true {
		t.Fatalf("snapshot: fresh %v, rowsOfSets %v; want JOB-002101, true", got["fresh"], got["rowsOfSets"])
	}
	if got := call(t, p, "enqueueMany", "q", 3.0, "{}"); got["first"] != "JOB-002101" || got["last"] != "JOB-002103" {
		t.Fatalf("enqueueMany = %v", got)
	}
	if got := call(t, p, "snapshot", "q", 25.0); got["fresh"] != "JOB-002104" {
		t.Errorf("fresh after enqueueMany = %v, want JOB-002104", got["fresh"])
	}
	// (The id leaves the pending set too: the set's first entries are
	// shown, and a shown id is never minted again.)
	call(t, p, "exec", []any{"DEL", "emq:{q}:job:JOB-002103"})
	call(t, p, "exec", []any{"ZREM", "emq:{q}:pending", "JOB-002103"})
	if got := call(t, p, "snapshot", "q", 25.0); got["fresh"] != "JOB-002103" {
		t.Errorf("fresh after the last row was deleted = %v, want JOB-002103", got["fresh"])
	}
	call(t, p, "reset")
	if got := call(t, p, "snapshot", "q", 25.0); got["fresh"] != "JOB-000001" {
		t.Errorf("fresh after reset = %v, want JOB-000001", got["fresh"])
	}
}

// TestMintedIDsSortInMintOrder: the lesson says the pending set's byte
// order is mint order. Eleven ids minted one by one and in bulk come out
// of the set, and out of @claim, in the order they were minted: JOB-10 is
// not claimed before JOB-2.
func TestMintedIDsSortInMintOrder(t *testing.T) {
	p := New()
	var minted []string
	for i := 0; i < 4; i++ {
		id := call(t, p, "snapshot", "q", 25.0)["fresh"].(string)
		call(t, p, "enqueue", "q", id, "{}")
		minted = append(minted, id)
	}
	got := call(t, p, "enqueueMany", "q", 7.0, "{}")
	for n := 5; n <= 11; n++ {
		minted = append(minted, jobID(n))
	}
	if got["first"] != minted[4] || got["last"] != minted[10] {
		t.Fatalf("enqueueMany = %v, want %s to %s", got, minted[4], minted[10])
	}
	if !reflect.DeepEqual(ids(call(t, p, "snapshot", "q", 25.0)["pending"]), minted) {
		t.Errorf("pending = %v, want the mint order %v", ids(call(t, p, "snapshot", "q", 25.0)["pending"]), minted)
	}
	for i, want := range minted {
		c := call(t, p, "claimMany", "q", 30000.0, 1.0)
		if c["first"] != want {
			t.Fatalf("claim %d took %v, want %s", i+1, c["first"], want)
		}
	}
	if r := call(t, p, "enqueueMany", "q", 10.0, "{}"); r["error"] != nil {
		t.Fatalf("enqueueMany refused: %v", r)
	}
	// Past the width the order would break: the engine says so instead.
	call(t, p, "enqueue", "q", jobID(MaxMinted-2), "{}")
	if r := call(t, p, "enqueueMany", "q", 5.0, "{}"); r["error"] != "args" || !strings.Contains(r["message"].(string), "no longer sort") {
		t.Errorf("enqueueMany past JOB-999999 = %v, want a refusal that says why", r)
	}
}
