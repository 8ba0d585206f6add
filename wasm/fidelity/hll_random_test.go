package fidelity

// The differential run over HyperLogLogs. The engine keeps a HyperLogLog
// as Redis does, a string of Redis's own bytes (wasm/hll), and changes it
// in place as Redis does; which opcodes a sparse string holds depends on
// the order its registers were raised in. This run holds every byte of
// those strings to a real redis-server: PFADD of elements seen and new
// (in batches that take a string across hll-sparse-max-bytes), PFCOUNT of
// one key (which writes its cache back) and of several, PFMERGE, PFDEBUG,
// strings damaged with SETRANGE and APPEND and strings made by hand with
// SET, then read with GET, in scripts too. Every reply is compared, and
// the whole keyspace every few hundred operations and at the end.

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"echomq.dev/playground/internal/redisdiff"
	"echomq.dev/playground/wasm/engine"
	"echomq.dev/playground/wasm/hll"
)

var hllOpsFlag = flag.Int("hll-ops", 4000, "operations in the HyperLogLog differential run")

// hllRecording is redis-server's replies to the run, kept apart from the
// suite's: the run is long, and its file changes only with it.
var hllRecording = redisdiff.NewRecording("testdata/hll.replies.gz").DigestOver(1 << 10)

// hgen makes the run's commands.
type hgen struct {
	r     *redisdiff.Rand
	keys  []string
	fresh int // elements never added before
}

func (g *hgen) pick(list ...string) string { return redisdiff.Pick(g.r, list...) }

// key is one of the HyperLogLogs, now and then a key of another kind.
func (g *hgen) key() string {
	if g.r.IntN(25) == 0 {
		return g.pick("str", "list", "nokey")
	}
	return g.pick(g.keys...)
}

func (g *hgen) element() string {
	switch n := g.r.IntN(100); {
	case n < 45:
		return "e" + strconv.Itoa(g.r.IntN(300))
	case n < 96:
		g.fresh++
		return "f" + strconv.Itoa(g.fresh)
	}
	return g.pick("", "\x00", "\xff\xfe", "队列", strings.Repeat("x", 100))
}

func (g *hgen) elements(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = g.element()
	}
	return out
}

// crafted is a string made by hand with a HyperLogLog's header: dense
// registers of any value (past 51, past what a hash can give), sparse
// opcodes that cover the registers, or a few too few or too many, and a
// cached count that is stale or any number.
func (g *hgen) crafted() string {
	enc := redisdiff.Pick(g.r, 0, 1, 1, 1, 2)
	b := []byte{'H', 'Y', 'L', 'L', byte(enc), 0, 0, 0}
	for range 8 {
		b = append(b, byte(g.r.IntN(256)))
	}
	if g.r.IntN(3) > 0 {
		b[15] |= 0x80
	} else {
		b[15] &= 0x7f
	}
	if enc != 1 {
		n := redisdiff.Pick(g.r, 12288, 12288, 12288, 12287, 100)
		for range n {
			b = append(b, byte(g.r.IntN(256)))
		}
		return string(b)
	}
	target := hll.Registers + redisdiff.Pick(g.r, 0, 0, 0, 0, -1, 1, 3, -70, 200)
	for got := 0; got < target; {
		left := target - got
		switch n := g.r.IntN(10); {
		case n < 5:
			v, run := 1+g.r.IntN(redisdiff.Pick(g.r, 3, 32)), min(1+g.r.IntN(4), left)
			b = append(b, 0x80|byte(v-1)<<2|byte(run-1))
			got += run
		case n < 8:
			run := min(1+g.r.IntN(64), left)
			b = append(b, byte(run-1))
			got += run
		default:
			run := min(1+g.r.IntN(3000), left)
			b = append(b, 0x40|byte((run-1)>>8), byte(run-1))
			got += run
		}
	}
	return string(b)
}

// next is the next command. length asks the real server for a key's
// length, so that damage lands inside the string.
func (g *hgen) next(length func(key string) int) []string {
	key := g.key()
	switch n := g.r.IntN(100); {
	case n < 28:
		return append([]string{"PFADD", key}, g.elements(g.r.IntN(6))...)
	case n < 32:
		// A batch of new elements: past the sparse limit, or near it.
		return append([]string{"PFADD", key}, g.elements(50+g.r.IntN(redisdiff.Pick(g.r, 300, 3000)))...)
	case n < 46:
		return []string{"PFCOUNT", key}
	case n < 53:
		return append([]string{"PFCOUNT", key}, g.key(), g.pick(g.keys...))[:2+g.r.IntN(2)]
	case n < 59:
		return append([]string{"PFMERGE", key}, g.key(), g.pick(g.keys...))[:2+g.r.IntN(3)]
	case n < 71:
		return []string{"GET", key}
	case n < 76:
		size := length(key)
		if size == 0 {
			return []string{"STRLEN", key}
		}
		pos := g.r.IntN(size)
		if g.r.IntN(4) == 0 {
			pos = g.r.IntN(min(size, hll.HeaderSize))
		}
		return []string{"SETRANGE", key, strconv.Itoa(pos), string([]byte{byte(g.r.IntN(256))})}
	case n < 78:
		return []string{"APPEND", key, g.pick("\x00", "\x80", "\x40", "\x7f\xff", "hello", "\x83\x83")}
	case n < 83:
		return []string{"PFDEBUG", g.pick("GETREG", "DECODE", "ENCODING", "TODENSE", "todense", "bogus"), key}
	case n < 86:
		return []string{"SET", key, g.crafted()}
	case n < 88:
		return []string{"DEL", key}
	case n < 90:
		return []string{g.pick("TYPE", "STRLEN", "EXISTS"), key}
	case n < 93:
		return []string{"EVAL", "local a = redis.call('PFADD', KEYS[1], ARGV[1], ARGV[2]) " +
			"return {a, redis.pcall('PFCOUNT', KEYS[1]), redis.pcall('PFCOUNT', KEYS[1], KEYS[2])}",
			"2", key, g.pick(g.keys...), g.element(), g.element()}
	case n < 95:
		return []string{g.pick("COPY", "RENAME"), key, g.pick(g.keys...), "REPLACE"}[:3+g.r.IntN(2)]
	case n < 97:
		return []string{"EXPIRE", key, "5000"}
	case n < 98:
		return []string{"PERSIST", key}
	case n < 99:
		return []string{"SET", key, g.pick("plain", "HYLL", "12345678901234567")}
	}
	return []string{"FLUSHALL"}
}

// TestHyperLogLogsMatchRedis is the differential run over HyperLogLogs.
func TestHyperLogLogsMatchRedis(t *testing.T) {
	srv := redisdiff.Start(t, hllRecording)
	srv.Must(t, "FLUSHALL")
	real := srv.Dial(t)
	e := engine.MustNew()
	eng, dumper := &redisdiff.EngineConn{C: e.NewClient()}, &redisdiff.EngineConn{C: e.NewClient()}
	g := &hgen{r: redisdiff.NewRandPCG(22, 2700), keys: []string{"h1", "h2", "h3"}}
	var history []string
	compareKeyspaces := func(i int) {
		t.Helper()
		de, err := redisdiff.DumpKeyspace(dumper, false, 1)
		if err != nil {
			t.Fatalf("engine keyspace: %v", err)
		}
		srv.Databases = 1
		if ds := srv.DiffKeyspace(t, de, nil); len(ds) > 0 {
			t.Fatalf("after operation %d the keyspaces differ:\n  %s\nlast commands:\n  %s", i, strings.Join(ds, "\n  "), strings.Join(history, "\n  "))
		}
	}
	length := func(key string) int {
		a, b := eng.Node("STRLEN", key), real.Must(t, "STRLEN", key)
		if d := redisdiff.Diff(a, b); d != "" {
			t.Fatalf("STRLEN %s: %s\nlast commands:\n  %s", key, d, strings.Join(history, "\n  "))
		}
		n, _ := strconv.Atoi(b.S)
		return n
	}
	counts := map[string]int{}
	n := *hllOpsFlag
	for i := range n {
		cmd := g.next(length)
		history = append(history, redisdiff.Short(redisdiff.ShowCommand(cmd)))
		if len(history) > 40 {
			history = history[1:]
		}
		a, b := eng.Node(cmd...), real.Must(t, cmd...)
		if d := redisdiff.Diff(a, b); d != "" {
			t.Fatalf("operation %d of %d, %s:\n%s\nengine:    %v\nredis:     %v\nlast commands:\n  %s", i, n, redisdiff.Short(redisdiff.ShowCommand(cmd)), d,
				redisdiff.Short(a.String()), redisdiff.Short(b.String()), strings.Join(history, "\n  "))
		}
		outcome := cmd[0]
		switch {
		case b.IsError():
			code, _, _ := strings.Cut(b.S, " ")
			outcome += " " + code
		case cmd[0] == "PFDEBUG" && cmd[1] == "ENCODING":
			outcome += " ENCODING " + b.S
		}
		counts[outcome]++
		if i%200 == 199 {
			compareKeyspaces(i)
		}
	}
	compareKeyspaces(n)
	t.Logf("%d operations: %v", n, fmt.Sprint(counts))
	for _, want := range []string{"PFCOUNT INVALIDOBJ", "PFADD WRONGTYPE", "PFDEBUG ENCODING dense", "PFDEBUG ENCODING sparse"} {
		if counts[want] == 0 {
			t.Errorf("the run never met %q: it no longer tests what it is for", want)
		}
	}
}
