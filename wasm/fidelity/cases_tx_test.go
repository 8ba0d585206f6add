package fidelity

// Transactions: MULTI, EXEC, DISCARD, WATCH and UNWATCH. A case's commands
// may go to a second connection (on2) or let the clock run (after), so
// that a WATCH can meet another client's write and a key's expiry.

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"echomq.dev/playground/internal/redisdiff"
	"echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/engine"
)

const (
	onSecond = "@2"     // the rest of the command goes to the second connection
	sleepFor = "@sleep" // the clock runs on by the milliseconds that follow
)

// on2 sends cmd on the case's second connection, to each server.
func on2(cmd ...string) []string { return append([]string{onSecond}, cmd...) }

// after lets ms milliseconds pass: the real server sleeps them; the
// engine's clock is moved on by as much, which is how the page moves it.
func after(ms int) []string { return []string{sleepFor, strconv.Itoa(ms)} }

// secondConn is the case's second connection to each server, opened when
// a command first needs it.
type secondConn struct {
	srv   *redisdiff.Server
	e     *engine.Engine
	resp3 bool
	cn    *redisdiff.Real
	ec    *redisdiff.EngineConn
}

// route says where cmd goes: the case's own connections, or the second
// ones, with the marker taken off. A clock step is done here and comes back
// as a nil command.
func (s *secondConn) route(t *testing.T, cn *redisdiff.Real, ec *redisdiff.EngineConn, cmd []string) (*redisdiff.Real, *redisdiff.EngineConn, []string) {
	t.Helper()
	switch cmd[0] {
	case sleepFor:
		ms, _ := strconv.Atoi(cmd[1])
		s.srv.Sleep(time.Duration(ms) * time.Millisecond)
		s.e.Advance(int64(ms))
		return nil, nil, nil
	case onSecond:
		if s.cn == nil {
			s.cn, s.ec = s.srv.Dial(t), &redisdiff.EngineConn{C: s.e.NewClient()}
			if s.resp3 {
				helloRESP3(t, s.cn, s.ec)
			}
		}
		return s.cn, s.ec, cmd[1:]
	}
	return cn, ec, cmd
}

func txCases() []fcase {
	enq := lua.Enqueue().Source
	pending, active, row := "emq:{q}:pending", "emq:{q}:active", "emq:{q}:job:JOB1"
	// claimSteps is one worker's optimistic claim once it has read JOB1 at
	// the head of pending: the four writes of @claim, made by hand.
	claimSteps := [][]string{{"MULTI"}, {"ZREM", pending, "JOB1"}, {"HINCRBY", row, "attempts", "1"},
		{"HSET", row, "state", "active"}, {"ZADD", active, "1767225630000", "JOB1"}, {"EXEC"}}
	seed := [][]string{{"HSET", row, "state", "pending", "attempts", "0", "payload", "{}"}, {"ZADD", pending, "0", "JOB1"},
		{"HSET", "emq:{q}:job:JOB2", "state", "pending", "attempts", "0", "payload", "{}"}, {"ZADD", pending, "0", "JOB2"}}
	twoWorkers := slices.Concat(seed,
		[][]string{{"WATCH", pending}, {"ZRANGE", pending, "0", "0"}, on2("WATCH", pending), on2("ZRANGE", pending, "0", "0")},
		claimSteps,
		prefixed(claimSteps),
		[][]string{on2("UNWATCH"), on2("WATCH", pending), on2("ZRANGE", pending, "0", "0"), on2("UNWATCH")})

	return []fcase{
		{id: "tx/queued", desc: "MULTI answers OK, each command QUEUED, and EXEC the replies of all of them in order",
			cmds: [][]string{{"MULTI"}, {"SET", "k", "v"}, {"INCR", "n"}, {"GET", "k"}, {"HSET", "h", "f", "1"}, {"EXEC"}, {"MULTI"}, {"EXEC"}}},
		{id: "tx/execabort", desc: "A command refused while queueing (wrong arity, unknown command or subcommand) makes EXEC answer EXECABORT, and nothing runs",
			cmds: [][]string{
				{"MULTI"}, {"SET", "k", "v"}, {"SET", "k"}, {"EXEC"}, {"GET", "k"},
				{"MULTI"}, {"SET", "k", "v"}, {"NOSUCH", "x"}, {"EXEC"},
				{"MULTI"}, {"CLIENT", "NOSUCH"}, {"SET", "k", "v"}, {"EXEC"},
				{"MULTI"}, {"CONFIG", "GET"}, {"EXEC"},
				{"MULTI"}, {"EXEC", "now"}, {"SET", "k", "v"}, {"EXEC"},
				{"MULTI"}, {"EVAL"}, {"EXEC"},
				{"MULTI"}, {"WATCH"}, {"EXEC"},
				{"GET", "k"}}},
		{id: "tx/runtime-errors", desc: "Inside EXEC a command that fails (wrong type, not a number, a bad option) answers its error, and the others still run",
			cmds: [][]string{{"SET", "s", "abc"}, {"MULTI"}, {"SET", "k", "v"}, {"LPUSH", "s", "x"}, {"INCR", "s"}, {"SET", "k", "w", "BADOPT"},
				{"ZADD", "z", "nan", "m"}, {"SET", "j", "1"}, {"EXEC"}}},
		{id: "tx/misuse", desc: "EXEC or DISCARD without MULTI, nested MULTI and WATCH inside MULTI get Redis's errors; the last two leave the transaction open",
			cmds: [][]string{{"EXEC"}, {"EXEC", "x"}, {"DISCARD"}, {"MULTI", "x"}, {"UNWATCH", "x"}, {"WATCH"}, {"MULTI"}, {"MULTI"}, {"WATCH", "k"}, {"SET", "k", "1"}, {"EXEC"}, {"EXEC"}}},
		{id: "tx/discard", desc: "DISCARD drops the queue: nothing ran, and the connection is out of MULTI",
			cmds: [][]string{{"MULTI"}, {"SET", "k", "v"}, {"DISCARD"}, {"GET", "k"}, {"EXEC"}}},
		{id: "tx/set-over-types", desc: "Queued plain SETs over a hash, a sorted set and a key with a TTL run at EXEC and replace each; a watched key a queued SET writes does not spoil its own EXEC",
			cmds: [][]string{{"HSET", "h", "f", "1"}, {"ZADD", "z", "1", "a"}, {"SET", "t", "v", "PX", "100000"}, {"WATCH", "h", "z"},
				{"MULTI"}, {"SET", "h", "v"}, {"SET", "z", "v"}, {"SET", "t", "w"}, {"TYPE", "h"}, {"TYPE", "z"}, {"PTTL", "t"}, {"EXEC"},
				{"ZADD", "z", "2", "b"}, {"DEL", "z"}, {"ZADD", "z", "2", "b"}, {"ZRANGE", "z", "0", "-1"}}},
		{id: "tx/select", desc: "SELECT inside MULTI moves the rest of the queue, and the connection, to that database",
			cmds: [][]string{{"MULTI"}, {"SET", "k", "0"}, {"SELECT", "1"}, {"SET", "k", "1"}, {"EXEC"}, {"GET", "k"}}},
		{id: "tx/eval", desc: "EVAL and EVALSHA inside MULTI are queued and run at EXEC; a script's error is its own reply only",
			cmds: [][]string{{"SCRIPT", "LOAD", enq}, {"MULTI"},
				evalKeys(enq, []string{row, pending}, "JOB1", "{}"), evalsha(enq, []string{row, pending}, "JOB1", "{}"),
				evalsha(enq, []string{"emq:{q}:job:x", pending}, "x", "{}"), eval("return redis.call('INCR', KEYS[1])"),
				{"EVALSHA", strings.Repeat("0", 40), "0"}, eval("return 7"), {"EXEC"}}},
		{id: "tx/in-script", desc: "A script cannot open a transaction: MULTI, EXEC, WATCH and the rest are refused from scripts",
			cmds: [][]string{eval("return redis.call('MULTI')"), eval("return redis.pcall('EXEC')"), eval("return redis.pcall('WATCH', 'k')"),
				eval("return redis.pcall('UNWATCH')"), eval("return redis.pcall('DISCARD')"), {"EXEC"}}},
		{id: "tx/watch-untouched", desc: "WATCH on keys nobody writes: EXEC runs the queue; reads, and writes to other keys, do not count",
			cmds: [][]string{{"SET", "k", "1"}, {"WATCH", "k", "missing"}, {"GET", "k"}, on2("GET", "k"), on2("SET", "other", "x"), {"MULTI"}, {"INCR", "k"}, {"SET", "missing", "y"}, {"EXEC"}}},
		{id: "tx/watch-other-client", desc: "A write to a watched key from another connection: EXEC answers nil and none of the queue runs",
			cmds: [][]string{{"SET", "k", "1"}, {"WATCH", "k"}, on2("SET", "k", "2"), {"MULTI"}, {"INCR", "k"}, {"SET", "j", "x"}, {"EXEC"}, {"GET", "k"}}},
		{id: "tx/watch-same-client", desc: "A write to a watched key from the watching connection itself, before MULTI, spoils the EXEC too; its own queued writes do not",
			cmds: [][]string{{"WATCH", "k"}, {"SET", "k", "x"}, {"MULTI"}, {"SET", "k", "y"}, {"EXEC"}, {"GET", "k"},
				{"WATCH", "k"}, {"MULTI"}, {"SET", "k", "z"}, {"EXEC"}}},
		{id: "tx/watch-script", desc: "A script's write is a write: @enqueue on another connection spoils a WATCH on the pending set",
			cmds: [][]string{{"WATCH", pending}, on2(evalKeys(enq, []string{row, pending}, "JOB1", "{}")...), {"MULTI"}, {"ZREM", pending, "JOB1"}, {"EXEC"}, {"ZCARD", pending}}},
		{id: "tx/watch-expiry", desc: "A watched key that expires as the clock moves spoils the EXEC; one whose TTL only runs down does not",
			cmds: [][]string{{"SET", "k", "v", "PX", "100"}, {"WATCH", "k"}, after(250), {"MULTI"}, {"SET", "j", "1"}, {"EXEC"}, {"GET", "j"},
				{"SET", "k", "v", "PX", "60000"}, {"WATCH", "k"}, after(100), {"MULTI"}, {"SET", "j", "2"}, {"EXEC"}}},
		{id: "tx/watch-flushdb", desc: "FLUSHDB touches every watched key it empties; a watched key that did not exist is left alone",
			cmds: [][]string{{"SET", "k", "1"}, {"WATCH", "k"}, on2("FLUSHDB"), {"MULTI"}, {"SET", "j", "1"}, {"EXEC"},
				{"WATCH", "missing"}, on2("FLUSHDB"), {"MULTI"}, {"SET", "j", "2"}, {"EXEC"},
				{"SET", "k", "1"}, {"WATCH", "k"}, on2("SELECT", "1"), on2("FLUSHDB"), {"MULTI"}, {"SET", "j", "3"}, {"EXEC"}}},
		{id: "tx/watch-flushall", desc: "FLUSHALL touches the watched keys of every database",
			cmds: [][]string{{"SELECT", "2"}, {"SET", "k", "1"}, {"WATCH", "k"}, on2("FLUSHALL"), {"MULTI"}, {"SET", "j", "1"}, {"EXEC"}, {"SELECT", "0"},
				{"WATCH", "k"}, on2("FLUSHALL"), {"MULTI"}, {"SET", "j", "2"}, {"EXEC"}}},
		{id: "tx/watch-swapdb", desc: "SWAPDB touches a watched key found in either database; afterwards the watch follows the database, not the data",
			cmds: [][]string{{"SET", "k", "1"}, {"WATCH", "k"}, on2("SWAPDB", "0", "1"), {"MULTI"}, {"GET", "k"}, {"EXEC"},
				on2("SELECT", "1"), on2("SET", "b", "1"), {"WATCH", "b"}, on2("SWAPDB", "0", "1"), {"MULTI"}, {"GET", "b"}, {"EXEC"},
				{"WATCH", "none"}, on2("SWAPDB", "0", "1"), {"MULTI"}, {"SET", "m", "1"}, {"EXEC"},
				{"WATCH", "a"}, on2("SWAPDB", "0", "1"), on2("SELECT", "0"), on2("SET", "a", "1"), {"MULTI"}, {"SET", "m", "2"}, {"EXEC"},
				{"WATCH", "a2"}, on2("SWAPDB", "0", "1"), on2("SELECT", "1"), on2("SET", "a2", "1"), {"MULTI"}, {"SET", "m", "3"}, {"EXEC"}}},
		{id: "tx/watch-rename", desc: "RENAME touches both of its keys: a watch on either spoils the EXEC",
			cmds: [][]string{{"SET", "a", "1"}, {"WATCH", "b"}, on2("RENAME", "a", "b"), {"MULTI"}, {"GET", "b"}, {"EXEC"},
				{"WATCH", "b"}, on2("RENAME", "b", "c"), {"MULTI"}, {"GET", "c"}, {"EXEC"}}},
		{id: "tx/watch-del", desc: "DEL of a watched key spoils the EXEC; DEL of a key that is not there writes nothing",
			cmds: [][]string{{"SET", "k", "1"}, {"WATCH", "k"}, on2("DEL", "k"), {"MULTI"}, {"SET", "j", "1"}, {"EXEC"},
				{"WATCH", "missing"}, on2("DEL", "missing"), {"MULTI"}, {"SET", "j", "2"}, {"EXEC"}}},
		{id: "tx/unwatch", desc: "UNWATCH, DISCARD and EXEC forget the watched keys; UNWATCH inside MULTI is queued",
			cmds: [][]string{{"WATCH", "k"}, on2("SET", "k", "1"), {"UNWATCH"}, {"MULTI"}, {"SET", "j", "1"}, {"EXEC"},
				{"WATCH", "k"}, {"MULTI"}, {"DISCARD"}, on2("SET", "k", "2"), {"MULTI"}, {"SET", "j", "2"}, {"EXEC"},
				{"WATCH", "k"}, {"MULTI"}, {"EXEC"}, on2("SET", "k", "3"), {"MULTI"}, {"SET", "j", "3"}, {"EXEC"},
				{"WATCH", "k"}, {"MULTI"}, {"UNWATCH"}, {"SET", "j", "4"}, {"EXEC"},
				{"WATCH", "k"}, on2("SET", "k", "4"), {"WATCH", "other"}, {"MULTI"}, {"EXEC"},
				{"WATCH", "k"}, on2("SET", "k", "5"), {"EXEC", "x"}, {"MULTI"}, {"EXEC"}}},
		{id: "tx/watch-other-db", desc: "A watch names a key in one database: the same name written in another database is another key",
			cmds: [][]string{{"WATCH", "k"}, on2("SELECT", "1"), on2("SET", "k", "1"), {"MULTI"}, {"SET", "j", "1"}, {"EXEC"}}},
		{id: "tx/watch-writes", desc: "Each kind of write from another connection spoils a WATCH on the key it changes: strings, hashes, lists, sets, sorted sets (a ZREM that leaves other members too), streams, TTLs",
			cmds: watchEach(changingWrites)},
		{id: "tx/watch-no-op-writes", desc: "A write command that changes nothing (ZREM, SREM, HDEL of what is not there, ZADD of the same score, ZINCRBY by 0, a failed SET NX) leaves a WATCH as it was, as in Redis",
			cmds: watchEach(noOpWrites)},
		{id: "tx/optimistic-claim", desc: "Two workers claim JOB1 with WATCH, ZRANGE, then MULTI and the four writes: one EXEC claims it, the other answers nil, and its retry finds pending empty",
			cmds: twoWorkers},
	}
}

// aWrite is a key made ready, then written from the second connection.
type aWrite struct {
	setup [][]string
	write []string
}

// changingWrites each change the key k they write.
var changingWrites = []aWrite{
	{[][]string{{"SET", "k", "v"}}, []string{"SET", "k", "v"}}, // the same value: Redis still counts it
	{[][]string{{"SET", "k", "v"}}, []string{"APPEND", "k", "w"}},
	{[][]string{{"SET", "k", "1"}}, []string{"INCR", "k"}},
	{[][]string{{"SET", "k", "abc"}}, []string{"SETRANGE", "k", "1", "x"}},
	{[][]string{{"SET", "k", "v"}}, []string{"GETDEL", "k"}},
	{[][]string{{"SET", "k", "v"}}, []string{"EXPIRE", "k", "100"}},
	{[][]string{{"SET", "k", "v", "EX", "100"}}, []string{"PERSIST", "k"}},
	{[][]string{{"HSET", "k", "f", "1", "g", "2"}}, []string{"HSET", "k", "f", "9"}},
	{[][]string{{"HSET", "k", "f", "1", "g", "2"}}, []string{"HSET", "k", "f", "1"}},
	{[][]string{{"HSET", "k", "f", "1", "g", "2"}}, []string{"HDEL", "k", "f"}},
	{[][]string{{"HSET", "k", "f", "1"}}, []string{"HINCRBY", "k", "f", "1"}},
	{[][]string{{"RPUSH", "k", "a", "b"}}, []string{"LPUSH", "k", "x"}},
	{[][]string{{"RPUSH", "k", "a", "b"}}, []string{"RPOP", "k"}},
	{[][]string{{"RPUSH", "k", "a", "b"}}, []string{"LSET", "k", "0", "z"}},
	{[][]string{{"SADD", "k", "a", "b"}}, []string{"SADD", "k", "c"}},
	{[][]string{{"SADD", "k", "a", "b"}}, []string{"SREM", "k", "a"}},
	{[][]string{{"ZADD", "k", "0", "a", "0", "b"}}, []string{"ZREM", "k", "a"}},
	{[][]string{{"ZADD", "k", "0", "a", "0", "b"}}, []string{"ZADD", "k", "5", "a"}},
	{[][]string{{"ZADD", "k", "0", "a", "0", "b"}}, []string{"ZINCRBY", "k", "1", "b"}},
	{[][]string{{"ZADD", "k", "0", "a", "0", "b"}}, []string{"ZPOPMIN", "k"}},
	{[][]string{{"XADD", "k", "1-1", "f", "v"}}, []string{"XADD", "k", "2-1", "f", "v"}},
	{nil, []string{"SET", "k", "new"}}, // a key that did not exist when watched
	// A plain SET over a key of another type, or over one with a TTL.
	{[][]string{{"HSET", "k", "f", "1"}}, []string{"SET", "k", "v"}},
	{[][]string{{"ZADD", "k", "0", "a"}, {"ZRANGE", "k", "0", "-1"}}, []string{"SET", "k", "v"}},
	{[][]string{{"RPUSH", "k", "a"}}, []string{"EVAL", "return redis.call('SET', KEYS[1], 'v')", "1", "k"}},
	{[][]string{{"SET", "k", "v", "EX", "100"}}, []string{"SET", "k", "v"}},
	// Writes Redis counts though the value comes out the same.
	{[][]string{{"SET", "k", "1"}}, []string{"INCRBY", "k", "0"}},
	{[][]string{{"RPUSH", "k", "a"}}, []string{"LSET", "k", "0", "a"}},
	{[][]string{{"SET", "k", "abc"}}, []string{"SETRANGE", "k", "0", "a"}},
	{[][]string{{"SET", "k", "v"}}, []string{"MSET", "j", "1", "k", "v"}},
	{[][]string{{"SADD", "k", "a"}}, []string{"SUNIONSTORE", "k", "k"}},
	{[][]string{{"RPUSH", "k", "a"}}, []string{"RPOPLPUSH", "k", "k"}},
	// A change and its undoing, in one script: the key was touched.
	{[][]string{{"SADD", "k", "a"}}, []string{"EVAL", "redis.call('SADD', KEYS[1], 'b') return redis.call('SREM', KEYS[1], 'b')", "1", "k"}},
}

// noOpWrites are write commands that leave the key k as it was.
var noOpWrites = []aWrite{
	{[][]string{{"ZADD", "k", "0", "a", "0", "b"}}, []string{"ZREM", "k", "c"}},
	{[][]string{{"ZADD", "k", "0", "a", "0", "b"}}, []string{"ZADD", "k", "0", "a"}},
	{[][]string{{"SADD", "k", "a", "b"}}, []string{"SREM", "k", "c"}},
	{[][]string{{"SADD", "k", "a", "b"}}, []string{"SADD", "k", "a"}},
	{[][]string{{"HSET", "k", "f", "1"}}, []string{"HDEL", "k", "g"}},
	{[][]string{{"SET", "k", "v"}}, []string{"SET", "k", "w", "NX"}},
	{[][]string{{"RPUSH", "k", "a"}}, []string{"LREM", "k", "0", "b"}},
	{[][]string{{"ZADD", "k", "1", "a"}}, []string{"ZINCRBY", "k", "0", "a"}},
	{nil, []string{"DEL", "k"}},
}

// watchEach runs one WATCH, write, MULTI, EXEC round per write, each on a
// fresh key.
func watchEach(writes []aWrite) [][]string {
	var out [][]string
	for _, w := range writes {
		out = append(out, []string{"DEL", "k"})
		out = append(out, w.setup...)
		out = append(out, []string{"WATCH", "k"}, on2(w.write...), []string{"MULTI"}, []string{"INCR", "n"}, []string{"EXEC"})
	}
	return out
}

// prefixed sends every command of cmds on the second connection.
func prefixed(cmds [][]string) [][]string {
	out := make([][]string, len(cmds))
	for i, c := range cmds {
		out[i] = on2(c...)
	}
	return out
}

// arityPath is the engine's arity table, which this test writes.
const arityPath = "../engine/arity.txt"

// TestArityTableIsRedis holds the engine's table of Redis's commands,
// which decides what MULTI refuses to queue and what a script's redis.call
// is refused before it runs, to COMMAND of a real server: wasm/engine's
// arity.txt must be the table COMMAND gives (each command's and
// subcommand's arity, and its noscript flag), and the engine must read it
// as COMMAND means it. With -update against redis-server it writes the
// file instead.
func TestArityTableIsRedis(t *testing.T) {
	srv := startReal(t)
	all := srv.Must(t, "COMMAND")
	want := map[string]string{}
	var names []string
	add := func(n redisdiff.Node) {
		name := n.Elems[0].S
		want[name] = n.Elems[1].S
		for _, flag := range n.Elems[2].Elems {
			if flag.S == "noscript" {
				want[name] += " noscript"
			}
		}
		for _, flag := range n.Elems[2].Elems {
			if flag.S == "denyoom" || flag.S == "movablekeys" {
				want[name] += " " + flag.S
			}
		}
		if first := n.Elems[3].S; first != "0" {
			want[name] += " keys=" + first + "," + n.Elems[4].S + "," + n.Elems[5].S
		}
		names = append(names, name)
	}
	for _, c := range all.Elems {
		add(c)
		if len(c.Elems) > 9 {
			for _, sub := range c.Elems[9].Elems {
				add(sub)
			}
		}
	}
	slices.Sort(names)
	var b strings.Builder
	fmt.Fprintf(&b, "# Each command's arity in redis-server %s, as COMMAND reports it: n means\n", srv.Version)
	b.WriteString("# exactly n arguments counting the name, -n at least n; a subcommand's\n")
	b.WriteString("# counts its own name too. \"noscript\" after it: COMMAND flags it so, and\n")
	b.WriteString("# a script may not call it; \"denyoom\": Redis refuses it while its used\n")
	b.WriteString("# memory is past maxmemory; \"movablekeys\": its keys are found by its\n")
	b.WriteString("# arguments; keys=first,last,step: COMMAND's key positions (COMMAND\n")
	b.WriteString("# GETKEYS). Written by wasm/fidelity's TestArityTableIsRedis\n")
	b.WriteString("# (go test -run TestArityTableIsRedis -update against redis-server).\n")
	for _, name := range names {
		fmt.Fprintf(&b, "%s %s\n", name, want[name])
	}
	if redisdiff.Update() && srv.Live() {
		if err := os.WriteFile(arityPath, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", arityPath)
	} else if got, err := os.ReadFile(arityPath); err != nil || string(got) != b.String() {
		t.Errorf("%s is not COMMAND's table (read error %v); run go test -run TestArityTableIsRedis -update against redis-server", arityPath, err)
	}
	for _, name := range names {
		arity, flags, ok := engine.CommandArity(name)
		got := strconv.Itoa(arity) + flags
		if !ok || got != want[name] {
			t.Errorf("%s: the engine's table has %q (known %v), redis-server %q", name, got, ok, want[name])
		}
	}
	for _, name := range engine.CommandNames() {
		if _, ok := want[name]; !ok {
			t.Errorf("the engine's table has %s, which redis-server does not know", name)
		}
	}
}
