package browser

import "testing"

const (
	verdict      = "[data-testid=verdict]"
	verdictReply = "[data-testid=verdict-reply]"
	verdictCall  = "[data-testid=verdict-call]"
	// againHint says what "Enqueue it again" will send, or that there is
	// nothing to repeat yet.
	againHint = "[data-testid=again-hint]"
)

// TestVerdicts presses the three buttons of the verdicts widget and reads
// the handle's three verdicts, with the pending set and the rows beside
// them: admitted writes both keys, a duplicate and a refused id neither.
func TestVerdicts(t *testing.T) {
	tb := openReady(t, "/")
	v := tb.in("#verdicts")
	v.wantRows(pendingKey, nil)
	v.wantRows(rowsKey, nil)
	if got := v.value("Job id"); got != "JOB-000001" {
		t.Errorf("the suggested id is %q; want JOB-000001", got)
	}
	admitted := [][]string{{"JOB-000001", "pending", "0", `{"task":"hello"}`}}

	v.clickShows("Enqueue a job", verdict, "{:ok, :enqueued}")
	v.wantText(verdictReply, "(integer) 1")
	v.wantRows(pendingKey, [][]string{{"JOB-000001", "0"}})
	got := v.wantRows(rowsKey, admitted)
	if len(got.Marks) != 1 || len(got.Marks[0]) == 0 {
		t.Errorf("the new row is not marked as new: %v", got)
	}

	v.clickShows("Enqueue it again", verdict, "{:ok, :duplicate}")
	v.wantText(verdictReply, "(integer) 0")
	v.wantRows(pendingKey, [][]string{{"JOB-000001", "0"}})
	got = v.wantRows(rowsKey, admitted)
	if len(got.Marks) == 1 && len(got.Marks[0]) > 0 {
		t.Errorf("a duplicate changed nothing, but the row is marked %q", got.Marks[0])
	}

	v.clickShows("Try a malformed id", verdict, "{:error, :kind}")
	v.wantText(verdictReply, "EMQKIND")
	v.wantRows(pendingKey, [][]string{{"JOB-000001", "0"}})
	v.wantRows(rowsKey, admitted)
	v.screenshot("verdicts")

	// A typed id is admitted as typed.
	v.fill("Job id", "JOB-7")
	v.clickShows("Enqueue a job", verdict, "{:ok, :enqueued}")
	v.wantRows(pendingKey, [][]string{{"JOB-000001", "0"}, {"JOB-7", "0"}})
}

// TestVerdictsAgainRepeatsThisWidgetsJob: "Enqueue it again" repeats the id
// this widget's "Enqueue a job" last sent. Before there is one it says
// "Enqueue a job first" and does nothing when pressed, even when another
// widget has enqueued a job meanwhile; after, it sends that same id, so
// the learner sees the duplicate verdict for a job they watched being
// admitted.
func TestVerdictsAgainRepeatsThisWidgetsJob(t *testing.T) {
	tb := openReady(t, "/")
	v := tb.in("#verdicts")

	v.wantDisabled("Enqueue it again")
	v.wantText(againHint, "Enqueue a job first")
	v.clickAnyway("Enqueue it again")
	v.wantAnnounced("Enqueue a job first")
	if got := v.text(verdict); got != "" {
		t.Errorf("pressing a greyed-out Enqueue it again gave the verdict %q; want none", got)
	}
	v.wantRows(pendingKey, nil)
	v.wantRows(rowsKey, nil)

	// Another widget's job is not this widget's "it".
	st := tb.in("#stepper")
	st.choose("A duplicate")
	st.wantAnnounced("JOB-000001 was enqueued first")
	v.wantRows(rowsKey, [][]string{{"JOB-000001", "pending", "0", `{"task":"step"}`}})
	v.wantDisabled("Enqueue it again")
	v.wantText(againHint, "Enqueue a job first")

	// The suggested id is the next fresh one; "again" then repeats it.
	if got := v.value("Job id"); got != "JOB-000002" {
		t.Errorf("the suggested id is %q; want JOB-000002", got)
	}
	v.clickShows("Enqueue a job", verdict, "{:ok, :enqueued}")
	v.wantText(verdictCall, `"JOB-000002"`)
	v.wantText(againHint, "JOB-000002")
	v.clickShows("Enqueue it again", verdict, "{:ok, :duplicate}")
	v.wantText(verdictCall, `"JOB-000002"`)
	v.wantText(verdictReply, "(integer) 0")

	// A typed id becomes "it" once it is sent.
	v.fill("Job id", "JOB-7")
	v.clickShows("Enqueue a job", verdict, "{:ok, :enqueued}")
	v.wantText(againHint, "JOB-7")
	v.clickShows("Try a malformed id", verdict, "{:error, :kind}") // not "Enqueue a job": "it" stays JOB-7
	v.clickShows("Enqueue it again", verdict, "{:ok, :duplicate}")
	v.wantText(verdictCall, `"JOB-7"`)
	v.wantRows(pendingKey, [][]string{{"JOB-000001", "0"}, {"JOB-000002", "0"}, {"JOB-7", "0"}})
}
