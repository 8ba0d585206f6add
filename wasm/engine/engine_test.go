package engine

import (
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"echomq.dev/playground/wasm/resp"
)

// exec is Do for the package's tests, which have no use for its error
// (always nil): a connection's, or the engine's own (e.exec).
func (c *Client) exec(args ...string) resp.Reply {
	r, _ := c.Do(args...)
	return r
}

// do runs one command and checks its reply, read as redis-cli would print
// it, so a failing test reads like a transcript.
func do(t *testing.T, e *Engine, want string, args ...string) {
	t.Helper()
	if got := e.exec(args...).String(); got != want {
		t.Errorf("%q\n got: %s\nwant: %s", args, got, want)
	}
}

func TestClockStartsAtStartAndTIMEFollowsIt(t *testing.T) {
	e := MustNew()
	if got, want := e.Now(), Start; got != want {
		t.Fatalf("Now() = %d, want %d", got, want)
	}
	do(t, e, "1) \"1767225600\"\n2) \"0\"", "TIME")
	e.SetNow(1800000000123)
	do(t, e, "1) \"1800000000\"\n2) \"123000\"", "TIME")
	do(t, e, "1) \"1800000000\"\n2) \"123000\"", "EVAL", "return redis.call('TIME')", "0")
	if got, want := e.Advance(877), int64(1800000001000); got != want {
		t.Fatalf("Advance(877) = %d, want %d", got, want)
	}
	do(t, e, "1) \"1800000001\"\n2) \"0\"", "TIME")
}

func TestAdvanceExpiresKeysWhoseTTLEnds(t *testing.T) {
	e := MustNew()
	do(t, e, "OK", "SET", "k", "v", "PX", "1000")
	e.Advance(999)
	do(t, e, `"v"`, "GET", "k")
	do(t, e, "(integer) 1", "PTTL", "k")
	e.Advance(1)
	do(t, e, "(nil)", "GET", "k")
}

// TestDirectReadsSeeTheClockAndSWAPDB: EXISTS, HGET and a plain SET are
// served by reading miniredis's databases directly, through pointers the
// engine keeps between commands. A key whose TTL the clock has passed is
// gone for them too, and after SWAPDB each database is the other's.
func TestDirectReadsSeeTheClockAndSWAPDB(t *testing.T) {
	e := MustNew()
	do(t, e, "(integer) 0", "EXISTS", "k") // the engine has read database 0
	do(t, e, "OK", "SET", "k", "v", "PX", "1000")
	do(t, e, "(integer) 1", "HSET", "h", "f", "1")
	do(t, e, "(integer) 1", "PEXPIRE", "h", "1000")
	e.Advance(1000)
	do(t, e, "(integer) 0", "EXISTS", "k")
	do(t, e, "(nil)", "HGET", "h", "f")
	do(t, e, "OK", "SET", "a", "in 0")
	do(t, e, "OK", "SWAPDB", "0", "1")
	do(t, e, "(integer) 0", "EXISTS", "a")
	do(t, e, "OK", "SET", "b", "in 0 after the swap")
	do(t, e, "OK", "SELECT", "1")
	do(t, e, `"in 0"`, "GET", "a")
	do(t, e, "(nil)", "GET", "b")
}

// TestHSETCountsTheFieldsItAdds: the engine writes HSET itself (the job
// row of every @enqueue, the state @claim sets); its reply counts a field
// named twice once, and on a hash that exists only the new fields, as
// Redis does; the last value named is the one kept, and a key of another
// type is refused with nothing written.
func TestHSETCountsTheFieldsItAdds(t *testing.T) {
	e := MustNew()
	do(t, e, "(integer) 2", "HSET", "h", "f", "1", "g", "x", "f", "2")
	do(t, e, `"2"`, "HGET", "h", "f")
	do(t, e, "(integer) 0", "HSET", "h", "g", "y")
	do(t, e, "(integer) 0", "HSET", "h", "g", "")
	do(t, e, "(integer) 2", "HSET", "h", "g", "z", "a", "1", "b", "2", "a", "3")
	do(t, e, "1) \"f\"\n2) \"g\"\n3) \"a\"\n4) \"b\"", "HKEYS", "h")
	do(t, e, `"3"`, "HGET", "h", "a")
	do(t, e, "OK", "SET", "s", "v")
	do(t, e, "(error) WRONGTYPE Operation against a key holding the wrong kind of value", "HSET", "s", "f", "1")
	do(t, e, `"v"`, "GET", "s")
}

func TestResetEmptiesKeyspaceScriptsAndClock(t *testing.T) {
	e := MustNew()
	do(t, e, "OK", "SET", "k", "v")
	sha := e.exec("SCRIPT", "LOAD", "return 1").Str
	e.Advance(5000)
	e.Reset()
	do(t, e, "(empty array)", "KEYS", "*")
	do(t, e, "1) (integer) 0", "SCRIPT", "EXISTS", sha)
	if got := e.Now(); got != Start {
		t.Errorf("Now() after Reset = %d, want %d", got, Start)
	}
	do(t, e, "PONG", "PING")
}

func TestCommandsThatWouldHangAreRefusedWithAReason(t *testing.T) {
	e := MustNew()
	for _, args := range [][]string{
		{"BLPOP", "l", "0"},
		{"BZPOPMIN", "z", "0"},
		{"XREAD", "BLOCK", "0", "STREAMS", "s", "$"},
		{"SUBSCRIBE", "c"},
		{"MONITOR"},
		{"SHUTDOWN"},
	} {
		r := e.exec(args...)
		if !r.IsError() || !strings.Contains(r.Str, "playground") {
			t.Errorf("%q = %s, want an error that names the playground's limit", args, r)
		}
	}
	// The non-blocking forms still work.
	do(t, e, "(nil)", "LPOP", "l")
	do(t, e, "(nil)", "XREAD", "STREAMS", "s", "0")
	do(t, e, "PONG", "PING")
}

func TestEmptyCommandIsAnError(t *testing.T) {
	if r := MustNew().exec(); !r.IsError() {
		t.Fatalf("Do() = %s, want an error", r)
	}
}

// TestScriptsAreAtomicToOtherCallers runs a read-modify-write script from
// many goroutines; if two scripts interleaved, increments would be lost.
func TestScriptsAreAtomicToOtherCallers(t *testing.T) {
	e := MustNew()
	const workers, rounds = 8, 50
	script := "local v = tonumber(redis.call('GET', KEYS[1]) or '0') redis.call('SET', KEYS[1], v + 1) return v + 1"
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < rounds; i++ {
				if r := e.exec("EVAL", script, "1", "n"); r.IsError() {
					t.Errorf("EVAL: %s", r)
				}
				e.Keyspace()
			}
		}()
	}
	wg.Wait()
	do(t, e, `"400"`, "GET", "n")
}

func TestRunawayScriptIsStoppedAndTheEngineServesOn(t *testing.T) {
	for _, tc := range []struct {
		desc, src string
		line      int
	}{
		{"a bare loop", "redis.call('SET', 'before', 'kept')\nwhile true do end", 2},
		{"a loop that catches the stop with pcall", "redis.call('SET', 'before', 'kept')\nwhile true do pcall(function() while true do end end) end", 2},
		{"a loop in a function", "local function spin() local i = 0 while true do i = i + 1 end end\nredis.call('SET', 'before', 'kept')\nspin()", 1},
		{"a loop in a coroutine", "redis.call('SET', 'before', 'kept')\nlocal co = coroutine.wrap(function() while true do end end)\nco()", 2},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			e := MustNew()
			r, _ := e.Do("EVAL", tc.src, "0")
			want := KilledError + " script: " + sha(tc.src) + ", on @user_script:"
			if !r.IsError() || !strings.HasPrefix(r.Str, want) {
				t.Fatalf("got %s\nwant an error starting %q", r, want)
			}
			if got := e.LastStop(); got != StoppedByWork {
				t.Errorf("LastStop = %v, want StoppedByWork", got)
			}
			// Redis keeps writes made before an error; so do we.
			do(t, e, `"kept"`, "GET", "before")
			do(t, e, "PONG", "PING")
			do(t, e, "(integer) 2", "EVAL", "return 2", "0")
		})
	}
}

func sha(src string) string {
	e := MustNew()
	return e.exec("SCRIPT", "LOAD", src).Str
}

func TestWritesBeforeAScriptErrorStay(t *testing.T) {
	e := MustNew()
	r := e.exec("EVAL", "redis.call('SET', 'a', '1') redis.call('HSET', 'a', 'f', 'v')", "0")
	if r.Code() != "WRONGTYPE" {
		t.Fatalf("got %s, want WRONGTYPE", r)
	}
	do(t, e, `"1"`, "GET", "a")
}

func TestKeyspaceListsEveryTypeWithRedisScores(t *testing.T) {
	e := MustNew()
	e.exec("SET", "s", "v")
	e.exec("HSET", "h", "f", "1")
	e.exec("ZADD", "z", "1767225630000", "a", "0.5", "b")
	e.exec("RPUSH", "l", "x", "y")
	e.exec("SADD", "set", "m")
	e.exec("PEXPIRE", "s", "1500")
	got := e.Keyspace()
	byKey := map[string]Entry{}
	for _, en := range got {
		byKey[en.Key] = en
	}
	if len(got) != 5 {
		t.Fatalf("got %d keys, want 5: %+v", len(got), got)
	}
	if en := byKey["s"]; en.Type != "string" || en.String != "v" || en.TTL != 1500 {
		t.Errorf("s = %+v", en)
	}
	if en := byKey["h"]; en.Type != "hash" || len(en.Fields) != 1 || en.Fields[0] != (Field{"f", "1"}) {
		t.Errorf("h = %+v", en)
	}
	if en := byKey["z"]; en.Type != "zset" || len(en.Members) != 2 || en.Members[0] != (Member{"b", "0.5"}) || en.Members[1] != (Member{"a", "1767225630000"}) {
		t.Errorf("z = %+v", en)
	}
	if en := byKey["l"]; en.Type != "list" || strings.Join(en.Items, ",") != "x,y" || en.TTL != -1 {
		t.Errorf("l = %+v", en)
	}
	if en := byKey["set"]; en.Type != "set" || strings.Join(en.Items, ",") != "m" {
		t.Errorf("set = %+v", en)
	}
}

func TestDoNeverReturnsAnError(t *testing.T) {
	e := MustNew()
	r, err := e.Do("NOSUCHCOMMAND", "x")
	if err != nil || r.Kind != resp.Error {
		t.Fatalf("Do = %s, %v; want an error reply and no Go error", r, err)
	}
}

func TestScriptsThatEatMemoryAreStopped(t *testing.T) {
	for _, tc := range []struct {
		desc, src, want string
		capped          bool // a cap must stop it, not the time budget
	}{
		{"doubling a string", "local s = 'x' while true do s = s .. s end", "ERR user_script:1: string length overflow", true},
		{"filling a table", "local t = {} local i = 0 while true do i = i + 1 t[i] = {i, i, i, i} end", "ERR Script ", false},
		{"repeating a string", "return string.rep('x', 1e12)", "ERR user_script:1: string length overflow", true},
		{"keeping many big strings", "local t = {} local i = 0 while true do i = i + 1 t[i] = string.rep('x', 30000000) end", "ERR Script used more than 64 MiB", true},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if tc.capped {
				unhurried(t)
			}
			checkStopped(t, tc.src, tc.want)
		})
	}
}

// unhurried gives the scripts of one test a minute instead of the budget,
// for tests of what a cap says: copying tens of MiB under the race
// detector on a loaded machine can take longer than the 0.9 s budget, and
// the budget's error would then hide the cap's. Tests using it must not
// run in parallel (none in this package do).
func unhurried(t *testing.T) {
	oldWork, oldLast := scriptWork, scriptLastResort
	scriptWork, scriptLastResort = math.MaxUint64, time.Minute
	t.Cleanup(func() { scriptWork, scriptLastResort = oldWork, oldLast })
}

// checkStopped runs src on a fresh engine and wants it stopped with an
// error that starts with one of wants; the engine must then run the next
// script as usual.
func checkStopped(t *testing.T, src string, wants ...string) {
	t.Helper()
	e := MustNew()
	r := e.exec("EVAL", src, "0")
	if !r.IsError() || !slices.ContainsFunc(wants, func(w string) bool { return strings.HasPrefix(r.Str, w) }) {
		t.Errorf("%.200s\nreplied %.200s\nwant an error starting with one of %q", src, r, wants)
	}
	do(t, e, "(integer) 2", "EVAL", "return 1 + 1", "0")
}

func TestFixupsFollowTheSelectedDatabase(t *testing.T) {
	e := MustNew()
	do(t, e, "(integer) 1", "HSET", "h", "n", "5")
	do(t, e, "OK", "SELECT", "1")
	do(t, e, "(integer) 1", "HSET", "h", "n", "x")
	do(t, e, "(error) ERR hash value is not an integer", "HINCRBY", "h", "n", "1")
	do(t, e, "OK", "SELECT", "0")
	do(t, e, "(integer) 6", "HINCRBY", "h", "n", "1")
}
