package engine

import (
	"context"
	"errors"
	"runtime/metrics"
	"time"

	glua "github.com/yuin/gopher-lua"
)

// errKilled is what the Lua VM raises when a script's budget runs out.
var errKilled = errors.New("Script killed by user with SCRIPT KILL...")

// MemoryBudget is how much a script may grow the heap before the engine
// stops it. Redis sets no such limit on Lua; a browser tab has one, and
// a script that fills it takes the page down with it.
const MemoryBudget = 256 << 20

// Why a script was stopped.
const (
	stoppedNot = iota
	stoppedTime
	stoppedMemory
)

var closed = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// budget is the context.Context the Lua state runs under. gopher-lua calls
// Done before every VM instruction; budget answers from a counter and checks
// the clock every 1024 instructions. That needs no timer and no goroutine,
// which matters in a browser: a timer could never fire while a runaway loop
// holds the only thread.
//
// The tracer rides the same per-instruction call (onTick) to learn which
// line of the script is running.
type budget struct {
	deadline time.Duration // since clockBase
	armed    bool
	expired  bool
	why      int // stoppedTime or stoppedMemory, once expired
	ticks    uint32
	onTick   func()
	heap     []metrics.Sample
	heapMax  uint64
}

// clockBase is the origin of the budgets' clock. A budget measures time as
// time.Since(clockBase), which reads only the monotonic clock; time.Now
// reads the wall clock as well, and in WebAssembly each of those is a call
// out to JavaScript (the wall clock's makes a Date), paid on every script.
var clockBase = time.Now()

func (b *budget) arm(d time.Duration) {
	b.deadline, b.armed, b.expired, b.why, b.ticks = time.Since(clockBase)+d, true, false, stoppedNot, 0
	// The heap is first read after 1024 instructions, not here: reading it
	// costs microseconds in WebAssembly, and most scripts end sooner.
	b.heapMax = 0
}

// heapBytes is the heap the last garbage collection found live: what a
// script keeps, not the garbage it churns (a traced run allocates on every
// instruction and keeps none of it). Cheap to read, with no
// stop-the-world, unlike runtime.ReadMemStats; a script that allocates
// fast makes collections, and so fresh readings, come often.
func (b *budget) heapBytes() uint64 {
	if b.heap == nil {
		b.heap = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	}
	metrics.Read(b.heap)
	if b.heap[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return b.heap[0].Value.Uint64()
}

// stop ends the script at its next instruction.
func (b *budget) stop(why int) {
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
	if b.ticks&1023 == 0 {
		if time.Since(clockBase) > b.deadline {
			b.stop(stoppedTime)
			return closed
		}
		if b.overMemory() {
			return closed
		}
	}
	return nil
}

// overMemory checks the heap against the script's memory budget and stops
// the script when it is over. The VM calls it every 1024 instructions, and
// the functions that can make a big string in one step call it too (see
// bigAlloc), since a thousand such steps could fill any memory.
func (b *budget) overMemory() bool {
	if !b.armed {
		return false
	}
	heap := b.heapBytes()
	if b.heapMax == 0 {
		b.heapMax = heap + MemoryBudget
		return false
	}
	if heap > b.heapMax {
		b.stop(stoppedMemory)
		return true
	}
	return false
}

// bigAlloc is called before a string of n bytes is made; for a big one it
// checks the memory budget at once. The stop takes effect at the script's
// next instruction.
func bigAlloc(L *glua.LState, n int) {
	if n < 1<<20 {
		return
	}
	if b, ok := L.Context().(*budget); ok {
		b.overMemory()
	}
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
