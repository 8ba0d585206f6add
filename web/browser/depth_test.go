package browser

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

const bulkResult = "[data-testid=bulk-result]"

// drainWait bounds how long Claim all may take to empty a 10,000-deep
// queue: ten engine calls of 1,000 claims on a slow, shared machine. It is
// a bound on a wait, not a measurement; the bench measures.
const drainWait = 4 * time.Minute

// minted is the id the playground mints n-th: JOB-000001, zero-padded so
// that byte order is mint order.
func minted(n int) string { return fmt.Sprintf("JOB-%06d", n) }

// byteOrder is the first n minted ids as Redis orders them at one score:
// byte by byte, which for minted ids is the order they were minted in.
func byteOrder(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = minted(i + 1)
	}
	if !slices.IsSorted(ids) {
		panic("minted ids do not sort in mint order")
	}
	return ids
}

// ends are a table's expected rows for ids: the first and last 25, each
// row made by row.
func ends(ids []string, row func(id string) []string) [][]string {
	var out [][]string
	for _, id := range append(slices.Clone(ids[:25]), ids[len(ids)-25:]...) {
		out = append(out, row(id))
	}
	return out
}

// wantGap checks a table's "… and N more" line, and that it stands between
// the first 25 rows and the last 25.
func wantGap(t *testing.T, what string, tbl table, more string) {
	t.Helper()
	if len(tbl.Notes) != 1 {
		t.Errorf("%s: notes %q; want one line saying %q", what, tbl.Notes, more)
		return
	}
	if got := tbl.Notes[0]; len(got) < len(more) || got[:len(more)] != more {
		t.Errorf("%s: the line between the ends says %q; want it to start with %q", what, got, more)
	}
	if tbl.NotesAt[0] != 25 {
		t.Errorf("%s: the %q line comes after %d rows; want 25, between the first and the last 25", what, more, tbl.NotesAt[0])
	}
}

// TestAtDepth grows the round trip's queue to 10,000 jobs with "Enqueue
// 1,000", reads the tables as a learner does (the first and last 25 ids,
// "… and 9,950 more" between them), then drains it with "Claim all" and
// reads what it says it did and the empty pending set.
func TestAtDepth(t *testing.T) {
	tb := newLongTab(t, drainWait+2*tabTimeout)
	tb.open("/")
	ready(tb)
	r := tb.in("#roundtrip")
	r.fill("Payload", `{"bulk":1}`)
	for k := 1; k <= 10; k++ {
		r.clickShows("Enqueue 1,000", bulkResult, fmt.Sprintf("%s … %s: 1,000 enqueues in ", minted(k*1000-999), minted(k*1000)), " a second.")
	}
	ids := byteOrder(10000)
	pending := r.wantRows(pendingKey, ends(ids, func(id string) []string { return []string{id, "0"} }))
	wantGap(t, "pending", pending, "… and 9,950 more")
	// Past 1,000 keys the rows are those of the ids the sets show, which
	// at one score are the same ids, in the same order.
	rows := r.wantRows(rowsKey, ends(ids, func(id string) []string { return []string{id, "pending", "0", `{"bulk":1}`} }))
	wantGap(t, "rows", rows, "… and 9,950 more (one row per id in pending or active")
	r.wantRows(activeKey, nil)
	// The single Enqueue goes on from the last id.
	if got := r.value("Job id"); got != "JOB-010001" {
		t.Errorf("the Job id field suggests %q after 10,000 jobs; want JOB-010001", got)
	}
	r.screenshot("depth-10000")

	r.fill("Lease (ms)", "30000")
	r.click("Claim all")
	r.wantTextWithin(drainWait, bulkResult, "JOB-000001 … JOB-010000: 10,000 claims in ", " a second.")
	r.wantRows(pendingKey, nil)
	// Every lease was taken at one server time: one deadline, byte order.
	active := r.wantRows(activeKey, ends(ids, func(id string) []string { return []string{id, deadline, "in 30 s"} }))
	wantGap(t, "active", active, "… and 9,950 more")
	r.wantRows(rowsKey, ends(ids, func(id string) []string { return []string{id, "active", "1", `{"bulk":1}`} }))

	// Nothing is left: Claim all says so.
	r.clickShows("Claim all", bulkResult, "Nothing claimed: @claim found nothing pending.")
	r.screenshot("depth-drained")
}

// TestBulkPermalink: a link copied after the bulk controls holds each as
// one operation and rebuilds the same queue in a fresh tab.
func TestBulkPermalink(t *testing.T) {
	tb := openReady(t, "/")
	r := tb.in("#roundtrip")
	r.clickShows("Enqueue 1,000", bulkResult, "JOB-000001 … JOB-001000: 1,000 enqueues in ")
	r.clickShows("Enqueue 1,000", bulkResult, "JOB-001001 … JOB-002000: 1,000 enqueues in ")
	r.fill("Lease (ms)", "30000")
	r.clickShows("Claim", claimResult, `{:ok, {"JOB-000001", `)
	before := fmt.Sprintf("%q %q %q", r.table(pendingKey).Rows, r.table(activeKey).Rows, r.table(rowsKey).Rows)

	link := copyLink(r, "roundtrip")
	// Each click is one operation of the link, not 1,000: it stays a link
	// one can paste anywhere.
	if len(link) > 4096 {
		t.Errorf("the link after two bulk enqueues is %d characters long; want a short one", len(link))
	}

	fresh := newTab(t)
	fresh.openURL(link)
	ready(fresh)
	r2 := fresh.in("#roundtrip")
	pending := r2.table(pendingKey)
	after := fmt.Sprintf("%q %q %q", pending.Rows, r2.table(activeKey).Rows, r2.table(rowsKey).Rows)
	if after != before {
		t.Errorf("the tables after the link:\n%s\nwant, as before:\n%s", after, before)
	}
	wantGap(t, "pending after the link", pending, "… and 1,949 more")
	fresh.whole().wantNoText("#notice", "could not")
	if got := r2.value("Job id"); got != "JOB-002001" {
		t.Errorf("the Job id field suggests %q after the link; want JOB-002001", got)
	}
}
