//go:build !js

package fidelity

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"echomq.dev/playground/internal/redisserver"
	"echomq.dev/playground/wasm/engine"
)

var update = flag.Bool("update", false, "rewrite "+docPath+" from this run")

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

func (o *outcome) add(cmd []string, diff string, eng, real node) {
	where := "keyspace"
	if cmd != nil {
		where = showCommand(cmd)
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

// realServer is a redis-server the suite started, and a RESP2 connection
// to it for flushing, dumping and asking encodings.
type realServer struct {
	addr    string
	version string
	admin   *conn
}

// busyThreshold is Redis's busy-reply-threshold (lua-time-limit) for the
// suite's servers: how long a script runs before Redis starts answering
// other clients, and so before SCRIPT KILL can be heard. Redis's default is
// 5 s; the engine stops a script after engine.Budget (0.9 s), so the suite
// sets 1 s and sends SCRIPT KILL at 1.2 s.
const (
	busyThreshold = 1000 * time.Millisecond
	killAfter     = 1200 * time.Millisecond
)

func startReal(t *testing.T) *realServer {
	t.Helper()
	srv := redisserver.Start(t)
	admin, err := dial(srv.Addr())
	if err != nil {
		t.Fatalf("dial redis-server: %v", err)
	}
	t.Cleanup(func() { admin.Close() })
	s := &realServer{addr: srv.Addr(), admin: admin}
	info := s.must(t, "INFO", "server")
	for line := range strings.Lines(info.S) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "redis_version:"); ok {
			s.version = v
		}
	}
	if !strings.HasPrefix(s.version, "7.0.") {
		t.Logf("note: the reference is Redis 7.0; this server is %q", s.version)
	}
	if r := s.must(t, "CONFIG", "SET", "busy-reply-threshold", strconv.Itoa(int(busyThreshold.Milliseconds()))); r.S != "OK" {
		t.Fatalf("CONFIG SET busy-reply-threshold: %v", r)
	}
	return s
}

func (s *realServer) must(t testing.TB, args ...string) node {
	t.Helper()
	r, err := s.admin.do(args...)
	if err != nil {
		t.Fatalf("redis-server: %s: %v", showCommand(args), err)
	}
	return r
}

// now is the real server's clock in Unix milliseconds, as a script
// computes it from TIME.
func (s *realServer) now(t testing.TB) int64 {
	t.Helper()
	r := s.must(t, "TIME")
	parts, ok := r.strs()
	if !ok || len(parts) != 2 {
		t.Fatalf("TIME = %v", r)
	}
	sec, err1 := strconv.ParseInt(parts[0], 10, 64)
	usec, err2 := strconv.ParseInt(parts[1], 10, 64)
	if err1 != nil || err2 != nil {
		t.Fatalf("TIME = %v", r)
	}
	return sec*1000 + usec/1000
}

// encoding is the real server's OBJECT ENCODING of key, "" if it has none.
func (s *realServer) encoding(t testing.TB, key string) string {
	r := s.must(t, "OBJECT", "ENCODING", key)
	if r.T == '$' || r.T == '+' {
		return r.S
	}
	return ""
}

// engineSpeaksRESP3 is the probe: HELLO 3 on a fresh engine answers a map.
func engineSpeaksRESP3() bool {
	r, _ := engine.MustNew().Do("HELLO", "3")
	return fromReply(r, true).T == '%'
}

func TestFidelity(t *testing.T) {
	srv := startReal(t)
	withRESP3 := engineSpeaksRESP3()
	version, _ := engine.MustNew().Do("EVAL", "return redis.REDIS_VERSION", "0")
	engineVersion := fromReply(version, false)
	if !withRESP3 {
		t.Logf("the engine does not answer HELLO 3 with a map: RESP3 is not compared")
	}
	protos := []proto{resp2}
	if withRESP3 {
		protos = append(protos, resp3)
	}

	all := append(append(cases(), luaCases()...), gridCases()...)
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

	doc := renderDoc(docInput{
		redisVersion:  srv.version,
		engineVersion: engineVersion.S,
		resp3:         withRESP3,
		results:       results,
		random:        rnd,
	})
	switch {
	case len(results) != len(all) || rnd == nil:
		if *update {
			t.Fatalf("-update needs the whole suite: run go test ./wasm/fidelity -run TestFidelity -update")
		}
		t.Logf("only part of the suite ran: %s not compared", docPath)
	case *update:
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
func runCase(t *testing.T, shared *realServer, c fcase, p proto) *outcome {
	t.Helper()
	srv := shared
	if c.fresh {
		srv = startReal(t)
	} else {
		srv.must(t, "FLUSHALL")
		srv.must(t, "SCRIPT", "FLUSH")
	}
	cn, err := dial(srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer cn.Close()
	e := engine.MustNew()
	ec, dumper := &engineConn{c: e.NewClient(), resp3: p == resp3}, &engineConn{c: e.NewClient()}
	if p == resp3 {
		if r, err := cn.do("HELLO", "3"); err != nil || r.T != '%' {
			t.Fatalf("HELLO 3 on redis-server: %v %v", r, err)
		}
		if r := ec.do("HELLO", "3"); r.T != '%' {
			t.Fatalf("HELLO 3 on the engine: %v", r)
		}
	}
	e.SetNow(srv.now(t))

	out := &outcome{ran: true}
	other := &secondConn{srv: srv, e: e, resp3: p == resp3}
	defer other.close()
	for _, sent := range c.cmds {
		cn, ec, cmd := other.route(t, cn, ec, sent)
		if cmd == nil {
			continue
		}
		real, err := cn.do(cmd...)
		if err != nil {
			t.Fatalf("redis-server: %s: %v", showCommand(sent), err)
		}
		eng := ec.do(cmd...)
		eng, real = inDefinedOrder(t, srv, cmd, eng, real)
		if d := diffNodes("", eng, real); d != "" {
			out.add(sent, d, eng, real)
		}
	}
	if c.runaway != "" {
		cmd := []string{"EVAL", c.runaway, "0"}
		eng, real := runaway(t, srv, cn, ec, cmd)
		if d := diffNodes("", eng, real); d != "" {
			out.add(cmd, d, eng, real)
		}
	}
	de, err := dumpKeyspace(dumper, false)
	if err != nil {
		t.Fatalf("engine keyspace: %v", err)
	}
	dr, err := dumpKeyspace(srv.admin, true)
	if err != nil {
		t.Fatalf("redis keyspace: %v", err)
	}
	for _, d := range diffDumps(de, dr) {
		out.add(nil, d, node{}, node{})
	}
	return out
}

// runaway sends cmd, a script that never ends, to both servers. The real
// one is stopped with SCRIPT KILL from a second connection once it is busy;
// the engine stops it on its own budget, in the background meanwhile.
func runaway(t *testing.T, srv *realServer, cn *conn, ec *engineConn, cmd []string) (eng, real node) {
	t.Helper()
	done := make(chan node, 1)
	go func() { done <- ec.do(cmd...) }()
	if err := cn.send(cmd); err != nil {
		t.Fatal(err)
	}
	time.Sleep(killAfter)
	killer, err := dial(srv.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer killer.Close()
	for try := 0; ; try++ {
		r, err := killer.do("SCRIPT", "KILL")
		if err != nil {
			t.Fatalf("SCRIPT KILL: %v", err)
		}
		if r.T == '+' && r.S == "OK" {
			break
		}
		// NOTBUSY: the script has not started yet on a slow machine.
		if try == 20 {
			t.Fatalf("SCRIPT KILL = %v after %d tries", r, try+1)
		}
		time.Sleep(100 * time.Millisecond)
	}
	real, err = cn.recv()
	if err != nil {
		t.Fatalf("the killed EVAL: %v", err)
	}
	return <-done, real
}

// inDefinedOrder puts the elements of a reply whose order Redis does not
// define into one order, on both sides: KEYS, set members, SCAN's keys,
// and a hash's fields once it is a hash table.
func inDefinedOrder(t *testing.T, srv *realServer, cmd []string, eng, real node) (node, node) {
	if !real.isAggregate() && !eng.isAggregate() {
		return eng, real
	}
	both := func(f func(node) node) (node, node) { return f(eng), f(real) }
	scanned := func(f func(node) node) func(node) node {
		return func(n node) node {
			if len(n.Elems) != 2 {
				return n
			}
			n.Elems = []node{n.Elems[0], f(n.Elems[1])}
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
	case "KEYS", "SMEMBERS", "SINTER", "SUNION", "SDIFF":
		return both(sortedElems)
	case "SCAN", "SSCAN":
		return both(scanned(sortedElems))
	case "HGETALL":
		if enc := srv.encoding(t, key); enc != "listpack" && enc != "" {
			return both(sortedPairs)
		}
	case "HKEYS", "HVALS":
		if enc := srv.encoding(t, key); enc != "listpack" && enc != "" {
			return both(sortedElems)
		}
	case "HSCAN", "ZSCAN":
		if enc := srv.encoding(t, key); enc != "listpack" && enc != "" {
			return both(scanned(sortedPairs))
		}
	}
	return eng, real
}

// withoutClientID zeroes the id in a HELLO reply: it is the server's count
// of connections so far, which no two servers share.
func withoutClientID(n node) node {
	if !n.isAggregate() {
		return n
	}
	n.Elems = append([]node(nil), n.Elems...)
	for i := 0; i+1 < len(n.Elems); i += 2 {
		if n.Elems[i].S == "id" {
			n.Elems[i+1] = node{T: ':', S: "(not compared)"}
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
