package browser

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp/kb"
)

// The stepper's readouts, and the keys of queue "q" every widget uses.
const (
	stepPosition = "[data-testid=step-position]"
	stepCommand  = "[data-testid=step-command]"
	stepReply    = "[data-testid=step-reply]"
	stepOutcome  = "[data-testid=step-outcome]"
	stepSource   = "[data-testid=step-source]"
	// runningLine is the source line the current step ran.
	runningLine = stepSource + " .line.running"

	pendingKey = "emq:{q}:pending"
	activeKey  = "emq:{q}:active"
	rowsKey    = "emq:{q}:job:…" // the caption of a table of every row
)

func rowKey(id string) string { return "emq:{q}:job:" + id }

// stepperPayload is the payload the stepper enqueues with.
const stepperPayload = `{"task":"step"}`

// move is what the stepper shows after one step: the readouts, the line of
// enqueue.lua that ran, and the two keys.
type move struct {
	desc           string
	command, reply string // contained in the readouts
	line           string // data-line of the running line
	pending, row   [][]string
}

// freshMoves are the four moves of @enqueue for JOB-000001 on an empty keyspace.
var freshMoves = []move{
	{
		desc:    "move 1, the gate: no command, nothing written",
		command: "no command", reply: "no reply", line: "10",
	},
	{
		desc:    "move 2, idempotency: EXISTS answers 0, nothing written",
		command: "EXISTS emq:{q}:job:JOB-000001", reply: "(integer) 0", line: "15",
	},
	{
		desc:    "move 3, the row: state, attempts, payload",
		command: `HSET emq:{q}:job:JOB-000001 state pending attempts 0 payload "{\"task\":\"step\"}"`, reply: "(integer) 3", line: "20",
		row: [][]string{{"state", "pending"}, {"attempts", "0"}, {"payload", stepperPayload}},
	},
	{
		desc:    "move 4, pending: the id at score 0",
		command: "ZADD emq:{q}:pending 0 JOB-000001", reply: "(integer) 1", line: "23",
		pending: [][]string{{"JOB-000001", "0"}},
		row:     [][]string{{"state", "pending"}, {"attempts", "0"}, {"payload", stepperPayload}},
	},
}

// wantMove checks what the stepper shows at move n (1-based) of total.
func wantMove(st scope, n, total int, m move, id string) {
	st.tb.t.Helper()
	st.wantText(stepPosition, fmt.Sprintf("Move %d of %d", n, total))
	st.wantText(stepCommand, m.command)
	st.wantText(stepReply, m.reply)
	st.wantAttrs(runningLine, "data-line", m.line)
	st.wantRows(pendingKey, m.pending)
	st.wantRows(rowKey(id), m.row)
}

// TestStepperFreshID steps the four moves of @enqueue for a fresh id,
// reading the keyspace after each, then steps back through them.
func TestStepperFreshID(t *testing.T) {
	tb := openReady(t, "/")
	st := tb.in("#stepper")
	st.choose("A fresh id")
	if got := st.value("Job id"); got != "JOB-000001" {
		t.Fatalf("a fresh id on an empty keyspace is %q; want JOB-000001", got)
	}
	st.wantText(stepPosition, "Before move 1")
	st.wantRows(pendingKey, nil)
	st.wantRows(rowKey("JOB-000001"), nil)

	for i, m := range freshMoves {
		t.Logf("Step: %s", m.desc)
		st.click("Step")
		wantMove(st, i+1, 4, m, "JOB-000001")
		st.wantAnnounced(fmt.Sprintf("Move %d of 4", i+1))
	}
	st.wantText(stepOutcome, "{:ok, :enqueued}")
	st.wantDisabled("Step") // the script has returned
	st.screenshot("stepper")

	for i := len(freshMoves) - 2; i >= 0; i-- {
		t.Logf("Back: %s", freshMoves[i].desc)
		st.click("Back")
		wantMove(st, i+1, 4, freshMoves[i], "JOB-000001")
	}
	st.clickShows("Back", stepPosition, "Before move 1")
	st.wantRows(pendingKey, nil)
	st.wantRows(rowKey("JOB-000001"), nil)
	st.wantDisabled("Back")

	// The move buttons jump straight to a move.
	st.click("Move 3")
	wantMove(st, 3, 4, freshMoves[2], "JOB-000001")

	// Reset gets ready for a new run: JOB-000001 is taken now, so a fresh id
	// is JOB-000002, and the tables show the keyspace as it is.
	st.clickShows("Reset", stepPosition, "Before move 1")
	if got := st.value("Job id"); got != "JOB-000002" {
		t.Errorf("after Reset, a fresh id is %q; want JOB-000002", got)
	}
	st.wantRows(pendingKey, [][]string{{"JOB-000001", "0"}})
	st.wantRows(rowKey("JOB-000002"), nil)
}

// TestStepperTypedID runs @enqueue with an id the learner types.
func TestStepperTypedID(t *testing.T) {
	tb := openReady(t, "/")
	st := tb.in("#stepper")
	st.fill("Job id", "JOB-42")
	st.click("Step")
	st.click("Step")
	wantMove(st, 2, 4, move{command: "EXISTS emq:{q}:job:JOB-42", reply: "(integer) 0", line: "15"}, "JOB-42")
	st.click("Move 4")
	wantMove(st, 4, 4, move{command: "ZADD emq:{q}:pending 0 JOB-42", reply: "(integer) 1", line: "23",
		pending: [][]string{{"JOB-42", "0"}},
		row:     [][]string{{"state", "pending"}, {"attempts", "0"}, {"payload", stepperPayload}}}, "JOB-42")
}

// TestStepperDuplicate runs @enqueue with an id whose row exists: it stops
// at move 2, where EXISTS finds the row, and returns 0; moves 3 and 4
// never run and nothing is written.
func TestStepperDuplicate(t *testing.T) {
	tb := openReady(t, "/")
	st := tb.in("#stepper")
	// No job exists yet, so the page enqueues one first, and says so.
	st.choose("A duplicate")
	st.wantAnnounced("JOB-000001 was enqueued first")
	if got := st.value("Job id"); got != "JOB-000001" {
		t.Fatalf("the duplicate id is %q; want JOB-000001", got)
	}
	existing := [][]string{{"state", "pending"}, {"attempts", "0"}, {"payload", stepperPayload}}
	st.wantRows(pendingKey, [][]string{{"JOB-000001", "0"}})
	st.wantRows(rowKey("JOB-000001"), existing)

	st.click("Step")
	wantMove(st, 1, 4, move{command: "no command", reply: "no reply", line: "10",
		pending: [][]string{{"JOB-000001", "0"}}, row: existing}, "JOB-000001")
	st.click("Step")
	wantMove(st, 2, 4, move{command: "EXISTS emq:{q}:job:JOB-000001", reply: "(integer) 1", line: "15",
		pending: [][]string{{"JOB-000001", "0"}}, row: existing}, "JOB-000001")
	st.wantText(stepOutcome, "returns 0", "{:ok, :duplicate}", "Nothing was written")
	st.wantDisabled("Step")
	st.wantDisabled("Move 3")
	st.wantDisabled("Move 4")
	st.screenshot("stepper-duplicate")
}

// TestStepperMalformed runs @enqueue with an id that is not JOB-branded: the
// gate refuses it at move 1 with EMQKIND, before any key is read or written.
func TestStepperMalformed(t *testing.T) {
	tb := openReady(t, "/")
	st := tb.in("#stepper")
	st.choose("No JOB prefix")
	id := st.value("Job id")
	if id == "" || id[:3] == "JOB" {
		t.Fatalf("the malformed id is %q; want one without the JOB prefix", id)
	}
	st.click("Step")
	wantMove(st, 1, 4, move{command: "no command", reply: "no reply", line: "10"}, id)
	st.wantText(stepOutcome, "EMQKIND", "{:error, :kind}", "Nothing was written")
	st.wantDisabled("Step")
	for _, n := range []string{"Move 2", "Move 3", "Move 4"} {
		st.wantDisabled(n)
	}
}

// TestStepperKeyboard steps with the keyboard only: Tab into the widget,
// then → and ←. In the Job id field the arrows move the caret instead.
func TestStepperKeyboard(t *testing.T) {
	tb := openReady(t, "/")
	st := tb.in("#stepper")

	f := st.tabInto(40, func(f focusInfo) bool { return f.Tag == "input" && f.Type == "text" })
	t.Logf("in the field: %v", f)
	st.press(kb.ArrowRight)
	st.wantText(stepPosition, "Before move 1")

	f = st.tabInto(20, func(f focusInfo) bool { return f.Tag != "input" && f.Tag != "textarea" && f.Tag != "select" })
	t.Logf("out of the field: %v", f)
	for i := range freshMoves {
		st.press(kb.ArrowRight)
		wantMove(st, i+1, 4, freshMoves[i], "JOB-000001")
		st.wantAnnounced(fmt.Sprintf("Move %d of 4", i+1))
	}
	st.press(kb.ArrowLeft)
	wantMove(st, 3, 4, freshMoves[2], "JOB-000001")
	st.wantAnnounced("Move 3 of 4")
}

// TestStepperHomeEnd: Home and End step like the arrows, with or without a
// run. Before anything has run, Home stays before move 1 and says so, and
// End runs @enqueue and jumps to its last move; then Home goes back to
// before move 1 and End to the end again. The page says which keys do what.
func TestStepperHomeEnd(t *testing.T) {
	tb := openReady(t, "/")
	st := tb.in("#stepper")

	f := st.tabInto(40, func(f focusInfo) bool { return f.Tag == "button" })
	t.Logf("on a button: %v", f)

	st.press(kb.Home)
	st.wantAnnounced("Already before move 1")
	st.wantText(stepPosition, "Before move 1", "not run yet")
	st.wantRows(pendingKey, nil) // nothing ran

	st.press(kb.End)
	wantMove(st, 4, 4, freshMoves[3], "JOB-000001")
	st.wantText(stepOutcome, "{:ok, :enqueued}")
	st.wantAnnounced("Move 4 of 4")
	st.wantDisabled("Step")

	st.press(kb.Home)
	st.wantText(stepPosition, "Before move 1", "run recorded")
	st.wantRows(pendingKey, nil) // the keyspace before the run
	st.wantRows(rowKey("JOB-000001"), nil)
	st.wantDisabled("Back")

	st.press(kb.ArrowRight)
	wantMove(st, 1, 4, freshMoves[0], "JOB-000001")
	st.press(kb.End)
	wantMove(st, 4, 4, freshMoves[3], "JOB-000001")
	st.press(kb.End)
	st.wantAnnounced("last move")
	wantMove(st, 4, 4, freshMoves[3], "JOB-000001")

	// The keys are spelled out next to the buttons.
	st.wantText(".keys", "Home", "before move 1", "End", "last move")
}
