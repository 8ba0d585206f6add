package main

import "os"

// The engines of this package's tests stop runaways after 25 million units
// of work (engine.Options.WorkBudget, through ECHOMQ_WORK_BUDGET), not the
// real budget's 1.5 billion: each runaway here then stops in a fraction of
// a second, not tens of seconds. wasm/engine's TestTheRealBudget* hold the
// real budget's verdicts. A budget already in the environment is kept.
func init() {
	if os.Getenv("ECHOMQ_WORK_BUDGET") == "" {
		os.Setenv("ECHOMQ_WORK_BUDGET", "25000000")
	}
}
