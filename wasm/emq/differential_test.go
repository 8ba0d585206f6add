package emq_test

// The promise to learners: the exact scripts, and the exact replies that
// real Redis 7 would give. Every test here runs the same operations through
// emq.Jobs over the engine and over a real redis-server, and compares what
// a client can see: the outcome (verdict, job, refusal kind, the server's
// reply text, the EVALSHA/EVAL exchanges) and then the whole keyspace,
// with internal/redisdiff's dump and its rule for the deadlines of leases
// (redisdiff.Deadlines). Without a redis-server, the real side is the
// recording of one (testdata, go test -update).

import (
	"errors"
	"flag"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"echomq.dev/playground/internal/redisdiff"
	"echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/emq"
	"echomq.dev/playground/wasm/engine"
	"echomq.dev/playground/wasm/resp"
)

var seedFlag = flag.Uint64("seed", 0, "seed of the randomized differential run (0: the fixed default)")

// defaultSeed keeps the randomized run the same from one run to the next.
const defaultSeed = 20260101

// op is one handle call, as a failure prints it.
type op struct {
	verb        string // enqueue, claim, pause, resume
	queue       string
	id, payload string // enqueue
	lease       string // claim
}

func (o op) String() string {
	switch o.verb {
	case "enqueue":
		return fmt.Sprintf("enqueue(%s, %s, %s)", redisdiff.Short(o.queue), redisdiff.Short(o.id), redisdiff.Short(o.payload))
	case "claim":
		return fmt.Sprintf("claim(%s, %s)", redisdiff.Short(o.queue), redisdiff.Short(o.lease))
	}
	return fmt.Sprintf("%s(%s)", o.verb, redisdiff.Short(o.queue))
}

func enq(queue, id, payload string) op {
	return op{verb: "enqueue", queue: queue, id: id, payload: payload}
}
func clm(queue, lease string) op { return op{verb: "claim", queue: queue, lease: lease} }
func pause(queue string) op      { return op{verb: "pause", queue: queue} }
func resume(queue string) op     { return op{verb: "resume", queue: queue} }

func (o op) run(j *emq.Jobs) (emq.Outcome, error) {
	switch o.verb {
	case "enqueue":
		return j.Enqueue(o.queue, o.id, o.payload)
	case "claim":
		return j.ClaimLease(o.queue, o.lease)
	case "pause":
		return j.Pause(o.queue)
	case "resume":
		return j.Resume(o.queue)
	}
	panic("unknown verb " + o.verb)
}

// pair is the engine and a real server, driven in step.
type pair struct {
	t         testing.TB
	eng       *engine.Engine
	real      emq.Conn          // a redis-server, or a Redis Cluster (cluster_test.go)
	srv       *redisdiff.Server // the redis-server, live or recorded; nil for a cluster
	je, jr    *emq.Jobs
	deadlines redisdiff.Deadlines
	// preload has reset load both scripts on both sides: a cluster keeps a
	// script cache per node, so a script loaded once is not loaded on the
	// node the next queue lives on, where the engine has one cache.
	preload bool
}

func newPair(t testing.TB) *pair {
	t.Helper()
	return newPairOn(t, startRedis(t))
}

// newPairOn is newPair with the real side given.
func newPairOn(t testing.TB, real emq.Conn) *pair {
	t.Helper()
	e := newEngine(t)
	p := &pair{t: t, eng: e, real: real, je: emq.NewJobs(e), jr: emq.NewJobs(real), deadlines: redisdiff.Deadlines{}}
	if r, ok := real.(*redisdiff.Real); ok {
		p.srv = r.Server()
		p.srv.Databases = handleDatabases
	}
	return p
}

// handleDatabases is how many databases the comparisons read: the handles
// use database 0, and reading the fifteen others after every operation
// would double the run's time.
const handleDatabases = 1

// reset empties both servers: keys and script caches. A recorded server
// replays t's own exchanges from here on.
func (p *pair) reset() {
	p.t.Helper()
	if p.srv != nil {
		p.srv.Scope(p.t)
	}
	p.eng.Reset()
	mustDo(p.t, p.real, "FLUSHALL")
	mustDo(p.t, p.real, "SCRIPT", "FLUSH")
	p.deadlines = redisdiff.Deadlines{}
	if p.preload {
		for _, s := range lua.All() {
			mustDo(p.t, p.eng, "SCRIPT", "LOAD", s.Source)
			mustDo(p.t, p.real, "SCRIPT", "LOAD", s.Source)
		}
	}
}

// realNow is the real server's clock in Unix ms, as @claim computes it.
func (p *pair) realNow() int64 {
	p.t.Helper()
	now, err := redisdiff.Now(p.real)
	if err != nil {
		p.t.Fatal(err)
	}
	return now
}

// step runs o on both servers and returns what differs, or "".
func (p *pair) step(o op) string {
	d, _ := p.stepVerdict(o)
	return d
}

// stepVerdict is step that also says what the engine made of o: its
// verdict, or "refused:<kind>".
func (p *pair) stepVerdict(o op) (diff, verdict string) {
	p.t.Helper()
	d, out, err := p.run(o)
	var r *emq.Refusal
	switch {
	case errors.As(err, &r):
		return d, "refused:" + r.Kind
	case err != nil:
		return d, "error"
	}
	return d, string(out.Verdict)
}

func (p *pair) run(o op) (string, emq.Outcome, error) {
	p.t.Helper()
	var t0, t1 int64
	if o.verb == "claim" {
		t0 = p.realNow()
		p.eng.SetNow(t0)
	}
	outE, errE := o.run(p.je)
	outR, errR := o.run(p.jr)
	if o.verb == "claim" {
		t1 = p.realNow()
	}
	if d := diffOutcomes(outE, errE, outR, errR); d != "" {
		return "outcome:\n" + d, outE, errE
	}
	if o.verb == "claim" && outE.Verdict == emq.Leased {
		k, _ := emq.KeyspaceFor(o.queue)
		if d := p.checkDeadline(k.Active(), outE.Job.ID, o.lease, t0, t1); d != "" {
			return d, outE, errE
		}
	}
	return p.compareKeyspaces(), outE, errE
}

// checkDeadline holds both deadlines of a lease to the clock rule and
// keeps the engine's for the keyspace comparison.
func (p *pair) checkDeadline(active, id, leaseArg string, t0, t1 int64) string {
	score := func(c emq.Conn) redisdiff.Node {
		return redisdiff.FromReply(mustDo(p.t, c, "ZSCORE", active, id), false)
	}
	return p.deadlines.Check(active, id, leaseArg, score(p.eng), score(p.real), t0, t1)
}

// compareKeyspaces dumps both servers and returns the diff, with the real
// server's checked deadlines replaced by the engine's.
func (p *pair) compareKeyspaces() string {
	p.t.Helper()
	de, err := redisdiff.DumpKeyspace(redisdiff.Replies{C: p.eng}, false, handleDatabases)
	if err != nil {
		p.t.Fatalf("engine keyspace: %v", err)
	}
	var ds []string
	if p.srv != nil {
		ds = p.srv.DiffKeyspace(p.t, de, p.deadlines.Align)
	} else {
		dr, err := redisdiff.DumpKeyspace(redisdiff.Replies{C: p.real}, true, handleDatabases)
		if err != nil {
			p.t.Fatalf("redis keyspace: %v", err)
		}
		p.deadlines.Align(dr)
		ds = redisdiff.DiffDumps(de, dr)
	}
	if len(ds) > 0 {
		return "keyspace:\n  " + strings.Join(ds, "\n  ")
	}
	return ""
}

// compareSnapshots compares what the page would draw for queue, with the
// clock left out (the servers' clocks differ) and deadlines checked above.
func (p *pair) compareSnapshots(queue string) string {
	se, errE := p.je.Snapshot(queue)
	sr, errR := p.jr.Snapshot(queue)
	if errE != nil || errR != nil {
		return fmt.Sprintf("snapshot errors: engine %v, redis %v", errE, errR)
	}
	se.Now, sr.Now = 0, 0
	se.Active, sr.Active = leaseIDs(se.Active), leaseIDs(sr.Active)
	sort.Slice(sr.Active, func(i, j int) bool { return sr.Active[i].ID < sr.Active[j].ID })
	sort.Slice(se.Active, func(i, j int) bool { return se.Active[i].ID < se.Active[j].ID })
	if !reflect.DeepEqual(se, sr) {
		return fmt.Sprintf("snapshot of %s:\n  engine %+v\n  redis  %+v", redisdiff.Short(queue), se, sr)
	}
	return ""
}

func leaseIDs(ls []emq.Lease) []emq.Lease {
	out := make([]emq.Lease, len(ls))
	for i, l := range ls {
		out[i] = emq.Lease{ID: l.ID}
	}
	return out
}

// diffOutcomes compares two handle results field by field.
func diffOutcomes(a emq.Outcome, errA error, b emq.Outcome, errB error) string {
	var out strings.Builder
	line := func(what string, x, y any) {
		fmt.Fprintf(&out, "  %s:\n    engine %v\n    redis  %v\n", what, x, y)
	}
	var ra, rb *emq.Refusal
	switch {
	case errors.As(errA, &ra) && errors.As(errB, &rb):
		if ra.Kind != rb.Kind {
			line("refusal kind", ra.Kind, rb.Kind)
		}
		if !ra.Reply.Equal(rb.Reply) {
			line("refusal reply", ra.Reply, rb.Reply)
		}
		if !sameWire(ra.Wire, rb.Wire) {
			line("exchanges", showWire(ra.Wire), showWire(rb.Wire))
		}
		return out.String()
	case errA != nil || errB != nil:
		if errA == nil || errB == nil || errA.Error() != errB.Error() {
			line("error", errA, errB)
		}
		return out.String()
	}
	if a.Verdict != b.Verdict {
		line("verdict", a.Verdict, b.Verdict)
	}
	if (a.Job == nil) != (b.Job == nil) || a.Job != nil && *a.Job != *b.Job {
		line("job", showJob(a.Job), showJob(b.Job))
	}
	if !sameWire(a.Wire, b.Wire) {
		line("exchanges", showWire(a.Wire), showWire(b.Wire))
	}
	return out.String()
}

func showJob(j *emq.Job) string {
	if j == nil {
		return "<nil>"
	}
	return fmt.Sprintf("{%s %s %d}", redisdiff.Short(j.ID), redisdiff.Short(j.Payload), j.Attempts)
}

// mebibyte is a 1 MiB payload holding every byte value, NUL and the bytes
// that are never valid UTF-8 included.
var mebibyte = func() string {
	b := make([]byte, 1<<20)
	for i := range b {
		b[i] = byte(i*7 + i>>8)
	}
	return string(b)
}()

func TestDifferentialScenarios(t *testing.T) {
	runScenarios(t, newPair(t), scenarios)
}

// scenario is a list of handle calls run on both sides.
type scenario struct {
	desc   string
	ops    []op
	queues []string // snapshots compared at the end
}

var scenarios = []scenario{
	{
		desc: "the three verdicts",
		ops: []op{
			enq("q", "JOB1", "hello"), enq("q", "JOB1", "hello"), enq("q", "JOB1", "other"),
			enq("q", "job1", "x"), enq("q", "", "x"), enq("q", "JO", "x"), enq("q", "XJOB", "x"), enq("q", "JOB", "bare"),
		},
		queues: []string{"q"},
	},
	{
		desc: "claims, in byte order, down to empty",
		ops: []op{
			clm("q", "1000"), // nothing yet
			enq("q", "JOB2", "b"), enq("q", "JOB10", "c"), enq("q", "JOB1", "a"), enq("q", "JOBa", "d"),
			clm("q", "1000"), clm("q", "30000"), clm("q", "1"), clm("q", "999999999999999"), clm("q", "1000"), clm("q", "1000"),
			enq("q", "JOB1", "again"), clm("q", "1000"),
			clm("never-used", "1000"),
		},
		queues: []string{"q", "never-used"},
	},
	{
		desc: "pause and resume",
		ops: []op{
			enq("q", "JOB1", "a"), enq("q", "JOB2", "b"), enq("r", "JOB1", "r"),
			pause("q"), clm("q", "1000"), pause("q"), enq("q", "JOB0", "z"), clm("q", "1000"), clm("r", "1000"),
			resume("q"), clm("q", "1000"), resume("q"), resume("never-paused"), clm("q", "1000"),
		},
		queues: []string{"q", "r"},
	},
	{
		desc: "ids and payloads that are not plain text",
		ops: []op{
			enq("q", "JOB\x00", "nul\x00inside"),
			enq("q", "JOB\x00\x00", "\x00"),
			enq("q", "JOB\xff\xfe", "\xc3\x28 invalid \xa0\xa1"),
			enq("q", "JOB队列🚀", "ünïcödé 🚀 队列"),
			enq("q", "JOB\r\n", "crlf\r\n"),
			enq("q", "JOB big", mebibyte),
			enq("q", "JOB\x00", "dup"), enq("q", "\xffJOB", "kind"), enq("q", "\x00JOB", "kind"),
			clm("q", "1000"), clm("q", "1000"), clm("q", "1000"), clm("q", "1000"), clm("q", "1000"), clm("q", "1000"), clm("q", "1000"),
		},
		queues: []string{"q"},
	},
	{
		desc: "queue names with hash-tag, glob and non-text bytes",
		ops: []op{
			enq("q*", "JOB1", "a"), enq("[q]", "JOB1", "b"), enq("a}b", "JOB1", "c"), enq("{x}", "JOB1", "d"),
			enq("队列", "JOB1", "e"), enq("q\xff", "JOB1", "f"), enq("", "JOB1", "g"),
			clm("q*", "1000"), clm("[q]", "1000"), clm("a}b", "1000"), clm("{x}", "1000"), clm("队列", "1000"), clm("", "1000"),
			pause(""), pause("q*"), clm("q*", "1000"),
		},
		// "a}b", "{x}" and "" are refused before any command, on both
		// sides alike (the ops above compare that); they have no snapshot.
		queues: []string{"q*", "[q]", "队列", "q\xff"},
	},
	{
		desc: "bad leases leave the queue untouched",
		ops: []op{
			enq("q", "JOB1", "a"),
			clm("q", "0"), clm("q", "-5"), clm("q", "abc"), clm("q", "1e3"), clm("q", ""), clm("q", " 5"),
			clm("q", "1234567890123456"), clm("q", "05"), clm("q", "5.0"), clm("q", "+5"),
			clm("q", "5"),
		},
		queues: []string{"q"},
	},
}

// runScenarios runs each scenario on p's two sides from empty, comparing
// after every call and the snapshots at the end.
func runScenarios(t *testing.T, p *pair, all []scenario) {
	for _, sc := range all {
		t.Run(sc.desc, func(t *testing.T) {
			p.t = t
			p.reset()
			for i, o := range sc.ops {
				if d := p.step(o); d != "" {
					t.Fatalf("op %d, %v: engine and redis differ\n%s", i, o, d)
				}
			}
			for _, q := range sc.queues {
				if d := p.compareSnapshots(q); d != "" {
					t.Errorf("%s", d)
				}
			}
		})
	}
}

// TestDifferentialRandomized runs a long mixed sequence of operations on
// three queues and compares after every one. The seed is fixed; pass
// -seed=N to try another.
func TestDifferentialRandomized(t *testing.T) {
	seed := *seedFlag
	if seed == 0 {
		seed = defaultSeed
	}
	t.Logf("seed %d (rerun with go test ./wasm/emq -run TestDifferentialRandomized -seed=%d)", seed, seed)
	runRandomized(t, newPair(t), seed, 1200)
}

// runRandomized runs n random handle calls on p's two sides, comparing
// after every one.
func runRandomized(t *testing.T, p *pair, seed uint64, n int) {
	g := redisdiff.NewQueueGen(seed, "q", "mail", "队列{x}")
	g.MaxPayload = 8 << 10 // the recording keeps each reply whole
	counts := map[string]int{}
	for i := range n {
		o := nextOp(g)
		d, verdict := p.stepVerdict(o)
		counts[o.verb+" "+verdict]++
		if d != "" {
			t.Fatalf("seed %d, op %d of %d, %v: engine and redis differ\n%s", seed, i, n, o, d)
		}
		// Keep the keyspace small enough to dump after every operation:
		// every so often both servers start over (the script caches
		// stay, so later runs go by EVALSHA).
		if i%100 == 99 {
			mustDo(t, p.eng, "FLUSHALL")
			mustDo(t, p.real, "FLUSHALL")
			p.deadlines = redisdiff.Deadlines{}
			g.Forget()
		}
	}
	t.Logf("%d operations: %v", n, counts)
}

// nextOp is the next handle call: now and then a pause or a resume, else
// the shared generator's next enqueue or claim, with its hostile ids,
// payloads and leases. (Its SCRIPT FLUSH and its short argument lists are
// not handle calls: the handles always send every argument.)
func nextOp(g *redisdiff.QueueGen) op {
	switch n := g.IntN(100); {
	case n < 6:
		return pause(g.Queue())
	case n < 10:
		return resume(g.Queue())
	}
	for {
		switch o := g.Next(); o.Kind {
		case "enqueue":
			return enq(o.Queue, o.ID, o.Payload)
		case "claim":
			return clm(o.Queue, o.Lease)
		}
	}
}

// gopherArgWording is the one known difference in error text: gopher-lua
// names the function of a bad argument without quotes ("to sub"), where
// Lua 5.1 in Redis quotes it ("to 'sub'").
var gopherArgWording = regexp.MustCompile(`bad argument #(\d+) to '([^']*)'`)

func toGopherArgWording(redis string) string {
	return gopherArgWording.ReplaceAllString(redis, "bad argument #$1 to $2")
}

// TestDifferentialRawEval sends the scripts hostile input directly with
// EVAL, the way a learner's console can, and compares the raw replies,
// error text included, and the keyspace each leaves behind (a script's
// writes before an error stay, on both).
func TestDifferentialRawEval(t *testing.T) {
	p := newPair(t)
	enqSrc, claimSrc := lua.Enqueue().Source, lua.Claim().Source
	enqueueEval := func(keys []string, argv ...string) []string {
		return append(append([]string{"EVAL", enqSrc, strconv.Itoa(len(keys))}, keys...), argv...)
	}
	claimEval := func(keys []string, argv ...string) []string {
		return append(append([]string{"EVAL", claimSrc, strconv.Itoa(len(keys))}, keys...), argv...)
	}
	row, pending, active, base := "emq:{q}:job:JOB1", "emq:{q}:pending", "emq:{q}:active", "emq:{q}:job:"
	both := []string{pending, active}

	for _, tc := range []struct {
		desc  string
		setup [][]string
		cmd   []string
		// wording, when set, turns Redis's reply into the text gopher-lua
		// is known to give instead; the test is skipped only when the
		// engine's reply is exactly that.
		wording func(string) string
	}{
		{desc: "enqueue with no keys and no arguments", cmd: enqueueEval(nil), wording: toGopherArgWording},
		{desc: "enqueue with keys but no arguments", cmd: enqueueEval([]string{row, pending}), wording: toGopherArgWording},
		{desc: "enqueue without a payload", cmd: enqueueEval([]string{row, pending}, "JOB1")},
		{desc: "enqueue with no keys", cmd: enqueueEval(nil, "JOB1", "p")},
		{desc: "enqueue without the pending key: the row stays", cmd: enqueueEval([]string{row}, "JOB1", "p")},
		{desc: "enqueue with extra arguments", cmd: enqueueEval([]string{row, pending, "extra"}, "JOB1", "p", "more")},
		{desc: "enqueue over a pending key that is a string: the row stays",
			setup: [][]string{{"SET", pending, "x"}}, cmd: enqueueEval([]string{row, pending}, "JOB1", "p")},
		{desc: "enqueue over a row that is a string is a duplicate",
			setup: [][]string{{"SET", row, "x"}}, cmd: enqueueEval([]string{row, pending}, "JOB1", "p")},
		{desc: "enqueue of a malformed id", cmd: enqueueEval([]string{row, pending}, "nope", "p")},
		{desc: "claim with no arguments", cmd: claimEval(both), wording: toGopherArgWording},
		{desc: "claim without a lease", cmd: claimEval(both, base), wording: toGopherArgWording},
		{desc: "claim with a bad lease", setup: [][]string{{"ZADD", pending, "0", "JOB1"}}, cmd: claimEval(both, base, "1e3")},
		{desc: "claim without the active key: the pop and the row writes stay",
			setup: [][]string{{"ZADD", pending, "0", "JOB1"}, {"HSET", row, "state", "pending", "attempts", "0", "payload", "p"}},
			cmd:   claimEval([]string{pending}, base, "1000")},
		{desc: "claim of an id with no row",
			setup: [][]string{{"ZADD", pending, "0", "JOB1"}}, cmd: claimEval(both, base, "1000")},
		{desc: "claim with another row base",
			setup: [][]string{{"ZADD", pending, "0", "JOB1"}}, cmd: claimEval(both, "elsewhere:", "1000")},
		{desc: "claim of a row that is a string: the pop stays",
			setup: [][]string{{"ZADD", pending, "0", "JOB1"}, {"SET", row, "x"}}, cmd: claimEval(both, base, "1000")},
		{desc: "claim over an active key that is a string: the writes stay",
			setup: [][]string{{"ZADD", pending, "0", "JOB1"}, {"HSET", row, "attempts", "0"}, {"SET", active, "x"}},
			cmd:   claimEval(both, base, "1000")},
		{desc: "claim of a row whose attempts is not a number",
			setup: [][]string{{"ZADD", pending, "0", "JOB1"}, {"HSET", row, "attempts", "many", "payload", "p"}},
			cmd:   claimEval(both, base, "1000")},
		{desc: "claim of a row whose attempts would overflow",
			setup: [][]string{{"ZADD", pending, "0", "JOB1"}, {"HSET", row, "attempts", "9223372036854775807", "payload", "p"}},
			cmd:   claimEval(both, base, "1000")},
		{desc: "claim from a pending key that is a hash",
			setup: [][]string{{"HSET", pending, "f", "v"}}, cmd: claimEval(both, base, "1000")},
		{desc: "numkeys that is not a number", cmd: []string{"EVAL", enqSrc, "two", row, pending}},
		{desc: "negative numkeys", cmd: []string{"EVAL", enqSrc, "-1"}},
		{desc: "more keys than arguments", cmd: []string{"EVAL", enqSrc, "3", row, pending}},
		{desc: "EVALSHA of an unknown script", cmd: []string{"EVALSHA", lua.Claim().SHA, "0"}},
		{desc: "EVALSHA in upper case",
			setup: [][]string{{"SCRIPT", "LOAD", enqSrc}},
			cmd:   []string{"EVALSHA", strings.ToUpper(lua.Enqueue().SHA), "2", row, pending, "JOB1", "p"}},
		{desc: "a script that does not compile", cmd: []string{"EVAL", "return (", "0"}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			p.t = t
			p.reset()
			for _, cmd := range tc.setup {
				a, b := mustDo(t, p.eng, cmd...), mustDo(t, p.real, cmd...)
				if !a.Equal(b) {
					t.Fatalf("setup %s: engine %v, redis %v", redisdiff.ShowCommand(cmd), a, b)
				}
			}
			// The clock rule of the file comment: the engine runs at the
			// real server's time, and any lease written is checked.
			t0 := p.realNow()
			p.eng.SetNow(t0)
			got, want := mustDo(t, p.eng, tc.cmd...), mustDo(t, p.real, tc.cmd...)
			t1 := p.realNow()
			if mustDo(t, p.real, "TYPE", active).Str == "zset" {
				for _, id := range strs(t, mustDo(t, p.real, "ZRANGE", active, "0", "-1")) {
					if d := p.checkDeadline(active, id, tc.cmd[len(tc.cmd)-1], t0, t1); d != "" {
						t.Errorf("%s", d)
					}
				}
			}
			// The keyspace is judged even when the reply is a known
			// difference: a skip must not hide a write.
			if d := p.compareKeyspaces(); d != "" {
				t.Errorf("after %s:\n%s", tc.desc, d)
			}
			switch {
			case got.Equal(want):
			case tc.wording != nil && got.Kind == resp.Error && want.Kind == resp.Error && got.Str == tc.wording(want.Str) && !t.Failed():
				t.Skipf("known difference: gopher-lua words a bad argument without quotes\n engine: %v\n redis:  %v", got, want)
			default:
				t.Errorf("%s\nengine: %v\nredis:  %v", redisdiff.ShowCommand(tc.cmd[:min(len(tc.cmd), 3)])+" ...", got, want)
			}
		})
	}
}

// TestDifferentialKeysPatterns: Snapshot finds a queue's rows with KEYS and
// JobPattern, and a learner's console can send KEYS too, so the engine's
// glob must be Redis's: byte-wise, and never a crash. Each pattern runs on
// a fresh engine, since a panic inside miniredis leaves its lock held.
func TestDifferentialKeysPatterns(t *testing.T) {
	real := startRedis(t)
	keys := []string{"a", "ab", "a*", "a[", "a]", "a\\b", "a\x00", "aé", "a\xff", "emq:{q\xffx}:job:JOB1"}
	for _, k := range keys {
		mustDo(t, real, "SET", k, "1")
	}
	for _, pattern := range []string{
		"*", "a?", "a??", "a[^b]", "a[!b]", "a[b-a]", "a[a-c]", "a\\*", "a[\\]]", "a\\", "a[",
		"a\xff", "a\ufffd", "emq:{q\ufffdx}:job:*", "emq:{q\xffx}:job:*",
	} {
		t.Run(fmt.Sprintf("%+q", pattern), func(t *testing.T) {
			e := newEngine(t)
			for _, k := range keys {
				mustDo(t, e, "SET", k, "1")
			}
			got, panicked := func() (r resp.Reply, panicked any) {
				defer func() { panicked = recover() }()
				return mustDo(t, e, "KEYS", pattern), nil
			}()
			want := mustDo(t, real, "KEYS", pattern)
			if panicked != nil {
				t.Fatalf("KEYS %+q: the engine panicked: %+q\nredis: %v", pattern, fmt.Sprint(panicked), want)
			}
			g, w := strs(t, got), strs(t, want)
			sort.Strings(g)
			sort.Strings(w)
			if !slices.Equal(g, w) {
				t.Errorf("KEYS %+q (sorted)\nengine: %+q\nredis:  %+q", pattern, g, w)
			}
		})
	}
}
