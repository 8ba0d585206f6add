package fidelity

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"echomq.dev/playground/internal/redisdiff"
	"echomq.dev/playground/internal/suite"
	"echomq.dev/playground/wasm/engine"
)

// recording is redis-server's replies to the suite, which the runs without
// a server (js/wasm among them) compare the engine with. go test -update
// against redis-server records it, and rewrites FIDELITY.md. A reply over
// 1 KiB is kept as its digest, unless the suite reads it (DUMP's payload,
// COMMAND's table, INFO's version) or puts it in order first (the replies
// inDefinedOrder sorts).
var recording = redisdiff.NewRecording("testdata/redis7.replies.gz").DigestOver(1<<10,
	"DUMP", "COMMAND", "INFO",
	"HELLO", "KEYS", "SMEMBERS", "SINTER", "SUNION", "SDIFF", "SCAN", "SSCAN", "HGETALL", "HKEYS", "HVALS", "HSCAN", "ZSCAN")

func TestMain(m *testing.M) { redisdiff.Main(m, recording, hllRecording, streamRecording) }

// docPath is FIDELITY.md at the root of the repository; go test runs in
// the package's directory.
const docPath = "../../FIDELITY.md"

// proto is the protocol a case runs under.
type proto int

const (
	resp2 proto = 2
	resp3 proto = 3
)

func (p proto) String() string { return "RESP" + strconv.Itoa(int(p)) }

// outcome is how one case went under one protocol.
type outcome struct {
	ran   bool
	diffs []string // every difference met, in order; none is a match
	// The first difference, as FIDELITY.md shows it.
	cmd       []string // nil when it is in the keyspace
	eng, real string
}

func (o *outcome) add(cmd []string, diff string, eng, real redisdiff.Node) {
	where := "keyspace"
	if cmd != nil {
		where = redisdiff.ShowCommand(cmd)
	}
	o.diffs = append(o.diffs, where+": "+diff)
	if len(o.diffs) == 1 {
		o.cmd = cmd
		if cmd != nil {
			o.eng, o.real = eng.String(), real.String()
		} else {
			o.eng = diff
		}
	}
}

// result is one case's row.
type result struct {
	c   fcase
	out map[proto]*outcome
}

// busyThreshold is Redis's busy-reply-threshold (lua-time-limit) for the
// suite's servers: how long a script runs before Redis starts answering
// other clients, and so before SCRIPT KILL can be heard. Redis's default is
// 5 s; the engines of this suite stop a script after 25 million units of
// work (workbudget_test.go; about a second natively), so the suite sets
// 1 s and sends SCRIPT KILL at 1.2 s.
const (
	busyThreshold = 1000 * time.Millisecond
	killAfter     = 1200 * time.Millisecond
)

// startReal is the suite's real server, live or replayed (see recording),
// answering a busy script as the engine's budget needs.
func startReal(t *testing.T) *redisdiff.Server {
	t.Helper()
	srv := redisdiff.Start(t, recording)
	if r := srv.Must(t, "CONFIG", "SET", "busy-reply-threshold", strconv.Itoa(int(busyThreshold.Milliseconds()))); r.S != "OK" {
		t.Fatalf("CONFIG SET busy-reply-threshold: %v", r)
	}
	return srv
}

// engineSpeaksRESP3 is the probe: HELLO 3 on a fresh engine answers a map.
func engineSpeaksRESP3() bool {
	r, _ := engine.MustNew().Do("HELLO", "3")
	return redisdiff.FromReply(r, true).T == '%'
}

func TestFidelity(t *testing.T) {
	srv := startReal(t)
	withRESP3 := engineSpeaksRESP3()
	version, _ := engine.MustNew().Do("EVAL", "return redis.REDIS_VERSION", "0")
	engineVersion := redisdiff.FromReply(version, false)
	if !withRESP3 {
		t.Logf("the engine does not answer HELLO 3 with a map: RESP3 is not compared")
	}
	protos := []proto{resp2}
	if withRESP3 {
		protos = append(protos, resp3)
	}

	all := append(append(append(cases(), luaCases()...), gridCases()...), foldCases()...)
	checkIDs(t, all)
	var results []result
	for _, c := range all {
		t.Run(c.id, func(t *testing.T) {
			res := result{c: c, out: map[proto]*outcome{}}
			for _, p := range protos {
				res.out[p] = runCase(t, srv, c, p)
			}
			judge(t, res)
			results = append(results, res)
		})
	}
	var rnd *randomResult
	t.Run(randomID, func(t *testing.T) { rnd = runRandom(t, srv, withRESP3) })

	rec, err := suite.ReadRecord("../..")
	if err != nil {
		t.Fatalf("the record of Redis's own suite: %v", err)
	}
	doc := renderDoc(docInput{
		redisVersion:  srv.Version,
		engineVersion: engineVersion.S,
		resp3:         withRESP3,
		results:       results,
		random:        rnd,
		suite:         rec,
	})
	switch {
	case len(results) != len(all) || rnd == nil:
		if redisdiff.Update() {
			t.Fatalf("-update needs the whole suite: run go test ./wasm/fidelity -run TestFidelity -update")
		}
		t.Logf("only part of the suite ran: %s not compared", docPath)
	case redisdiff.Update():
		if err := os.WriteFile(docPath, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", docPath)
	case rnd.seed != defaultSeed || rnd.ops != defaultOps:
		t.Logf("the randomized run used -seed=%d -ops=%d, not the defaults: %s not compared", rnd.seed, rnd.ops, docPath)
	default:
		committed, err := os.ReadFile(docPath)
		if err != nil {
			t.Fatalf("%v: generate it with go test ./wasm/fidelity -run TestFidelity -update", err)
		}
		if !bytes.Equal(committed, []byte(doc)) {
			t.Errorf("%s is stale: it is not what this run found; regenerate it with\n\tgo test ./wasm/fidelity -run TestFidelity -update\nand review the change.\n%s",
				docPath, firstLineDiff(string(committed), doc))
		}
	}
}

func checkIDs(t *testing.T, all []fcase) {
	seen := map[string]bool{randomID: true}
	for _, c := range all {
		if seen[c.id] {
			t.Errorf("case id %q is used twice", c.id)
		}
		seen[c.id] = true
		if c.desc == "" {
			t.Errorf("case %q says nothing of what it checks", c.id)
		}
	}
	for id := range known {
		if !seen[id] {
			t.Errorf("known[%q] names no case", id)
		}
	}
	for id := range knownRESP3 {
		if !seen[id] {
			t.Errorf("knownRESP3[%q] names no case", id)
		}
	}
}

// judge holds a case's outcomes to the known table: a difference must be
// known, and a known difference must still be there.
func judge(t *testing.T, res result) {
	id := res.c.id
	differs := false
	for _, p := range []proto{resp2, resp3} {
		o := res.out[p]
		if o == nil || !o.ran || len(o.diffs) == 0 {
			continue
		}
		differs = true
		reason := reasonFor(id, p)
		if reason == "" {
			t.Errorf("%s: the engine differs from redis-server under %v, and this is not a known difference:\n  %s",
				id, p, strings.Join(o.diffs, "\n  "))
			continue
		}
		t.Logf("known difference under %v (%s):\n  %s", p, reason, strings.Join(o.diffs, "\n  "))
	}
	if _, ok := known[id]; ok && !differs {
		t.Errorf("%s now matches redis-server: remove it from known", id)
	}
	if _, ok := knownRESP3[id]; ok {
		if o := res.out[resp3]; o != nil && o.ran && len(o.diffs) == 0 {
			t.Errorf("%s now matches redis-server under RESP3: remove it from knownRESP3", id)
		}
	}
}

func reasonFor(id string, p proto) string {
	if r := known[id]; r != "" {
		return r
	}
	if p == resp3 {
		return knownRESP3[id]
	}
	return ""
}

// runCase runs c under p on a clean real server (srv, or one of its own)
// and a new engine, and returns what differed.
func runCase(t *testing.T, shared *redisdiff.Server, c fcase, p proto) *outcome {
	t.Helper()
	srv := shared
	if c.fresh {
		srv = startReal(t)
	} else {
		srv.Scope(t)
		srv.Must(t, "FLUSHALL")
		srv.Must(t, "SCRIPT", "FLUSH")
		srv.Must(t, "FUNCTION", "FLUSH")
	}
	cn := srv.Dial(t)
	e := engine.MustNew()
	ec, dumper := &redisdiff.EngineConn{C: e.NewClient(), RESP3: p == resp3}, &redisdiff.EngineConn{C: e.NewClient()}
	if p == resp3 {
		helloRESP3(t, cn, ec)
	}
	e.SetNow(srv.Now(t))

	out := &outcome{ran: true}
	other := &secondConn{srv: srv, e: e, resp3: p == resp3}
	for _, sent := range c.cmds {
		cn, ec, cmd := other.route(t, cn, ec, sent)
		if cmd == nil {
			continue
		}
		real := cn.Must(t, cmd...)
		eng := ec.Node(cmd...)
		eng, real = inDefinedOrder(t, srv, cmd, eng, real)
		if d := redisdiff.Diff(eng, real); d != "" {
			out.add(sent, d, eng, real)
		}
	}
	if c.runaway != "" {
		cmd := []string{"EVAL", c.runaway, "0"}
		eng, real := runaway(t, srv, cn, ec, cmd)
		if d := redisdiff.Diff(eng, real); d != "" {
			out.add(cmd, d, eng, real)
		}
	}
	de, err := redisdiff.DumpKeyspace(dumper, false, redisdiff.Databases)
	if err != nil {
		t.Fatalf("engine keyspace: %v", err)
	}
	for _, d := range srv.DiffKeyspace(t, de, nil) {
		out.add(nil, d, redisdiff.Node{}, redisdiff.Node{})
	}
	return out
}

// helloRESP3 moves a connection to each server to RESP3.
func helloRESP3(t *testing.T, cn *redisdiff.Real, ec *redisdiff.EngineConn) {
	t.Helper()
	if r := cn.Must(t, "HELLO", "3"); r.T != '%' {
		t.Fatalf("HELLO 3 on redis-server: %v", r)
	}
	if r := ec.Node("HELLO", "3"); r.T != '%' {
		t.Fatalf("HELLO 3 on the engine: %v", r)
	}
}

// runaway sends cmd, a script that never ends, to both servers. The real
// one is stopped with SCRIPT KILL from a second connection once it is busy;
// the engine stops it on its own budget, in the background meanwhile.
func runaway(t *testing.T, srv *redisdiff.Server, cn *redisdiff.Real, ec *redisdiff.EngineConn, cmd []string) (eng, real redisdiff.Node) {
	t.Helper()
	done := make(chan redisdiff.Node, 1)
	go func() { done <- ec.Node(cmd...) }()
	type reply struct {
		n   redisdiff.Node
		err error
	}
	killed := make(chan reply, 1)
	go func() {
		n, err := cn.Node(cmd...)
		killed <- reply{n, err}
	}()
	srv.Sleep(killAfter)
	killer := srv.Dial(t)
	for try := 0; ; try++ {
		r := killer.Must(t, "SCRIPT", "KILL")
		if r.T == '+' && r.S == "OK" {
			break
		}
		// NOTBUSY: the script has not started yet on a slow machine.
		if try == 20 {
			t.Fatalf("SCRIPT KILL = %v after %d tries", r, try+1)
		}
		srv.Sleep(100 * time.Millisecond)
	}
	r := <-killed
	if r.err != nil {
		t.Fatalf("the killed EVAL: %v", r.err)
	}
	return <-done, r.n
}

// inDefinedOrder puts the elements of a reply whose order Redis does not
// define into one order, on both sides: KEYS, set members, SCAN's keys,
// and a hash's fields once it is a hash table.
func inDefinedOrder(t *testing.T, srv *redisdiff.Server, cmd []string, eng, real redisdiff.Node) (redisdiff.Node, redisdiff.Node) {
	if f := serverNormal(cmd); f != nil {
		return f(eng), f(real)
	}
	if !real.IsAggregate() && !eng.IsAggregate() {
		return eng, real
	}
	both := func(f func(redisdiff.Node) redisdiff.Node) (redisdiff.Node, redisdiff.Node) { return f(eng), f(real) }
	scanned := func(f func(redisdiff.Node) redisdiff.Node) func(redisdiff.Node) redisdiff.Node {
		return func(n redisdiff.Node) redisdiff.Node {
			if len(n.Elems) != 2 {
				return n
			}
			n.Elems = []redisdiff.Node{n.Elems[0], f(n.Elems[1])}
			return n
		}
	}
	key := ""
	if len(cmd) > 1 {
		key = cmd[1]
	}
	switch strings.ToUpper(cmd[0]) {
	case "HELLO":
		return withoutClientID(eng), withoutClientID(real)
	case "SMEMBERS":
		if srv.Encoding(t, key) == "intset" {
			return eng, real // an intset is in numeric order
		}
		return both(redisdiff.SortedElems)
	case "SINTER", "SUNION", "SDIFF":
		if intsetsOnly(t, srv, cmd[1:]) && len(real.Elems) <= 512 {
			return eng, real // built from intsets: in numeric order
		}
		return both(redisdiff.SortedElems)
	case "KEYS":
		return both(redisdiff.SortedElems)
	case "SSCAN":
		if srv.Encoding(t, key) == "intset" {
			return eng, real
		}
		return both(scanned(redisdiff.SortedElems))
	case "SCAN":
		return both(scanned(redisdiff.SortedElems))
	case "HGETALL":
		if enc := srv.Encoding(t, key); enc != "listpack" && enc != "" {
			return both(redisdiff.SortedPairs)
		}
	case "HKEYS", "HVALS":
		if enc := srv.Encoding(t, key); enc != "listpack" && enc != "" {
			return both(redisdiff.SortedElems)
		}
	case "HSCAN", "ZSCAN":
		if enc := srv.Encoding(t, key); enc != "listpack" && enc != "" {
			return both(scanned(redisdiff.SortedPairs))
		}
	}
	return eng, real
}

// intsetsOnly reports whether every key of keys that exists on the real
// server is an intset there: a set read or built from those walks intsets
// only, whose order Redis defines (see wasm/engine/intsets.go).
func intsetsOnly(t *testing.T, srv *redisdiff.Server, keys []string) bool {
	for _, k := range keys {
		if enc := srv.Encoding(t, k); enc != "intset" && enc != "" {
			return false
		}
	}
	return true
}

// withoutClientID zeroes the id in a HELLO reply: it is the server's count
// of connections so far, which no two servers share.
func withoutClientID(n redisdiff.Node) redisdiff.Node {
	if !n.IsAggregate() {
		return n
	}
	n.Elems = append([]redisdiff.Node(nil), n.Elems...)
	for i := 0; i+1 < len(n.Elems); i += 2 {
		if n.Elems[i].S == "id" {
			n.Elems[i+1] = redisdiff.Node{T: ':', S: "(not compared)"}
		}
	}
	return n
}

// firstLineDiff shows where two texts part.
func firstLineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("first difference at line %d:\n  committed: %s\n  this run:  %s", i+1, x, y)
		}
	}
	return ""
}
