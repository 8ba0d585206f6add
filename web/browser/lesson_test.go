package browser

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"
)

// TestOfflineLesson opens static/lesson.html from disk, as a learner who
// downloaded it does, in a tab with no network at all: any request but the
// file itself fails the test. The engine inside the file starts, and the
// round trip enqueues and claims, with the same verdicts and keys as the
// served page.
func TestOfflineLesson(t *testing.T) {
	src := filepath.Join(harness.static, "lesson.html")
	if _, err := os.Stat(src); err != nil {
		t.Fatalf("the build wrote no lesson.html: %v", err)
	}
	// A copy alone in its own directory: nothing next to it to lean on.
	dir := t.TempDir()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lesson := filepath.Join(dir, "lesson.html")
	if err := os.WriteFile(lesson, data, 0o644); err != nil {
		t.Fatal(err)
	}
	fileURL := (&url.URL{Scheme: "file", Path: lesson}).String()

	tb := newTab(t).allowFile(fileURL)
	tb.offline()
	tb.openURL(fileURL)
	ready(tb)

	r := tb.in("#roundtrip")
	r.fill("Job id", "JOB-1")
	r.fill("Payload", `{"offline":true}`)
	r.click("Enqueue")
	r.wantText(enqueueResult, "{:ok, :enqueued}")
	r.wantRows(pendingKey, [][]string{{"JOB-1", "0"}})
	r.fill("Lease (ms)", "30000")
	r.click("Claim")
	r.wantText(claimResult, `{:ok, {"JOB-1", "{\"offline\":true}", 1}}`)
	r.wantRows(activeKey, [][]string{{"JOB-1", deadline, "in 30 s"}})
	r.wantRows(rowsKey, [][]string{{"JOB-1", "active", "1", `{"offline":true}`}})

	// The other widgets run too: the stepper records a real trace.
	s := tb.in("#stepper")
	s.click("Step")
	s.wantText(stepPosition, "Move 1 of 4")
	tb.whole().wantNoText("footer", "embed/")
	tb.whole().screenshot("lesson-offline")
}
