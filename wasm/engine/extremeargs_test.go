package engine

import (
	"bufio"
	"fmt"
	"net"
	"runtime"
	"runtime/metrics"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"echomq.dev/playground/internal/redisdiff"
	"echomq.dev/playground/internal/redisserver"
	"echomq.dev/playground/wasm/ascii"
)

// TestExtremeArguments is the class check for arguments that size an
// allocation or a loop (argcaps.go): every command of Redis 7.0's table
// (arity.txt, which holds every command and subcommand the engine may be
// sent) is run on small keys of each type with the extreme numbers below
// in every place after the key, alone and before the options that take a
// number. Each call must return within callBound, allocate less than
// allocBound, and leave the engine serving; a fatal out-of-memory, which
// no recover catches, fails the run outright, and a call that never
// returns is reported by name by the watchdog.
//
// Where a redis-server 7.0 can be started, every call whose engine reply
// is not the playground's own (a cap, a refused command, a command the
// engine lacks) is sent to it too, and for the commands argcaps.go checks
// the replies must be the same; the other differences are logged, as
// leads for fidelity work. Without a server the comparison is skipped,
// the crash check is not.
func TestExtremeArguments(t *testing.T) {
	if testing.Short() {
		t.Skip("sends every command some 100,000 times")
	}
	const (
		callBound  = time.Second
		allocBound = 64 << 20
		hang       = 30 * time.Second
	)
	extremes := []string{"0", "-1", "2147483648", "4294967296", "-9223372036854775808", "9223372036854775807", "9223372036854770000", "-9223372036854770000"}
	keys := []string{"str", "hash", "list", "set", "zset", "stream", "nokey"}
	setup := [][]string{{"FLUSHALL"}, {"SELECT", "0"}, {"SET", "str", "abc"}, {"HSET", "hash", "f", "v"}, {"RPUSH", "list", "a"},
		{"SADD", "set", "m"}, {"ZADD", "zset", "1", "m"}, {"XADD", "stream", "1-1", "f", "v"}}
	real := dialReal(t)
	e := MustNew()

	var current []string
	watch := make(chan []string)
	go func() { // the watchdog: a call that never returns is named, not just timed out
		for {
			select {
			case cmd, ok := <-watch:
				if !ok {
					return
				}
				current = cmd
			case <-time.After(hang):
				panic(fmt.Sprintf("TestExtremeArguments: %q did not return within %v", current, hang))
			}
		}
	}()
	defer close(watch)

	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	allocated := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	calls, compared, differ := 0, 0, map[string][]string{}
	failed := map[string]int{} // the failures reported of each command: a few are enough
	fail := func(args []string, format string, a ...any) {
		if name := ascii.Upper(args[0]); failed[name] < 3 {
			t.Errorf("%q: "+format, append([]any{args}, a...)...)
			failed[name]++
		} else {
			t.Fail()
		}
	}
	for _, shape := range extremeShapes(keys, extremes) {
		c := e.NewClient()
		for _, s := range setup {
			c.Do(s...)
		}
		if real != nil {
			for _, s := range setup {
				real.do(s)
			}
		}
		for _, args := range shape {
			watch <- args
			before, start := allocated(), time.Now()
			r, _ := c.Do(args...)
			took, grew := time.Since(start), allocated()-before
			calls++
			if took > callBound {
				fail(args, "took %v, want under %v", took, callBound)
			}
			if grew > allocBound {
				fail(args, "allocated %d MiB, want under %d MiB: an argument sized an allocation", grew>>20, allocBound>>20)
			}
			if c.InMulti() {
				c.Do("DISCARD")
			}
			if real == nil || !realMaySee(args, r.Str) {
				continue
			}
			got := redisdiff.FromReply(r, c.Protocol() == 3)
			want, err := real.do(args)
			if err != nil {
				t.Logf("redis-server: %q: %v (dialled again)", args, err)
				real = dialRealAt(t, real.addr)
				continue
			}
			if c.InMulti() || strings.EqualFold(args[0], "MULTI") {
				real.do([]string{"DISCARD"})
			}
			compared++
			if d := redisdiff.Diff(got, want); d != "" {
				name := ascii.Upper(args[0])
				if capped[name] {
					fail(args, "the engine differs from redis-server: %s", d)
				}
				differ[name] = append(differ[name], fmt.Sprintf("%q: %s", args, d))
			}
		}
		c.Close()
		if r, _ := e.Do("PING"); r.Str != "PONG" {
			t.Fatalf("after %q the engine no longer answers PING: %v", shape[len(shape)-1], r)
		}
	}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	t.Logf("%d calls, %d compared with redis-server; live heap at the end %d MiB", calls, compared, m.HeapAlloc>>20)
	if m.HeapAlloc > 256<<20 {
		t.Errorf("the live heap is %d MiB after the run, want under 256 MiB", m.HeapAlloc>>20)
	}
	names := make([]string, 0, len(differ))
	for n := range differ {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("differs from redis-server: %s, %d calls, e.g. %s", n, len(differ[n]), differ[n][0])
	}
}

// capped are the commands whose numeric arguments argcaps.go checks: with
// extreme numbers they must answer as redis-server does, wherever the
// playground's cap does not answer instead.
var capped = map[string]bool{
	"HRANDFIELD": true, "SRANDMEMBER": true, "ZRANDMEMBER": true, "SETBIT": true, "GETBIT": true,
	"APPEND": true, "LPOS": true, "SPOP": true, "LPOP": true, "RPOP": true, "SETRANGE": true,
}

// extremeShapes are the calls of the run, in groups that share a fresh
// keyspace: for each command (and subcommand) of Redis's table and each
// key, its arguments at the least count its arity allows and at two more
// (each "1"), the least count before each option that takes a number, and
// each of those with every extreme in every place after the key, one place
// at a time.
func extremeShapes(keys, extremes []string) [][][]string {
	options := [][]string{{"WITHVALUES"}, {"WITHSCORES"}, {"COUNT", "1"}, {"LIMIT", "1", "1"}, {"RANK", "1"}, {"MAXLEN", "1"}}
	var out [][][]string
	for _, c := range sortedRedisTable() {
		if c.subs != nil {
			continue // its subcommands have entries of their own
		}
		name := strings.Split(ascii.Upper(c.name), "|")
		least := max(c.arity, -c.arity) - len(name)
		for _, key := range keys {
			var bases [][]string
			for _, extra := range []int{0, 2} {
				if c.arity > 0 && extra > 0 {
					break
				}
				args := slices.Clone(name)
				for i := range least + extra {
					if i == 0 {
						args = append(args, key)
					} else {
						args = append(args, "1")
					}
				}
				bases = append(bases, args)
				if c.arity < 0 && extra == 0 {
					for _, o := range options {
						bases = append(bases, append(slices.Clone(args), o...))
					}
				}
			}
			for _, base := range bases {
				var group [][]string
				for p := len(name) + 1; p < len(base); p++ {
					for _, x := range extremes {
						args := slices.Clone(base)
						args[p] = x
						group = append(group, args)
					}
				}
				if len(group) > 0 {
					out = append(out, group)
				}
			}
		}
	}
	return out
}

// sortedRedisTable is every entry of Redis's table, subcommands included,
// in name order.
func sortedRedisTable() []*redisCommand {
	var out []*redisCommand
	for _, c := range redisTable() {
		out = append(out, c)
		for _, s := range c.subs {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// realMaySee reports whether a call may be sent to redis-server too: not
// when the engine's answer is its own (a cap, a refusal, a command it
// lacks), where Redis might block, build a reply without end, or stop
// serving; and never the commands that change the server itself.
func realMaySee(args []string, engineReply string) bool {
	if strings.Contains(engineReply, "playground") || strings.HasPrefix(engineReply, "ERR unknown command") {
		return false
	}
	switch ascii.Upper(args[0]) {
	case "SHUTDOWN", "DEBUG", "REPLICAOF", "SLAVEOF", "SYNC", "PSYNC", "FAILOVER", "MONITOR", "CLIENT", "CONFIG",
		"ACL", "MODULE", "CLUSTER", "SAVE", "BGSAVE", "BGREWRITEAOF", "WAIT", "WAITAOF", "QUIT", "RESET", "SCRIPT",
		"FUNCTION", "FCALL", "FCALL_RO", "LATENCY", "MEMORY", "SLOWLOG", "HELLO", "AUTH", "READONLY", "READWRITE",
		"SUBSCRIBE", "PSUBSCRIBE", "SSUBSCRIBE", "UNSUBSCRIBE", "PUNSUBSCRIBE", "SUNSUBSCRIBE", "PUBLISH", "SPUBLISH", "PUBSUB",
		"EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "SWAPDB", "SELECT", "MOVE", "COPY", "MIGRATE", "LASTSAVE", "INFO", "TIME", "RANDOMKEY",
		// The engine answers a blocking command at once with the reply
		// Redis gives when its timeout passes; Redis waits the timeout
		// out, up to the 5 s deadline of each call, and with hundreds of
		// such calls the run took over 20 minutes.
		"BLPOP", "BRPOP", "BLMOVE", "BRPOPLPUSH", "BLMPOP", "BZPOPMIN", "BZPOPMAX", "BZMPOP", "XREAD", "XREADGROUP":
		return false
	}
	return true
}

// realConn is a plain RESP connection to the redis-server the run
// compares with.
type realConn struct {
	addr string
	conn net.Conn
	r    *bufio.Reader
}

// dialReal starts a redis-server for the run, or returns nil without one.
func dialReal(t *testing.T) *realConn {
	s, err := redisserver.Launch()
	if err != nil {
		t.Logf("no redis-server (%v): the replies are not compared", err)
		return nil
	}
	t.Cleanup(s.Stop)
	return dialRealAt(t, s.Addr())
}

func dialRealAt(t *testing.T, addr string) *realConn {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("redis-server at %s: %v", addr, err)
	}
	t.Cleanup(func() { conn.Close() })
	return &realConn{addr, conn, bufio.NewReader(conn)}
}

// do sends one command and reads its reply, within a few seconds.
func (c *realConn) do(args []string) (redisdiff.Node, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	c.conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.conn.Write([]byte(b.String())); err != nil {
		return redisdiff.Node{}, err
	}
	return redisdiff.ReadNode(c.r)
}
