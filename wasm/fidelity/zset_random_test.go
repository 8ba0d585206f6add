package fidelity

// The differential run over sorted sets. The engine serves the ordered
// sorted-set commands from an index of its own next to miniredis's maps
// (wasm/engine/zsets.go); this run checks that index against a real
// redis-server through every path that changes a sorted set: the commands
// the engine serves (ZDIFFSTORE among them), the ones miniredis still runs
// (ZUNIONSTORE, ZINTERSTORE, GEOADD's cousins), keys moved, copied,
// renamed, swapped, flushed, expired by the clock and restored, writes
// inside scripts, and a reset. Sets cross Redis's 128-member listpack limit and grow to
// 20,000 members. Every reply is compared, and the whole keyspace every
// few hundred operations and at the end.

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"echomq.dev/playground/internal/redisdiff"
	"echomq.dev/playground/wasm/engine"
)

var (
	zsetOpsFlag   = flag.Int("zset-ops", 6000, "operations in the sorted-set differential run")
	zsetLogFlag   = flag.String("zset-log", "", "write the run's commands to this file as JSON")
	zsetEveryFlag = flag.Int("zset-every", 250, "compare the keyspaces after every this many operations of the sorted-set run")
)

// zgen makes the run's commands.
type zgen struct {
	r    *redisdiff.Rand
	keys []string
}

func (g *zgen) pick(list []string) string { return redisdiff.Pick(g.r, list...) }

// Most members are short; a few are past the listpack's 64 bytes.
func (g *zgen) member() string {
	switch n := g.r.IntN(200); {
	case n == 0:
		return strings.Repeat("long", 17) + strconv.Itoa(g.r.IntN(5))
	case n < 4:
		return g.pick([]string{"", "\xff", "a\x00b", "A", "z"})
	default:
		return "m" + strconv.Itoa(g.r.IntN(400))
	}
}

func (g *zgen) score() string {
	switch n := g.r.IntN(40); {
	case n < 24:
		return strconv.Itoa(g.r.IntN(30))
	case n < 30:
		return strconv.FormatFloat(float64(g.r.IntN(300))/8-10, 'g', -1, 64)
	default:
		return g.pick([]string{"-0", "0", "inf", "-inf", "+inf", "1e3", "0x10", " 1", "1.5e-7", "nan", "abc", "", "-5", "1e400"})
	}
}

func (g *zgen) scoreBound() string {
	switch n := g.r.IntN(12); {
	case n < 6:
		return strconv.Itoa(g.r.IntN(32) - 1)
	case n < 9:
		return "(" + strconv.Itoa(g.r.IntN(32)-1)
	default:
		return g.pick([]string{"-inf", "+inf", "inf", "(-inf", "nan", "(nan", "x", "", " 3", "(1.5", "1e400"})
	}
}

func (g *zgen) lexBound() string {
	switch n := g.r.IntN(10); {
	case n < 4:
		return "[" + g.member()
	case n < 7:
		return "(" + g.member()
	default:
		return g.pick([]string{"-", "+", "[", "(", "m1", "", "+x"})
	}
}

func (g *zgen) rank() string {
	return g.pick([]string{"0", "1", "2", "5", "-1", "-2", "-3", "100", "-100", "9999", "x", "1.5", "-20000"})
}

func (g *zgen) limit() []string {
	return []string{"LIMIT", g.pick([]string{"0", "1", "3", "-1", "200"}), g.pick([]string{"-1", "0", "1", "5", "50", "x"})}
}

// lexKey is the set whose members all have score 0: lexical ranges over
// members of different scores are undefined in a skiplist (see zsetcmds.go).
const lexKey = "zlex"

// next returns the next command; big asks for a bulk ZADD to one set.
func (g *zgen) next(lexOK func(key string) bool) []string {
	key := g.pick(g.keys)
	other := g.pick(g.keys)
	for other == lexKey {
		other = g.pick(g.keys)
	}
	score := g.score
	if key == lexKey {
		score = func() string { return "0" }
	}
	switch n := g.r.IntN(100); {
	case n < 18:
		cmd := []string{"ZADD", key}
		for _, f := range []string{"NX", "XX", "GT", "LT", "CH", "INCR"} {
			if g.r.IntN(7) == 0 {
				cmd = append(cmd, f)
			}
		}
		pairs := 1 + g.r.IntN(3)
		if g.r.IntN(40) == 0 {
			pairs = 0
		}
		for range pairs {
			cmd = append(cmd, score(), g.member())
		}
		if g.r.IntN(50) == 0 {
			cmd = cmd[:len(cmd)-1]
		}
		return cmd
	case n < 21:
		// Grow a set past the listpack: up to a few thousand at a time.
		size := g.pick([]string{"60", "130", "700", "3000"})
		cmd := []string{"ZADD", key}
		k, _ := strconv.Atoi(size)
		base := g.r.IntN(20000)
		for i := range k {
			s := strconv.Itoa((base + i*7) % 1000)
			if key == lexKey {
				s = "0"
			}
			cmd = append(cmd, s, "b"+strconv.Itoa((base+i)%20000))
		}
		return cmd
	case n < 25:
		return []string{"ZINCRBY", key, score(), g.member()}
	case n < 30:
		cmd := []string{"ZREM", key}
		for range 1 + g.r.IntN(3) {
			cmd = append(cmd, g.member())
		}
		return cmd
	case n < 37:
		cmd := []string{g.pick([]string{"ZPOPMIN", "ZPOPMAX"}), key}
		if g.r.IntN(3) > 0 {
			cmd = append(cmd, g.pick([]string{"0", "1", "2", "7", "-1", "x", "300"}))
		}
		return cmd
	case n < 47:
		cmd := []string{"ZRANGE", key}
		by := g.r.IntN(3)
		if by == 2 && !lexOK(key) {
			by = 1
		}
		switch by {
		case 0:
			cmd = append(cmd, g.rank(), g.rank())
		case 1:
			cmd = append(cmd, g.scoreBound(), g.scoreBound(), "BYSCORE")
		case 2:
			cmd = append(cmd, g.lexBound(), g.lexBound(), "BYLEX")
		}
		if g.r.IntN(3) == 0 {
			cmd = append(cmd, "REV")
		}
		if g.r.IntN(3) == 0 {
			cmd = append(cmd, g.limit()...)
		}
		if g.r.IntN(2) == 0 {
			cmd = append(cmd, "WITHSCORES")
		}
		if g.r.IntN(30) == 0 {
			cmd = append(cmd, g.pick([]string{"BYSCORE", "REV", "bogus"}))
		}
		return cmd
	case n < 53:
		name := g.pick([]string{"ZRANGEBYSCORE", "ZREVRANGEBYSCORE", "ZREVRANGE"})
		cmd := []string{name, key}
		if name == "ZREVRANGE" {
			cmd = append(cmd, g.rank(), g.rank())
		} else {
			cmd = append(cmd, g.scoreBound(), g.scoreBound())
			if g.r.IntN(3) == 0 {
				cmd = append(cmd, g.limit()...)
			}
		}
		if g.r.IntN(2) == 0 {
			cmd = append(cmd, "WITHSCORES")
		}
		return cmd
	case n < 57:
		if !lexOK(key) {
			key = lexKey
		}
		cmd := []string{g.pick([]string{"ZRANGEBYLEX", "ZREVRANGEBYLEX", "ZLEXCOUNT", "ZREMRANGEBYLEX"}), key, g.lexBound(), g.lexBound()}
		if cmd[0] == "ZRANGEBYLEX" || cmd[0] == "ZREVRANGEBYLEX" {
			if g.r.IntN(3) == 0 {
				cmd = append(cmd, g.limit()...)
			}
		}
		return cmd
	case n < 62:
		return []string{g.pick([]string{"ZRANK", "ZREVRANK"}), key, g.member()}
	case n < 66:
		return []string{"ZCOUNT", key, g.scoreBound(), g.scoreBound()}
	case n < 69:
		return []string{"ZREMRANGEBYRANK", key, g.rank(), g.rank()}
	case n < 71:
		return []string{"ZREMRANGEBYSCORE", key, g.scoreBound(), g.scoreBound()}
	case n < 74:
		cmd := []string{"ZRANGESTORE", other, key}
		if g.r.IntN(2) == 0 {
			cmd = append(cmd, g.rank(), g.rank())
		} else {
			cmd = append(cmd, g.scoreBound(), g.scoreBound(), "BYSCORE")
			if g.r.IntN(2) == 0 {
				cmd = append(cmd, "LIMIT", "0", g.pick([]string{"1", "10", "-1"}))
			}
		}
		if g.r.IntN(3) == 0 {
			cmd = append(cmd, "REV")
		}
		return cmd
	case n < 77:
		name := g.pick([]string{"ZUNIONSTORE", "ZINTERSTORE", "ZDIFFSTORE", "ZDIFF"})
		if name == "ZDIFF" {
			cmd := []string{name, "2", key, g.pick(g.keys)}
			if g.r.IntN(2) == 0 {
				cmd = append(cmd, "WITHSCORES")
			}
			return cmd
		}
		cmd := []string{name, other, "2", key, g.pick(g.keys)}
		if name != "ZDIFFSTORE" && g.r.IntN(3) == 0 {
			cmd = append(cmd, "AGGREGATE", g.pick([]string{"MIN", "MAX", "SUM"}))
		}
		return cmd
	case n < 80:
		return []string{g.pick([]string{"ZCARD", "ZSCORE", "TYPE", "EXISTS"}), key, g.member()}[:2+g.r.IntN(2)]
	case n < 82:
		return []string{g.pick([]string{"DEL", "UNLINK"}), key}
	case n < 84:
		return []string{g.pick([]string{"RENAME", "RENAMENX"}), key, other}
	case n < 85:
		return []string{"COPY", key, other, "REPLACE"}
	case n < 86:
		return []string{"MOVE", key, g.pick([]string{"1", "2"})}
	case n < 87:
		return []string{"COPY", key, key, "DB", "1"}
	case n < 88:
		return []string{"SWAPDB", "0", g.pick([]string{"1", "2"})}
	case n < 89:
		return []string{"SET", key, "a string"}
	case n < 90:
		return []string{"OBJECT", "ENCODING", key}
	case n < 94:
		// Writes inside a script: a ZADD and a pop, and a read in order.
		return []string{"EVAL", "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2]) " +
			"local p = redis.call('ZPOPMIN', KEYS[1]) " +
			"return {p, redis.call('ZRANGE', KEYS[1], 0, 2, 'WITHSCORES'), redis.call('ZRANK', KEYS[1], ARGV[2])}",
			"1", key, score(), g.member()}
	case n < 95:
		return []string{"FLUSHDB"}
	}
	return []string{"ZSCORE", key, g.member()}
}

// TestSortedSetsMatchRedis is the differential run over sorted sets.
func TestSortedSetsMatchRedis(t *testing.T) {
	srv := startReal(t)
	srv.Must(t, "FLUSHALL")
	real := srv.Dial(t)
	e := engine.MustNew()
	eng, dumper := &redisdiff.EngineConn{C: e.NewClient()}, &redisdiff.EngineConn{C: e.NewClient()}
	e.SetNow(srv.Now(t))
	g := &zgen{r: redisdiff.NewRandPCG(7, 70), keys: []string{"z1", "z2", "z3", lexKey}}
	lexOK := func(key string) bool {
		if key == lexKey {
			return true
		}
		return srv.Encoding(t, key) != "skiplist"
	}
	counts := map[string]int{}
	var history []string
	compareKeyspaces := func(i int) {
		t.Helper()
		de, err := redisdiff.DumpKeyspace(dumper, false, redisdiff.Databases)
		if err != nil {
			t.Fatalf("engine keyspace: %v", err)
		}
		if ds := srv.DiffKeyspace(t, de, nil); len(ds) > 0 {
			t.Fatalf("after operation %d the keyspaces differ:\n  %s\nlast commands:\n  %s", i, strings.Join(ds, "\n  "), strings.Join(history, "\n  "))
		}
	}
	var logged [][]string
	defer func() {
		if *zsetLogFlag != "" {
			b, _ := json.Marshal(logged)
			os.WriteFile(*zsetLogFlag, b, 0o644)
		}
	}()
	biggest := 0
	n := *zsetOpsFlag
	for i := range n {
		var cmd []string
		switch {
		case i > 0 && i%997 == 0:
			// The engine's reset, against a real server flushed.
			e.Reset()
			logged = append(logged, []string{"#RESET"})
			srv.Must(t, "FLUSHALL")
			srv.Must(t, "SCRIPT", "FLUSH")
			e.SetNow(srv.Now(t))
			counts["reset"]++
			continue
		case i%331 == 5:
			// Expiry as the clock moves: a TTL short enough to pass.
			key := g.pick(g.keys)
			cmd = []string{"PEXPIRE", key, "30"}
			a, b := eng.Node(cmd...), real.Must(t, cmd...)
			if d := redisdiff.Diff(a, b); d != "" {
				t.Fatalf("operation %d, %s: %s", i, redisdiff.ShowCommand(cmd), d)
			}
			srv.Sleep(40 * time.Millisecond)
			logged = append(logged, cmd, []string{"#ADVANCE"})
			e.SetNow(srv.Now(t))
			counts["expiry"]++
			cmd = []string{"ZCARD", key}
		case i%211 == 7:
			// DUMP and RESTORE, each server with its own payload.
			key, to := g.pick(g.keys), g.pick(g.keys)
			de, dr := eng.Node("DUMP", key), real.Must(t, "DUMP", key)
			if de.T == '$' && dr.T == '$' && !de.Null && !dr.Null {
				a := eng.Node("RESTORE", to, "0", de.S, "REPLACE")
				b := real.Must(t, "RESTORE", to, "0", dr.S, "REPLACE")
				if d := redisdiff.Diff(a, b); d != "" {
					t.Fatalf("operation %d, RESTORE %s from %s: %s", i, to, key, d)
				}
				counts["restore"]++
			}
			continue
		default:
			cmd = g.next(lexOK)
		}
		if *zsetLogFlag != "" {
			logged = append(logged, cmd)
		}
		history = append(history, redisdiff.Short(redisdiff.ShowCommand(cmd)))
		if len(history) > 60 {
			history = history[1:]
		}
		a, b := eng.Node(cmd...), real.Must(t, cmd...)
		if d := redisdiff.Diff(a, b); d != "" {
			t.Fatalf("operation %d of %d, %s:\n%s\nengine:    %v\nredis:     %v\nlast commands:\n  %s", i, n, redisdiff.Short(redisdiff.ShowCommand(cmd)), d, redisdiff.Short(a.String()), redisdiff.Short(b.String()), strings.Join(history, "\n  "))
		}
		counts[cmd[0]]++
		if cmd[0] == "ZADD" && b.T == ':' {
			if c := real.Must(t, "ZCARD", cmd[1]); c.T == ':' {
				size, _ := strconv.Atoi(c.S)
				biggest = max(biggest, size)
			}
		}
		if i%*zsetEveryFlag == *zsetEveryFlag-1 {
			compareKeyspaces(i)
		}
	}
	compareKeyspaces(n)
	if biggest <= 128 {
		t.Errorf("no set crossed the listpack limit (largest %d members)", biggest)
	}
	t.Logf("%d operations, largest set %d members: %v", n, biggest, fmt.Sprint(counts))
}
