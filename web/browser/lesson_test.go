package browser

import "testing"

// TestOfflineLesson opens static/lesson.html from disk, as a learner who
// downloaded it does, in a tab with no network at all: any request but the
// file itself fails the test. The engine inside the file starts, and the
// round trip enqueues and claims, with the same verdicts and keys as the
// served page.
func TestOfflineLesson(t *testing.T) {
	tb := openOffline(t)
	r := tb.in("#roundtrip")
	r.fill("Job id", "JOB-1")
	r.fill("Payload", `{"offline":true}`)
	r.clickShows("Enqueue", enqueueResult, "{:ok, :enqueued}")
	r.wantRows(pendingKey, [][]string{{"JOB-1", "0"}})
	r.fill("Lease (ms)", "30000")
	r.clickShows("Claim", claimResult, `{:ok, {"JOB-1", "{\"offline\":true}", 1}}`)
	r.wantRows(activeKey, [][]string{{"JOB-1", deadline, "in 30 s"}})
	r.wantRows(rowsKey, [][]string{{"JOB-1", "active", "1", `{"offline":true}`}})

	// The other widgets run too: the stepper records a real trace.
	s := tb.in("#stepper")
	s.clickShows("Step", stepPosition, "Move 1 of 4")
	tb.whole().wantNoText("footer", "embed/")
	tb.whole().screenshot("lesson-offline")
}
