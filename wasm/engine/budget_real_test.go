package engine

import (
	"os"
	"runtime"
	"testing"

	"echomq.dev/playground/wasm/resp"
)

// TestTheRealBudgetStopsABareLoop: with the real budget (WorkBudget, not
// the package's testWork), `while true do end` is stopped by the work
// budget, after exactly WorkBudget units (the count is checked every 1024),
// with KilledError's words, and the engine answers the next command. It
// takes the real budget's time: about 20 s natively on the project's
// machine under load (-short skips it). In wasm it takes two and a half
// minutes, and the count is the same there, instruction for instruction, so
// the native run holds the verdict for both.
func TestTheRealBudgetStopsABareLoop(t *testing.T) {
	if testing.Short() {
		t.Skip("the real budget's runaway takes tens of seconds; run without -short")
	}
	if runtime.GOOS == "js" {
		t.Skip("the real budget's runaway takes minutes in wasm; the native run holds its verdict")
	}
	withWork(t, 0)
	e := MustNewWith(Options{WorkBudget: WorkBudget}) // whatever ECHOMQ_WORK_BUDGET says
	src := "while true do end"
	r, _ := e.Do("EVAL", src, "0")
	if want := KilledError + " script: " + sha(src) + ", on @user_script:1."; r.Kind != resp.Error || r.Str != want {
		t.Fatalf("replied %s, want %s", r, want)
	}
	if got := e.LastStop(); got != StoppedByWork {
		t.Errorf("LastStop = %v, want StoppedByWork", got)
	}
	if got := e.runner.budget.ticks; got < WorkBudget || got > WorkBudget+1024 {
		t.Errorf("stopped after %d units, want WorkBudget (%d) to within one check", got, uint64(WorkBudget))
	}
	do(t, e, "(integer) 2", "EVAL", "return 2", "0")
}

// TestTheEngineTakesItsBudgetFromItsOptionsOrTheEnvironment: an engine's
// work budget is Options.WorkBudget, else ECHOMQ_WORK_BUDGET, else
// WorkBudget; tests of other packages set the variable (their
// workbudget_test.go) to stop their runaways quickly.
func TestTheEngineTakesItsBudgetFromItsOptionsOrTheEnvironment(t *testing.T) {
	withWork(t, 0)
	old, had := os.LookupEnv("ECHOMQ_WORK_BUDGET")
	t.Cleanup(func() {
		if had {
			os.Setenv("ECHOMQ_WORK_BUDGET", old)
		} else {
			os.Unsetenv("ECHOMQ_WORK_BUDGET")
		}
	})
	os.Unsetenv("ECHOMQ_WORK_BUDGET")
	if got := MustNew().ScriptWork(); got != WorkBudget {
		t.Errorf("no option, no variable: %d, want WorkBudget", got)
	}
	os.Setenv("ECHOMQ_WORK_BUDGET", "not a number")
	if got := MustNew().ScriptWork(); got != WorkBudget {
		t.Errorf("a variable that is not a number: %d, want WorkBudget", got)
	}
	os.Setenv("ECHOMQ_WORK_BUDGET", "5000")
	e := MustNew()
	if got := e.ScriptWork(); got != 5000 {
		t.Errorf("ECHOMQ_WORK_BUDGET=5000: %d", got)
	}
	if r, _ := e.Do("EVAL", "while true do end", "0"); r.Kind != resp.Error || e.LastStop() != StoppedByWork {
		t.Errorf("a runaway under 5000 units: %s, %v", r, e.LastStop())
	}
	if got := MustNewWith(Options{WorkBudget: 7000}).ScriptWork(); got != 7000 {
		t.Errorf("Options.WorkBudget 7000 beside the variable: %d", got)
	}
}
