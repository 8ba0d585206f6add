package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"echomq.dev/playground/bench/loop"
)

// rtTarget is the playground's latency budget: one enqueue+claim round trip
// through the JS API in wasm, median, at depth 10.
const rtTarget = 100.0 // µs

// baseTolerance is how much slower than the baseline the JS-API round trip
// may be: the fidelity work must keep it within 10% of before.
const baseTolerance = 0.10

// report is everything one run found, ready to print.
type report struct {
	cfg          config
	tmp          string
	elapsed      time.Duration
	machine      machine
	redisVersion string
	sizes        []wasmSize
	shippedBr    int64 // static/echomq.wasm.br as the build wrote it, 0 if absent
	cells        cellSet
	children     map[string]*child // by role; a child that did not start is there too
	builds       *builds
	page         pageLoad
	depth        *depthRun     // the depth phase, nil when it did not run
	floors       *floorsRun    // bench/depfloor, nil when it did not run
	shortcuts    *shortcutsRun // bench/shortcuts, nil when it did not run
	notes        []string
}

// find is the cell of a row at a depth, or nil when it has no samples.
func (r *report) find(key string, depth int) *cell {
	for _, c := range r.cells {
		if c.key == key && c.depth == depth && len(c.rt) > 0 {
			return c
		}
	}
	return nil
}

// rtMedian is a row's round-trip median at a depth, 0 when not measured.
func (r *report) rtMedian(key string, depth int) float64 {
	if c := r.find(key, depth); c != nil {
		return summarize(c.rt).median
	}
	return 0
}

// show turns a command line into the form the report prints: paths
// relative to the repository, $TMP for the run's temporary directory.
func (r *report) show(cmd string) string {
	cmd = strings.ReplaceAll(cmd, r.tmp, "$TMP")
	cmd = strings.ReplaceAll(cmd, r.cfg.root+string(filepath.Separator), "")
	if i := strings.Index(cmd, "/lib/wasm/go_js_wasm_exec"); i >= 0 {
		start := strings.LastIndex(cmd[:i], " ") + 1
		cmd = cmd[:start] + "$(go env GOROOT)" + cmd[i:]
	}
	return cmd
}

func (r *report) js() childEvent {
	if c := r.children[roleJS]; c != nil {
		return c.ready
	}
	return childEvent{}
}

func (r *report) baseName() string {
	if r.builds != nil && r.builds.baseShort != "" {
		return r.builds.baseShort
	}
	return r.cfg.baseline
}

func (r *report) markdown() string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }

	p("# Benchmarks\n\n")
	p("Written by `./build.sh bench`, which builds `static/` and then runs `go run ./bench`")
	if len(r.cfg.args) > 0 {
		p(" (this run: `go run ./bench %s`)", strings.Join(r.cfg.args, " "))
	}
	p(", on %s. Every figure below comes from that one run: the implementations were measured side by side, in turns, on the same machine. Re-run it to refresh this file; do not edit it by hand.\n\n", r.machine.date.Format("2006-01-02 15:04 MST"))

	r.summary(p)
	r.machineSection(p)
	r.sizeSection(p)
	r.rowsSection(p)
	for _, d := range r.cfg.depths {
		r.latencySection(p, d)
	}
	r.depthSection(p)
	r.baselineSection(p)
	r.floorSection(p)
	r.shortcutsSection(p)
	r.pageSection(p)
	r.suiteSection(p)
	r.methodSection(p)
	return b.String()
}

type printer func(format string, a ...any)

// withinTolerance says how current compares with the baseline.
func withinTolerance(cur, base float64) string {
	x := cur/base - 1
	switch {
	case x > baseTolerance:
		return fmt.Sprintf("**not within 10%%**: %.0f%% slower than the baseline", 100*x)
	case x >= 0:
		return fmt.Sprintf("**within 10%%** (%.0f%% slower)", 100*x)
	default:
		return fmt.Sprintf("**within 10%%** (%.0f%% faster)", -100*x)
	}
}

// perRound is the ratio of two cells' round-trip medians, round by round.
func perRound(cur, base *cell) string {
	a, b := cur.roundMedians(), base.roundMedians()
	var parts []string
	for i := range min(len(a), len(b)) {
		parts = append(parts, ratio2(a[i], b[i]))
	}
	return strings.Join(parts, ", ")
}

func (r *report) summary(p printer) {
	p("## Summary\n\n")
	if len(r.sizes) > 0 {
		s := r.sizes[0]
		verdict := "not measured"
		if s.brotli > 0 {
			verdict = metOrNot(float64(s.brotli) <= sizeTarget)
		}
		p("- **wasm size:** %s brotli (%s raw, %s gzip); target ≤ %s (%s B) brotli: **%s**.\n", mbExact(s.brotli), mb(s.raw), mb(s.gzip), mb(int64(sizeTarget)), thousands(sizeTarget), verdict)
	}
	if m := r.rtMedian(keyWasm, 10); m > 0 {
		p("- **round trip through the JS API in wasm, depth 10:** %s median; target ≤ %.0f µs: **%s**.", us(m), rtTarget, metOrNot(m <= rtTarget))
		if ref := r.rtMedian(keyRedis, 10); ref > 0 {
			p(" That is %s real Redis", ratio(m, ref))
		}
		if ref := r.rtMedian(keyStockWasm, 10); ref > 0 {
			p(" and %s stock miniredis EVAL in wasm", ratio(m, ref))
		}
		p(".\n")
	}
	if cur, base := r.find(keyWasm, 10), r.find(keyWasmBase, 10); cur != nil && base != nil {
		cm, bm := summarize(cur.rt).median, summarize(base.rt).median
		p("- **JS-API round trip, depth 10: current vs baseline %s = %s vs %s (%s)**: %s. Round by round: %s.",
			r.baseName(), us(cm), us(bm), ratio2(cm, bm), withinTolerance(cm, bm), perRound(cur, base))
		if c, b := r.find(keyNativeProc, 10), r.find(keyNativeBase, 10); c != nil && b != nil {
			cn, bn := summarize(c.rt).median, summarize(b.rt).median
			p(" Natively, the engine alone: %s vs %s (%s).", us(cn), us(bn), ratio2(cn, bn))
		}
		p("\n")
	} else if r.cfg.baseline != "" {
		p("- **current vs baseline %s:** not measured (see the notes at the end).\n", r.baseName())
	}
	if w, a, e := r.rtMedian(keyWasm, 10), r.rtMedian(keyWasmAPI, 10), r.rtMedian(keyWasmEngine, 10); w > 0 && a > 0 && e > 0 {
		p("- **where the wasm time goes, depth 10:** through the JS API %s; the same two calls made from Go inside wasm (`api.Call` + `api.MarshalJSON`, no bridge) %s", us(w), us(a))
		if w > a {
			p(", so the bridge (the call's JSON into the module's memory and the result's back out through its exports, `JSON.parse`) is about %s of the round trip", us(w-a))
		} else {
			// The in-Go rows share one heap with two other implementations'
			// queues (see "What each row measures"), which can cost them more
			// than the bridge costs the JS row: then the bridge is lost in it.
			p(", which is slower than through the bridge: the bridge's cost is lost in what the in-Go rows pay for sharing one heap")
		}
		p("; the engine alone in wasm (`emq.Jobs`, no API layer) %s", us(e))
		if n := r.rtMedian(keyNative, 10); n > 0 {
			p(", against %s natively: wasm itself costs %s", us(n), ratio(e, n))
		}
		p(".\n")
	}
	if m := r.rtMedian(keyNative, 10); m > 0 {
		p("- **round trip, native, depth 10:** %s median", us(m))
		if ref := r.rtMedian(keyRedis, 10); ref > 0 {
			p(" = %s real Redis over loopback", ratio(m, ref))
		}
		if ref := r.rtMedian(keyStockNative, 10); ref > 0 {
			p(", %s stock miniredis EVAL in-process", ratio(m, ref))
		}
		p(".\n")
	}
	if w := r.find(keyWasm, 10000); w != nil {
		m := summarize(w.rt).median
		p("- **round trip through the JS API in wasm, depth 10,000:** %s median", us(m))
		if ref := r.rtMedian(keyRedis, 10000); ref > 0 {
			p(" = %s real Redis", ratio(m, ref))
		}
		p("; claim alone %s.\n", us(summarize(w.claim).median))
	}
	if r.page.median > 0 {
		p("- **page load** (headless Chromium, nothing cached): navigation to \"Ready\" with the controls enabled %s median of %d loads", ms(r.page.median), len(r.page.samples))
		if len(r.page.verdicts) > 0 {
			p("; to the first verdict %s", ms(summarize(r.page.verdicts).median))
		}
		p(".\n")
	} else {
		p("- **page load:** %s.\n", r.page.note)
	}
	if r.floors != nil {
		r.floors.summaryLine(p)
	}
	p("- Ratios divide this row's median by the reference's: below 1× is faster than the reference, above 1× slower.\n\n")
}

func (r *report) machineSection(p printer) {
	m := r.machine
	p("## Machine\n\n")
	p("| | |\n|---|---|\n")
	row := func(k, v string) {
		if v == "" {
			v = "not found"
		}
		p("| %s | %s |\n", k, mdEscape(v))
	}
	row("CPU", fmt.Sprintf("%s, %d cores visible to Go", m.cpu, m.cores))
	row("memory", m.memory)
	row("kernel", m.kernel)
	row("Go", m.goVersion)
	node := m.node
	if v8 := r.js().V8; v8 != "" {
		node += " (V8 " + v8 + ")"
	}
	row("Node", node)
	rv := m.redis
	if r.redisVersion != "" {
		rv = fmt.Sprintf("%s (INFO says %s)", m.redis, r.redisVersion)
	}
	row("redis-server", rv)
	row("Chromium", m.chromium)
	row("brotli", m.brotli)
	row("commit", m.commit)
	if r.builds != nil && r.builds.baseShort != "" {
		row("baseline", fmt.Sprintf("%s (%s)", r.builds.baseShort, r.builds.baseSubject))
	}
	row("date", m.date.Format(time.RFC3339))
	row("load average (1, 5, 15 min)", fmt.Sprintf("%s at the start, %s at the end", m.loadStart, m.loadEnd))
	row("run time", r.elapsed.Round(time.Second).String())
	p("\nThe machine is shared and small: other work ran beside the benchmark (see the load), so single figures move between runs by tens of percent. Medians, turns and ratios measured in the same run are what to compare.\n\n")
}

func (r *report) sizeSection(p printer) {
	p("## wasm size\n\n")
	p("| module | raw | gzip -9 | brotli -q 11 | target (brotli) |\n|---|---:|---:|---:|---|\n")
	for i, s := range r.sizes {
		target := "—"
		if i == 0 {
			target = "≤ " + mb(int64(sizeTarget)) + ": " + metOrNot(s.brotli > 0 && float64(s.brotli) <= sizeTarget)
		}
		p("| %s | %s | %s | %s | %s |\n", s.label, mbExact(s.raw), mbExact(s.gzip), mbExact(s.brotli), target)
	}
	for _, s := range r.sizes {
		if s.note != "" {
			p("\n%s: %s\n", s.label, s.note)
		}
	}
	if r.shippedBr > 0 {
		p("\nThe build's own precompressed `static/echomq.wasm.br` is %s.\n", mbExact(r.shippedBr))
	}
	if fi, err := os.Stat(filepath.Join(r.cfg.static, "lesson.html")); err == nil {
		p("\nThe offline lesson, `static/lesson.html` (one file: the page, its modules and styles, the worker and the module gzip-compressed as base64), is %s on disk: what a learner downloads to take the lesson with no network.\n", mbExact(fi.Size()))
	}
	p("\ngzip is Go's `compress/gzip` at level 9; brotli is `brotli -q 11 -c`. MB = 10⁶ bytes.\n\n")
}

// rowsSection says what each row of the latency tables includes.
func (r *report) rowsSection(p printer) {
	p("## What each row measures\n\n")
	p("Every row runs the same sample (one `enqueue`, then one `claim` of the oldest job) over the same protocol scripts; the rows differ in what lies between the clock and the script. A claim is two commands (`EXISTS` on the pause flag, then the `@claim` script, EVALSHA first), an enqueue one.\n\n")
	p("- **JS API in wasm**: `static/echomq.wasm` as a page loads it, in Node (`bench/wasm_bench.mjs`), timed in JS with `performance.now()` around `echomq.enqueue(...)` and `echomq.claim(...)`. It includes what a page pays per call: crossing from JS into Go and back through the module's exports (`publish` in web/assets/worker-bridge.js writes the call as JSON into the module's memory), `api.Call` (argument checks, the handles, the engine, the wire exchanges recorded in the result), `api.MarshalJSON`, and `JSON.parse` back into a JS object.\n")
	p("- **wasm, no bridge, `api.Call`**: `bench/inwasm` built for js/wasm, run under Node by Go's `go_js_wasm_exec`, timed in Go with `time.Now()`. The same `api.Call` and `api.MarshalJSON` the bridge makes, with no exports crossed, no JSON of the arguments and no `JSON.parse`: the JS API row minus this one is the bridge.\n")
	p("- **wasm, no bridge, `emq.Jobs` over `engine.New()`**: the same process; `emq.Jobs` over `engine.New()`, the handles and the engine with its Lua VM, no API layer (no argument checks, no result objects).\n")
	p("- **stock miniredis EVAL, wasm**: the same process; `emq.Jobs` over `bench/stock`, stock miniredis v2 reached through `Server().Dispatch` as the engine sends commands, running each script with its own EVAL (a new gopher-lua state per call).\n")
	p("- **native** rows run in the bench process itself: the same `api.Call` + `api.MarshalJSON`, the same `emq.Jobs` over `engine.New()`, and the same stock miniredis in-process, timed with `time.Now()`; *over loopback TCP* adds a socket, RESP on the wire and miniredis's connection goroutine (`miniredis.Run()` and the `internal/redisnet` client).\n")
	p("- **redis-server over loopback TCP**: a real Redis 7 over loopback TCP through `internal/redisnet`: the socket round trip for each command, Redis's own Lua.\n\n")
	p("The three no-bridge wasm rows share one Go heap, as the native rows share the bench process's: each row's garbage collections also walk the others' queues (two queues, 10 and 10,000 jobs deep, per implementation), in wasm on a single thread, at the module's GOGC (`api.GCPercent`, which the JS API row's module sets for itself and this process is given in its environment). Go's clock in wasm is `performance.now()` added to the time origin, so it steps by about 0.25 µs.\n\n")
}

func (r *report) latencySection(p printer, depth int) {
	p("## Latency at queue depth %s\n\n", thousands(depth))
	p("Median (p90) per operation, in µs. The pending set holds %s jobs throughout: a sample is one enqueue and then one claim, each timed, and the round trip is the two together. *Samples* counts them over all rounds; *ops* counts every enqueue and claim the cell ran, warm-up included.\n\n", thousands(depth))
	p("| implementation | enqueue | claim | round trip | round trip vs real Redis | vs stock EVAL, same platform | samples | ops |\n")
	p("|---|---:|---:|---:|---:|---:|---:|---:|\n")
	ref := r.rtMedian(keyRedis, depth)
	for _, key := range backendOrder {
		c := r.find(key, depth)
		if c == nil {
			p("| %s | not measured | | | | | | |\n", backendLabels[key])
			continue
		}
		e, cl, rt := summarize(c.enqueue), summarize(c.claim), summarize(c.rt)
		vsRedis, vsStock := "—", "—"
		if ref > 0 && key != keyRedis {
			vsRedis = ratio(rt.median, ref)
		}
		if s := r.rtMedian(sameSide[key], depth); s > 0 {
			vsStock = ratio(rt.median, s)
		}
		p("| %s | %s | %s | %s | %s | %s | %s | %s |\n",
			backendLabels[key], cellStat(e), cellStat(cl), cellStat(rt), vsRedis, vsStock, thousands(rt.n), thousands(2*(rt.n+c.warmup)))
	}
	p("\n")
}

func (r *report) baselineSection(p printer) {
	if r.cfg.baseline == "" {
		return
	}
	name := r.baseName()
	p("## Current vs baseline %s\n\n", name)
	if r.builds != nil && r.builds.baseSubject != "" {
		p("The baseline is %s (\"%s\"), where this round of issues started. ", name, r.builds.baseSubject)
	}
	p("It is checked out into a temporary `git worktree` (removed once built), its `wasm/main_js.go` replaced by the current one only if it predates `ECHOMQ_GLOBAL` (which lets both modules live in one Node process; the bridge is not what is compared), and built as the static wasm is. Both modules run in the one Node process of the JS API rows, the baseline published as `globalThis.echomq_base`, their cells side by side in every slice of every round. Natively, the current `bench/inwasm` is built twice, from this tree and from the worktree (where it compiles against the baseline's packages), and the two processes measure the engine (`emq.Jobs` over `engine.New()`) and the JS API's Go side (`api.Call` + `api.MarshalJSON`) in turns: four turns per round, each a quarter of the native budget, in the order A B B A (B A A B the next round).\n\n")
	p("| measure | depth | build | enqueue | claim | round trip | samples |\n|---|---:|---|---:|---:|---:|---:|\n")
	type pair struct{ what, cur, base string }
	pairs := []pair{
		{"JS API in wasm", keyWasm, keyWasmBase},
		{"engine, native (own process)", keyNativeProc, keyNativeBase},
		{"`api.Call`, native (own process)", keyNativeProcAPI, keyNativeBaseAPI},
	}
	for _, pr := range pairs {
		for _, d := range r.cfg.depths {
			for _, k := range []string{pr.cur, pr.base} {
				build := "current"
				if k == pr.base {
					build = name
				}
				c := r.find(k, d)
				if c == nil {
					p("| %s | %s | %s | not measured | | | |\n", pr.what, thousands(d), build)
					continue
				}
				p("| %s | %s | %s | %s | %s | %s | %s |\n", pr.what, thousands(d), build,
					cellStat(summarize(c.enqueue)), cellStat(summarize(c.claim)), cellStat(summarize(c.rt)), thousands(len(c.rt)))
			}
		}
	}
	p("\n")
	for _, pr := range pairs {
		for _, d := range r.cfg.depths {
			cur, base := r.find(pr.cur, d), r.find(pr.base, d)
			if cur == nil || base == nil {
				continue
			}
			cm, bm := summarize(cur.rt).median, summarize(base.rt).median
			p("- %s round trip, depth %s: current vs baseline %s = %s vs %s (%s)", pr.what, thousands(d), name, us(cm), us(bm), ratio2(cm, bm))
			if pr.cur == keyWasm && d == 10 {
				p(": %s", withinTolerance(cm, bm))
			}
			p("; round by round %s.\n", perRound(cur, base))
		}
	}
	p("\nThe fidelity issue requires the JS-API round trip at depth 10 to stay within 10%% of the baseline. Round-by-round ratios show how far the figure moves within this one run.\n\n")
}

func (r *report) floorSection(p printer) {
	c := r.children[roleJS]
	if c == nil || len(c.end.Floors) == 0 {
		return
	}
	p("## The cost of a call into wasm\n\n")
	p("Every JS API call crosses from JS into the Go program and back. The cheapest method, `now()`, timed the same way as the operations, in each module:\n\n")
	p("| module | call | median | p90 | samples |\n|---|---|---:|---:|---:|\n")
	floors := c.end.Floors
	sort.Slice(floors, func(i, j int) bool { return floors[i].Target < floors[j].Target })
	for _, f := range floors {
		s := summarize(f.Samples)
		what := "static/echomq.wasm (`globalThis.echomq`)"
		if f.Target != "echomq" {
			what = fmt.Sprintf("baseline %s (`globalThis.%s`)", r.baseName(), f.Target)
		}
		p("| %s | `%s` | %s | %s | %d |\n", what, f.Call, us(s.median), us(s.p90), s.n)
	}
	for _, t := range r.js().Targets {
		if t.Global == "echomq" && t.StartMs > 0 {
			p("\nInstantiating and starting `static/echomq.wasm` in Node (compile, `go.run`, `globalThis.echomq` published) took %s, once, while `brotli` ran beside it.\n", ms(t.StartMs))
		}
	}
	p("\n")
}

func (r *report) rel(path string) string { return relTo(r.cfg.root, path) }

func (r *report) pageSection(p printer) {
	p("## Page load\n\n")
	if r.page.median <= 0 {
		p("Not measured: %s.\n\n", strings.TrimPrefix(r.page.note, "not measured: "))
		return
	}
	p("Headless Chromium loads `static/index.html` from a plain `net/http` file server on 127.0.0.1 (no compression). Each load is a fresh browser with a fresh profile, so nothing is cached: a learner's first visit, minus the network. Times are taken inside the page against `performance.now()` (zero at navigation start), by a script installed before the page's own: *Ready* is when the status line says \"Ready\" and the Enqueue and Claim buttons are enabled; at that moment the script clicks Enqueue, and *first verdict* is when the verdict line fills.\n\n")
	p("| | median | p90 | loads |\n|---|---:|---:|---:|\n")
	s := summarize(r.page.samples)
	p("| navigation → Ready | %s | %s | %d |\n", ms(s.median), ms(s.p90), s.n)
	if len(r.page.verdicts) > 0 {
		v := summarize(r.page.verdicts)
		p("| navigation → first verdict (`%s`) | %s | %s | %d |\n", r.page.verdict, ms(v.median), ms(v.p90), v.n)
	}
	p("\n")
	if r.page.note != "" {
		p("%s\n\n", r.page.note)
	}
	r.page.writeTargets(p)
	r.page.course.write(p)
	if r.page.floors != nil {
		r.page.floors.write(p)
	}
	r.page.phone.write(p)
	r.page.warm.write(p)
}

func (r *report) methodSection(p printer) {
	p("## How it was measured\n\n")
	p("The commands (paths relative to the repository; `$TMP` is a temporary directory the run removes):\n\n```sh\n")
	p("./build.sh bench     # builds static/, then runs:\n")
	p("%s\n", strings.TrimSpace("go run ./bench "+strings.Join(r.cfg.args, " ")))
	p("# which runs:\n")
	p("brotli -q 11 -c %s   # size, in the background until the first timed sample; gzip -9 is computed in Go\n", r.rel(filepath.Join(r.cfg.static, "echomq.wasm")))
	if r.builds != nil {
		for _, c := range r.builds.commands {
			p("%s\n", r.show(c))
		}
	}
	p("redis-server --bind 127.0.0.1 --port <free port> --save '' --appendonly no   # via internal/redisserver\n")
	for _, role := range []string{roleJS, roleInWasm, roleNative, roleBaseNative} {
		if c := r.children[role]; c != nil && c.command != "" {
			p("%s   # one process for the run; a line on stdin starts each round\n", r.show(c.command))
		}
	}
	if r.depth != nil && r.depth.command != "" {
		p("%s   # the depth phase in wasm, after the rounds\n", r.show(r.depth.command))
	}
	if r.floors != nil {
		for _, c := range r.floors.commands {
			p("%s   # the floors under the targets, after the depth phase\n", r.show(c))
		}
	}
	if r.page.command != "" {
		p("%s\n", r.page.command)
	}
	p("```\n\n")
	p("- **Rounds.** %d round(s). In each, every native implementation and depth in the bench process is measured in turns (the budget cut into four slices, %v and at most %d samples per implementation, depth and round; the order reversed every other slice), then each child process in turn, idle until asked, measures its cells the same way: the JS API modules and `bench/inwasm` in wasm with %v and at most %d samples, the two native `bench/inwasm` processes (this tree, the baseline) in four alternating turns of a quarter of the native budget each (%v, at most %d samples). The children go in the other order every other round. Every process serves the whole run, so queues keep their state from round to round. Every cell warms up with %d untimed round trips before its first sample.\n",
		r.cfg.rounds, r.cfg.budget, r.cfg.maxRT, r.cfg.nodeBud, r.cfg.nodeMax, r.cfg.budget/4, max(r.cfg.maxRT/4, 1), r.cfg.warmup)
	p("- **One sample** is `enqueue(queue, id, payload)` then `claim(queue, 30000)`, each timed (Go `time.Now`, Node `performance.now`); the round trip is the two together. Every verdict is checked after the clock stops: the enqueue must answer `enqueued`, and the claim must lease the oldest job, so FIFO order is verified on every sample. Every 256 samples the active set is emptied, untimed; claimed rows stay. The Go programs share one loop, `bench/loop`; `bench/wasm_bench.mjs` is the same loop in JS.\n")
	p("- **Pre-fill.** Each queue is first filled to its depth by a Lua loop in chunks of %d (`HSET` the row, `ZADD` the id at score 0: what `@enqueue` writes), on every implementation alike.\n", loop.PrefillChunk)
	p("- **Stock miniredis** runs each script in a new Lua state (`cmd_scripting.go`), and its `ZPOPMIN` sorts the whole sorted set on every call (`sorted_set.go`, `byScore`); the playground's engine keeps miniredis's keyspace, so the claim at depth 10,000 pays that sort on both.\n")
	if r.page.command != "" {
		p("- **Page load.** chromedp starts Chromium with the flags above for each load: one untimed load first, so that Chromium's own files are in the page cache, then every load is a new browser with a new profile. The probe script is installed with `Page.addScriptToEvaluateOnNewDocument`, and chromedp polls it every 20 ms; the times come from the page's clock, not from the polling.\n")
	}
	p("- **Statistics.** Median and p90 over all samples of all rounds (interpolated between ranks). Timings are reported, never asserted.\n")
	for _, n := range r.notes {
		p("- %s\n", n)
	}
	p("\n")
}

func cellStat(s stats) string {
	if s.n == 0 {
		return "—"
	}
	return fmt.Sprintf("%s (%s)", num(s.median), num(s.p90))
}

// num prints microseconds with three significant figures or so.
func num(v float64) string {
	switch {
	case v >= 1000:
		return thousands(int(v + 0.5))
	default:
		return figures(v, 10)
	}
}

// figures prints v with no decimal, one or two as it is at least 10·unit,
// at least unit, or less: about three significant figures either way.
func figures(v, unit float64) string {
	switch {
	case v >= 10*unit:
		return fmt.Sprintf("%.0f", v)
	case v >= unit:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

// mbExact is mb with the exact byte count, for figures near a target.
func mbExact(n int64) string {
	if n <= 0 {
		return mb(n)
	}
	return fmt.Sprintf("%s (%s B)", mb(n), thousands(int(n)))
}

func us(v float64) string { return num(v) + " µs" }

func ms(v float64) string { return fmt.Sprintf("%.0f ms", v) }

func ratio(a, b float64) string {
	if b <= 0 {
		return "—"
	}
	return figures(a/b, 1) + "×"
}

// ratio2 is a ratio with two decimals, for comparisons near 1×.
func ratio2(a, b float64) string {
	if b <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", a/b)
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func metOrNot(ok bool) string {
	if ok {
		return "met"
	}
	return "not met"
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
