package engine

import (
	"strconv"
	"testing"
)

// The stream behind a key follows the key wherever miniredis moves or
// copies it (streamcmds.go): each check reads what a learner would see.
func TestStreamFollowsItsKey(t *testing.T) {
	e := MustNew()
	do(t, e, `"1-1"`, "XADD", "s", "1-1", "f", "v")
	do(t, e, "OK", "SWAPDB", "0", "1")
	do(t, e, "(integer) 0", "XLEN", "s")
	do(t, e, "OK", "SELECT", "1")
	do(t, e, "(integer) 1", "XLEN", "s")
	do(t, e, "(integer) 1", "MOVE", "s", "0")
	do(t, e, "OK", "SELECT", "0")
	do(t, e, "(integer) 1", "XLEN", "s")
	// A copy is its own stream at once, even when the source changes
	// before the copy is read.
	do(t, e, "(integer) 1", "COPY", "s", "c")
	do(t, e, `"2-1"`, "XADD", "s", "2-1", "f", "v")
	do(t, e, "(integer) 1", "XLEN", "c")
	do(t, e, "(integer) 1", "COPY", "s", "d", "DB", "2")
	do(t, e, `"3-1"`, "XADD", "s", "3-1", "f", "v")
	do(t, e, "OK", "SELECT", "2")
	do(t, e, "(integer) 2", "XLEN", "d")
	do(t, e, "OK", "SELECT", "0")
	// Expiry and a flush end a stream like any key.
	do(t, e, "(integer) 1", "PEXPIRE", "s", "10")
	e.Advance(11)
	do(t, e, "(integer) 0", "XLEN", "s")
	do(t, e, "OK", "FLUSHALL")
	do(t, e, "(integer) 0", "XLEN", "c")
	do(t, e, "none", "TYPE", "c")
}

// Streams that no key holds any more are forgotten, so a script making
// and deleting streams in a loop does not grow the engine.
func TestStreamStoreForgetsDeletedStreams(t *testing.T) {
	e := MustNew()
	for i := range 5000 {
		do(t, e, `"1-1"`, "XADD", "k"+strconv.Itoa(i%3), "1-1", "f", "v")
		do(t, e, "(integer) 1", "DEL", "k"+strconv.Itoa(i%3))
	}
	if n := len(e.streams.byToken); n > 1100 {
		t.Errorf("%d streams kept after 5000 were deleted", n)
	}
}

// stream-node-max-entries draws the nodes that "~" trims whole, as in
// Redis's suite (CONFIG SET stream-node-max-entries 2, then XCLAIM with
// trimming).
func TestStreamNodeConfig(t *testing.T) {
	e := MustNew()
	e.StreamNodeConfig(2, -1)
	for i := 1; i <= 5; i++ {
		e.exec("XADD", "s", strconv.Itoa(i)+"-1", "f", "v")
	}
	do(t, e, "(integer) 2", "XTRIM", "s", "MAXLEN", "~", "2")
	do(t, e, "(integer) 3", "XLEN", "s")
}
