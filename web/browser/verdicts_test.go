package browser

import "testing"

const (
	verdict      = "[data-testid=verdict]"
	verdictReply = "[data-testid=verdict-reply]"
)

// TestVerdicts presses the three buttons of the verdicts widget and reads
// the handle's three verdicts, with the pending set and the rows beside
// them: admitted writes both keys, a duplicate and a refused id neither.
func TestVerdicts(t *testing.T) {
	tb := newTab(t)
	tb.open("/")
	ready(tb)
	v := tb.in("#verdicts")
	v.wantRows(pendingKey, nil)
	v.wantRows(rowsKey, nil)
	if got := v.value("Job id"); got != "JOB-1" {
		t.Errorf("the suggested id is %q; want JOB-1", got)
	}
	admitted := [][]string{{"JOB-1", "pending", "0", `{"task":"hello"}`}}

	v.click("Enqueue a job")
	v.wantText(verdict, "{:ok, :enqueued}")
	v.wantText(verdictReply, "(integer) 1")
	v.wantRows(pendingKey, [][]string{{"JOB-1", "0"}})
	got := v.wantRows(rowsKey, admitted)
	if len(got.Marks) != 1 || len(got.Marks[0]) == 0 {
		t.Errorf("the new row is not marked as new: %v", got)
	}

	v.click("Enqueue it again")
	v.wantText(verdict, "{:ok, :duplicate}")
	v.wantText(verdictReply, "(integer) 0")
	v.wantRows(pendingKey, [][]string{{"JOB-1", "0"}})
	got = v.wantRows(rowsKey, admitted)
	if len(got.Marks) == 1 && len(got.Marks[0]) > 0 {
		t.Errorf("a duplicate changed nothing, but the row is marked %q", got.Marks[0])
	}

	v.click("Try a malformed id")
	v.wantText(verdict, "{:error, :kind}")
	v.wantText(verdictReply, "EMQKIND")
	v.wantRows(pendingKey, [][]string{{"JOB-1", "0"}})
	v.wantRows(rowsKey, admitted)
	v.screenshot("verdicts")

	// A typed id is admitted as typed.
	v.fill("Job id", "JOB-7")
	v.click("Enqueue a job")
	v.wantText(verdict, "{:ok, :enqueued}")
	v.wantRows(pendingKey, [][]string{{"JOB-1", "0"}, {"JOB-7", "0"}})
}
