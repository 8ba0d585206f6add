package recording

import (
	"strings"
	"testing"
)

// The recording is made twice alike: nothing in it depends on the time
// or the machine, so the page can compare it with the live engine's.
func TestStepperIsDeterministic(t *testing.T) {
	a, err := Stepper("q", `{"task":"resize"}`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Stepper("q", `{"task":"resize"}`)
	ja, _ := a.JSON()
	jb, _ := b.JSON()
	if ja != jb {
		t.Fatalf("two recordings differ:\n%s\n%s", ja, jb)
	}
	if !strings.Contains(ja, `"method":"trace"`) || !strings.Contains(ja, `"JOB-000001"`) || strings.Contains(ja, "</") {
		t.Errorf("the recording lacks the traced run of JOB-000001, or could end its script element: %.300s", ja)
	}
	t.Logf("%d bytes", len(ja))
}

// The verdicts' recording holds the lesson's sequence: a fresh id, the
// same id again, a malformed one, with the verdicts the engine gives.
func TestVerdictsHoldsTheThreeVerdicts(t *testing.T) {
	rec, err := Verdicts("q", "{}")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"JOB-000001": `"verdict":"enqueued"`, "job-000002": `"error":"kind"`}
	got := map[string]bool{}
	dup := false
	for _, c := range rec.Calls {
		if c.Method != "enqueue" {
			continue
		}
		id := c.Args[1].(string)
		if w, ok := want[id]; ok && len(c.Before) == 1 && strings.Contains(string(c.Result), w) {
			got[id] = true
		}
		if id == "JOB-000001" && len(c.Before) == 1 && strings.Contains(string(c.Result), `"verdict":"duplicate"`) {
			dup = true
		}
	}
	if !got["job-000002"] || !dup {
		t.Errorf("after JOB-000001, the recording lacks the duplicate (%v) or the malformed job-000002 (%v)", dup, got["job-000002"])
	}
	j, _ := rec.JSON()
	t.Logf("%d calls, %d bytes", len(rec.Calls), len(j))
}

func TestPageSize(t *testing.T) {
	rec, err := Page("q", `{"task":"step"}`, "{}")
	if err != nil {
		t.Fatal(err)
	}
	j, _ := rec.JSON()
	t.Logf("%d calls, %d bytes", len(rec.Calls), len(j))
	if len(j) > 512*1024 {
		t.Errorf("the full page's recording is %d KiB; a page should not carry that much", len(j)/1024)
	}
}
