package browser

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The two workers widget: its own queue, race, and its hooks (TESTING.md).
const (
	workers         = "#workers"
	workersVerdict  = "[data-testid=workers-verdict]"
	workersExplain  = "[data-testid=workers-explain]"
	workersSteps    = "[data-testid=workers-timeline] > li"
	workerAHolds    = "[data-testid=worker-a-holds]"
	workerBHolds    = "[data-testid=worker-b-holds]"
	racePending     = "emq:{race}:pending"
	raceActive      = "emq:{race}:active"
	raceRows        = "emq:{race}:job:…"
	splitMode       = "Non-atomic: ZRANGE, then ZREM"
	atomicMode      = "Atomic: @claim"
	stepA           = "A: next step"
	stepB           = "B: next step"
	racePayload     = `{"task":"race"}`
	doubleClaimJob1 = "Double claim: JOB-1 was handed to both A and B"
)

// filledRace is the race queue's pending set after "Fill the queue".
var filledRace = [][]string{{"JOB-1", "0"}, {"JOB-2", "0"}, {"JOB-3", "0"}}

// oneJobEachRows are the race's job rows once A and B have claimed a job
// each: JOB-1 and JOB-2 active after one attempt, JOB-3 still pending.
var oneJobEachRows = [][]string{
	{"JOB-1", "active", "1", racePayload},
	{"JOB-2", "active", "1", racePayload},
	{"JOB-3", "pending", "0", racePayload},
}

// wantOneJobEach reads the race's three tables after a round with no
// double claim: JOB-3 left pending, JOB-1 and JOB-2 leased for 30 s.
func wantOneJobEach(w scope) {
	w.tb.t.Helper()
	w.wantRows(racePending, [][]string{{"JOB-3", "0"}})
	w.wantRows(raceActive, [][]string{{"JOB-1", deadline, "in 30 s"}, {"JOB-2", deadline, "in 30 s"}})
	w.wantRows(raceRows, oneJobEachRows)
}

// wantJob1ClaimedTwice reads the race's three tables after the split
// claim's double claim: JOB-1 is active once but counts two attempts, and
// JOB-2 and JOB-3 are still pending.
func wantJob1ClaimedTwice(w scope) {
	w.tb.t.Helper()
	w.wantRows(racePending, [][]string{{"JOB-2", "0"}, {"JOB-3", "0"}})
	w.wantRows(raceActive, [][]string{{"JOB-1", deadline, "in 30 s"}})
	w.wantRows(raceRows, [][]string{
		{"JOB-1", "active", "2", racePayload},
		{"JOB-2", "pending", "0", racePayload},
		{"JOB-3", "pending", "0", racePayload},
	})
}

// wantSteps waits until the timeline lists n steps, and returns their texts.
func wantSteps(s scope, n int) []string {
	s.tb.t.Helper()
	var got []string
	s.tb.eventually(fmt.Sprintf("%d steps in the timeline", n), func() (string, bool) {
		var err error
		got, err = eval[[]string](s.tb, s.expr("texts", workersSteps))
		if err != nil {
			return errString(err), false
		}
		return strings.Join(got, "\n"), len(got) == n
	})
	return got
}

// fillRace presses "Fill the queue" and waits for a fresh round: three jobs
// pending, nothing active, no step taken.
func fillRace(w scope) {
	w.tb.t.Helper()
	w.click("Fill the queue")
	waitFreshRound(w)
}

// waitFreshRound waits for what a new round looks like.
func waitFreshRound(w scope) {
	w.tb.t.Helper()
	w.wantRows(racePending, filledRace)
	w.wantRows(raceActive, nil)
	w.wantText(workersVerdict, "No step yet.")
	wantSteps(w, 0)
	w.wantAttrs(workerAHolds, "data-holds", "")
	w.wantAttrs(workerBHolds, "data-holds", "")
}

// wantPlans waits until both workers show the steps of mode's claim: the
// widget redraws them once the round of the new mode is ready.
func wantPlans(w scope, mode string) {
	w.tb.t.Helper()
	w.wantAttrs("ol.plan", "data-mode", mode, mode)
}

// switchMode chooses the claim labelled label and waits for the new
// mode's round: both workers show mode's plan, on a refilled queue.
func switchMode(w scope, label, mode string) {
	w.tb.t.Helper()
	w.choose(label)
	wantPlans(w, mode)
	waitFreshRound(w)
}

// takeTurns clicks A's and B's step buttons in turn, n clicks in all,
// waiting for each step to reach the timeline before the next click.
func takeTurns(w scope, n int) []string {
	w.tb.t.Helper()
	var steps []string
	for i := range n {
		w.click([]string{stepA, stepB}[i%2])
		steps = wantSteps(w, i+1)
	}
	return steps
}

// TestWorkersSplitClaimDoubleClaims plays the non-atomic claim turn by
// turn, A1 B1 A2 B2 A3 B3: both workers read JOB-1 with ZRANGE before
// either removes it, B's ZREM answers 0 and is ignored, and both lease
// JOB-1. The verdict says so, both workers hold JOB-1, and the race
// queue's tables agree: JOB-1 is in the active set once, its row counts
// two attempts, and JOB-2 and JOB-3 are still pending. The lesson's queue
// is not touched.
func TestWorkersSplitClaimDoubleClaims(t *testing.T) {
	tb := openReady(t, "/")
	w := tb.in(workers)
	w.choose(splitMode)
	fillRace(w)

	steps := takeTurns(w, 6)
	w.wantText(workersVerdict, doubleClaimJob1)
	w.wantAttrs(workersVerdict, "data-verdict", "double")
	w.wantText(workersExplain, "Both read JOB-1 with ZRANGE", "B's ZREM answered 0", "row counts 2 attempts")
	w.wantAttrs(workerAHolds, "data-holds", "JOB-1")
	w.wantAttrs(workerBHolds, "data-holds", "JOB-1")
	w.wantText(workerAHolds, "Holds JOB-1 · attempts 1")
	w.wantText(workerBHolds, "Holds JOB-1 · attempts 2")
	w.wantAnnounced(doubleClaimJob1)

	// What the server heard, in the order the learner chose.
	wants := [][]string{
		{"1. A step 1 of 3", "ZRANGE emq:{race}:pending 0 0", `1) "JOB-1"`},
		{"2. B step 1 of 3", "ZRANGE emq:{race}:pending 0 0", `1) "JOB-1"`},
		{"3. A step 2 of 3", "ZREM emq:{race}:pending JOB-1", "(integer) 1"},
		{"4. B step 2 of 3", "ZREM emq:{race}:pending JOB-1", "(integer) 0", "already gone"},
		{"5. A step 3 of 3", "HINCRBY emq:{race}:job:JOB-1 attempts 1", "(integer) 1", "HSET emq:{race}:job:JOB-1 state active", "TIME", "ZADD emq:{race}:active " + deadline + " JOB-1", "(integer) 1"},
		{"6. B step 3 of 3", "HINCRBY emq:{race}:job:JOB-1 attempts 1", "(integer) 2", "ZADD emq:{race}:active " + deadline + " JOB-1", "(integer) 0"},
	}
	for i, want := range wants {
		wantInOrder(t, fmt.Sprintf("timeline step %d", i+1), steps[i], want...)
	}

	wantJob1ClaimedTwice(w)
	tb.in("#roundtrip").wantRows(pendingKey, nil)
	tb.in("#roundtrip").wantRows(activeKey, nil)
	w.screenshot("workers-double-claim")
}

// TestWorkersAtomicClaimNeverDoubleClaims plays the same turns with
// @claim, where a claim is one step: A's script pops JOB-1 and leases it
// before B's runs, so B gets JOB-2. No double claim; the tables show both
// leases and one attempt each. A worker whose claim is over says so
// instead of acting, and switching back to the split claim starts a new
// round on a refilled queue.
func TestWorkersAtomicClaimNeverDoubleClaims(t *testing.T) {
	tb := openReady(t, "/")
	w := tb.in(workers)
	fillRace(w)
	switchMode(w, atomicMode, "atomic")

	steps := takeTurns(w, 2)
	w.wantText(workersVerdict, "No double claim: A holds JOB-1, B holds JOB-2.")
	w.wantAttrs(workersVerdict, "data-verdict", "distinct")
	w.wantText(workersExplain, "one script", "B's ZPOPMIN saw the pending set after A's pop")
	w.wantNoText(workersVerdict, "Double claim")
	w.wantAttrs(workerAHolds, "data-holds", "JOB-1")
	w.wantAttrs(workerBHolds, "data-holds", "JOB-2")
	// On a fresh engine the first EVALSHA meets NOSCRIPT, and the
	// connector sends the script once with EVAL.
	wantInOrder(t, "timeline step 1", steps[0], "1. A step 1 of 1", "EXISTS emq:{race}:paused", "(integer) 0", "EVALSHA", "NOSCRIPT", "EVAL ‹the @claim source", "2 emq:{race}:pending emq:{race}:active emq:{race}:job: 30000", `1) "JOB-1"`, "3) (integer) 1")
	wantInOrder(t, "timeline step 2", steps[1], "2. B step 1 of 1", "EVALSHA", `1) "JOB-2"`, "3) (integer) 1")
	// What it cost: claim/3's EXISTS of the pause flag, then the script,
	// sent twice the first time.
	w.wantText("[data-testid=workers-cost]", "A: 3 commands in 3 round trips.", "B: 2 commands in 2 round trips.")
	w.wantNoText("[data-testid=workers-cost]", "@claim: one script per claim")

	wantOneJobEach(w)

	// Each worker claims once per round.
	w.wantDisabled(stepA)
	w.clickAnyway(stepA)
	w.wantAnnounced("A has finished its claim")
	wantSteps(w, 2)
	w.screenshot("workers-atomic")

	switchMode(w, splitMode, "split")
}

// TestWorkersPresets plays the two orders the widget offers, in both
// modes: taking turns double-claims only with the split claim, A-then-B
// never does, and with @claim the two orders are the same order. The A
// and B keys step a worker, as the buttons do.
func TestWorkersPresets(t *testing.T) {
	tb := openReady(t, "/")
	w := tb.in(workers)

	w.click("Play: take turns")
	wantSteps(w, 6)
	w.wantText(workersVerdict, doubleClaimJob1)

	// A new round replaces the last one: wait for its verdict, then read it.
	w.clickShows("Play: A, then B", workersVerdict, "No double claim: A holds JOB-1, B holds JOB-2.")
	steps := wantSteps(w, 6)
	wantInOrder(t, "A, then B", strings.Join(steps, "\n"), "1. A", "2. A", "3. A", "4. B", "5. B", "6. B")
	w.wantRows(raceRows, oneJobEachRows)

	switchMode(w, atomicMode, "atomic")
	w.click("Play: take turns")
	wantSteps(w, 2)
	w.wantText(workersVerdict, "No double claim: A holds JOB-1, B holds JOB-2.")

	// Keys: B first this time, so B gets the oldest job.
	fillRace(w)
	w.press("b")
	wantSteps(w, 1)
	w.press("a")
	wantSteps(w, 2)
	w.wantText(workersVerdict, "No double claim: A holds JOB-2, B holds JOB-1.")
	w.wantText(workersExplain, "A's ZPOPMIN saw the pending set after B's pop")
}

// TestWorkersNarrow plays a double claim on a phone's width: the page never
// scrolls sideways, and ids, scores and deadlines in the tables stay whole.
func TestWorkersNarrow(t *testing.T) {
	tb := newTab(t)
	tb.run("set the viewport", chromedp.EmulateViewport(360, 900))
	tb.open("/embed/workers.html")
	ready(tb)
	w := tb.in(workers)
	w.click("Play: take turns")
	wantSteps(w, 6)
	w.wantText(workersVerdict, doubleClaimJob1)

	got, err := eval[layout](tb, fmt.Sprintf("(%s)(%s)", cellLinesJS, jsArgs(workers)))
	if err != nil {
		t.Fatalf("measure the tables: %v", err)
	}
	if got.Page > 0 {
		t.Errorf("at 360 px the page scrolls sideways by %v px", got.Page)
	}
	for _, tbl := range got.Tables {
		for _, row := range tbl.Rows {
			for i, cell := range row {
				col := ""
				if i < len(tbl.Head) {
					col = tbl.Head[i]
				}
				checkCell(t, 360, tbl.Caption, col, i, cell)
			}
		}
	}
	w.screenshot("workers-360")
}

// TestWorkersPermalink copies a link after a double claim and opens it in
// a new tab: the page replays the commands the widget sent, and the widget
// redraws its round from the saved view (mode, steps, replies) without
// sending any of them again. A link whose view of the widget was tampered
// with (a step out of order) rebuilds the keyspace, and the widget shows
// no round rather than one that never happened.
func TestWorkersPermalink(t *testing.T) {
	tb := openReady(t, "/")
	w := tb.in(workers)
	w.clickShows("Play: take turns", workersVerdict, doubleClaimJob1)
	steps := wantSteps(w, 6)
	link := copyLink(w, "workers")

	opened := newTab(t)
	opened.openURL(link)
	ready(opened)
	o := opened.in(workers)
	o.wantText(workersVerdict, doubleClaimJob1)
	if got := wantSteps(o, 6); strings.Join(got, "\n") != strings.Join(steps, "\n") {
		t.Errorf("the opened link's timeline differs:\n got %q\nwant %q", got, steps)
	}
	o.wantAttrs(workerAHolds, "data-holds", "JOB-1")
	o.wantAttrs(workerBHolds, "data-holds", "JOB-1")
	wantJob1ClaimedTwice(o)
	// The round goes on from where the link left it: both claims are over.
	o.wantDisabled(stepA)
	o.wantDisabled(stepB)

	// The same link with B's second step put before its first.
	state := decodeLink(t, link[strings.Index(link, "#"):])
	round := state["views"].(map[string]any)["workers"].(map[string]any)["round"].([]any)
	round[1], round[3] = round[3], round[1]
	tampered := openReady(t, "/"+linkFragment(t, state))
	x := tampered.in(workers)
	x.wantRows(raceActive, [][]string{{"JOB-1", deadline, "in 30 s"}})
	x.wantText(workersVerdict, "No step yet.")
	wantSteps(x, 0)
}

// decodeLink reads a permalink's fragment (#v1.<base64url of deflate-raw
// JSON>, see web/assets/permalink.js) into its JSON.
func decodeLink(t *testing.T, fragment string) map[string]any {
	t.Helper()
	packed, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(fragment, "#v1."))
	if err != nil {
		t.Fatalf("the link's fragment: %v", err)
	}
	raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(packed)))
	if err != nil {
		t.Fatalf("inflate the link: %v", err)
	}
	var state map[string]any
	if err := json.Unmarshal(raw, &state); err != nil {
		t.Fatalf("the link's JSON: %v", err)
	}
	return state
}

// TestLeaseOptionReachesEveryClaim opens the page as a course author embeds
// it, with ?lease=5000: the two workers lease for 5 s, the editor's claim
// starts with 5000 as its lease argument, and the round trip's lease field
// says 5000.
func TestLeaseOptionReachesEveryClaim(t *testing.T) {
	tb := openReady(t, "/?lease=5000")

	if got := tb.in("#roundtrip").value("Lease (ms)"); got != "5000" {
		t.Errorf("the round trip's lease field says %q, want 5000", got)
	}

	w := tb.in(workers)
	fillRace(w)
	switchMode(w, atomicMode, "atomic")
	steps := takeTurns(w, 1)
	wantInOrder(t, "timeline step 1", steps[0], "1. A step 1 of 1", "emq:{race}:job: 5000", `1) "JOB-1"`)
	w.wantRows(raceActive, [][]string{{"JOB-1", "1767225605000", "in 5 s"}})

	ed := tb.in(editorSection)
	ed.choose("claim.lua")
	tb.eventually("the claim's ARGV", func() (string, bool) {
		got := ed.value("ARGV")
		return got, got == "emq:{q}:job:\n5000"
	})
}

const optimisticMode = "Optimistic: WATCH, then MULTI … EXEC"

// TestWorkersOptimisticClaimRetriesInsteadOfDoubleClaiming plays the
// optimistic claim in the order that made the split claim hand JOB-1 to
// both, one step each in turn: both WATCH, both read JOB-1, both queue its
// claim. A's EXEC runs the four writes; B's answers nil, because A's EXEC
// wrote the pending set after B's WATCH, and none of B's commands ran. B
// unwatches and starts again, on its own, and claims JOB-2. No double
// claim: each row counts one attempt, and the cost panel counts the
// commands and round trips each worker paid, B's retry included.
func TestWorkersOptimisticClaimRetriesInsteadOfDoubleClaiming(t *testing.T) {
	tb := openReady(t, "/")
	w := tb.in(workers)
	switchMode(w, optimisticMode, "optimistic")

	steps := takeTurns(w, 8)
	w.wantAttrs(workersVerdict, "data-verdict", "retry")
	w.wantText(workersExplain, "A's EXEC removed JOB-1 from the pending set after B's WATCH", "none of B's queued commands ran")
	w.wantAttrs(workerAHolds, "data-holds", "JOB-1")
	w.wantText(workerBHolds, "EXEC answered nil, nothing ran; starting again (attempt 2)")
	wantInOrder(t, "A's EXEC", steps[6], "7. A step 4 of 4", "EXEC", `1) (integer) 1`, `2) (integer) 1`)
	wantInOrder(t, "B's EXEC", steps[7], "8. B step 4 of 4", "EXEC", "(nil)", "UNWATCH", "OK", "nil: A's EXEC removed JOB-1")

	// B's second try, alone: nobody writes the pending set in between.
	for i := range 4 {
		w.click(stepB)
		steps = wantSteps(w, 9+i)
	}
	wantInOrder(t, "B's second WATCH", steps[8], "9. B step 1 of 4", "attempt 2", "WATCH emq:{race}:pending", "OK")
	wantInOrder(t, "B's second read", steps[9], "ZRANGE emq:{race}:pending 0 0", `1) "JOB-2"`)
	wantInOrder(t, "B's second EXEC", steps[11], "12. B step 4 of 4", "EXEC", `1) (integer) 1`, `2) (integer) 1`)

	w.wantText(workersVerdict, "No double claim: A holds JOB-1, B holds JOB-2.")
	w.wantAttrs(workersVerdict, "data-verdict", "distinct")
	w.wantText(workersExplain, "B's EXEC answered nil", "B unwatched, started again from WATCH, and claimed JOB-2")
	w.wantText(workerAHolds, "Holds JOB-1 · attempts 1")
	w.wantText(workerBHolds, "Holds JOB-2 · attempts 1")
	wantOneJobEach(w)
	// A: WATCH, ZRANGE, TIME + MULTI + 4 writes, EXEC = 9 commands. B:
	// that, then UNWATCH after its nil, then the 9 again = 19. A
	// pipelining client sends MULTI, the writes and EXEC in one round trip:
	// WATCH, ZRANGE, TIME, MULTI…EXEC = 4 for A; 4 + UNWATCH + 4 = 9 for B.
	w.wantText("[data-testid=workers-cost]",
		"A: 9 commands in 4 round trips.",
		"B: 19 commands in 9 round trips, 1 retry.",
		"counted as a pipelining client sends them: MULTI, the queued commands and EXEC go to the server together, in one round trip",
		"@claim: one script per claim, sent as one EVALSHA")
	w.screenshot("workers-optimistic")
}

// TestWorkersOptimisticPlayTurnsEndsWithBothClaims presses "Play: take
// turns": the preset keeps giving B steps after its EXEC answered nil,
// until both workers hold a job of their own.
func TestWorkersOptimisticPlayTurnsEndsWithBothClaims(t *testing.T) {
	tb := openReady(t, "/")
	w := tb.in(workers)
	switchMode(w, optimisticMode, "optimistic")
	w.clickShows("Play: take turns", workersVerdict, "No double claim: A holds JOB-1, B holds JOB-2.")
	wantSteps(w, 12)
	w.wantRows(raceRows, oneJobEachRows)
	// A new round after an abandoned one: B is left inside MULTI, and
	// "Fill the queue" must end that transaction for the next round to start.
	fillRace(w)
	takeTurns(w, 6)
	fillRace(w)
	steps := takeTurns(w, 2)
	wantInOrder(t, "a fresh WATCH", steps[1], "B step 1 of 4", "WATCH emq:{race}:pending", "OK")
}

// TestWorkersOptimisticPermalinkKeepsTheOpenTransactions copies the link
// half-way through an optimistic round: both workers have queued the claim
// of JOB-1 inside MULTI, and neither has sent EXEC. The opened link
// replays every command on the workers' own connections, so both
// transactions are open again, with their watches: A's EXEC claims JOB-1,
// and B's answers nil.
func TestWorkersOptimisticPermalinkKeepsTheOpenTransactions(t *testing.T) {
	tb := openReady(t, "/")
	w := tb.in(workers)
	switchMode(w, optimisticMode, "optimistic")
	takeTurns(w, 6)
	w.wantText(workerBHolds, "Queued the claim of JOB-1; next it sends EXEC")
	link := copyLink(w, "workers")

	opened := newTab(t)
	opened.openURL(link)
	ready(opened)
	o := opened.in(workers)
	wantSteps(o, 6)
	o.wantText(workerAHolds, "Queued the claim of JOB-1; next it sends EXEC")
	o.wantRows(racePending, filledRace) // nothing queued has run
	o.click(stepA)
	steps := wantSteps(o, 7)
	wantInOrder(t, "A's EXEC after the link", steps[6], "EXEC", `1) (integer) 1`)
	o.click(stepB)
	steps = wantSteps(o, 8)
	wantInOrder(t, "B's EXEC after the link", steps[7], "EXEC", "(nil)", "UNWATCH")
	o.wantRows(raceRows, [][]string{
		{"JOB-1", "active", "1", racePayload},
		{"JOB-2", "pending", "0", racePayload},
		{"JOB-3", "pending", "0", racePayload},
	})
}
