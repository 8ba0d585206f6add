package fidelity

// The randomized run: the course's two scripts, by EVAL and EVALSHA, fed
// hostile input, on the engine and on the real server in step, compared
// after every operation: the reply, then the whole keyspace.
//
// Deadlines are held to redisdiff.Deadlines's clock rule.

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"echomq.dev/playground/internal/redisdiff"
	"echomq.dev/playground/wasm/engine"
)

const (
	randomID    = "random/queue-scripts"
	defaultSeed = 20260101
	defaultOps  = 3000
	// flushEvery is how often both keyspaces start over, so that a dump
	// after every operation stays cheap. The script caches are kept.
	flushEvery = 60
)

var (
	seedFlag = flag.Uint64("seed", defaultSeed, "seed of the randomized run")
	opsFlag  = flag.Int("ops", defaultOps, "operations in the randomized run")
)

// randomResult is what FIDELITY.md says of the run.
type randomResult struct {
	seed   uint64
	ops    int
	resp3  bool           // whether operations went over RESP3 too
	counts map[string]int // outcome -> how many
	failed string         // the first difference, if any
}

// runRandom runs the randomized sequence. Each operation goes over RESP2 or
// RESP3 (when the engine speaks it) at random, on a connection of each kind
// to each server; the keyspaces are read over RESP2.
func runRandom(t *testing.T, srv *redisdiff.Server, withRESP3 bool) *randomResult {
	seed, n := *seedFlag, *opsFlag
	t.Logf("seed %d, %d operations (rerun with go test ./wasm/fidelity -run 'TestFidelity/%s' -seed=%d -ops=%d)", seed, n, randomID, seed, n)
	srv.Scope(t)
	srv.Must(t, "FLUSHALL")
	srv.Must(t, "SCRIPT", "FLUSH")
	real2, real3 := srv.Dial(t), srv.Dial(t)
	en := engine.MustNew()
	eng2, eng3, dumper := &redisdiff.EngineConn{C: en.NewClient()}, &redisdiff.EngineConn{C: en.NewClient(), RESP3: true}, &redisdiff.EngineConn{C: en.NewClient()}
	if withRESP3 {
		helloRESP3(t, real3, eng3)
	}
	g := redisdiff.NewQueueGen(seed, "q", "队列", "b\xff\x00q")
	res := &randomResult{seed: seed, ops: n, resp3: withRESP3, counts: map[string]int{}}
	deadlines := redisdiff.Deadlines{}

	// fail records the first difference; the run stops there, since the
	// two keyspaces no longer start alike.
	fail := func(i int, o redisdiff.QueueOp, diff string) *randomResult {
		res.failed = fmt.Sprintf("operation %d, %v: %s", i, o, diff)
		t.Errorf("seed %d, operation %d of %d, %v: the engine and redis-server differ:\n%s", seed, i, n, o, diff)
		return res
	}
	for i := range n {
		if i%flushEvery == 0 {
			srv.Must(t, "FLUSHALL")
			dumper.Node("FLUSHALL")
			g.Forget()
			deadlines = redisdiff.Deadlines{}
		}
		o := g.Next()
		o.RESP3 = o.RESP3 && withRESP3
		eng, real := eng2, real2
		if o.RESP3 {
			eng, real = eng3, real3
			res.counts["operations sent over RESP3"]++
		}
		if o.Kind == "script-flush" {
			a, b := eng.Node("SCRIPT", "FLUSH"), real.Must(t, "SCRIPT", "FLUSH")
			if d := redisdiff.Diff(a, b); d != "" {
				return fail(i, o, d)
			}
			res.counts["SCRIPT FLUSH"]++
			continue
		}
		var t0, t1 int64
		if o.Kind == "claim" {
			t0 = srv.Now(t)
			en.SetNow(t0)
		}
		e, r := eng.Node(o.Command(o.SHA)...), real.Must(t, o.Command(o.SHA)...)
		if o.SHA && e.IsError() && r.IsError() && strings.HasPrefix(r.S, "NOSCRIPT") && e.S == r.S {
			res.counts["NOSCRIPT, then EVAL"]++
			e, r = eng.Node(o.Command(false)...), real.Must(t, o.Command(false)...)
		}
		if o.Kind == "claim" {
			t1 = srv.Now(t)
		}
		if d := redisdiff.Diff(e, r); d != "" {
			return fail(i, o, "reply: "+d)
		}
		res.counts[o.Kind+" "+describeReply(e)]++
		if len(o.Payload) > 64<<10 && o.Kind == "enqueue" {
			res.counts["enqueue with a payload over 64 KiB"]++
		}
		if o.Kind == "claim" && e.T == '*' && len(e.Elems) == 3 {
			_, _, active := redisdiff.QueueKeys(o.Queue)
			id := e.Elems[0].S
			if d := deadlines.Check(active, id, o.Lease, dumper.Node("ZSCORE", active, id), srv.Must(t, "ZSCORE", active, id), t0, t1); d != "" {
				return fail(i, o, d)
			}
		}
		de, err := redisdiff.DumpKeyspace(dumper, false, redisdiff.Databases)
		if err != nil {
			t.Fatalf("engine keyspace: %v", err)
		}
		if ds := srv.DiffKeyspace(t, de, deadlines.Align); len(ds) > 0 {
			return fail(i, o, "keyspace:\n  "+strings.Join(ds, "\n  "))
		}
	}
	t.Logf("%d operations: %v", n, res.counts)
	return res
}

// describeReply names the kind of reply a script gave, for the tally.
func describeReply(n redisdiff.Node) string {
	switch {
	case n.IsError():
		msg, _, _ := strings.Cut(n.S, " script: ")
		return "-> error " + clipText(msg, 100)
	case n.T == ':':
		return "-> " + n.S
	case n.T == '*' && len(n.Elems) == 0:
		return "-> empty"
	case n.T == '*':
		return "-> leased"
	}
	return "-> " + string(n.T)
}
