package api

import (
	"strings"
	"testing"

	"echomq.dev/playground/wasm/engine"
)

// TestTheStoppedNoteSaysTheEnginesOwnBudget: the console's note on a
// script the work budget stopped names the budget of the engine that
// stopped it, in words: the real one, or the smaller one a test or a
// page's ?budget gave it.
func TestTheStoppedNoteSaysTheEnginesOwnBudget(t *testing.T) {
	for _, tc := range []struct {
		work uint64
		want string
	}{
		{engine.WorkBudget, "once it had done 1.5 billion steps of work"},
		{25_000_000, "once it had done 25 million steps of work"},
		{2_000_000_000, "once it had done 2 billion steps of work"},
		{1_250_000, "once it had done 1.2 million steps of work"},
		{5000, "once it had done 5000 steps of work"},
	} {
		if got := stoppedNote(engine.StoppedByWork, tc.work); !strings.Contains(got, tc.want) {
			t.Errorf("work %d: %q, want it to say %q", tc.work, got, tc.want)
		}
	}
	if got := stoppedNote(engine.StoppedByClock, engine.WorkBudget); !strings.Contains(got, "after 10 minutes") {
		t.Errorf("the last resort's note: %q", got)
	}
}
