package engine

import (
	"fmt"
	"runtime/debug"
	"testing"

	"echomq.dev/playground/internal/allocated"
	"echomq.dev/playground/wasm/resp"
)

// nestedScript returns a table nested n deep, the innermost one empty.
func nestedScript(n int) string {
	return fmt.Sprintf("local t={} local c=t for i=1,%d do local n={} c[1]=n c=n end return t", n)
}

// depthOf follows a reply's first elements down and returns how many
// arrays deep it went and what it found at the bottom.
func depthOf(r resp.Reply) (int, resp.Reply) {
	depth := 0
	for r.Kind == resp.Array && len(r.Elems) == 1 {
		depth++
		r = r.Elems[0]
	}
	return depth, r
}

// smallStack runs f with Go's stacks capped near what a browser gives a
// WebAssembly module: there, every Go call is a call on the JavaScript
// engine's own stack, about 1 MB, and a Go function that recursed once per
// level of a learner's reply threw a RangeError at about 1,500 levels.
// Natively a goroutine's stack grows to a gigabyte, which would hide that;
// past the cap the test binary dies of a stack overflow.
func smallStack(t *testing.T, f func()) {
	t.Helper()
	old := debug.SetMaxStack(256 << 10)
	defer debug.SetMaxStack(old)
	f()
}

func TestDeepRepliesComeBackWholeAsFromRedis(t *testing.T) {
	e := MustNew()
	for _, tc := range []struct {
		n, depth int
		bottom   resp.Reply
	}{
		// Redis 7.0.15 sends the whole array at 5,000; past 7,995 arrays
		// its C stack for the conversion is full, and the 7,996th level is
		// the error, inside the arrays.
		{5000, 5000, resp.ArrayReply()},
		{7994, 7994, resp.ArrayReply()},
		{7995, maxReplyDepth, resp.ErrorReply("ERR reached lua stack limit")},
		{20000, maxReplyDepth, resp.ErrorReply("ERR reached lua stack limit")},
	} {
		var r resp.Reply
		smallStack(t, func() { r = e.exec("EVAL", nestedScript(tc.n), "0") })
		depth, bottom := depthOf(r)
		if depth != tc.depth || !bottom.Equal(tc.bottom) {
			t.Errorf("a table %d deep: %d arrays, then %s; want %d, then %s", tc.n+1, depth, bottom, tc.depth, tc.bottom)
		}
	}
	if r := e.exec("PING"); r.Str != "PONG" {
		t.Fatalf("PING after the deep replies: %s", r)
	}
}

// TestANewEngineDoesNotAllocateTheWholeCallStack: every keyspace of a
// course page's embeds is an engine, and so every coroutine a script
// makes has a Lua state; 20,000 call frames up front were 1.6 MB each,
// which every garbage collection of the module then scanned.
func TestANewEngineDoesNotAllocateTheWholeCallStack(t *testing.T) {
	MustNew() // the process-wide work of the first engine
	if n := allocated.Bytes(func() { MustNew() }); n > 1<<20 {
		t.Errorf("a new engine allocated %d bytes; want under 1 MiB (20,000 call frames alone are 1.6 MB)", n)
	}
}
