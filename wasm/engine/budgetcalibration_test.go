package engine

import (
	"flag"

	"math"
	"strconv"
	"testing"
	"time"

	"echomq.dev/playground/internal/redisserver"
)

// The work budget's calibration. The issue asked that WorkBudget let
// through whatever a real Redis 7.0 runs within its own lua-time-limit,
// 5 s. This test runs a set of scripts of the kinds a learner writes
// (tight loops, loops of commands, string building, table work, sort,
// cjson...) on redis-server, timed, and on the engine, counted: each
// script's units per second of Redis say what 5 s of Redis are worth in
// units for that kind of work, and how much Redis time WorkBudget covers.
// It is slow (seconds of Redis per script) and needs redis-server, so it
// runs only when asked:
//
//	go test ./wasm/engine -run TestWorkBudgetCoversFiveSecondsOfRedis -calibrate -v
//
// Each script's Redis time is the fastest of three runs, so that a busy
// machine makes the rates, and so the budget asked for, no smaller than an
// idle one would.
//
// How WorkBudget was set: see its doc comment (workbudget.go), which
// gives this test's figures. The test holds WorkBudget to at least
// redisTimeCovered (Redis's own 5 s lua-time-limit) of Redis for every
// script here, at the rate measured on the machine it runs on: a machine
// whose Redis is faster than the project's fails it, and then WorkBudget
// must grow.
var calibrate = flag.Bool("calibrate", false, "run the work budget's calibration against redis-server")

// calibrationScripts are the calibration's scripts: ARGV[1] is n.
var calibrationScripts = []struct {
	name, src string
	n         int
}{
	{"tight while loop", "local n, i = tonumber(ARGV[1]), 0 while i < n do i = i + 1 end return i", 20_000_000},
	{"for loop, arithmetic", "local x = 0 for i = 1, tonumber(ARGV[1]) do x = x + i % 7 end return x", 20_000_000},
	{"function calls", "local function f(a) return a + 1 end local x = 0 for i = 1, tonumber(ARGV[1]) do x = f(x) end return x", 10_000_000},
	{"table fill and sum", "local t = {} for i = 1, tonumber(ARGV[1]) do t[i] = i end local s = 0 for i = 1, #t do s = s + t[i] end return s", 1_000_000},
	{"string building", "local t = {} for i = 1, tonumber(ARGV[1]) do t[#t + 1] = 'item' .. i end return #table.concat(t, ',')", 500_000},
	{"string.format", "local n = 0 for i = 1, tonumber(ARGV[1]) do n = n + #string.format('%d:%s', i, 'x') end return n", 2_000_000},
	{"pcall", "local n = 0 for i = 1, tonumber(ARGV[1]) do if pcall(function() return i end) then n = n + 1 end end return n", 2_000_000},
	{"SET, new keys", "for i = 1, tonumber(ARGV[1]) do redis.call('SET', 'k' .. i, 'v') end return 1", 100_000},
	{"GET, one key", "for i = 1, tonumber(ARGV[1]) do redis.call('GET', 'k') end return 1", 500_000},
	{"HSET and HINCRBY", "for i = 1, tonumber(ARGV[1]) do redis.call('HSET', 'h' .. i % 100, 'f', i) redis.call('HINCRBY', 'h' .. i % 100, 'n', 1) end return 1", 200_000},
	{"ZADD", "for i = 1, tonumber(ARGV[1]) do redis.call('ZADD', 'z', i, 'm' .. i) end return 1", 100_000},
	{"ZRANGE of 100", "for i = 1, 100 do redis.call('ZADD', 'z100', i, 'm' .. i) end for i = 1, tonumber(ARGV[1]) do redis.call('ZRANGE', 'z100', 0, -1) end return 1", 50_000},
	{"table.sort", "local n = tonumber(ARGV[1]) local t = {} for i = 1, n do t[i] = (i * 7919) % n end table.sort(t) return t[1]", 1_000_000},
	{"table.sort, comparator", "local n = tonumber(ARGV[1]) local t = {} for i = 1, n do t[i] = (i * 7919) % n end table.sort(t, function(a, b) return a > b end) return t[1]", 300_000},
	{"gsub", "local s = string.rep('a b ', tonumber(ARGV[1])) local _, c = s:gsub('%w', 'x') return c", 2_000_000},
	{"find in a long string", "local s = string.rep('x', 1000) .. 'y' local c = 0 for i = 1, tonumber(ARGV[1]) do if s:find('y', 1, true) then c = c + 1 end end return c", 200_000},
	{"cjson.encode", "local t = {} for i = 1, tonumber(ARGV[1]) do t[i] = {id = i, name = 'job' .. i} end return #cjson.encode(t)", 200_000},
	{"cjson.decode", "local t = {} for i = 1, tonumber(ARGV[1]) do t[i] = i end local s = cjson.encode(t) local n = 0 for i = 1, 5 do n = n + #cjson.decode(s) end return n", 500_000},
	{"string.rep, big", "local c = 0 for i = 1, tonumber(ARGV[1]) do c = c + #string.rep('x', 100000) end return c", 5_000},
}

func TestWorkBudgetCoversFiveSecondsOfRedis(t *testing.T) {
	if !*calibrate {
		t.Skip("the calibration runs with -calibrate (and redis-server)")
	}
	c := redisserver.Connect(t)
	oldWork, oldLast := scriptWork, scriptLastResort
	scriptWork, scriptLastResort = math.MaxUint64, time.Hour // counted here, not stopped
	t.Cleanup(func() { scriptWork, scriptLastResort = oldWork, oldLast })
	e := MustNew()
	most, mostName := 0.0, ""
	for _, s := range calibrationScripts {
		n := strconv.Itoa(s.n)
		best := time.Duration(math.MaxInt64)
		for range 3 {
			if _, err := c.Do("FLUSHALL"); err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			r, err := c.Do("EVAL", s.src, "0", n)
			took := time.Since(start)
			if err != nil || r.IsError() {
				t.Fatalf("%s on redis-server: %v %v", s.name, r, err)
			}
			best = min(best, took)
		}
		e.exec("FLUSHALL")
		if r := e.exec("EVAL", s.src, "0", n); r.IsError() {
			// Another of the engine's limits (the memory budget): this
			// script tells nothing of the work budget.
			t.Logf("%-24s the engine refused it: %.120s", s.name, r.Str)
			continue
		}
		units := e.runner.budget.ticks
		perSecond := float64(units) / best.Seconds()
		if perSecond > most {
			most, mostName = perSecond, s.name
		}
		t.Logf("%-24s n=%-10d redis %8.1f ms  engine %12d units  %6.1f M units per Redis second  5 s of Redis = %5.0f M units",
			s.name, s.n, float64(best.Microseconds())/1000, units, perSecond/1e6, 5*perSecond/1e6)
	}
	need := uint64(5 * most)
	covered := time.Duration(float64(WorkBudget) / most * float64(time.Second))
	t.Logf("5 s of Redis is up to %d units (%s); WorkBudget is %d, which covers %v of Redis for it, and more for every other script", need, mostName, uint64(WorkBudget), covered.Round(time.Millisecond))
	if covered < redisTimeCovered {
		t.Errorf("WorkBudget %d covers only %v of Redis running %s, less than the %v README promises: raise it, or the promise", uint64(WorkBudget), covered, mostName, redisTimeCovered)
	}
}

// redisTimeCovered is the least Redis time WorkBudget lets through for any
// of the calibration's scripts, as README's "Limits" says.
const redisTimeCovered = 5 * time.Second
