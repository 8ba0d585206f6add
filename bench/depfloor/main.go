// Command depfloor measures the floors under issue 10's two unmet targets:
// what the parts of those figures cost with nothing of ours in between,
// the dependencies (miniredis, gopher-lua) and Go itself alone, so that the
// report can say whether a target lies below what they allow.
//
// The bench builds it for js/wasm, runs it under Node with Go's runner at
// the module's GOGC, and runs it natively, after the depth phase:
//
//	GOOS=js GOARCH=wasm go build -o depfloor.wasm ./bench/depfloor
//	GOGC=200 $(go env GOROOT)/lib/wasm/go_js_wasm_exec depfloor.wasm -runs 5
//
// Under one script of 100,000 SETs (milliseconds per run of the script's
// 100,000 steps; every run starts from an empty store, after a collection):
//
//	go-map          Go alone: the 100,000 new keys into a map[string]string
//	miniredis-set   (a) miniredis's own db.Set of the 100,000 new keys, no Lua
//	glua-loop       (b) a stock gopher-lua state running the script's loop
//	                and key building, with no redis.call
//	engine-loop     (c) the engine running that loop through EVAL
//	engine-exists   (d) the engine, the loop calling redis.call('EXISTS', key):
//	                the dispatch without a store write
//	engine-sets     (e) the engine, the whole script, in this process
//
// Under the enqueue+claim round trip at depth 10 (microseconds a sample):
//
//	glua-protocol       (a) stock gopher-lua running @enqueue and @claim, a
//	                    stub redis.call answering with canned replies
//	miniredis-protocol  (b) miniredis's direct API doing the round trip's
//	                    data work at depth 10, no Lua, no commands parsed
//
// The keys (the rows' names in the report) are the same on both platforms.
// The rows take turns: run after run for the first kind, order reversed
// every other run; four alternating slices of the budget for the second.
// Every result is checked after the clock stops. Output is one JSON line,
// {"event":"floors",...}; errors go to stderr with a non-zero exit.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"time"

	"github.com/alicebob/miniredis/v2"
	glua "github.com/yuin/gopher-lua"

	"echomq.dev/playground/bench/depth"
	"echomq.dev/playground/bench/loop"
	emqlua "echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/emq"
	"echomq.dev/playground/wasm/engine"
	"echomq.dev/playground/wasm/resp"
)

// The script's parts: depth.ManySetsScript without the SET, then with an
// EXISTS in its place, over the same keys.
const (
	LoopScript   = "for i = 1, tonumber(ARGV[1]) do local k = KEYS[1] .. i end return 1"
	ExistsScript = "for i = 1, tonumber(ARGV[1]) do redis.call('EXISTS', KEYS[1] .. i) end return 1"
	keyBase      = "many:"
)

// Row is one floor's samples, in Unit ("ms" a run, "µs" a sample).
type Row struct {
	Key     string    `json:"key"`
	Unit    string    `json:"unit"`
	Samples []float64 `json:"samples"`
	Errors  []string  `json:"errors,omitempty"` // the runs that failed, each its own line
}

// Event is the line the command prints.
type Event struct {
	Event    string `json:"event"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
	GOGC     string `json:"gogc"`
	Rows     []Row  `json:"rows"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "depfloor:", err)
		os.Exit(1)
	}
}

func run() error {
	runs := flag.Int("runs", 5, "runs of each 100,000-step floor")
	budget := flag.Duration("budget", time.Second, "time per round-trip floor")
	maxSamples := flag.Int("max", 3000, "samples per round-trip floor, at most")
	warmup := flag.Int("warmup", 300, "untimed samples per round-trip floor first")
	flag.Parse()
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flag.Args())
	}
	ev := Event{Event: "floors", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH, GOGC: os.Getenv("GOGC")}
	sets, err := setFloors(*runs)
	if err != nil {
		return err
	}
	rts, err := roundTripFloors(*budget, *maxSamples, *warmup)
	if err != nil {
		return err
	}
	ev.Rows = append(sets, rts...)
	b, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	_, err = fmt.Printf("%s\n", b)
	return err
}

// step is one floor: prepare runs untimed, body is timed and checks
// nothing, check looks at what body left.
type step struct {
	key     string
	prepare func() error
	body    func() error
	check   func() error
}

// setFloors times the parts of one script of depth.ManySets SETs.
func setFloors(runs int) ([]Row, error) {
	n := depth.ManySets
	keys := make([]string, n)
	for i := range keys {
		keys[i] = keyBase + strconv.Itoa(i+1)
	}

	var m map[string]string
	goMap := step{key: "go-map",
		prepare: func() error { m = nil; return nil },
		body: func() error {
			m = make(map[string]string)
			for _, k := range keys {
				m[k] = "v"
			}
			return nil
		},
		check: func() error { return wantCount(len(m), n) },
	}

	mr := miniredis.NewMiniRedis()
	db := mr.DB(0)
	mrSet := step{key: "miniredis-set",
		prepare: func() error { mr.FlushAll(); return nil },
		body: func() error {
			for _, k := range keys {
				if err := db.Set(k, "v"); err != nil {
					return err
				}
			}
			return nil
		},
		check: func() error { return wantCount(len(mr.Keys()), n) },
	}

	L := glua.NewState()
	defer L.Close()
	chunk, err := L.LoadString(LoopScript)
	if err != nil {
		return nil, err
	}
	L.SetGlobal("KEYS", luaList(L, keyBase))
	L.SetGlobal("ARGV", luaList(L, strconv.Itoa(n)))
	var got glua.LValue
	gLoop := step{key: "glua-loop",
		prepare: func() error { got = glua.LNil; return nil },
		body: func() error {
			L.Push(chunk)
			if err := L.PCall(0, 1, nil); err != nil {
				return err
			}
			got = L.Get(-1)
			L.Pop(1)
			return nil
		},
		check: func() error {
			if got != glua.LNumber(1) {
				return fmt.Errorf("the loop returned %v, want 1", got)
			}
			return nil
		},
	}

	e := engine.MustNew()
	eval := func(key, src string, written int) step {
		var r, count int64
		return step{key: key,
			prepare: func() error { _, err := do(e, "FLUSHALL"); return err },
			body: func() error {
				rep, err := do(e, "EVAL", src, "1", keyBase, strconv.Itoa(n))
				r = rep.Int
				return err
			},
			check: func() error {
				rep, err := do(e, "DBSIZE")
				count = rep.Int
				if err == nil && r != 1 {
					err = fmt.Errorf("the script returned %d, want 1", r)
				}
				if err == nil {
					err = wantCount(int(count), written)
				}
				return err
			},
		}
	}
	steps := []step{goMap, mrSet, gLoop,
		eval("engine-loop", LoopScript, 0),
		eval("engine-exists", ExistsScript, 0),
		eval("engine-sets", depth.ManySetsScript, n)}

	rows := make([]Row, len(steps))
	for i, s := range steps {
		rows[i] = Row{Key: s.key, Unit: "ms"}
	}
	// timed runs one step; a run that fails is no sample, and its error
	// is kept.
	timed := func(i int, what string) (float64, bool) {
		s := steps[i]
		if err := s.prepare(); err != nil {
			rows[i].Errors = append(rows[i].Errors, what+": "+err.Error())
			return 0, false
		}
		runtime.GC()
		t0 := time.Now()
		err := s.body()
		took := time.Since(t0)
		if err == nil {
			err = s.check()
		}
		if err != nil {
			rows[i].Errors = append(rows[i].Errors, fmt.Sprintf("%s, after %v: %v", what, took.Round(time.Millisecond), err))
			return 0, false
		}
		return float64(took) / float64(time.Millisecond), true
	}
	// One untimed run of each first: wasm memory grows only once, and
	// slowly (fresh pages cost V8 about 3 ms a MiB), which the first run
	// would pay; in the page, the memory a session grew stays.
	for i := range steps {
		timed(i, "warm-up run")
	}
	for r := range runs {
		order := make([]int, len(steps))
		for i := range order {
			order[i] = i
		}
		if r%2 == 1 {
			slices.Reverse(order)
		}
		for _, i := range order {
			if ms, ok := timed(i, fmt.Sprintf("run %d", r+1)); ok {
				rows[i].Samples = append(rows[i].Samples, ms)
			}
		}
	}
	mr.FlushAll()
	_, err = do(e, "FLUSHALL")
	return rows, err
}

// do is one command on the engine, its error reply an error.
func do(e *engine.Engine, args ...string) (resp.Reply, error) {
	r, err := e.Do(args...)
	if err == nil && r.IsError() {
		err = errors.New(r.Str)
	}
	return r, err
}

func wantCount(got, want int) error {
	if got != want {
		return fmt.Errorf("%d keys after the run, want %d", got, want)
	}
	return nil
}

// luaList is a Lua array of the strings, as KEYS and ARGV are.
func luaList(L *glua.LState, items ...string) *glua.LTable {
	t := L.CreateTable(len(items), 0)
	for i, s := range items {
		t.RawSetInt(i+1, glua.LString(s))
	}
	return t
}

// sampler is one round-trip floor: sample does one enqueue and one claim,
// timed, and checks them after the clock.
type sampler struct {
	key    string
	sample func() (time.Duration, error)
}

// roundTripFloors times the two halves of the round trip's work.
func roundTripFloors(budget time.Duration, maxSamples, warmup int) ([]Row, error) {
	floors := []sampler{luaProtocol(), storeProtocol(10)}
	rows := make([]Row, len(floors))
	for i, f := range floors {
		rows[i] = Row{Key: f.key, Unit: "µs"}
		for range warmup {
			if _, err := f.sample(); err != nil {
				return nil, fmt.Errorf("%s: %w", f.key, err)
			}
		}
	}
	const parts = 4
	for s := range parts {
		for j := range floors {
			i := j
			if s%2 == 1 {
				i = len(floors) - 1 - j
			}
			deadline := time.Now().Add(budget / parts)
			for len(rows[i].Samples) < maxSamples*(s+1)/parts && time.Now().Before(deadline) {
				d, err := floors[i].sample()
				if err != nil {
					return nil, fmt.Errorf("%s: %w", floors[i].key, err)
				}
				rows[i].Samples = append(rows[i].Samples, loop.Micros(d))
			}
		}
	}
	return rows, nil
}

// luaProtocol runs the course's two scripts in a stock gopher-lua state
// (compiled once, as the engine caches them), KEYS and ARGV built per call,
// with a redis.call that answers what a store would and stores nothing.
func luaProtocol() sampler {
	L := glua.NewState()
	k, _ := emq.KeyspaceFor(loop.QueueName(10))
	next := 0
	call := func(L *glua.LState) int {
		switch L.CheckString(1) {
		case "EXISTS":
			L.Push(glua.LNumber(0))
		case "ZADD", "HINCRBY":
			L.Push(glua.LNumber(1))
		case "HSET":
			L.Push(glua.LNumber(3))
		case "HGET":
			L.Push(glua.LString(loop.Payload))
		case "ZPOPMIN":
			L.Push(luaList(L, loop.JobID(next), "0"))
		case "TIME":
			L.Push(luaList(L, "1700000000", "123456"))
		default:
			L.RaiseError("the stub has no %s", L.CheckString(1))
		}
		return 1
	}
	redis := L.NewTable()
	L.SetField(redis, "call", L.NewFunction(call))
	L.SetGlobal("redis", redis)
	compile := func(src string) *glua.LFunction {
		fn, err := L.LoadString(src)
		if err != nil {
			panic(err) // the course's scripts compile: the engine's tests say so
		}
		return fn
	}
	enq, clm := compile(emqlua.Enqueue().Source), compile(emqlua.Claim().Source)
	script := func(fn *glua.LFunction, keys, argv []string) (glua.LValue, error) {
		L.SetGlobal("KEYS", luaList(L, keys...))
		L.SetGlobal("ARGV", luaList(L, argv...))
		L.Push(fn)
		if err := L.PCall(0, 1, nil); err != nil {
			return nil, err
		}
		v := L.Get(-1)
		L.Pop(1)
		return v, nil
	}
	return sampler{key: "glua-protocol", sample: func() (time.Duration, error) {
		id := loop.JobID(next)
		t0 := time.Now()
		ev, eerr := script(enq, []string{k.Job(id), k.Pending()}, []string{id, loop.Payload})
		cv, cerr := script(clm, []string{k.Pending(), k.Active()}, []string{k.JobBase(), loop.Lease})
		took := time.Since(t0)
		next++
		if err := errors.Join(eerr, cerr); err != nil {
			return 0, err
		}
		if ev != glua.LNumber(1) {
			return 0, fmt.Errorf("@enqueue returned %v, want 1", ev)
		}
		if t, ok := cv.(*glua.LTable); !ok || t.RawGetInt(1) != glua.LString(id) || t.RawGetInt(2) != glua.LString(loop.Payload) {
			return 0, fmt.Errorf("@claim returned %v, want {%s, payload, attempts}", cv, id)
		}
		return took, nil
	}}
}

// storeProtocol does the round trip's reads and writes on miniredis's
// direct API, the pending set held at depth: the enqueue's EXISTS, HSET and
// ZADD; the claim's EXISTS of the pause flag, the oldest pending id taken
// as ZPOPMIN takes it (miniredis sorts the set, then removes the member),
// HGET, HINCRBY, HSET and the ZADD into the active set. Every
// loop.HousekeepingEvery samples the active set is emptied, untimed, as
// bench/loop does.
func storeProtocol(dep int) sampler {
	m := miniredis.NewMiniRedis()
	db := m.DB(0)
	k, _ := emq.KeyspaceFor(loop.QueueName(dep))
	next, oldest, n := 0, 0, 0
	enqueue := func(id string) error {
		row := k.Job(id)
		if db.Exists(row) {
			return fmt.Errorf("%s exists", row)
		}
		db.HSet(row, "state", "pending", "attempts", "0", "payload", loop.Payload)
		_, err := db.ZAdd(k.Pending(), 0, id)
		return err
	}
	for ; next < dep; next++ {
		if err := enqueue(loop.JobID(next)); err != nil {
			panic(err) // a new miniredis holds none of these
		}
	}
	return sampler{key: "miniredis-protocol", sample: func() (time.Duration, error) {
		id := loop.JobID(next)
		t0 := time.Now()
		eerr := enqueue(id)
		paused := db.Exists(k.Paused())
		members, zerr := db.ZMembers(k.Pending())
		var got, payload string
		var attempts int
		var cerr error
		if len(members) > 0 {
			got = members[0]
			row := k.Job(got)
			_, cerr = db.ZRem(k.Pending(), got)
			payload = db.HGet(row, "payload")
			attempts, _ = db.HIncr(row, "attempts", 1)
			db.HSet(row, "state", "active")
			db.ZAdd(k.Active(), float64(1700000000000+next), got)
		}
		took := time.Since(t0)
		next++
		n++
		if err := errors.Join(eerr, zerr, cerr); err != nil {
			return 0, err
		}
		if paused || got != loop.JobID(oldest) || payload != loop.Payload || attempts != 1 {
			return 0, fmt.Errorf("claimed %q (payload %q, attempts %d, paused %v), want the oldest, %s", got, payload, attempts, paused, loop.JobID(oldest))
		}
		oldest++
		if n%loop.HousekeepingEvery == 0 {
			db.Del(k.Active())
		}
		return took, nil
	}}
}
