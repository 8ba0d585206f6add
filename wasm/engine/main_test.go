package engine

import (
	"os"
	"testing"
)

// testWork is the work budget of this package's tests, unless a test sets
// its own (withWork): the budget the engine had before it was calibrated
// against Redis's 5 s, so that the many tests that stop a runaway on
// purpose each take a fraction of a second, not the real budget's tens of
// seconds. TestTheRealBudget* hold the real one's verdicts.
const testWork = 25_000_000

func TestMain(m *testing.M) {
	scriptWork = testWork
	os.Exit(m.Run())
}
