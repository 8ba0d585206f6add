package engine

import "time"

// WorkBudget is how much work one script may do before the engine stops
// it, the way SCRIPT KILL would, in the budget's units: one unit is one
// Lua VM instruction, and the Go work done for the script outside the VM
// is counted at what it is worth next to one (see the weights below).
// Counting work, not time, gives a script the same verdict on every
// machine and under any load.
//
// It is set so that whatever a real Redis 7.0 runs within its own
// lua-time-limit (5 s) passes. budgetcalibration_test.go (-calibrate) runs
// nineteen scripts on redis-server 7.0.15, timed, and on the engine,
// counted. Measured 2026-12-04 on the project's 2-core machine (load 4 to
// 14), the most units a second of Redis is worth is a tight while loop's,
// 261 million (60 million units in 230 ms at best); earlier runs saw up to
// 284 million. 5 s of that is 1.31 to 1.42 billion units; every other
// script of the calibration is worth fewer (a loop of GETs 419 million
// per 5 s, a sort comparator 372 million, 100,000 SETs 4.4 million in all).
// 1.5 billion covers 5.3 s of Redis at the fastest rate seen.
//
// What the engine takes to spend it (a bare `while true do end`, the
// cheapest unit there is, so the longest wall time a budget can take):
// 18.6 s natively and 151 s in wasm under Node, on that machine at a load
// of 10 to 14. A learner who does not want to wait presses Stop (the
// page's, web/assets/stop.js); the budget is what ends a script nobody
// stops, with the same verdict everywhere.
const WorkBudget = 1_500_000_000

// LastResort is the page's Options.LastResort (wasm/api): how long a
// script may run, whatever its work, before the engine stops it, the guard
// against a host too slow or too busy to reach WorkBudget at all, and
// against work the count does not see (a loop of ZUNIONSTOREs over big
// sets, whose replies are small). It is four times the longest the budget
// took in wasm on the project's loaded machine (151 s), so that it never
// decides a verdict on any machine the playground is for; the page's
// heartbeat waits two of it before it calls a silent worker dead
// (web/assets/engine.js).
const LastResort = 10 * time.Minute

// scriptWork, when tests set it, is the work a run may do in every engine
// in place of its own (see runner.workFor).
// scriptLastResort, when tests set it, is the last resort of every engine
// in place of its own (Options.LastResort).
var (
	scriptWork       uint64
	scriptLastResort time.Duration
)

// lastResortFor is how long a script may run whatever its work.
func (r *runner) lastResortFor() (d time.Duration) {
	if scriptLastResort != 0 {
		return scriptLastResort
	}
	return r.e.lastResort
}

// The weights of the work done outside the VM, in units.
const (
	// commandUnits is what one redis.call costs before its arguments.
	commandUnits = 32
	// argBytesPerUnit and replyBytesPerUnit are the bytes of a command's
	// arguments and of a slow command's reply worth one unit.
	argBytesPerUnit   = 64
	replyBytesPerUnit = 64
	// libraryUnitsPerTick is how many of a library call's own units
	// (bytes scanned, elements visited, see lualib's meter) make one.
	libraryUnitsPerTick = 1
	// bytesPerUnit is how many bytes of a big string made at once are
	// worth one unit.
	bytesPerUnit = 64
)
