package fidelity

// The reference differential: the engine as it ships (engine.New, every
// cache and fast path on) and the reference engine (every one off, see
// engine.Options) are sent the same commands, and must give the same
// replies, byte for byte, and leave the same keyspace, key by key, TTLs
// included. Nothing here needs a redis-server, so it runs the same on the
// host and under js/wasm: it proves that the shortcuts change nothing a
// client could see, where the rest of the suite proves that the engine
// matches Redis.

import (
	"flag"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"echomq.dev/playground/internal/redisdiff"
	"echomq.dev/playground/wasm/engine"
)

var referenceWithout = flag.String("reference-without", "", "compare the fast engine with one that lacks only the shortcuts of this comma-separated list of numbers (bits of engine.Shortcut), not the reference engine")

// enginePair is the two engines under one test, each with a connection of
// each protocol, a dumper, and a second connection for the cases that
// need one.
type enginePair struct {
	fast, ref *engine.Engine
	conns     [2]map[string]*redisdiff.EngineConn // by name, per engine
}

func newEnginePair(t *testing.T) *enginePair {
	t.Helper()
	o := engine.Options{Reference: true}
	if *referenceWithout != "" {
		o = engine.Options{}
		for _, f := range strings.Split(*referenceWithout, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				t.Fatalf("-reference-without: %v", err)
			}
			o.Without |= engine.Shortcut(1) << n
		}
		t.Logf("the second engine lacks: %v", o.Without)
	}
	return &enginePair{fast: engine.MustNew(), ref: engine.MustNewWith(o),
		conns: [2]map[string]*redisdiff.EngineConn{{}, {}}}
}

// conn is the connection called name on each engine, opened when first
// named ("resp3..." names speak RESP3 from the start).
func (p *enginePair) conn(t *testing.T, name string) [2]*redisdiff.EngineConn {
	t.Helper()
	var out [2]*redisdiff.EngineConn
	for i, e := range []*engine.Engine{p.fast, p.ref} {
		c := p.conns[i][name]
		if c == nil {
			c = &redisdiff.EngineConn{C: e.NewClient()}
			if strings.HasPrefix(name, "resp3") {
				if r := c.Node("HELLO", "3"); r.T != '%' {
					t.Fatalf("HELLO 3: %v", r)
				}
			}
			p.conns[i][name] = c
		}
		out[i] = c
	}
	return out
}

// do sends cmd on the connection called name to both engines and returns
// a description of how their replies differ, or "".
func (p *enginePair) do(t *testing.T, name string, cmd []string) (fast redisdiff.Node, diff string) {
	t.Helper()
	c := p.conn(t, name)
	a, b := c[0].Node(cmd...), c[1].Node(cmd...)
	if d := redisdiff.Diff(a, b); d != "" {
		return a, fmt.Sprintf("%s: the replies differ: %s\n  fast:      %s\n  reference: %s", redisdiff.Short(redisdiff.ShowCommand(cmd)), d, redisdiff.Short(a.String()), redisdiff.Short(b.String()))
	}
	return a, ""
}

// lighter says the run is one where the engine is several times slower
// (under the race detector, or in WebAssembly under Node): the reference
// differential then runs a shorter share of its operations, the same
// seeds' first ones, and the cases under RESP2 alone.
func lighter() bool { return raceOn || runtime.GOARCH == "wasm" }

// setNow and advance move both clocks.
func (p *enginePair) setNow(ms int64)  { p.fast.SetNow(ms); p.ref.SetNow(ms) }
func (p *enginePair) advance(ms int64) { p.fast.Advance(ms); p.ref.Advance(ms) }

// keyspaceDiff compares the two keyspaces exactly: every key of every
// database, its type, its items in order and its TTL to the millisecond
// (both clocks stand where the test put them).
func (p *enginePair) keyspaceDiff(t *testing.T) []string {
	t.Helper()
	dumps := [2]redisdiff.Dump{}
	for i := range dumps {
		d, err := redisdiff.DumpKeyspace(p.conn(t, "dumper")[i], false, redisdiff.Databases)
		if err != nil {
			t.Fatalf("dump: %v", err)
		}
		dumps[i] = d
	}
	if maps.EqualFunc(dumps[0], dumps[1], func(a, b redisdiff.KeyDump) bool {
		return a.Type == b.Type && a.PTTL == b.PTTL && slices.Equal(a.Items, b.Items)
	}) {
		return nil
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(dumps[0])) {
		a, ok := dumps[1][k]
		b := dumps[0][k]
		switch {
		case !ok:
			out = append(out, "key "+redisdiff.Short(k)+" only on the fast engine: "+b.String())
		case a.Type != b.Type || a.PTTL != b.PTTL || !slices.Equal(a.Items, b.Items):
			out = append(out, "key "+redisdiff.Short(k)+": fast "+b.String()+", reference "+a.String())
		}
	}
	for _, k := range slices.Sorted(maps.Keys(dumps[1])) {
		if _, ok := dumps[0][k]; !ok {
			out = append(out, "key "+redisdiff.Short(k)+" only on the reference engine: "+dumps[1][k].String())
		}
	}
	return out
}

// randomCommands are the commands whose replies or effects come from
// miniredis's random generator, which each engine seeds on its own: cases
// that send one are left out here (the fidelity suite compares them with
// Redis by their shape).
var randomCommands = []string{"SRANDMEMBER", "SPOP", "RANDOMKEY", "HRANDFIELD", "ZRANDMEMBER"}

func sendsRandom(c fcase) bool {
	for _, cmd := range c.cmds {
		for _, a := range cmd {
			for _, r := range randomCommands {
				if strings.Contains(strings.ToUpper(a), r) {
					return true
				}
			}
		}
	}
	return false
}

// TestReferenceEngineAgrees holds the fast engine to the reference engine
// over the randomized runs and the suite's cases.
func TestReferenceEngineAgrees(t *testing.T) {
	t.Run("commands", referenceCommands)
	t.Run("queue-scripts", referenceQueueScripts)
	t.Run("sorted-sets", referenceSortedSets)
	t.Run("cases", referenceCases)
}

// referenceCases runs every case of the suite that needs no real server to
// decide it: the transaction cases, the random Lua programs, the command
// and Lua cases. A runaway script is left out (the budget's own tests
// hold it), and so is a case that asks miniredis for randomness.
func referenceCases(t *testing.T) {
	all := append(append(cases(), luaCases()...), gridCases()...)
	ran, left := 0, []string{}
	for _, c := range all {
		if sendsRandom(c) {
			left = append(left, c.id)
			continue
		}
		ran++
		protos := []string{"", "resp3"}
		if lighter() {
			protos = protos[:1]
		}
		for _, proto := range protos {
			p := newEnginePair(t)
			p.setNow(engine.Start + 12345)
			conn := proto + "main"
			for i, sent := range c.cmds {
				cmd, name := sent, conn
				switch sent[0] {
				case sleepFor:
					ms, _ := strconv.Atoi(sent[1])
					p.advance(int64(ms))
					continue
				case onSecond:
					cmd, name = sent[1:], proto+"second"
				}
				if _, d := p.do(t, name, cmd); d != "" {
					t.Fatalf("case %s (%s), command %d of %d, %s", c.id, protoName(proto), i+1, len(c.cmds), d)
				}
			}
			if ds := p.keyspaceDiff(t); len(ds) > 0 {
				t.Fatalf("case %s (%s): the keyspaces differ after its commands:\n  %s", c.id, protoName(proto), strings.Join(ds, "\n  "))
			}
		}
	}
	if len(txCases()) == 0 || ran < len(all)/2 {
		t.Fatalf("ran %d cases of %d", ran, len(all))
	}
	if len(left) == 0 {
		left = []string{"none"}
	}
	t.Logf("%d cases compared (under RESP3 too unless lighter: %v); left out for miniredis's randomness: %s", ran, lighter(), strings.Join(left, ", "))
}

func protoName(p string) string {
	if p == "" {
		return "RESP2"
	}
	return "RESP3"
}

// referenceQueueScripts is the randomized run of the queue scripts
// (runRandom's operations), compared after every operation.
func referenceQueueScripts(t *testing.T) {
	ops, every := 1500, 1
	if lighter() {
		ops, every = 500, 5
	}
	p := newEnginePair(t)
	g := redisdiff.NewQueueGen(defaultSeed, "q", "队列", "b\xff\x00q")
	now := engine.Start
	for i := range ops {
		if i%flushEvery == 0 {
			p.do(t, "dumper", []string{"FLUSHALL"})
			g.Forget()
		}
		o := g.Next()
		name := "main"
		if o.RESP3 {
			name = "resp3"
		}
		if o.Kind == "script-flush" {
			if _, d := p.do(t, name, []string{"SCRIPT", "FLUSH"}); d != "" {
				t.Fatalf("operation %d, %s", i, d)
			}
			continue
		}
		if o.Kind == "claim" {
			now += int64(i % 7 * 311) // the clock moves as the real server's would
			p.setNow(now)
		}
		r, d := p.do(t, name, o.Command(o.SHA))
		if d == "" && o.SHA && r.IsError() && strings.HasPrefix(r.S, "NOSCRIPT") {
			_, d = p.do(t, name, o.Command(false))
		}
		if d != "" {
			t.Fatalf("operation %d, %v, %s", i, o, d)
		}
		if i%every != every-1 {
			continue
		}
		if ds := p.keyspaceDiff(t); len(ds) > 0 {
			t.Fatalf("operation %d, %v: the keyspaces differ:\n  %s", i, o, strings.Join(ds, "\n  "))
		}
	}
}

// referenceSortedSets is the sorted-set run (zgen's commands, with the
// expiries, DUMP/RESTORE and resets of TestSortedSetsMatchRedis), compared
// after every operation by reply and every few dozen by keyspace.
func referenceSortedSets(t *testing.T) {
	ops := 2500
	if testing.Short() || lighter() {
		ops = 800
	}
	p := newEnginePair(t)
	g := &zgen{r: redisdiff.NewRandPCG(7, 70), keys: []string{"z1", "z2", "z3", lexKey}}
	lexOK := func(key string) bool {
		if key == lexKey {
			return true
		}
		enc, _ := p.do(t, "dumper", []string{"OBJECT", "ENCODING", key})
		return enc.S != "skiplist"
	}
	var history []string
	for i := range ops {
		var cmd []string
		switch {
		case i > 0 && i%997 == 0:
			p.fast.Reset()
			p.ref.Reset()
			continue
		case i%331 == 5:
			key := g.pick(g.keys)
			if _, d := p.do(t, "main", []string{"PEXPIRE", key, "30"}); d != "" {
				t.Fatalf("operation %d, %s", i, d)
			}
			p.advance(40)
			cmd = []string{"ZCARD", key}
		case i%211 == 7:
			key, to := g.pick(g.keys), g.pick(g.keys)
			dump, d := p.do(t, "main", []string{"DUMP", key})
			if d != "" {
				t.Fatalf("operation %d, %s", i, d)
			}
			if dump.T != '$' || dump.Null {
				continue
			}
			cmd = []string{"RESTORE", to, "0", dump.S, "REPLACE"}
		default:
			cmd = g.next(lexOK)
		}
		history = append(history, redisdiff.Short(redisdiff.ShowCommand(cmd)))
		if len(history) > 20 {
			history = history[1:]
		}
		if _, d := p.do(t, "main", cmd); d != "" {
			t.Fatalf("operation %d, %s\nlast commands:\n  %s", i, d, strings.Join(history, "\n  "))
		}
		if i%25 == 24 {
			if ds := p.keyspaceDiff(t); len(ds) > 0 {
				t.Fatalf("after operation %d the keyspaces differ:\n  %s\nlast commands:\n  %s", i, strings.Join(ds, "\n  "), strings.Join(history, "\n  "))
			}
		}
	}
	if ds := p.keyspaceDiff(t); len(ds) > 0 {
		t.Fatalf("at the end the keyspaces differ:\n  %s", strings.Join(ds, "\n  "))
	}
}

// referenceCommands is a randomized run of the commands the shortcuts
// serve, over a few keys of every type: several keys per EXISTS and DEL
// (a key named twice among them), hash writes that add, rewrite and
// remove fields, plain and optioned SETs, TTLs that the clock then passes
// (with a direct read the first to look), TIME, scripts that call the
// same commands by the same constants, and transactions, on two
// connections. Replies are compared after every command, the keyspace
// every few.
func referenceCommands(t *testing.T) {
	ops := 3000
	if lighter() {
		ops = 800
	}
	p := newEnginePair(t)
	r := redisdiff.NewRandPCG(23, 32)
	pick := func(xs ...string) string { return redisdiff.Pick(r, xs...) }
	key := func() string { return pick("k1", "k2", "h1", "h2", "z1", "s1", "l1", "k1") }
	field := func() string { return pick("state", "attempts", "payload", "f1", "f2", "f3") }
	script := "local out = {} " +
		"out[1] = redis.call('EXISTS', KEYS[1], KEYS[2], KEYS[1]) " +
		"out[2] = redis.call('HSET', KEYS[2], ARGV[1], ARGV[2]) " +
		"out[3] = redis.call('HGET', KEYS[2], ARGV[1]) or false " +
		"redis.call('SET', KEYS[1], ARGV[2]) " +
		"out[4] = redis.call('TIME')[1] " +
		"return out"
	var history []string
	for i := range ops {
		conn := pick("main", "main", "main", "second")
		var cmd []string
		switch n := r.IntN(100); {
		case n < 10:
			cmd = []string{"EXISTS", key(), key(), key()}[:2+r.IntN(3)]
		case n < 16:
			cmd = []string{pick("DEL", "UNLINK"), key(), key()}[:2+r.IntN(2)]
		case n < 26:
			cmd = []string{"HSET", pick("h1", "h2", "k1"), field(), strconv.Itoa(r.IntN(9))}
			if r.IntN(3) == 0 {
				cmd = append(cmd, field(), "x", field(), "y")
			}
		case n < 32:
			cmd = []string{"HGET", pick("h1", "h2", "k1", "missing"), field()}
		case n < 36:
			cmd = []string{"HINCRBY", pick("h1", "h2"), field(), pick("1", "-2", "x", "9223372036854775807")}
		case n < 39:
			cmd = []string{"HDEL", pick("h1", "h2"), field(), field()}
		case n < 42:
			cmd = []string{pick("HGETALL", "HKEYS", "HVALS"), pick("h1", "h2")}
		case n < 50:
			cmd = []string{"SET", pick("k1", "k2", "h1"), strconv.Itoa(r.IntN(100))}
			if r.IntN(3) == 0 {
				cmd = append(cmd, pick("PX", "EX", "NX", "XX", "KEEPTTL", "GET"))
				if cmd[len(cmd)-1] == "PX" || cmd[len(cmd)-1] == "EX" {
					cmd = append(cmd, pick("50", "1", "200"))
				}
			}
		case n < 54:
			cmd = []string{"GET", key()}
		case n < 58:
			cmd = []string{pick("PEXPIRE", "EXPIRE"), key(), pick("30", "1", "100")}
		case n < 62:
			// A TTL the clock passes, and a read the first to look.
			k := key()
			if _, d := p.do(t, conn, []string{"PEXPIRE", k, "30"}); d != "" {
				t.Fatalf("operation %d, %s", i, d)
			}
			p.advance(int64(r.IntN(3) * 20))
			switch what := pick("EXISTS", "HGET", "GET", "TTL", "TIME"); what {
			case "HGET":
				cmd = []string{what, k, field()}
			case "TIME":
				cmd = []string{what}
			default:
				cmd = []string{what, k}
			}
		case n < 66:
			cmd = []string{"ZADD", "z1", strconv.Itoa(r.IntN(9)), pick("a", "b", "c")}
		case n < 69:
			cmd = []string{pick("ZRANGE", "ZPOPMIN"), "z1", "0", "-1"}[:2+r.IntN(3)]
			if cmd[0] == "ZPOPMIN" {
				cmd = cmd[:2]
			}
		case n < 72:
			cmd = []string{pick("SADD", "RPUSH"), pick("s1", "l1"), pick("a", "b")}
		case n < 82:
			cmd = []string{"EVAL", script, "2", key(), pick("h1", "h2"), field(), strconv.Itoa(r.IntN(5))}
		case n < 86:
			cmd = []string{pick("MULTI", "EXEC", "DISCARD", "WATCH", "UNWATCH")}
			if cmd[0] == "WATCH" {
				cmd = append(cmd, key())
			}
		case n < 88:
			cmd = []string{"SWAPDB", "0", "1"}
		case n < 90:
			cmd = []string{"SELECT", pick("0", "0", "1")}
		case n < 91:
			cmd = []string{"FLUSHALL"}
		default:
			cmd = []string{"TYPE", key()}
		}
		history = append(history, conn+": "+redisdiff.Short(redisdiff.ShowCommand(cmd)))
		if len(history) > 20 {
			history = history[1:]
		}
		if _, d := p.do(t, conn, cmd); d != "" {
			t.Fatalf("operation %d, %s\nlast commands:\n  %s", i, d, strings.Join(history, "\n  "))
		}
		if i%10 == 9 {
			if ds := p.keyspaceDiff(t); len(ds) > 0 {
				t.Fatalf("after operation %d the keyspaces differ:\n  %s\nlast commands:\n  %s", i, strings.Join(ds, "\n  "), strings.Join(history, "\n  "))
			}
		}
	}
}
