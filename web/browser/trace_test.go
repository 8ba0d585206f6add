package browser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"

	"echomq.dev/playground/lua"
)

// staleNote is the stepper's "The keyspace has changed since this run was
// recorded" notice, visible only when a key it shows was written.
const staleNote = "#stepper-stale"

// stepRun steps the stepper's run of @enqueue through to its end.
func stepRun(st scope, moves int) {
	st.tb.t.Helper()
	for i := 1; i <= moves; i++ {
		st.clickShows("Step", stepPosition, fmt.Sprintf("Move %d of 4", i))
	}
}

// wantNoStaleNote checks that the notice is not on the screen. It is read
// after a later action has come back, so the earlier one's update is done.
func wantNoStaleNote(t *testing.T, st scope, after string) {
	t.Helper()
	if got := st.texts(staleNote); len(got) != 0 {
		t.Errorf("after %s the stepper says %q; want no notice: no key it shows changed", after, got)
	}
}

// TestStepperNoticeOnlyWhenAShownKeyChanged: after a recorded run, a PING
// or a read at the console, a refused id, a paused queue's claim or the
// two workers' own queue change none of the stepper's keys and the notice
// stays away; an enqueue into the pending set it shows brings it up.
func TestStepperNoticeOnlyWhenAShownKeyChanged(t *testing.T) {
	tb := openReady(t, "/")
	st := tb.in("#stepper")
	st.choose("A fresh id")
	stepRun(st, 4)
	st.wantText(stepOutcome, "{:ok, :enqueued}")

	c := tb.in("#console")
	typeLine(c, "PING")
	wantOut(c, "PONG")
	typeLine(c, "GET nothing")
	wantOut(c, "(nil)")
	wantNoStaleNote(t, st, "PING and GET nothing at the console")

	r := tb.in("#roundtrip")
	enqueueJob(r, "job-5", "{:error, :kind}")
	claimPaused(r)
	fillRace(tb.in("#workers"))
	typeLine(c, "PING")
	wantOut(c, "PONG")
	// The pause flag and emq:{race} are not the stepper's keys either.
	wantNoStaleNote(t, st, "a refused id, Pause, a paused claim and the workers' Fill the queue")

	r.clickShows("Resume", queueState, "Running")
	enqueueJob(r, "JOB-5", "{:ok, :enqueued}")
	st.wantText(staleNote, "The keyspace has changed since this run was recorded")
}

// TestStepperCachesTheScriptForTheRoundTrip: after the stepper's run the
// server knows @enqueue, as after an EVAL, so the round trip's first
// enqueue is one EVALSHA, answered without NOSCRIPT.
func TestStepperCachesTheScriptForTheRoundTrip(t *testing.T) {
	tb := openReady(t, "/")
	st := tb.in("#stepper")
	st.choose("A fresh id")
	stepRun(st, 4)

	r := tb.in("#roundtrip")
	enqueueJob(r, "JOB-2", "{:ok, :enqueued}")
	wantInOrder(t, "the newest call on the wire", r.texts(wireCalls)[0], "enqueue", "{:ok, :enqueued}")
	exchanges := r.texts(newestExchanges)
	wantExchanges(t, "the round trip's enqueue after the stepper's run", exchanges, []string{"EVALSHA ", "(integer) 1"})
	for _, x := range exchanges {
		if strings.Contains(x, "NOSCRIPT") {
			t.Errorf("the round trip's EVALSHA met NOSCRIPT after the stepper's run: %q", x)
		}
	}
	c := tb.in("#console")
	typeLine(c, "SCRIPT EXISTS "+lua.Enqueue().SHA)
	wantOut(c, "1) (integer) 1")
}

// TestStepperAtDepth: with 10,000 jobs queued by the round trip's Enqueue
// 1,000, the stepper steps a run of @enqueue for the next id through its
// four moves, and its pending table shows the ends of the set and how many
// lie between, as the round trip's does.
func TestStepperAtDepth(t *testing.T) {
	tb := newLongTab(t, drainWait+2*tabTimeout)
	tb.open("/")
	ready(tb)
	r := tb.in("#roundtrip")
	for k := 1; k <= 10; k++ {
		r.clickShows("Enqueue 1,000", bulkResult, fmt.Sprintf("%s … %s: 1,000 enqueues in ", minted(k*1000-999), minted(k*1000)))
	}
	st := tb.in("#stepper")
	st.choose("A duplicate")
	st.choose("A fresh id")
	if got := st.value("Job id"); got != "JOB-010001" {
		t.Fatalf("a fresh id after 10,000 jobs is %q; want JOB-010001", got)
	}
	stepRun(st, 4)
	st.wantText(stepCommand, "ZADD emq:{q}:pending 0 JOB-010001")
	st.wantText(stepReply, "(integer) 1")
	st.wantText(stepOutcome, "{:ok, :enqueued}")
	wantGap(t, "the stepper's pending set", st.table(pendingKey), "… and 9,951 more")
	st.wantRows(rowKey("JOB-010001"), [][]string{{"state", "pending"}, {"attempts", "0"}, {"payload", stepperPayload}})
	// Back to step 0: the set as it was, 10,000 members.
	st.press(kb.Home)
	st.wantText(stepPosition, "Before move 1")
	wantGap(t, "the stepper's pending set before the run", st.table(pendingKey), "… and 9,950 more")
	st.wantRows(rowKey("JOB-010001"), nil)
}
