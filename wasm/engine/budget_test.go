package engine

import (
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"echomq.dev/playground/wasm/resp"
)

// The budget counts work, not time: its verdict on a script is the same on
// every machine and under any load. These tests load the CPU while a
// script runs and want the very same verdict, and the very same writes, as
// on an idle machine; none of them looks at a clock.

// withWork gives the scripts of one test a work budget of units (tests
// that are not about the budget's size keep their runaways short).
func withWork(t *testing.T, units uint64) {
	old := scriptWork
	scriptWork = units
	t.Cleanup(func() { scriptWork = old })
}

// underLoad runs f while busy goroutines, two per CPU, compete with it for
// the machine, each giving the scheduler a turn now and then (in
// WebAssembly, where nothing preempts a goroutine, that is what lets the
// script run at all; the budget gives its own turns).
func underLoad(f func()) {
	var stop atomic.Bool
	var wg sync.WaitGroup
	for range 2 * runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := 1
			for i := 0; !stop.Load(); i++ {
				x = x*31 + i // work the compiler cannot drop
				if i&0xffff == 0 {
					runtime.Gosched()
				}
			}
			_ = x
		}()
	}
	f()
	stop.Store(true)
	wg.Wait()
}

// verdict is what a learner sees of one script run: the reply, why the
// engine stopped it if it did, and what it left in the keyspace.
type verdict struct {
	reply string
	stop  Stop
	after string
}

func runFor(src string, probe ...string) verdict {
	e := MustNew()
	r, _ := e.Do("EVAL", src, "0")
	stop := e.LastStop()
	p, _ := e.Do(probe...)
	return verdict{reply: r.String(), stop: stop, after: p.String()}
}

// TestTheVerdictOnA100kSetScriptIsTheSameUnderLoad: one script of 100,000
// SETs, which redis-server runs in 160-340 ms here, passes on an idle
// machine and on a loaded one (the wall-clock budget killed it at 900 ms
// on a busy machine).
func TestTheVerdictOnA100kSetScriptIsTheSameUnderLoad(t *testing.T) {
	withWork(t, WorkBudget) // the real budget, not the package's testWork
	const src = "for i = 1, 100000 do redis.call('SET', 'k' .. i, 'v') end return 1"
	want := verdict{reply: "(integer) 1", stop: NotStopped, after: "(integer) 100000"}
	idle := runFor(src, "DBSIZE")
	var loaded verdict
	underLoad(func() { loaded = runFor(src, "DBSIZE") })
	for _, got := range []struct {
		desc string
		v    verdict
	}{{"idle", idle}, {"under load", loaded}} {
		if got.v != want {
			t.Errorf("%s: %+v, want %+v", got.desc, got.v, want)
		}
	}
}

// TestARunawayIsStoppedAtTheSameCommandUnderLoad: a script that counts its
// SETs until the budget stops it has written exactly as far on an idle
// machine as on a loaded one: the budget stops it at the same instruction.
func TestARunawayIsStoppedAtTheSameCommandUnderLoad(t *testing.T) {
	withWork(t, 2_000_000)
	const src = "local i = 0 while true do i = i + 1 redis.call('SET', 'n', i) end"
	idle := runFor(src, "GET", "n")
	var loaded verdict
	underLoad(func() { loaded = runFor(src, "GET", "n") })
	if idle.stop != StoppedByWork || !strings.HasPrefix(idle.reply, "(error) "+KilledError+" script: ") {
		t.Fatalf("idle: %+v, want the budget's stop", idle)
	}
	if loaded != idle {
		t.Errorf("under load: %+v\nidle:       %+v", loaded, idle)
	}
	t.Logf("stopped after SET n %s", idle.after)
}

// TestRunawaysAreStoppedWithRedissWords: wherever a script loops for ever
// (a bare loop, inside pcall, inside a sort comparator, inside a gsub
// replacement, deep in a recursion), the budget stops it, the reply is
// SCRIPT KILL's error with the script's SHA1 and line, the runner says the
// budget stopped it, and what the script wrote before stays.
func TestRunawaysAreStoppedWithRedissWords(t *testing.T) {
	withWork(t, 3_000_000)
	for _, tc := range []struct {
		desc, loop string
		line       int
	}{
		{"a bare loop", "\nwhile true do end", 2},
		// The pcall catches the stop, and the next instruction, on line 5,
		// raises it again: a pcall cannot swallow it.
		{"inside pcall", "\nlocal ok = pcall(function()\n while true do end\nend)\nreturn ok", 5},
		{"inside a sort comparator", "\nlocal t = {3, 1, 2}\ntable.sort(t, function(a, b)\n while true do end\nend)", 4},
		{"inside a gsub replacement", "\nreturn (string.gsub('abc', '%w', function(c)\n while true do end\nend))", 3},
		{"inside a string that gsub scans for ever", "\nlocal s = string.rep('a', 300000)\nwhile true do s:gsub('a', 'b') end", 3},
		{"deep in a recursion", "\nlocal function f(n)\n if n > 0 then return f(n - 1) + 1 end while true do end\nend\nreturn f(5000)", 3},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			src := "redis.call('SET', 'before', 'kept')" + tc.loop
			e := MustNew()
			r, _ := e.Do("EVAL", src, "0")
			want := KilledError + " script: " + sha(src) + ", on @user_script:" + itoa(tc.line) + "."
			if r.Kind != resp.Error || r.Str != want {
				t.Errorf("replied %s\nwant       %s", r, want)
			}
			if got := e.LastStop(); got != StoppedByWork {
				t.Errorf("LastStop = %v, want StoppedByWork", got)
			}
			do(t, e, `"kept"`, "GET", "before")
			do(t, e, "(integer) 2", "EVAL", "return 2", "0")
			if got := e.LastStop(); got != NotStopped {
				t.Errorf("after a script that ended: LastStop = %v", got)
			}
		})
	}
}

// TestOnlyTheRunnerSaysAScriptWasStopped: a script that returns the
// budget's words itself, or raises them, was not stopped.
func TestOnlyTheRunnerSaysAScriptWasStopped(t *testing.T) {
	e := MustNew()
	for _, src := range []string{
		"return redis.error_reply('" + KilledError + "')",
		"error({err = '" + KilledError + "'})",
	} {
		r, _ := e.Do("EVAL", src, "0")
		if !strings.HasPrefix(r.Str, KilledError) {
			t.Fatalf("%s replied %s", src, r)
		}
		if got := e.LastStop(); got != NotStopped {
			t.Errorf("%s: LastStop = %v, want NotStopped", src, got)
		}
	}
}

// TestTheLastResortStopsWhatTheWorkBudgetWouldNot: with a last resort set
// (the page's engine), a script is stopped once it has run that long,
// whatever its work, with the same words, and the runner says so.
func TestTheLastResortStopsWhatTheWorkBudgetWouldNot(t *testing.T) {
	withWork(t, 1<<62)
	e := MustNewWith(Options{LastResort: 1}) // a nanosecond: past at its first look
	src := "redis.call('SET', 'before', 'kept') while true do end"
	r, _ := e.Do("EVAL", src, "0")
	if want := KilledError + " script: " + sha(src) + ", on @user_script:1."; r.Str != want {
		t.Errorf("replied %s, want %s", r, want)
	}
	if got := e.LastStop(); got != StoppedByClock {
		t.Errorf("LastStop = %v, want StoppedByClock", got)
	}
	do(t, e, `"kept"`, "GET", "before")
}
