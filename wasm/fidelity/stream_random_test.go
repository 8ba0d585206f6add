package fidelity

// The differential run over streams. The engine keeps streams itself
// (wasm/stream): macro nodes that end where Redis 7.0's end, consumer
// groups with their counters, and pending entries lists. This run holds
// all of it to a real redis-server: XADD with IDs given, partly given and
// refused, with every kind of trimming; XDEL, XTRIM, ranges, XREADGROUP
// with COUNT and NOACK, history reads, XACK, XCLAIM and XAUTOCLAIM,
// XPENDING, XGROUP's subcommands, XSETID, and XINFO in each form after
// every few commands. Values of every size move node boundaries by bytes
// as well as by count.
//
// The two servers' clocks differ (the engine's is frozen), so no reply
// shows a time: idle times and delivery times are blanked, and
// min-idle-time is either 0 or an hour, with IDLE setting deliveries two
// hours back, so whether an entry is claimed never depends on the clock.

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"echomq.dev/playground/internal/redisdiff"
	"echomq.dev/playground/wasm/engine"
)

var (
	streamOpsFlag  = flag.Int("stream-ops", 3000, "operations in the stream differential run")
	streamSeedFlag = flag.Uint64("stream-seed", 7000, "the stream differential run's seed (the recording holds the default's)")
)

// streamRecording is redis-server's replies to the run. The replies that
// hold times are kept whole, however long: they are compared only once
// their times are blanked, which a digest could not be.
var streamRecording = redisdiff.NewRecording("testdata/stream.replies.gz").DigestOver(1<<10, "XINFO", "XPENDING")

// sgen makes the run's commands.
type sgen struct {
	r    *redisdiff.Rand
	keys []string
	ms   map[string]uint64 // a little past each key's last ID, for IDs that mostly work
}

func (g *sgen) pick(list ...string) string { return redisdiff.Pick(g.r, list...) }

func (g *sgen) key() string {
	if g.r.IntN(40) == 0 {
		return g.pick("str", "nokey")
	}
	return g.pick(g.keys...)
}

// id is an ID near key's last: mostly new, sometimes old or odd.
func (g *sgen) id(key string) string {
	ms := g.ms[key]
	switch n := g.r.IntN(100); {
	case n < 75:
		ms += uint64(g.r.IntN(3))
		g.ms[key] = ms
		return strconv.FormatUint(ms, 10) + "-" + g.pick("*", "*", "1", "5", strconv.Itoa(g.r.IntN(100)))
	case n < 85:
		return strconv.FormatUint(uint64(g.r.IntN(int(ms)+1)), 10) + "-" + strconv.Itoa(g.r.IntN(4))
	case n < 92:
		return strconv.FormatUint(ms, 10)
	}
	return g.pick("0-0", "0-*", "bad", "-", "+", "18446744073709551615-18446744073709551615", "1-18446744073709551615")
}

// oldID is an ID that may be in the stream.
func (g *sgen) oldID(key string) string {
	ms := g.ms[key]
	if g.r.IntN(10) == 0 {
		return g.pick("bad", "0", "-", "99999999")
	}
	return strconv.FormatUint(uint64(g.r.IntN(int(ms)+1)), 10) + "-" + g.pick("0", "1", "1", "5", strconv.Itoa(g.r.IntN(100)))
}

func (g *sgen) value() string {
	switch n := g.r.IntN(100); {
	case n < 50:
		return "v"
	case n < 70:
		return strconv.Itoa(g.r.IntN(100000) - 500)
	case n < 90:
		return strings.Repeat("x", g.r.IntN(200))
	}
	return strings.Repeat("y", 500+g.r.IntN(3000))
}

func (g *sgen) fields() []string {
	switch g.r.IntN(6) {
	case 0:
		return []string{"a", g.value(), "b", g.value()}
	case 1:
		return []string{g.pick("x", "y", "f"), g.value()}
	}
	return []string{"f", g.value()}
}

func (g *sgen) trim() []string {
	var out []string
	if g.r.IntN(2) == 0 {
		out = []string{"MAXLEN", g.pick("~", "=", "~", ""), strconv.Itoa(g.r.IntN(250))}
	} else {
		out = []string{"MINID", g.pick("~", "=", "~", ""), strconv.FormatUint(uint64(g.r.IntN(int(g.ms[g.keys[0]])+1)), 10)}
	}
	if out[1] == "" {
		out = []string{out[0], out[2]}
	}
	if g.r.IntN(4) == 0 {
		out = append(out, "LIMIT", strconv.Itoa(g.r.IntN(300)))
	}
	return out
}

func (g *sgen) group() string    { return g.pick("g1", "g1", "g2", "g2", "nog") }
func (g *sgen) consumer() string { return g.pick("c1", "c2", "c3") }

func (g *sgen) next() []string {
	key := g.key()
	switch n := g.r.IntN(100); {
	case n < 30:
		cmd := []string{"XADD", key}
		if g.r.IntN(4) == 0 {
			cmd = append(cmd, g.trim()...)
		}
		if g.r.IntN(30) == 0 {
			cmd = append(cmd, "NOMKSTREAM")
		}
		return append(append(cmd, g.id(key)), g.fields()...)
	case n < 35:
		cmd := []string{"XADD", key, g.id(key)}
		for range 10 + g.r.IntN(90) {
			cmd = append(cmd, "f", g.value())
		}
		return cmd
	case n < 40:
		return []string{"XDEL", key, g.oldID(key), g.oldID(key)}
	case n < 43:
		return append([]string{"XTRIM", key}, g.trim()...)
	case n < 47:
		return []string{g.pick("XRANGE", "XREVRANGE"), key, g.pick("-", "(5-1", "3"), g.pick("+", "(40-1", "90"), "COUNT", strconv.Itoa(g.r.IntN(5) - 1)}[:4+2*g.r.IntN(2)]
	case n < 57:
		cmd := []string{"XREADGROUP", "GROUP", g.group(), g.consumer()}
		if g.r.IntN(3) > 0 {
			cmd = append(cmd, "COUNT", strconv.Itoa(g.r.IntN(4)))
		}
		if g.r.IntN(8) == 0 {
			cmd = append(cmd, "NOACK")
		}
		return append(cmd, "STREAMS", key, g.pick(">", ">", ">", "0", g.oldID(key)))
	case n < 62:
		return []string{"XACK", key, g.group(), g.oldID(key), g.oldID(key)}
	case n < 68:
		cmd := []string{"XCLAIM", key, g.group(), g.consumer(), g.pick("0", "3600000"), g.oldID(key), g.oldID(key)}
		for range g.r.IntN(3) {
			switch g.r.IntN(5) {
			case 0:
				cmd = append(cmd, "JUSTID")
			case 1:
				cmd = append(cmd, "IDLE", "7200000")
			case 2:
				cmd = append(cmd, "RETRYCOUNT", strconv.Itoa(g.r.IntN(5)))
			case 3:
				cmd = append(cmd, "FORCE")
			default:
				cmd = append(cmd, "LASTID", g.oldID(key))
			}
		}
		return cmd
	case n < 72:
		cmd := []string{"XAUTOCLAIM", key, g.group(), g.consumer(), g.pick("0", "3600000"), g.pick("0", "-", g.oldID(key))}
		if g.r.IntN(2) == 0 {
			cmd = append(cmd, "COUNT", strconv.Itoa(1+g.r.IntN(4)))
		}
		if g.r.IntN(3) == 0 {
			cmd = append(cmd, "JUSTID")
		}
		return cmd
	case n < 76:
		if g.r.IntN(2) == 0 {
			return []string{"XPENDING", key, g.group()}
		}
		cmd := []string{"XPENDING", key, g.group()}
		if g.r.IntN(3) == 0 {
			cmd = append(cmd, "IDLE", g.pick("0", "3600000"))
		}
		cmd = append(cmd, "-", "+", strconv.Itoa(g.r.IntN(5)))
		if g.r.IntN(3) == 0 {
			cmd = append(cmd, g.consumer())
		}
		return cmd
	case n < 84:
		return []string{"XINFO", "STREAM", key}
	case n < 86:
		return []string{"XINFO", "STREAM", key, "FULL", "COUNT", strconv.Itoa(g.r.IntN(4))}[:4+2*g.r.IntN(2)]
	case n < 89:
		return []string{"XINFO", "GROUPS", key}
	case n < 90:
		return []string{"XINFO", "CONSUMERS", key, g.group()}
	case n < 95:
		switch g.r.IntN(6) {
		case 0, 1:
			cmd := []string{"XGROUP", "CREATE", key, g.group(), g.pick("0", "$", g.oldID(key))}
			if g.r.IntN(4) == 0 {
				cmd = append(cmd, "MKSTREAM")
			}
			if g.r.IntN(4) == 0 {
				cmd = append(cmd, "ENTRIESREAD", strconv.Itoa(g.r.IntN(10)-1))
			}
			return cmd
		case 2:
			cmd := []string{"XGROUP", "SETID", key, g.group(), g.pick("0", "$", g.oldID(key))}
			if g.r.IntN(3) == 0 {
				cmd = append(cmd, "ENTRIESREAD", strconv.Itoa(g.r.IntN(10)))
			}
			return cmd
		case 3:
			return []string{"XGROUP", "DESTROY", key, g.group()}
		case 4:
			return []string{"XGROUP", "CREATECONSUMER", key, g.group(), g.consumer()}
		}
		return []string{"XGROUP", "DELCONSUMER", key, g.group(), g.consumer()}
	case n < 97:
		cmd := []string{"XSETID", key, g.id(key)}
		if g.r.IntN(2) == 0 {
			cmd = append(cmd, "ENTRIESADDED", strconv.Itoa(g.r.IntN(400)))
		}
		if g.r.IntN(3) == 0 {
			cmd = append(cmd, "MAXDELETEDID", g.oldID(key))
		}
		return cmd
	case n < 98:
		return []string{"XLEN", key}
	case n < 99:
		return []string{g.pick("COPY", "RENAME"), key, g.pick(g.keys...)}
	}
	return []string{"DEL", key}
}

// blankTimes replaces the replies' clock readings: the idle times of
// XPENDING's extended form and XINFO CONSUMERS, and the times of XINFO
// STREAM FULL.
func blankTimes(cmd []string, n redisdiff.Node) redisdiff.Node {
	blank := redisdiff.Node{T: '+', S: "time"}
	switch {
	case cmd[0] == "XPENDING" && len(cmd) > 3 && n.T == '*':
		for i := range n.Elems {
			if len(n.Elems[i].Elems) == 4 {
				n.Elems[i].Elems[2] = blank
			}
		}
	case cmd[0] == "XINFO" && cmd[1] == "CONSUMERS" && n.T == '*':
		for i := range n.Elems {
			if len(n.Elems[i].Elems) == 6 {
				n.Elems[i].Elems[5] = blank
			}
		}
	case cmd[0] == "XINFO" && len(cmd) > 3:
		var walk func(n *redisdiff.Node)
		walk = func(n *redisdiff.Node) {
			for i := range n.Elems {
				e := &n.Elems[i]
				if e.T == ':' && len(e.S) >= 13 {
					*e = blank
				}
				walk(e)
			}
		}
		walk(&n)
	}
	return n
}

// TestStreamsMatchRedis is the differential run over streams.
func TestStreamsMatchRedis(t *testing.T) {
	srv := redisdiff.Start(t, streamRecording)
	srv.Must(t, "FLUSHALL")
	real := srv.Dial(t)
	e := engine.MustNew()
	eng := &redisdiff.EngineConn{C: e.NewClient()}
	g := &sgen{r: redisdiff.NewRandPCG(28, *streamSeedFlag), keys: []string{"s1", "s2"}, ms: map[string]uint64{"s1": 1, "s2": 1}}
	for _, c := range [][]string{{"SET", "str", "x"}} {
		eng.Node(c...)
		real.Must(t, c...)
	}
	var history []string
	counts := map[string]int{}
	n := *streamOpsFlag
	for i := range n {
		cmd := g.next()
		history = append(history, redisdiff.Short(redisdiff.ShowCommand(cmd)))
		if len(history) > 40 {
			history = history[1:]
		}
		a, b := blankTimes(cmd, eng.Node(cmd...)), blankTimes(cmd, real.Must(t, cmd...))
		if d := redisdiff.Diff(a, b); d != "" {
			t.Fatalf("operation %d of %d, %s:\n%s\nengine:    %v\nredis:     %v\nlast commands:\n  %s", i, n, redisdiff.Short(redisdiff.ShowCommand(cmd)), d,
				redisdiff.Short(a.String()), redisdiff.Short(b.String()), strings.Join(history, "\n  "))
		}
		outcome := cmd[0]
		if b.IsError() {
			code, _, _ := strings.Cut(b.S, " ")
			outcome += " " + code
		}
		counts[outcome]++
	}
	t.Logf("%d operations: %v", n, fmt.Sprint(counts))
	for _, want := range []string{"XADD", "XREADGROUP", "XCLAIM", "XAUTOCLAIM", "XADD ERR", "XREADGROUP NOGROUP"} {
		if counts[want] == 0 {
			t.Errorf("the run never met %q: it no longer tests what it is for", want)
		}
	}
}
