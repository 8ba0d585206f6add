package engine

import (
	"testing"

	emqlua "echomq.dev/playground/lua"
)

// The transaction rules are proven against a real redis-server in
// wasm/fidelity (cases_tx_test.go). These tests cover what only the
// playground has: the page's traced runs and reads going on beside a
// learner's open transaction.

// cdo is do on a connection of its own.
func cdo(t *testing.T, c *Client, want string, args ...string) {
	t.Helper()
	r, _ := c.Do(args...)
	if got := r.String(); got != want {
		t.Errorf("%q\n got: %s\nwant: %s", args, got, want)
	}
}

func TestATracedRunLeavesAnOpenTransactionOpen(t *testing.T) {
	e := MustNew()
	console := e.NewClient()
	cdo(t, console, "OK", "MULTI")
	cdo(t, console, "QUEUED", "SET", "k", "v")
	// The page traces an enqueue and reads the keyspace, as the stepper does.
	tr := e.Trace(emqlua.Enqueue().Source, []string{"emq:{q}:job:JOB1", "emq:{q}:pending"}, []string{"JOB1", "{}"})
	if tr.Reply.IsError() {
		t.Fatalf("trace: %v", tr.Reply)
	}
	_ = e.Keyspace()
	cdo(t, console, "QUEUED", "GET", "k")
	cdo(t, console, "1) OK\n2) \"v\"", "EXEC")
	do(t, e, "(integer) 1", "ZCARD", "emq:{q}:pending")
}

func TestATracedRunIsAWriteThatAWatchSees(t *testing.T) {
	e := MustNew()
	console := e.NewClient()
	cdo(t, console, "OK", "WATCH", "emq:{q}:pending")
	e.Trace(emqlua.Enqueue().Source, []string{"emq:{q}:job:JOB1", "emq:{q}:pending"}, []string{"JOB1", "{}"})
	cdo(t, console, "OK", "MULTI")
	cdo(t, console, "QUEUED", "ZREM", "emq:{q}:pending", "JOB1")
	cdo(t, console, "(nil)", "EXEC")
	do(t, e, "(integer) 1", "ZCARD", "emq:{q}:pending")
}

func TestReadingTheKeyspaceDoesNotSpoilAWatch(t *testing.T) {
	e := MustNew()
	do(t, e, "(integer) 1", "ZADD", "emq:{q}:pending", "1", "JOB1")
	console, handles := e.NewClient(), e.NewClient()
	cdo(t, console, "OK", "WATCH", "emq:{q}:pending")
	_ = e.Keyspace()
	cdo(t, handles, "1) \"JOB1\"", "ZRANGE", "emq:{q}:pending", "0", "-1")
	cdo(t, console, "OK", "MULTI")
	cdo(t, console, "QUEUED", "ZREM", "emq:{q}:pending", "JOB1")
	cdo(t, console, "1) (integer) 1", "EXEC")
}

func TestResetEndsEveryTransaction(t *testing.T) {
	e := MustNew()
	console := e.NewClient()
	cdo(t, console, "OK", "MULTI")
	e.Reset()
	cdo(t, console, "(error) ERR EXEC without MULTI", "EXEC")
}

// BenchmarkWriteWhileWatched measures what a WATCH costs a write while it
// stands: nothing much for a write to another key; two readings of the
// watched key for a write that names it.
// go test ./wasm/engine -bench WriteWhile -run ^$
func BenchmarkWriteWhileWatched(b *testing.B) {
	pending := "emq:{q}:pending"
	for _, bc := range []struct {
		name  string
		watch bool
		write []string
	}{
		{"no-watch/other-key", false, []string{"HINCRBY", "emq:{q}:job:JOB1", "attempts", "1"}},
		{"watched/other-key", true, []string{"HINCRBY", "emq:{q}:job:JOB1", "attempts", "1"}},
		{"no-watch/watched-key", false, []string{"ZADD", pending, "0", "JOB1"}},
		{"watched/watched-key", true, []string{"ZADD", pending, "0", "JOB1"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			e := MustNew()
			e.exec("ZADD", pending, "0", "JOB1", "0", "JOB2", "0", "JOB3")
			if bc.watch {
				e.NewClient().Do("WATCH", pending)
			}
			for b.Loop() {
				e.exec(bc.write...)
			}
		})
	}
}
