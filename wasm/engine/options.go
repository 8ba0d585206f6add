package engine

import (
	"fmt"
	"time"
)

// Options choose how an engine runs. The zero value is New's engine, with
// every shortcut on.
type Options struct {
	// Reference switches every shortcut off: the reference engine, which
	// answers each command the plain way (miniredis's command table, a
	// name looked up afresh, the sorted sets read from miniredis's maps
	// and put in order for each command, new KEYS and ARGV tables for
	// each run). It is the engine the differential tests hold the fast
	// one to (wasm/fidelity's TestReferenceEngineAgrees), and what the
	// benchmark measures each shortcut against.
	Reference bool
	// Without switches off the shortcuts named, one or a few at a time,
	// for the benchmark's "each shortcut alone" rows and for a test that
	// narrows a difference down to the shortcut that makes it.
	Without Shortcut
	// LastResort, when it is not 0, stops a script that is still running
	// that long after it started, whatever work it has done: the guard of
	// a host that must answer in bounded time (the page: see LastResort)
	// against a machine too slow or too busy to reach WorkBudget soon, and
	// against work the count does not see. Without it a script's verdict is
	// its work's alone, on every machine and under any load.
	LastResort time.Duration
	// WorkBudget, when it is not 0, is the work a script may do in place
	// of the constant WorkBudget. Tests and tools that stop runaways on
	// purpose set it small, so that a stop takes milliseconds rather than
	// the seconds or minutes the real budget does (see WorkBudget).
	//
	// Left 0, the process's ECHOMQ_WORK_BUDGET sets it when it is a whole
	// number of units (see envWork), else WorkBudget does.
	WorkBudget uint64
}

// Shortcut names one of the engine's caches or fast paths: each is a way
// to the same answer as the plain path it stands in for, taken because it
// is cheaper. Every one can be switched off (Options.Without).
type Shortcut uint32

const (
	// NameSlots: a command name a script names by the same constant run
	// after run is found by the address of its bytes (Engine.recent).
	NameSlots Shortcut = 1 << iota
	// NameCache: what a command name needs looked up is worked out once
	// per name and kept (Engine.cmds).
	NameCache
	// ArgTables: a script that cannot keep KEYS or ARGV is given last
	// run's two tables, refilled, and last run's Lua strings where an
	// argument is unchanged (argtables.go, stringTable).
	ArgTables
	// TimeReply: TIME's reply is made once per clock reading.
	TimeReply
	// SortedSetIndex: the order of a sorted set is kept from one command
	// to the next, and an entry checked at the current Engine.zgen is used
	// without reading miniredis again (zsets.go). Off, every command that
	// needs a set in order builds the order afresh from miniredis's map.
	SortedSetIndex
	// HashReads: a hash write reads once whether its key exists
	// (Engine.hashBefore, for the HSET inside it), skips the read when no
	// order is known, and skips working the order out again when the
	// write adds or removes no field (fixups_hash.go).
	HashReads
	// RecentScripts: EVALSHA compares the last two scripts it found
	// before it looks in the script cache (runner.byHash).
	RecentScripts
	// DirectCommands: SET (plain), HSET, EXISTS, HGET and HINCRBY's write
	// are answered through miniredis's direct API, and the fixups' HGET is
	// read so, without a trip through its command table (fastpath.go,
	// fixups_set.go, fixups.go). PING is answered directly either way: its
	// answer is a fixup too (see pingCommand).
	DirectCommands
	// DBCache: miniredis's *RedisDB is kept until the clock moves or
	// SWAPDB runs (Engine.dbs).
	DBCache
	// UnusedReplies: redis.call on a line of its own, whose reply the
	// script drops, hands the script nil instead of the reply's Lua value
	// (callOp, runner.call).
	UnusedReplies
	// ArgBuffer: redis.call's arguments go in one reused slice for the
	// commands that keep no part of it (runner.argBuffer).
	ArgBuffer
	// SharedProtos: the protocol scripts are compiled once for every
	// engine in the process (protocolCompiled).
	SharedProtos
	// TxGuard: a command is checked against transactions only when it is
	// a transaction command or some connection has one (do, dispatch).
	TxGuard
	// SharedOrders: hashes written alike share one field order
	// (internOrder).
	SharedOrders

	// lastShortcut is one past the last; allShortcuts is every one.
	lastShortcut
	allShortcuts = lastShortcut - 1
)

// shortcutNames are the shortcuts' names as the benchmark and the tests
// print them, in their order.
var shortcutNames = []string{
	"name slots", "name cache", "KEYS/ARGV tables", "TIME reply", "sorted-set index",
	"hash write reads", "recent scripts", "direct commands", "database cache",
	"unused replies", "argument buffer", "shared protocol scripts", "transaction guard", "shared field orders",
}

// Shortcuts lists every shortcut, one at a time, in order.
func Shortcuts() []Shortcut {
	var out []Shortcut
	for s := Shortcut(1); s < lastShortcut; s <<= 1 {
		out = append(out, s)
	}
	return out
}

// String is the shortcut's name, or the names of a set of them.
func (s Shortcut) String() string {
	if s == 0 {
		return "none"
	}
	out := ""
	for i, one := range Shortcuts() {
		if s&one != 0 {
			if out != "" {
				out += ", "
			}
			out += shortcutNames[i]
		}
	}
	if s&^allShortcuts != 0 {
		out += fmt.Sprintf(" (and unknown bits %#x)", uint32(s&^allShortcuts))
	}
	return out
}

// off is the set of shortcuts the options switch off.
func (o Options) off() Shortcut {
	if o.Reference {
		return allShortcuts
	}
	return o.Without & allShortcuts
}

// NewWith returns an engine that runs as o says; New is NewWith of the
// zero Options.
func NewWith(o Options) (*Engine, error) {
	if err := Ready(); err != nil {
		return nil, fmt.Errorf("engine: refusing to start: %w", err)
	}
	e := &Engine{off: o.off(), lastResort: o.LastResort, work: o.work()}
	e.runner = newRunner(e)
	e.Client = e.NewClient()
	e.reset()
	return e, nil
}

// MustNewWith is NewWith for tests and benchmarks, as MustNew is New.
func MustNewWith(o Options) *Engine {
	e, err := NewWith(o)
	if err != nil {
		panic(err)
	}
	return e
}

// plain reports whether the engine takes the plain path instead of s.
func (e *Engine) plain(s Shortcut) bool { return e.off&s != 0 }
