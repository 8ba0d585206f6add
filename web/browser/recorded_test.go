package browser

import (
	"strings"
	"testing"
)

// openRecorded opens path with the engine's download held back, so that
// the page works from its recording until release lets the engine arrive
// (at the latest when the test ends).
func openRecorded(t *testing.T, path string) (tb *tab, release func()) {
	t.Helper()
	tb = newTab(t)
	release = tb.holdRequests(".wasm")
	t.Cleanup(release)
	tb.open(path)
	return tb, release
}

// TestStepperRecordedRun holds the engine's download back and opens the
// stepper's embed page: it says it shows a recorded run, and Step walks
// that run (the real script's moves, commands and replies) while the
// other controls wait. When the engine arrives it replays the recorded
// calls and answers each exactly as recorded (the page compares the JSON
// text); the stepper stays where it was, and Step goes on, live.
func TestStepperRecordedRun(t *testing.T) {
	tb, release := openRecorded(t, "/embed/stepper.html")
	page, s := tb.whole(), tb.in("#stepper")
	page.wantText(statusLine, "Loading (recorded run shown)")
	page.wantText("#recorded-note", "recording", "The live engine is on its way")

	s.clickShows("Step", stepPosition, "Move 1 of 4")
	s.clickShows("Step", stepPosition, "Move 2 of 4")
	before := []string{s.text(stepPosition), s.text(stepCommand), s.text(stepReply), s.text(stepOutcome)}
	if off, err := eval[bool](tb, `document.getElementById("stepper-reset").disabled`); err != nil || !off {
		t.Errorf("Reset works before the engine is there (%v); it must wait for the live engine", err)
	}

	release()
	ready(tb)
	if got, _ := eval[string](tb, `document.documentElement.dataset.recording`); !strings.HasPrefix(got, "matched ") {
		t.Fatalf("after the hand-over the page says the recording %q; want it matched the live engine's answers", got)
	}
	after := []string{s.text(stepPosition), s.text(stepCommand), s.text(stepReply), s.text(stepOutcome)}
	if strings.Join(after, "\n") != strings.Join(before, "\n") {
		t.Errorf("the stepper jumped when the engine took over:\n%q\nwant, as before:\n%q", after, before)
	}
	page.wantNoText("#notice", "otherwise")
	s.clickShows("Step", stepPosition, "Move 3 of 4")
	s.clickShows("Reset", stepPosition, "Before move 1 · not run yet")
}

// TestVerdictsRecorded holds the engine's download back and opens the
// verdicts' embed page: the three buttons give the three verdicts from the
// recording, and the engine, when it arrives, answers the same calls the
// same, byte for byte, with the widget unchanged.
func TestVerdictsRecorded(t *testing.T) {
	tb, release := openRecorded(t, "/embed/verdicts.html")
	page, v := tb.whole(), tb.in("#verdicts")
	page.wantText(statusLine, "Loading (recorded run shown)")
	v.clickShows("Enqueue a job", verdict, "{:ok, :enqueued}")
	v.clickShows("Enqueue it again", verdict, "{:ok, :duplicate}")
	v.clickShows("Try a malformed id", verdict, "{:error, :kind}")
	v.wantText(verdictReply, "EMQKIND")
	before := v.table(pendingKey).String()

	release()
	ready(tb)
	if got, _ := eval[string](tb, `document.documentElement.dataset.recording`); got != "matched 8" {
		t.Fatalf("after the hand-over the page says the recording %q; want it matched the live engine's 7 answers (the first snapshot, three enqueues and the snapshot after each) and the scripts", got)
	}
	if after := v.table(pendingKey).String(); after != before {
		t.Errorf("the pending table changed when the engine took over:\n%s\nwant:\n%s", after, before)
	}
	v.wantText(verdict, "{:error, :kind}")
	v.clickShows("Enqueue a job", verdict, "{:ok, :enqueued}")
	v.wantRows(pendingKey, [][]string{{"JOB-000001", "0"}, {"JOB-000002", "0"}})
}

// TestPageRecorded holds the engine's download back and opens the full
// page: the stepper steps its recorded run and the verdicts answer from
// the recording, on one keyspace (the verdicts' fresh id comes after the
// stepper's), while the other widgets wait. When the engine arrives the
// answers match, the rest of the page starts, and the round trip shows
// the jobs the recorded runs wrote.
func TestPageRecorded(t *testing.T) {
	tb, release := openRecorded(t, "/")
	page, s, v := tb.whole(), tb.in("#stepper"), tb.in("#verdicts")
	page.wantText(statusLine, "Loading (recorded run shown)")
	s.clickShows("Step", stepPosition, "Move 1 of 4")
	v.clickShows("Enqueue a job", verdict, "{:ok, :enqueued}")
	v.wantText("[data-testid=verdict-call]", `"JOB-000002"`)
	if off, _ := eval[bool](tb, `document.getElementById("roundtrip-enqueue").disabled`); !off {
		t.Error("the round trip's Enqueue works before the engine is there")
	}

	release()
	ready(tb)
	if got, _ := eval[string](tb, `document.documentElement.dataset.recording`); !strings.HasPrefix(got, "matched ") {
		t.Fatalf("after the hand-over the page says the recording %q; want matched", got)
	}
	s.wantText(stepPosition, "Move 1 of 4")
	tb.in("#roundtrip").wantRows(pendingKey, [][]string{{"JOB-000001", "0"}, {"JOB-000002", "0"}})
}
