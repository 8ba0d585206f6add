// Package depth measures the playground at queue depth and under long
// scripts, for `go run ./bench`: the figures of issue 10's "Targets".
// The bench runs it natively over the JS API's Go side (api.Call) and over
// a real redis-server; bench/depth_bench.mjs runs the same measurements,
// with the same scripts, through the JS API in wasm under Node, and prints
// the same Result as JSON.
//
//   - the depth curve: at 10, 1,000, 10,000 and 100,000 pending jobs, one
//     enqueue, one claim of the oldest job and one bounded ZRANGE (the
//     first 25 ids) per sample, each timed, and the bounded snapshot the
//     page asks for on every click (snapshot(queue, 25)); the pending set
//     stays at its depth;
//   - the memory 100,000 jobs take (Go's heap natively, the module's linear
//     memory in wasm, used_memory on Redis);
//   - script throughput: one script of 5,000 redis.call of SET, ZADD or
//     HSET, three times each;
//   - one script popping 1,000 of 10,000 pending ids (ZPOPMIN, one call per
//     id), three times;
//   - draining 10,000 pending jobs with claim, one call per job;
//   - one script of 100,000 SETs.
//
// Every figure is a time or a size the bench reports; none is checked
// against a target here.
package depth

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"echomq.dev/playground/bench/loop"
	"echomq.dev/playground/wasm/emq"
)

// Depths are the depth curve's depths.
var Depths = []int{10, 1000, 10000, 100000}

// The scripts, word for word the same in bench/depth_bench.mjs.
const (
	// ThroughputCalls is how many redis.call one throughput script makes.
	ThroughputCalls = 5000
	// SetScript, ZAddScript and HSetScript make ARGV[1] calls on KEYS[1].
	SetScript  = "for i = 1, tonumber(ARGV[1]) do redis.call('SET', KEYS[1], i) end return 1"
	ZAddScript = "for i = 1, tonumber(ARGV[1]) do redis.call('ZADD', KEYS[1], i, 'm' .. i) end return 1"
	HSetScript = "for i = 1, tonumber(ARGV[1]) do redis.call('HSET', KEYS[1], 'f' .. i, i) end return 1"
	// ManySetsScript writes ARGV[1] keys, KEYS[1] followed by a number.
	ManySetsScript = "for i = 1, tonumber(ARGV[1]) do redis.call('SET', KEYS[1] .. i, 'v') end return 1"
	ManySets       = 100000
	// PopScript pops ARGV[1] ids off the pending set KEYS[1], one ZPOPMIN each.
	PopScript = "for i = 1, tonumber(ARGV[1]) do redis.call('ZPOPMIN', KEYS[1]) end return 1"
	PopDepth  = 10000
	Pops      = 1000
	DrainJobs = 10000
	// Window is the bounded ZRANGE's size: the page's first 25 ids.
	Window = 25
	Repeat = 3
	// Warmup is how many untimed round trips (with a snapshot each, where
	// the platform takes one) come before a depth's samples, at most: the
	// first calls after a fill pay for its garbage, and in wasm V8 compiles
	// hot code again once it has run a while. WarmupFor bounds the time.
	Warmup    = 20
	WarmupFor = 300 * time.Millisecond
)

// Result is what one platform measured. Times are in microseconds (curve)
// and milliseconds (the rest).
type Result struct {
	Platform   string       `json:"platform"`
	Curve      []Point      `json:"curve"`
	Memory     *Memory      `json:"memory,omitempty"`
	Throughput []Throughput `json:"throughput"`
	Pop        Timed        `json:"pop"`
	Drain      Drain        `json:"drain"`
	// DrainBulk is the same drain by claimMany, the page's "Claim all"
	// (in calls of 100 here, so that the cap is checked often). Measured in
	// wasm only.
	DrainBulk *Drain `json:"drainBulk,omitempty"`
	ManySets  Timed  `json:"manySets"`
}

// Point is one depth of the curve: every sample, in µs.
type Point struct {
	Depth   int       `json:"depth"`
	Enqueue []float64 `json:"enqueue"`
	Claim   []float64 `json:"claim"`
	ZRange  []float64 `json:"zrange"`
	// Snapshot is the page's snapshot(queue, 25), when the platform has it.
	Snapshot []float64 `json:"snapshot,omitempty"`
}

// Memory is what holding Jobs jobs grew the platform's memory by.
type Memory struct {
	Jobs   int    `json:"jobs"`
	Before int64  `json:"before"`
	After  int64  `json:"after"`
	What   string `json:"what"`
}

// Throughput is Repeat runs of one script of Calls calls of Command.
type Throughput struct {
	Command string    `json:"command"`
	Calls   int       `json:"calls"`
	Ms      []float64 `json:"ms"`
	Error   string    `json:"error,omitempty"`
}

// Timed is a script's runs, or the error that stopped it.
type Timed struct {
	Ms    []float64 `json:"ms"`
	Error string    `json:"error,omitempty"`
}

// Drain is a drain of Jobs jobs: Drained of them in Ms.
type Drain struct {
	Jobs    int     `json:"jobs"`
	Drained int     `json:"drained"`
	Ms      float64 `json:"ms"`
	Note    string  `json:"note,omitempty"`
}

// Config bounds the run: each curve cell samples for Budget or MaxSamples,
// whichever ends first (MinSamples at least), and a drain stops after
// DrainCap.
type Config struct {
	Budget     time.Duration
	MinSamples int
	MaxSamples int
	DrainCap   time.Duration
}

// Platform is one server to measure: its connection (for the scripts and
// the ZRANGE) and the calls a sample makes (for enqueue and claim).
type Platform struct {
	Name   string
	Conn   emq.Conn
	Ops    loop.Ops
	Memory func() (int64, string) // nil when it cannot say
	// Snapshot takes the page's bounded snapshot of queue; nil to skip it.
	Snapshot func(queue string) error
}

// Run measures everything on p.
func Run(p Platform, cfg Config, logf func(string, ...any)) (Result, error) {
	res := Result{Platform: p.Name}
	queue := func(d int) string { return "depth" + strconv.Itoa(d) }

	// Shallow to deep, each queue filled just before it is measured and
	// deleted after: a depth's samples pay for no other depth's jobs (in
	// wasm, every garbage collection walks every job in the heap). The
	// memory of the deepest fill is what it added to the platform.
	for _, d := range Depths {
		deepest := d == Depths[len(Depths)-1]
		var before int64
		var what string
		if deepest && p.Memory != nil {
			before, what = p.Memory()
		}
		if err := prefill(p.Conn, queue(d), 0, d); err != nil {
			return res, err
		}
		if deepest && p.Memory != nil {
			after, _ := p.Memory()
			res.Memory = &Memory{Jobs: d, Before: before, After: after, What: what}
		}
		logf("%s: depth %d", p.Name, d)
		pt, next, err := curve(p, queue(d), d, cfg)
		if err != nil {
			return res, err
		}
		res.Curve = append(res.Curve, pt)
		if err := clear(p.Conn, queue(d), next); err != nil {
			return res, err
		}
	}

	logf("%s: script throughput", p.Name)
	for _, s := range []struct{ cmd, src string }{{"SET", SetScript}, {"ZADD", ZAddScript}, {"HSET", HSetScript}} {
		tp := Throughput{Command: s.cmd, Calls: ThroughputCalls}
		for range Repeat {
			key := "tp:" + strings.ToLower(s.cmd)
			ms, err := script(p.Conn, s.src, key, ThroughputCalls)
			p.Conn.Do("DEL", key)
			if err != nil {
				tp.Error = err.Error()
				break
			}
			tp.Ms = append(tp.Ms, ms)
		}
		res.Throughput = append(res.Throughput, tp)
	}

	logf("%s: one script popping %d of %d", p.Name, Pops, PopDepth)
	k, _ := emq.KeyspaceFor("pop")
	next := PopDepth
	if err := prefill(p.Conn, "pop", 0, PopDepth); err != nil {
		return res, err
	}
	for range Repeat {
		ms, err := script(p.Conn, PopScript, k.Pending(), Pops)
		if err != nil {
			res.Pop.Error = err.Error()
			break
		}
		res.Pop.Ms = append(res.Pop.Ms, ms)
		// Back to PopDepth, untimed.
		n, err := p.Conn.Do("ZCARD", k.Pending())
		if err != nil {
			return res, err
		}
		if err := prefill(p.Conn, "pop", next, next+PopDepth-int(n.Int)); err != nil {
			return res, err
		}
		next += PopDepth - int(n.Int)
	}

	logf("%s: draining %d jobs", p.Name, DrainJobs)
	if err := prefill(p.Conn, "drain", 0, DrainJobs); err != nil {
		return res, err
	}
	res.Drain = Drain{Jobs: DrainJobs}
	start := time.Now()
	for res.Drain.Drained < DrainJobs {
		v, id, err := p.Ops.Claim("drain", loop.Lease)
		if err != nil {
			return res, fmt.Errorf("%s: drain: %w", p.Name, err)
		}
		if v != string(emq.Leased) || id != loop.JobID(res.Drain.Drained) {
			return res, fmt.Errorf("%s: drain: claim %d gave %s %q", p.Name, res.Drain.Drained, v, id)
		}
		res.Drain.Drained++
		if time.Since(start) > cfg.DrainCap {
			res.Drain.Note = fmt.Sprintf("stopped after %s", cfg.DrainCap)
			break
		}
	}
	res.Drain.Ms = millis(time.Since(start))

	logf("%s: one script of %d SETs", p.Name, ManySets)
	ms, err := script(p.Conn, ManySetsScript, "many:", ManySets)
	if err != nil {
		res.ManySets.Error = err.Error()
	} else {
		res.ManySets.Ms = []float64{ms}
	}
	return res, nil
}

// curve samples one depth: enqueue, claim, bounded ZRANGE, in turn.
// It returns how many job ids the queue has used.
func curve(p Platform, queue string, depth int, cfg Config) (Point, int, error) {
	pt := Point{Depth: depth}
	k, _ := emq.KeyspaceFor(queue)
	next, claimed := depth, 0
	warm := time.Now().Add(WarmupFor)
	for i := 0; i < Warmup && (i == 0 || time.Now().Before(warm)); i++ {
		if v, err := p.Ops.Enqueue(queue, loop.JobID(next), loop.Payload); err != nil || v != string(emq.Enqueued) {
			return pt, next, fmt.Errorf("%s: warm-up enqueue at depth %d: %v %v", p.Name, depth, v, err)
		}
		next++
		if v, id, err := p.Ops.Claim(queue, loop.Lease); err != nil || id != loop.JobID(claimed) {
			return pt, next, fmt.Errorf("%s: warm-up claim at depth %d: %v %q %v", p.Name, depth, v, id, err)
		}
		claimed++
		if p.Snapshot != nil {
			if err := p.Snapshot(queue); err != nil {
				return pt, next, fmt.Errorf("%s: warm-up snapshot at depth %d: %w", p.Name, depth, err)
			}
		}
	}
	until := time.Now().Add(cfg.Budget)
	for n := 0; n < cfg.MaxSamples && (n < cfg.MinSamples || time.Now().Before(until)); n++ {
		id := loop.JobID(next)
		t0 := time.Now()
		ev, err := p.Ops.Enqueue(queue, id, loop.Payload)
		t1 := time.Now()
		if err != nil || ev != string(emq.Enqueued) {
			return pt, next, fmt.Errorf("%s: enqueue %s at depth %d: %v %v", p.Name, id, depth, ev, err)
		}
		next++
		cv, got, err := p.Ops.Claim(queue, loop.Lease)
		t2 := time.Now()
		if err != nil || cv != string(emq.Leased) || got != loop.JobID(claimed) {
			return pt, next, fmt.Errorf("%s: claim at depth %d: %v %q %v, want %s", p.Name, depth, cv, got, err, loop.JobID(claimed))
		}
		claimed++
		r, err := p.Conn.Do("ZRANGE", k.Pending(), "0", strconv.Itoa(Window-1))
		t3 := time.Now()
		if err != nil || len(r.Elems) != min(Window, depth) {
			return pt, next, fmt.Errorf("%s: ZRANGE at depth %d: %d ids, %v", p.Name, depth, len(r.Elems), err)
		}
		if p.Snapshot != nil {
			if err := p.Snapshot(queue); err != nil {
				return pt, next, fmt.Errorf("%s: snapshot at depth %d: %w", p.Name, depth, err)
			}
			pt.Snapshot = append(pt.Snapshot, loop.Micros(time.Since(t3)))
		}
		pt.Enqueue = append(pt.Enqueue, loop.Micros(t1.Sub(t0)))
		pt.Claim = append(pt.Claim, loop.Micros(t2.Sub(t1)))
		pt.ZRange = append(pt.ZRange, loop.Micros(t3.Sub(t2)))
		if (n+1)%loop.HousekeepingEvery == 0 {
			p.Conn.Do("DEL", k.Active())
		}
	}
	p.Conn.Do("DEL", k.Active())
	return pt, next, nil
}

// prefill writes jobs first..last-1 into queue, as @enqueue would have.
func prefill(c emq.Conn, queue string, first, last int) error {
	k, _ := emq.KeyspaceFor(queue)
	for from := first; from < last; from += loop.PrefillChunk {
		to := min(from+loop.PrefillChunk, last) - 1
		r, err := c.Do("EVAL", loop.PrefillScript, "1", k.Pending(), k.JobBase(), strconv.Itoa(from), strconv.Itoa(to), loop.Payload)
		if err == nil && r.IsError() {
			err = fmt.Errorf("%s", r.Str)
		}
		if err != nil {
			return fmt.Errorf("prefill %s: %w", queue, err)
		}
	}
	return nil
}

// ClearScript deletes the rows ARGV[2]..ARGV[3] under the row-key base
// ARGV[1]; bench/depth_bench.mjs carries the same script.
const ClearScript = `for n = tonumber(ARGV[2]), tonumber(ARGV[3]) do
  redis.call('DEL', ARGV[1] .. string.format('JOB-%010d', n))
end
return 1`

// clear deletes a queue that used job ids 0..used-1: its rows and its sets.
func clear(c emq.Conn, queue string, used int) error {
	k, _ := emq.KeyspaceFor(queue)
	for from := 0; from < used; from += 10 * loop.PrefillChunk {
		to := min(from+10*loop.PrefillChunk, used) - 1
		r, err := c.Do("EVAL", ClearScript, "0", k.JobBase(), strconv.Itoa(from), strconv.Itoa(to))
		if err == nil && r.IsError() {
			err = fmt.Errorf("%s", r.Str)
		}
		if err != nil {
			return fmt.Errorf("clear %s: %w", queue, err)
		}
	}
	_, err := c.Do("DEL", k.Pending(), k.Active())
	return err
}

// script runs one script over key with n, and times it.
func script(c emq.Conn, src, key string, n int) (float64, error) {
	t0 := time.Now()
	r, err := c.Do("EVAL", src, "1", key, strconv.Itoa(n))
	took := time.Since(t0)
	if err == nil && r.IsError() {
		err = fmt.Errorf("%s (after %.0f ms)", r.Str, millis(took))
	}
	return millis(took), err
}

func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// GoHeap is the Go heap in use after a collection: what a native platform's
// memory is.
func GoHeap() (int64, string) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc), "Go heap in use after a GC (runtime.MemStats.HeapAlloc)"
}
