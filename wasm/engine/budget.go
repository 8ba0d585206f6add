package engine

import (
	"context"
	"errors"
	"math"
	"runtime"
	"runtime/metrics"
	"strconv"
	"time"

	glua "github.com/yuin/gopher-lua"
)

// KilledError is the error a script stopped by its budget answers, the
// words Redis gives a script that SCRIPT KILL stopped (the runner adds
// the script's SHA1 and line, as Redis does). It is defined here once:
// errKilled, the runner's reply and the api's note all read it.
const KilledError = "ERR Script killed by user with SCRIPT KILL..."

// errKilled is what the Lua VM raises when a script's budget runs out.
var errKilled = errors.New(KilledError[len("ERR "):])

// stopError is the error text of a script the budget stopped for why:
// KilledError, or for memory, words of the playground's own (Redis has no
// such limit, so it has no words for it).
func stopError(why Stop) string {
	if why == StoppedByMemory {
		return "ERR Script used more than " + strconv.Itoa(MemoryBudget>>20) + " MiB of memory; the playground stopped it, as it stops a script that runs too long"
	}
	return KilledError
}

// notBusyError is SCRIPT KILL's and FUNCTION KILL's answer here, always: a
// script never outlives the command that runs it, so there is never one
// running when either is heard.
const notBusyError = "NOTBUSY No scripts in execution right now."

// MemoryBudget is how much a script may grow the heap before the engine
// stops it. Redis sets no such limit on Lua; a browser tab has one, and
// a script that fills it takes the page down with it. WebAssembly memory
// never shrinks, so whatever a runaway grows stays with the tab until it
// closes; and fresh memory is slow to get (about 3 ms per MiB under V8),
// so a bigger budget would let the script's other limits (WorkBudget,
// LastResort) end a runaway allocation first, with the wrong reason, on a
// slow machine.
const MemoryBudget = 64 << 20

// Stop is why the engine stopped a script, as Client.LastStop reports it.
type Stop int

const (
	// NotStopped: the script ended by itself (with a reply or an error).
	NotStopped Stop = iota
	// StoppedByWork: it had done WorkBudget units of work.
	StoppedByWork
	// StoppedByMemory: it had grown the heap by MemoryBudget.
	StoppedByMemory
	// StoppedByClock: it was still running LastResort after it started,
	// the guard against a host too slow or too busy to reach WorkBudget.
	StoppedByClock
)

var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// budget is the context.Context the Lua state runs under. gopher-lua calls
// Done before every VM instruction; budget counts the instruction as one
// unit of work, and every 1024 units it compares the count with the
// script's limit, reads the heap and (the last resort) the clock. Go work
// done for the script outside the VM, its redis.calls and the loops inside
// library calls, is counted in the same units (charge, Spend; see
// WorkBudget for what each is worth). The verdict is the count's, so it is
// the same on every machine and under any load: the same script over the
// same keyspace is stopped at the same instruction. Counting needs no timer
// and no goroutine, which matters in a browser: a timer could never fire
// while a runaway loop holds the only thread.
//
// The tracer rides the same per-instruction call (onTick) to learn which
// line of the script is running.
type budget struct {
	deadline time.Duration // the last resort, since clockBase
	limit    uint64        // the work the script may do
	armed    bool
	expired  bool
	why      Stop   // once expired
	ticks    uint64 // the work done so far
	onTick   func()
	heap     []metrics.Sample // live heap, then heap objects; see readHeap
	liveMax  uint64           // the live heap past which the script is stopped
	lookAt   uint64           // the heap objects past which overMemory collects to see

	// unused is the Go function an OP_CALL that keeps none of its results
	// is calling right now, or nil (see callOp and unusedResult). The
	// budget carries it because it is the one object of the runner's that
	// every Lua thread of a script reaches.
	unused *glua.LFunction
}

// unusedResult reports whether fn, the Go function now running, was called
// by a statement that drops its results, and forgets the mark: a Go call
// that fn makes in turn is not that statement.
func (b *budget) unusedResult(fn *glua.LFunction) bool {
	u := b.unused
	b.unused = nil
	return u != nil && u == fn
}

// clockBase is the origin of the budgets' clock. A budget measures time as
// time.Since(clockBase), which reads only the monotonic clock; time.Now
// reads the wall clock as well, and in WebAssembly each of those is a call
// out to JavaScript (the wall clock's makes a Date), paid on every script.
var clockBase = time.Now()

// arm starts a script's budget: work units of work, and lastResort of
// time (0 for none: the script then runs until its work is done).
func (b *budget) arm(work uint64, lastResort time.Duration) {
	b.deadline = math.MaxInt64
	if lastResort > 0 {
		b.deadline = time.Since(clockBase) + lastResort
	}
	b.limit, b.armed, b.expired, b.why, b.ticks = work, true, false, NotStopped, 0
	b.unused = nil
	// The heap is first read after 1024 instructions, not here: reading it
	// costs microseconds in WebAssembly, and most scripts end sooner.
	b.liveMax, b.lookAt = 0, 0
}

// readHeap reads two figures the runtime keeps without a stop-the-world
// (unlike runtime.ReadMemStats):
//   - live: what the last garbage collection found reachable;
//   - objects: every heap object now, reachable or not yet swept.
//
// Neither alone can judge a script. live is only as fresh as the last
// collection, and in WebAssembly the collector's own goroutines never get
// the thread while a script loops, so a script can grow the heap by
// gigabytes before live moves. objects moves at once but counts garbage: a
// traced run allocates on every instruction and keeps none of it.
func (b *budget) readHeap() (live, objects uint64) {
	if b.heap == nil {
		b.heap = []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	}
	metrics.Read(b.heap)
	for _, s := range b.heap {
		if s.Value.Kind() != metrics.KindUint64 {
			return 0, 0
		}
	}
	return b.heap[0].Value.Uint64(), b.heap[1].Value.Uint64()
}

// stop ends the script at its next instruction.
func (b *budget) stop(why Stop) {
	b.expired, b.why = true, why
}

func (b *budget) disarm() { b.armed = false }

func (b *budget) Done() <-chan struct{} {
	if b.onTick != nil {
		b.onTick()
	}
	if !b.armed {
		return nil
	}
	if b.expired {
		return closed
	}
	b.ticks++
	if b.ticks&1023 == 0 && b.check() {
		return closed
	}
	return nil
}

// check is what the budget looks at every 1024 units of work: the count
// against the limit, then the memory, then the clock. It reports whether
// the script is to stop.
func (b *budget) check() bool {
	if b.ticks > b.limit {
		b.stop(StoppedByWork)
		return true
	}
	if b.overMemory() {
		return true
	}
	if b.deadline != math.MaxInt64 && time.Since(clockBase) > b.deadline {
		b.stop(StoppedByClock)
		return true
	}
	// The collector's turn, as api.Module.Serve gives one between
	// calls: in wasm nothing else would let its worker run during a
	// long script. One script of 100,000 SETs took a median of ~450
	// ms in Node with a turn here every 1,024 ticks, against ~590 ms
	// without; a loop of arithmetic did not slow down.
	runtime.Gosched()
	return false
}

// spent is Done for Go code that works on the script's behalf outside the
// VM (converting its reply): it counts toward the same clock and memory
// checks, without telling the tracer of a line run. It is called once per
// 64 elements of a reply; inlined, it would only make the module bigger.
//
//go:noinline
func (b *budget) spent() bool {
	onTick := b.onTick
	b.onTick = nil
	done := b.Done() != nil
	b.onTick = onTick
	return done
}

// overMemory checks the heap against the script's memory budget and stops
// the script when it is over. The VM calls it every 1024 instructions, and
// the functions that can make a big string in one step call it too (see
// bigAlloc), since a thousand such steps could fill any memory.
//
// The first reading sets the limits. After that, heap objects growing by
// the budget is the cue to collect garbage and read the live heap fresh: a
// script that keeps what it makes is stopped once it holds MemoryBudget more
// than when it started, with the tab's memory near that much and not
// several times it. A script that only churns garbage costs a collection
// per MemoryBudget it allocates, which the runtime would have spent anyway.
func (b *budget) overMemory() bool {
	if !b.armed {
		return false
	}
	live, objects := b.readHeap()
	if b.liveMax == 0 {
		b.liveMax, b.lookAt = live+MemoryBudget, objects+MemoryBudget
		return false
	}
	if objects <= b.lookAt {
		return false
	}
	runtime.GC()
	live, objects = b.readHeap()
	if live > b.liveMax {
		b.stop(StoppedByMemory)
		return true
	}
	// Look again once the script could have used up what is left, but not
	// sooner than MemoryBudget/16 on: at most 16 collections near the limit.
	b.lookAt = objects + max(b.liveMax-live, MemoryBudget/16)
	return false
}

// bigAlloc is called before a string of n bytes is made. A big one checks
// the memory budget at once, and making it counts as work (see charge):
// it is Go work the VM does not see, one instruction however long the
// string. A stop takes effect at the script's next instruction.
func bigAlloc(L *glua.LState, n int) {
	// Below 64 KiB, the VM's own check every 1024 instructions comes soon
	// enough; at 1 MB a step, it would let a loop make a gigabyte first.
	if n < 64<<10 {
		return
	}
	b, ok := L.Context().(*budget)
	if !ok || !b.armed || b.expired {
		return
	}
	// Memory first: a script that keeps what it makes is stopped for that,
	// even when its work is up as well.
	if !b.overMemory() {
		b.charge(n / bytesPerUnit)
	}
}

// charge counts units of Go work done for the script outside the VM, and
// looks at the budget when they carry the count past a multiple of 1024,
// as Done does.
func (b *budget) charge(units int) {
	if !b.armed || b.expired {
		return
	}
	before := b.ticks
	b.ticks += uint64(max(units, 0))
	if b.ticks>>10 != before>>10 {
		b.check()
	}
}

// Spend is how a library function that loops in Go (see lualib's meter)
// counts its work: units of its own (bytes scanned, elements visited),
// worth libraryUnitsPerTick each a unit of the budget's. It reports
// whether the script is to stop.
func (b *budget) Spend(units int) bool {
	b.charge(units / libraryUnitsPerTick)
	return b.expired
}

func (b *budget) Err() error {
	if b.expired {
		return errKilled
	}
	return nil
}

func (b *budget) Deadline() (time.Time, bool) { return time.Time{}, false }
func (b *budget) Value(any) any               { return nil }

var _ context.Context = (*budget)(nil)
