package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"echomq.dev/playground/bench/depth"
	"echomq.dev/playground/bench/loop"
	"echomq.dev/playground/wasm/api"
	"echomq.dev/playground/wasm/emq"
)

// The depth phase (issue 10's "Targets"): after the latency rounds, the
// measurements of bench/depth natively over api.Call and over the
// redis-server of the rounds, then in wasm through the JS API by
// bench/depth_bench.mjs. One platform at a time: each fills queues of up to
// 100,000 jobs, which no other measurement should run beside.

// depthRun is what the phase found, by platform ("wasm", "native", "redis").
type depthRun struct {
	results map[string]depth.Result
	command string // the Node command, for the report
	cfg     depth.Config
	wasmCfg depth.Config
	notes   []string
	elapsed time.Duration
}

// depthConfigs are the phase's bounds: a few minutes in all on the small
// machines this runs on, even while the engine pays O(n) per claim.
func depthConfigs(quick bool) (native, wasm depth.Config) {
	if quick {
		return depth.Config{Budget: 150 * time.Millisecond, MinSamples: 3, MaxSamples: 100, DrainCap: 5 * time.Second},
			depth.Config{Budget: 300 * time.Millisecond, MinSamples: 3, MaxSamples: 100, DrainCap: 5 * time.Second}
	}
	return depth.Config{Budget: 400 * time.Millisecond, MinSamples: 5, MaxSamples: 400, DrainCap: 20 * time.Second},
		depth.Config{Budget: 800 * time.Millisecond, MinSamples: 5, MaxSamples: 300, DrainCap: 20 * time.Second}
}

func measureDepth(cfg config, backends []*backend, logf func(string, ...any)) *depthRun {
	began := time.Now()
	run := &depthRun{results: map[string]depth.Result{}}
	run.cfg, run.wasmCfg = depthConfigs(cfg.quick)
	say := func(format string, a ...any) { logf("depth: "+format, a...) }

	p := api.New()
	platforms := []depth.Platform{{Name: "native", Conn: p.Engine(), Ops: loop.API{P: p}, Memory: depth.GoHeap,
		// As the bridge makes it: api.Call, then api.MarshalJSON.
		Snapshot: func(queue string) error {
			out := p.Call("snapshot", []any{queue, float64(depth.Window)})
			if o, ok := out.(api.Object); ok && o["error"] != nil {
				return fmt.Errorf("%v", o["message"])
			}
			_, err := api.MarshalJSON(out)
			return err
		}}}
	for _, b := range backends {
		if b.key == keyRedis {
			conn := b.conn
			jobs := emq.NewJobs(conn)
			platforms = append(platforms, depth.Platform{Name: "redis", Conn: conn, Ops: loop.Jobs{J: jobs},
				Memory: func() (int64, string) { return redisMemory(conn) },
				// The same reads, made by a client of the real server.
				Snapshot: func(queue string) error { _, err := jobs.Window(queue, depth.Window); return err }})
		}
	}
	for _, pl := range platforms {
		res, err := depth.Run(pl, run.cfg, say)
		if err != nil {
			run.notes = append(run.notes, fmt.Sprintf("at depth, %s: not measured to the end: %s", pl.Name, firstLine(err.Error())))
			say("%s: %v", pl.Name, err)
		}
		run.results[pl.Name] = res
	}

	argv := []string{"node", filepath.Join(cfg.root, "bench", "depth_bench.mjs"),
		"--wasm-exec", filepath.Join(cfg.static, "wasm_exec.js"), "--wasm", filepath.Join(cfg.static, "echomq.wasm"),
		"--budget-ms", strconv.FormatInt(run.wasmCfg.Budget.Milliseconds(), 10),
		"--min-samples", strconv.Itoa(run.wasmCfg.MinSamples), "--max-samples", strconv.Itoa(run.wasmCfg.MaxSamples),
		"--drain-cap-ms", strconv.FormatInt(run.wasmCfg.DrainCap.Milliseconds(), 10)}
	run.command = strings.Join(argv, " ")
	say("wasm: %s", "node bench/depth_bench.mjs")
	if res, err := runDepthChild(cfg.root, argv, say); err != nil {
		run.notes = append(run.notes, "at depth, wasm: not measured: "+firstLine(err.Error()))
		say("wasm: %v", err)
	} else {
		run.results["wasm"] = res
	}
	run.elapsed = time.Since(began)
	return run
}

// runDepthChild runs bench/depth_bench.mjs and reads its one result line;
// its progress lines go to the log as they come.
func runDepthChild(dir string, argv []string, say func(string, ...any)) (depth.Result, error) {
	var res depth.Result
	if _, err := exec.LookPath(argv[0]); err != nil {
		return res, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return res, err
	}
	var errText strings.Builder
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			if rest, ok := strings.CutPrefix(line, "depth_bench: "); ok {
				say("wasm: %s", rest)
			} else {
				errText.WriteString(line + "\n")
			}
		}
	}()
	out, err := cmd.Output()
	<-done
	if err != nil {
		return res, fmt.Errorf("%w: %s", err, strings.TrimSpace(errText.String()))
	}
	var ev struct {
		Event  string       `json:"event"`
		Result depth.Result `json:"result"`
	}
	if err := json.Unmarshal(out, &ev); err != nil || ev.Event != "depth" {
		return res, fmt.Errorf("depth_bench.mjs printed no result (%v): %.200s", err, out)
	}
	return ev.Result, nil
}

// redisMemory is used_memory from INFO memory.
func redisMemory(c emq.Conn) (int64, string) {
	r, err := c.Do("INFO", "memory")
	if err != nil {
		return 0, ""
	}
	for _, line := range strings.Split(r.Str, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "used_memory:"); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n, "redis-server's used_memory (INFO memory)"
		}
	}
	return 0, ""
}

// ---- the report -----------------------------------------------------------------

// depthPlatforms are the columns, in order.
var depthPlatforms = []struct{ key, label string }{
	{"wasm", "wasm: JS API (Node)"},
	{"native", "native: `api.Call`"},
	{"redis", "redis-server, loopback TCP"},
}

func (d *depthRun) point(platform string, dep int) *depth.Point {
	res, ok := d.results[platform]
	if !ok {
		return nil
	}
	for i := range res.Curve {
		if res.Curve[i].Depth == dep {
			return &res.Curve[i]
		}
	}
	return nil
}

// claimRatio is a platform's claim median at the deepest depth over its
// median at the shallowest.
func (d *depthRun) claimRatio(platform string) (float64, bool) {
	lo, hi := d.point(platform, depth.Depths[0]), d.point(platform, depth.Depths[len(depth.Depths)-1])
	if lo == nil || hi == nil || len(lo.Claim) == 0 || len(hi.Claim) == 0 {
		return 0, false
	}
	return summarize(hi.Claim).median / summarize(lo.Claim).median, true
}

func timedMedian(t depth.Timed) (float64, bool) {
	if t.Error != "" || len(t.Ms) == 0 {
		return 0, false
	}
	return summarize(t.Ms).median, true
}

func timedText(t depth.Timed) string {
	if m, ok := timedMedian(t); ok {
		if len(t.Ms) > 1 {
			return fmt.Sprintf("%s ms (median of %d)", num(m), len(t.Ms))
		}
		return num(m) + " ms"
	}
	if t.Error != "" {
		return "stopped: `" + mdEscape(shortError(t.Error)) + "`"
	}
	return "—"
}

// shortError keeps a script error's first words and how long it ran.
func shortError(s string) string {
	if i := strings.Index(s, " script: "); i > 0 {
		tail := ""
		if j := strings.LastIndex(s, " (after "); j > 0 {
			tail = s[j:]
		}
		return s[:i] + tail
	}
	return s
}

func drainText(dr depth.Drain) string {
	switch {
	case dr.Jobs == 0:
		return "—"
	case dr.Drained == dr.Jobs:
		return fmt.Sprintf("%.2f s (%s claims/s)", dr.Ms/1000, thousands(int(float64(dr.Drained)*1000/dr.Ms+0.5)))
	case dr.Drained > 0:
		return fmt.Sprintf("%s of %s in %.1f s, %s; at that rate %.0f s", thousands(dr.Drained), thousands(dr.Jobs), dr.Ms/1000, dr.Note,
			dr.Ms/1000*float64(dr.Jobs)/float64(dr.Drained))
	}
	return "none drained"
}

func (r *report) depthSection(p printer) {
	d := r.depth
	if d == nil {
		return
	}
	p("## At depth\n\n")
	p("Issue 10's targets, then the depth curve, script throughput and memory, measured after the latency rounds in the same run (%.0f s for this part): natively over `api.Call` (the JS API's Go side, in this process, on an engine of its own), on the same redis-server over loopback TCP, and in wasm through the JS API under Node (`bench/depth_bench.mjs`), one platform after the other.\n\n", d.elapsed.Seconds())

	p("| figure | target | wasm: JS API (Node) | native: `api.Call` | redis-server | target met (wasm) |\n|---|---|---:|---:|---:|---|\n")
	ratioCell := func(pl string) string {
		if x, ok := d.claimRatio(pl); ok {
			return ratio(x, 1)
		}
		return "—"
	}
	wasmRatio, okRatio := d.claimRatio("wasm")
	p("| claim at depth 100,000 vs claim at depth 10 (medians) | within 2× | %s | %s | %s | %s |\n",
		ratioCell("wasm"), ratioCell("native"), ratioCell("redis"), metText(okRatio, wasmRatio <= 2))
	wd := d.results["wasm"].Drain
	p("| draining 10,000 jobs, one `claim` per job | ≤ 2 s | %s | %s | %s | %s |\n",
		drainText(wd), drainText(d.results["native"].Drain), drainText(d.results["redis"].Drain),
		metText(wd.Jobs > 0, wd.Drained == wd.Jobs && wd.Ms <= 2000))
	wm, okM := timedMedian(d.results["wasm"].ManySets)
	p("| one script of 100,000 `SET`s | ≤ 300 ms | %s | %s | %s | %s |\n",
		timedText(d.results["wasm"].ManySets), timedText(d.results["native"].ManySets), timedText(d.results["redis"].ManySets),
		metText(okM || d.results["wasm"].ManySets.Error != "", okM && wm <= 300))
	wp, okP := timedMedian(d.results["wasm"].Pop)
	p("| one script popping 1,000 of 10,000 pending (`ZPOPMIN` each) | ≤ 50 ms | %s | %s | %s | %s |\n",
		timedText(d.results["wasm"].Pop), timedText(d.results["native"].Pop), timedText(d.results["redis"].Pop),
		metText(okP || d.results["wasm"].Pop.Error != "", okP && wp <= 50))
	if m := r.rtMedian(keyWasm, 10); m > 0 {
		p("| enqueue+claim round trip at depth 10, median (the latency rounds) | ≤ 100 µs | %s | %s | %s | %s |\n",
			us(m), orDash(r.rtMedian(keyNativeAPI, 10)), orDash(r.rtMedian(keyRedis, 10)), metOrNot(m <= rtTarget))
	}
	if len(r.sizes) > 0 && r.sizes[0].brotli > 0 {
		p("| `static/echomq.wasm` with brotli | ≤ 2.0 MB | %s | | | %s |\n", mb(r.sizes[0].brotli), metOrNot(float64(r.sizes[0].brotli) <= sizeTarget))
	}
	if b := d.results["wasm"].DrainBulk; b != nil {
		p("\nThe page's **Claim all** (`claimMany`, here in calls of 100) drained the same 10,000 jobs in wasm in %s.\n", drainText(*b))
	}
	p("\n")
	r.floorsSection(p)

	p("### Depth curve\n\nMedian (p90) per operation, in µs, with the pending set held at each depth: a sample is one `enqueue`, one `claim` of the oldest job, one bounded `ZRANGE pending 0 24` (through `exec` in wasm) and the bounded snapshot the page takes after every click (`snapshot(queue, 25)`: `api.Call` and `api.MarshalJSON` natively, `emq.Jobs.Window` on redis-server), each timed. Each depth is sampled for %v natively and %v in wasm (at least %d, at most %d samples), after up to %d untimed round trips (with a snapshot each) or %v of them; each depth's queue is filled just before its turn and deleted after it, so no depth pays for another's jobs.\n\n",
		d.cfg.Budget, d.wasmCfg.Budget, d.cfg.MinSamples, d.cfg.MaxSamples, depth.Warmup, depth.WarmupFor)
	p("| operation | platform |")
	for _, dep := range depth.Depths {
		p(" %s |", thousands(dep))
	}
	p(" 100,000 vs 10 | samples |\n|---|---|")
	for range depth.Depths {
		p("---:|")
	}
	p("---:|---:|\n")
	for _, op := range []struct {
		name string
		of   func(*depth.Point) []float64
	}{
		{"enqueue", func(pt *depth.Point) []float64 { return pt.Enqueue }},
		{"claim", func(pt *depth.Point) []float64 { return pt.Claim }},
		{"`ZRANGE 0 24`", func(pt *depth.Point) []float64 { return pt.ZRange }},
		{"the page's `snapshot(queue, 25)`", func(pt *depth.Point) []float64 { return pt.Snapshot }},
	} {
		for _, pl := range depthPlatforms {
			sampled := false
			for _, dep := range depth.Depths {
				if pt := d.point(pl.key, dep); pt != nil && len(op.of(pt)) > 0 {
					sampled = true
				}
			}
			if !sampled {
				continue
			}
			p("| %s | %s |", op.name, pl.label)
			var lo, hi float64
			var counts []string
			for i, dep := range depth.Depths {
				pt := d.point(pl.key, dep)
				if pt == nil {
					p(" — |")
					counts = append(counts, "0")
					continue
				}
				s := summarize(op.of(pt))
				p(" %s |", cellStat(s))
				counts = append(counts, strconv.Itoa(s.n))
				if i == 0 {
					lo = s.median
				}
				if i == len(depth.Depths)-1 {
					hi = s.median
				}
			}
			p(" %s | %s |\n", ratio(hi, lo), strings.Join(counts, " / "))
		}
	}

	p("\n### Script throughput\n\n`redis.call`s a second inside one script of %s calls on one key (`SET k i`; `ZADD k i m<i>` and `HSET k f<i> i`, which grow the key to %s members): %d runs each, the median run.\n\n",
		thousands(depth.ThroughputCalls), thousands(depth.ThroughputCalls), depth.Repeat)
	p("| command |")
	for _, pl := range depthPlatforms {
		p(" %s |", pl.label)
	}
	p("\n|---|---:|---:|---:|\n")
	for i, cmd := range []string{"SET", "ZADD", "HSET"} {
		p("| `%s` |", cmd)
		for _, pl := range depthPlatforms {
			res, ok := d.results[pl.key]
			if !ok || i >= len(res.Throughput) {
				p(" — |")
				continue
			}
			tp := res.Throughput[i]
			if tp.Error != "" || len(tp.Ms) == 0 {
				p(" stopped: `%s` |", mdEscape(shortError(tp.Error)))
				continue
			}
			m := summarize(tp.Ms).median
			p(" %s /s (%s ms) |", thousands(int(float64(tp.Calls)*1000/m+0.5)), num(m))
		}
		p("\n")
	}

	p("\n### Memory at 100,000 jobs\n\nWhat filling one queue with 100,000 pending jobs (row and pending entry, as `@enqueue` writes them) added, measured around that fill, just before the depth curve's last depth (the smaller depths' queues were deleted after their turn).\n\n| platform | measured | before | after | per job |\n|---|---|---:|---:|---:|\n")
	for _, pl := range depthPlatforms {
		res, ok := d.results[pl.key]
		if !ok || res.Memory == nil {
			continue
		}
		m := res.Memory
		p("| %s | %s | %s | %s | %s B |\n", pl.label, m.What, mb(m.Before), mb(m.After), thousands(int((m.After-m.Before)/int64(max(m.Jobs, 1)))))
	}
	p("\n")
	for _, n := range d.notes {
		p("- %s\n", n)
	}
	if len(d.notes) > 0 {
		p("\n")
	}
}

func metText(measured, met bool) string {
	if !measured {
		return "not measured"
	}
	return metOrNot(met)
}

func orDash(v float64) string {
	if v <= 0 {
		return "—"
	}
	return us(v)
}
