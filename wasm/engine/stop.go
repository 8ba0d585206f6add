package engine

import (
	"os"
	"strconv"
)

// workFor is the work a script may do: what a test set for every engine
// of its package (scriptWork), else the engine's own (Engine.work).
func (r *runner) workFor() uint64 {
	if scriptWork != 0 {
		return scriptWork
	}
	return r.e.work
}

// ScriptWork is the work one script may do in this engine, in the
// budget's units: WorkBudget unless Options.WorkBudget or the process's
// ECHOMQ_WORK_BUDGET set another. The api's note on a stopped script says
// it, so that the note is true of the engine that stopped it.
func (e *Engine) ScriptWork() uint64 { return e.runner.workFor() }

// work is the engine's work budget for o (see Options.WorkBudget).
func (o Options) work() uint64 {
	if o.WorkBudget != 0 {
		return o.WorkBudget
	}
	if n := envWork(); n != 0 {
		return n
	}
	return WorkBudget
}

// envWork is ECHOMQ_WORK_BUDGET, a whole number of units, or 0. It is the
// one knob that reaches every engine of a process without code: the test
// binaries of other packages (their TestMain sets it), Node running the
// wasm module (go.env), and the page's worker, which sets it from the
// page's budget option (web/assets/worker.js). Tests that stop runaways on
// purpose set it small, so that each stop takes milliseconds, not the
// real budget's tens of seconds. It is read when an engine is made.
func envWork() uint64 {
	n, err := strconv.ParseUint(os.Getenv("ECHOMQ_WORK_BUDGET"), 10, 64)
	if err != nil {
		return 0
	}
	return n
}
