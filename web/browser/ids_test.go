package browser

import (
	"fmt"
	"testing"
)

// TestMintedIDsKeepMintOrder: the lesson says the pending set's byte order
// is mint order. A learner who presses Enqueue eleven times, taking the id
// the field suggests each time, then claims three, gets the first three
// ids minted, not JOB-1, JOB-10 and JOB-11; and "Claim all" names the
// first and the last id minted. An old link with the ids of before
// (JOB-1 … JOB-11) still opens, with those ids as they were written.
func TestMintedIDsKeepMintOrder(t *testing.T) {
	tb := openReady(t, "/")
	r := tb.in("#roundtrip")
	for n := 1; n <= 11; n++ {
		if got := r.value("Job id"); got != minted(n) {
			t.Fatalf("before enqueue %d the Job id field suggests %q; want %s", n, got, minted(n))
		}
		r.clickShows("Enqueue", enqueueResult, "{:ok, :enqueued}")
		r.wantText(newestWireCall, "enqueue "+minted(n))
	}
	var pending [][]string
	for n := 1; n <= 11; n++ {
		pending = append(pending, []string{minted(n), "0"})
	}
	r.wantRows(pendingKey, pending)
	for n := 1; n <= 3; n++ {
		r.clickShows("Claim", claimResult, fmt.Sprintf(`{:ok, {"%s"`, minted(n)))
	}
	r.clickShows("Enqueue 1,000", bulkResult, "JOB-000012 … JOB-001011: 1,000 enqueues in ")
	r.clickShows("Claim all", bulkResult, "JOB-000004 … JOB-001011: 1,008 claims in ")

	old := linkFragment(t, map[string]any{"v": 1, "widget": "roundtrip", "ops": [][]any{
		{"enqueue", "q", "JOB-1", "{}"}, {"enqueue", "q", "JOB-2", "{}"}, {"enqueue", "q", "JOB-10", "{}"},
	}, "views": map[string]any{}})
	o := newTab(t)
	o.open("/" + old)
	ready(o)
	o.whole().wantNoText("#notice", "could not")
	ro := o.in("#roundtrip")
	ro.wantRows(pendingKey, [][]string{{"JOB-1", "0"}, {"JOB-10", "0"}, {"JOB-2", "0"}})
	// The next id minted goes on from the highest, in the new spelling.
	if got := ro.value("Job id"); got != "JOB-000011" {
		t.Errorf("after the old link the Job id field suggests %q; want JOB-000011", got)
	}
}
