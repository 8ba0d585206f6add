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
// lua-time-limit (5 s) passes: see budgetcalibration_test.go, which runs
// a set of scripts on redis-server and on the engine and says how many
// units 5 s of Redis are worth for each.
const WorkBudget = 1_500_000_000

// LastResort is the page's Options.LastResort (wasm/api): how long a
// script may run, whatever its work, before the engine stops it, the guard
// against a host too slow or too busy to reach WorkBudget soon, and against
// work the count does not see (a loop of ZUNIONSTOREs over big sets, whose
// replies are small). It is far beyond WorkBudget's time on any machine
// the playground is for, so that it never decides a verdict there.
const LastResort = 15 * time.Second

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
