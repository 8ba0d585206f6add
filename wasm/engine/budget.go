package engine

import (
	"context"
	"errors"
	"time"
)

// errKilled is what the Lua VM raises when a script's budget runs out.
var errKilled = errors.New("Script killed by user with SCRIPT KILL...")

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
	deadline time.Time
	armed    bool
	expired  bool
	ticks    uint32
	onTick   func()
}

func (b *budget) arm(d time.Duration) {
	b.deadline, b.armed, b.expired, b.ticks = time.Now().Add(d), true, false, 0
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
	if b.ticks&1023 == 0 && time.Now().After(b.deadline) {
		b.expired = true
		return closed
	}
	return nil
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
