//go:build !js

package fidelity

// The randomized run: the course's two scripts, by EVAL and EVALSHA, fed
// hostile input, on the engine and on the real server in step, compared
// after every operation: the reply, then the whole keyspace.
//
// Deadlines. @claim reads the server clock, and the two servers have
// different clocks. Before each claim the run reads the real server's TIME
// (t0) and sets the engine's clock to it; after the claim it reads TIME
// again (t1). The engine's deadline must be t0+lease exactly, the real one
// must lie in [t0+lease, t1+lease]. Once both are checked, the real
// server's deadline is replaced by the engine's in the real dump (and that
// sorted set re-sorted by score, as ZRANGE orders it), so that the keyspace
// comparison judges everything else byte for byte.

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"

	"echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/engine"
	"echomq.dev/playground/wasm/resp"
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

// rop is one operation of the randomized run.
type rop struct {
	kind    string // enqueue, claim, script-flush
	sha     bool   // by EVALSHA (falling back to EVAL on NOSCRIPT, as a client does)
	resp3   bool   // on the RESP3 connections
	queue   string
	id      string
	payload string
	lease   string
	short   bool // leave out the last argument
}

func (o rop) String() string {
	how := "EVAL"
	if o.sha {
		how = "EVALSHA"
	}
	cut := ""
	if o.short {
		cut = ", last argument left out"
	}
	if o.resp3 {
		how += " over RESP3"
	}
	switch o.kind {
	case "enqueue":
		return fmt.Sprintf("enqueue by %s (queue %s, id %s, payload %s%s)", how, short(o.queue), short(o.id), short(o.payload), cut)
	case "claim":
		return fmt.Sprintf("claim by %s (queue %s, lease %s%s)", how, short(o.queue), short(o.lease), cut)
	}
	return o.kind
}

func keysOf(queue string) (base, pending, active string) {
	k := "emq:{" + queue + "}:"
	return k + "job:", k + "pending", k + "active"
}

// command is the EVAL (or EVALSHA) an operation sends.
func (o rop) command(sha bool) []string {
	base, pending, active := keysOf(o.queue)
	var s *lua.Script
	var keys, argv []string
	switch o.kind {
	case "enqueue":
		s, keys, argv = lua.Enqueue(), []string{base + o.id, pending}, []string{o.id, o.payload}
	case "claim":
		s, keys, argv = lua.Claim(), []string{pending, active}, []string{base, o.lease}
	default:
		panic(o.kind)
	}
	if o.short {
		argv = argv[:len(argv)-1]
	}
	head := []string{"EVAL", s.Source}
	if sha {
		head = []string{"EVALSHA", s.SHA}
	}
	return append(append(append(head, strconv.Itoa(len(keys))), keys...), argv...)
}

// generator makes a reproducible sequence of hostile operations.
type generator struct {
	r      *rand.Rand
	queues []string
	seen   []string // ids enqueued since the last flush, for duplicates
}

func newGenerator(seed uint64) *generator {
	return &generator{
		r:      rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		queues: []string{"q", "队列", "b\xff\x00q"},
	}
}

func (g *generator) pick(list []string) string { return list[g.r.IntN(len(list))] }

func (g *generator) next() rop {
	o := rop{queue: g.pick(g.queues), sha: g.r.IntN(2) == 0, resp3: g.r.IntN(2) == 0}
	switch n := g.r.IntN(100); {
	case n < 2:
		return rop{kind: "script-flush"}
	case n < 36:
		o.kind, o.id, o.payload = "enqueue", g.freshID(), g.payload()
		g.seen = append(g.seen, o.id)
	case n < 46:
		o.kind, o.payload = "enqueue", g.payload()
		if len(g.seen) > 0 {
			o.id = g.pick(g.seen)
		} else {
			o.id = "JOB00000"
		}
	case n < 74:
		o.kind, o.lease = "claim", g.goodLease()
	case n < 97:
		o.kind, o.lease = "claim", g.pick(hostileLeases)
	default:
		o.kind, o.short = g.pick([]string{"enqueue", "claim"}), true
		o.id, o.payload, o.lease = g.freshID(), g.payload(), g.goodLease()
	}
	return o
}

// hostileLeases are leases that must all be refused before any write:
// e-notation, other bases, spaces, signs, leading zeros, fractions, words,
// a 16th digit, nothing at all.
var hostileLeases = []string{
	"1e3", "1E3", "0x10", " 5", "5 ", "+5", "05", "5.0", "-0", "0", "-5", "inf", "nan", "-inf",
	"1234567890123456", "", "1_000", "٣", "5\x00", "\x005", "1e+3", "0b11", "１",
}

func (g *generator) goodLease() string {
	switch g.r.IntN(8) {
	case 0:
		return "1"
	case 1:
		return "999999999999999" // 15 digits: the longest a lease may be
	case 2:
		return strconv.FormatInt(1+g.r.Int64N(999999999999999), 10)
	}
	return strconv.Itoa(1 + g.r.IntN(600000))
}

func (g *generator) freshID() string {
	var prefix string
	switch g.r.IntN(10) {
	case 0:
		prefix = g.pick([]string{"", "job", "JO", "J", " JOB", "\x00JOB", "\xffJOB", "ジョブ", "Job", "XJOB"})
	default:
		prefix = "JOB"
	}
	core := strconv.Itoa(g.r.IntN(100000))
	switch g.r.IntN(8) {
	case 0:
		core += "\x00"
	case 1:
		core += "\xff\xfe"
	case 2:
		core += "\xc3\x28" // not UTF-8
	case 3:
		core = "-" + g.pick([]string{"é", "🚀", "队列", "ünïcödé"}) + core
	case 4:
		core = ""
	}
	return prefix + core
}

func (g *generator) payload() string {
	var n int
	switch k := g.r.IntN(200); {
	case k == 0:
		n = g.pickSize([]int{64 << 10, 300 << 10, 1 << 20}) // sparingly: up to 1 MiB
	case k < 20:
		return ""
	case k < 50:
		return g.pick([]string{`{"to":"ünïcödé"}`, "🚀 队列", "line\r\nbreak", "\x00", "1e3", "nil"})
	case k < 70:
		n = 1000 + g.r.IntN(7000)
	default:
		n = g.r.IntN(48)
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(g.r.IntN(256))
	}
	return string(b)
}

func (g *generator) pickSize(list []int) int { return list[g.r.IntN(len(list))] }

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
func runRandom(t *testing.T, srv *realServer, withRESP3 bool) *randomResult {
	seed, n := *seedFlag, *opsFlag
	t.Logf("seed %d, %d operations (rerun with go test ./wasm/fidelity -run 'TestFidelity/%s' -seed=%d -ops=%d)", seed, n, randomID, seed, n)
	srv.must(t, "FLUSHALL")
	srv.must(t, "SCRIPT", "FLUSH")
	real2, err := dial(srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer real2.Close()
	real3, err := dial(srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer real3.Close()
	en := engine.MustNew()
	eng2, eng3, dumper := &engineConn{c: en.NewClient()}, &engineConn{c: en.NewClient(), resp3: true}, &engineConn{c: en.NewClient()}
	if withRESP3 {
		if r := mustDo(t, real3, "HELLO", "3"); r.T != '%' {
			t.Fatalf("HELLO 3 on redis-server: %v", r)
		}
		if r := eng3.do("HELLO", "3"); r.T != '%' {
			t.Fatalf("HELLO 3 on the engine: %v", r)
		}
	}
	g := newGenerator(seed)
	res := &randomResult{seed: seed, ops: n, resp3: withRESP3, counts: map[string]int{}}
	deadlines := map[string]map[string]string{} // active key -> id -> the engine's checked deadline

	// fail records the first difference; the run stops there, since the
	// two keyspaces no longer start alike.
	fail := func(i int, o rop, diff string) *randomResult {
		res.failed = fmt.Sprintf("operation %d, %v: %s", i, o, diff)
		t.Errorf("seed %d, operation %d of %d, %v: the engine and redis-server differ:\n%s", seed, i, n, o, diff)
		return res
	}
	for i := range n {
		if i%flushEvery == 0 {
			srv.must(t, "FLUSHALL")
			dumper.do("FLUSHALL")
			g.seen, deadlines = nil, map[string]map[string]string{}
		}
		o := g.next()
		o.resp3 = o.resp3 && withRESP3
		eng, real := eng2, real2
		if o.resp3 {
			eng, real = eng3, real3
			res.counts["operations sent over RESP3"]++
		}
		if o.kind == "script-flush" {
			a, b := eng.do("SCRIPT", "FLUSH"), mustDo(t, real, "SCRIPT", "FLUSH")
			if d := diffNodes("", a, b); d != "" {
				return fail(i, o, d)
			}
			res.counts["SCRIPT FLUSH"]++
			continue
		}
		var t0, t1 int64
		if o.kind == "claim" {
			t0 = srv.now(t)
			en.SetNow(t0)
		}
		e, r := eng.do(o.command(o.sha)...), mustDo(t, real, o.command(o.sha)...)
		if o.sha && e.isError() && r.isError() && strings.HasPrefix(r.S, "NOSCRIPT") && e.S == r.S {
			res.counts["NOSCRIPT, then EVAL"]++
			e, r = eng.do(o.command(false)...), mustDo(t, real, o.command(false)...)
		}
		if o.kind == "claim" {
			t1 = srv.now(t)
		}
		if d := diffNodes("", e, r); d != "" {
			return fail(i, o, "reply: "+d)
		}
		res.counts[o.kind+" "+describeReply(e)]++
		if len(o.payload) > 64<<10 && o.kind == "enqueue" {
			res.counts["enqueue with a payload over 64 KiB"]++
		}
		if o.kind == "claim" && e.T == '*' && len(e.Elems) == 3 {
			_, _, active := keysOf(o.queue)
			id := e.Elems[0].S
			if d := checkDeadline(t, srv, dumper, active, id, o.lease, t0, t1); d != "" {
				return fail(i, o, d)
			}
			if deadlines[active] == nil {
				deadlines[active] = map[string]string{}
			}
			lease, _ := strconv.ParseInt(o.lease, 10, 64)
			deadlines[active][id] = resp.FormatDouble(float64(t0 + lease))
		}
		de, err := dumpKeyspace(dumper, false)
		if err != nil {
			t.Fatalf("engine keyspace: %v", err)
		}
		dr, err := dumpKeyspace(srv.admin, true)
		if err != nil {
			t.Fatalf("redis keyspace: %v", err)
		}
		useEngineDeadlines(dr, deadlines)
		if ds := diffDumps(de, dr); len(ds) > 0 {
			return fail(i, o, "keyspace:\n  "+strings.Join(ds, "\n  "))
		}
	}
	t.Logf("%d operations: %v", n, res.counts)
	return res
}

func mustDo(t *testing.T, c *conn, args ...string) node {
	t.Helper()
	r, err := c.do(args...)
	if err != nil {
		t.Fatalf("redis-server: %s: %v", showCommand(args), err)
	}
	return r
}

// describeReply names the kind of reply a script gave, for the tally.
func describeReply(n node) string {
	switch {
	case n.isError():
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

// checkDeadline holds both deadlines of a lease to the clock rule.
func checkDeadline(t *testing.T, srv *realServer, eng *engineConn, active, id, leaseArg string, t0, t1 int64) string {
	lease, err := strconv.ParseInt(leaseArg, 10, 64)
	if err != nil {
		return fmt.Sprintf("lease %q was accepted but is not a number", leaseArg)
	}
	score := func(r node) (int64, bool) {
		f, err := strconv.ParseFloat(r.S, 64)
		return int64(f), err == nil && r.T == '$'
	}
	e, ok := score(eng.do("ZSCORE", active, id))
	if !ok {
		return fmt.Sprintf("engine: no deadline for %s in %s", short(id), short(active))
	}
	r, ok := score(srv.must(t, "ZSCORE", active, id))
	if !ok {
		return fmt.Sprintf("redis: no deadline for %s in %s", short(id), short(active))
	}
	if e != t0+lease {
		return fmt.Sprintf("engine deadline %d, want server clock %d + lease %d = %d", e, t0, lease, t0+lease)
	}
	if r < t0+lease || r > t1+lease {
		return fmt.Sprintf("redis deadline %d outside [%d, %d] (TIME %d..%d + lease %d)", r, t0+lease, t1+lease, t0, t1, lease)
	}
	return ""
}

// useEngineDeadlines puts the engine's checked deadlines in place of the
// real server's in its dump, and orders those sorted sets again as ZRANGE
// would: by score, then member.
func useEngineDeadlines(d dump, deadlines map[string]map[string]string) {
	for key, ids := range deadlines {
		kd, ok := d[key]
		if !ok || kd.Type != "zset" {
			continue
		}
		type member struct{ m, s string }
		var ms []member
		for i := 0; i+1 < len(kd.Items); i += 2 {
			m := member{kd.Items[i], kd.Items[i+1]}
			if s, ok := ids[m.m]; ok {
				m.s = s
			}
			ms = append(ms, m)
		}
		sort.SliceStable(ms, func(i, j int) bool {
			a, _ := strconv.ParseFloat(ms[i].s, 64)
			b, _ := strconv.ParseFloat(ms[j].s, 64)
			if a != b {
				return a < b
			}
			return ms[i].m < ms[j].m
		})
		items := make([]string, 0, len(kd.Items))
		for _, m := range ms {
			items = append(items, m.m, m.s)
		}
		kd.Items = items
		d[key] = kd
	}
}
