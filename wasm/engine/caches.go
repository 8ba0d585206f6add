package engine

import "github.com/alicebob/miniredis/v2"

// The engine's caches and fast paths, each a Shortcut (options.go) that the
// reference engine (Options{Reference: true}) does without, and that
// wasm/fidelity's TestReferenceEngineAgrees holds to the plain path. What
// each buys is the round trip (enqueue then claim at depth 10, emq.Jobs over
// the engine, no bridge) with that one shortcut off, over the round trip with
// all on: bench/shortcuts, 2,000 samples an engine in turns, at 8fd9717
// under a load of ~15 (see BENCHMARKS.md for the bench's own run).
//
//	shortcut          kept in                  made stale by, and forgotten  round trip off, native / wasm
//	sorted-set index  zsets, zgen              a command that may change a   3.15x / 2.92x
//	                                           sorted set, a clock move
//	                                           (forget)
//	direct commands   (miniredis's direct API)  nothing: no state              1.38x / 1.31x
//	transaction guard (len(tx))                nothing: reads the state      1.16x / 1.02x
//	shared protocols  protocolCompiled         nothing: the scripts are      1.11x / 0.99x
//	                                           constants
//	argument buffer   runner.argBuffer         nothing: refilled per call    1.07x / 1.00x
//	KEYS/ARGV tables  runner.argTables         a script that may keep them   1.06x / 1.04x
//	                                           (checked per run), reset
//	database cache    dbs                      a clock move, SWAPDB, reset   1.05x / 1.04x
//	                                           (forget)
//	hash write reads  hashBefore               the next command             1.01x / 1.03x
//	recent scripts    runner.byHash            SCRIPT FLUSH, reset           1.01x / 1.03x
//	name slots        recent                   reset (forget); a slot also   1.02x / 1.02x
//	                                           checks its name's bytes
//	shared orders     hashOrder (interned)     nothing: an order is shared   1.02x / 0.97x
//	                                           until written (copy on write)
//	name cache        cmds                     reset (forget)                1.01x / 0.99x
//	TIME reply        time                     a clock move (checked by its  1.01x / 1.00x
//	                                           reading)
//	unused replies    (callOp)                 nothing: per call             1.01x / 0.97x
//
// The last four buy under 2% of the round trip. They stay for now because
// they were made for other work than the round trip (a console's many
// names, a script's loop of TIME or of dropped replies, the memory of many
// hashes written alike), and the one benchmark of that work, the 100,000-SET
// script, moved by more than any shortcut's worth between runs on this
// shared machine (0.4-4.8 s a run): that is the measurement to repeat on a
// quiet one before any of them goes.

// staleness is what has happened that a cache may not have seen.
type staleness uint8

const (
	// zsetsMayChange: a command may have changed a sorted set behind the
	// index (every command but those that keep it, see zsetKeeper).
	zsetsMayChange staleness = 1 << iota
	// clockMoved: keys whose TTL the clock passed expire on the next read,
	// which miniredis does when it hands out a database.
	clockMoved
	// dbsSwapped: SWAPDB traded two databases.
	dbsSwapped
	// engineReset: the engine starts over (reset).
	engineReset
)

// forget is the one place the engine's caches learn that what they hold may
// be stale: each cache that the event can make stale is dropped, or its
// generation moved on so that what was checked before is checked again.
// (The caches that check themselves, per call or by their key, are in the
// table above.)
func (e *Engine) forget(why staleness) {
	if why&(zsetsMayChange|clockMoved|engineReset) != 0 {
		e.zgen++
	}
	if why&(clockMoved|dbsSwapped|engineReset) != 0 {
		e.dbs = [databases]*miniredis.RedisDB{}
	}
	if why&engineReset != 0 {
		e.cmds, e.recent = nil, [64]recentName{}
		e.zsets = nil
	}
}
