package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// rtTarget is the playground's latency budget: one enqueue+claim round trip
// through the JS API in wasm, median, at depth 10.
const rtTarget = 100.0 // µs

// report is everything one run found, ready to print.
type report struct {
	cfg          config
	elapsed      time.Duration
	machine      machine
	redisVersion string
	sizes        []wasmSize
	shippedBr    int64 // static/echomq.wasm.br as the build wrote it, 0 if absent
	cells        []*cell
	node         nodeInfo
	page         pageLoad
	notes        []string
}

func (r *report) find(key string, depth int) *cell {
	for _, c := range r.cells {
		if c.key == key && c.depth == depth && len(c.rt) > 0 {
			return c
		}
	}
	return nil
}

func (r *report) rel(path string) string { return relTo(r.cfg.root, path) }

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
	for _, d := range r.cfg.depths {
		r.latencySection(p, d)
	}
	r.floorSection(p)
	r.pageSection(p)
	r.methodSection(p)
	return b.String()
}

type printer func(format string, a ...any)

func (r *report) summary(p printer) {
	p("## Summary\n\n")
	if len(r.sizes) > 0 {
		s := r.sizes[0]
		verdict := "not measured"
		if s.brotli > 0 {
			verdict = metOrNot(float64(s.brotli) <= sizeTarget)
		}
		p("- **wasm size:** %s brotli (%s raw, %s gzip); target ≤ 2.00 MB (%s B) brotli: **%s**.\n", mbExact(s.brotli), mb(s.raw), mb(s.gzip), thousands(sizeTarget), verdict)
	}
	if w := r.find(keyWasm, 10); w != nil {
		m := summarize(w.rt).median
		p("- **round trip through the JS API in wasm, depth 10:** %s median; target ≤ %.0f µs: **%s**.", us(m), rtTarget, metOrNot(m <= rtTarget))
		if ref := r.find(keyRedis, 10); ref != nil {
			p(" That is %s real Redis", ratio(m, summarize(ref.rt).median))
		}
		if ref := r.find(keyStockWasm, 10); ref != nil {
			p(" and %s stock miniredis EVAL in wasm", ratio(m, summarize(ref.rt).median))
		}
		p(".\n")
	}
	if n := r.find(keyNative, 10); n != nil {
		m := summarize(n.rt).median
		p("- **round trip, native, depth 10:** %s median", us(m))
		if ref := r.find(keyRedis, 10); ref != nil {
			p(" = %s real Redis over loopback", ratio(m, summarize(ref.rt).median))
		}
		if ref := r.find(keyStockNative, 10); ref != nil {
			p(", %s stock miniredis EVAL in-process", ratio(m, summarize(ref.rt).median))
		}
		p(".\n")
	}
	if w, a := r.find(keyWasm, 10), r.find(keyNativeAPI, 10); w != nil && a != nil {
		wm, am := summarize(w.rt).median, summarize(a.rt).median
		p("- **where the wasm time goes, depth 10:** the same two JS API calls cost %s natively (`api.Call`, results marshalled) and %s in wasm, %s", us(am), us(wm), ratio(wm, am))
		if f := r.node.floors[keyStockWasm]; f != nil && len(f.samples) > 0 {
			p("; crossing from JS into Go and back is %s of that per call (an empty `js.FuncOf`)", us(summarize(f.samples).median))
		}
		p(".\n")
	}
	if w := r.find(keyWasm, 10000); w != nil {
		m := summarize(w.rt).median
		p("- **round trip through the JS API in wasm, depth 10,000:** %s median", us(m))
		if ref := r.find(keyRedis, 10000); ref != nil {
			p(" = %s real Redis", ratio(m, summarize(ref.rt).median))
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
	row("Node", strings.TrimSpace(m.node+" (V8 "+r.node.v8+")"))
	rv := m.redis
	if r.redisVersion != "" {
		rv = fmt.Sprintf("%s (INFO says %s)", m.redis, r.redisVersion)
	}
	row("redis-server", rv)
	row("Chromium", m.chromium)
	row("brotli", m.brotli)
	row("commit", m.commit)
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
			target = "≤ 2.00 MB: " + metOrNot(s.brotli > 0 && float64(s.brotli) <= sizeTarget)
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
	p("\ngzip is Go's `compress/gzip` at level 9; brotli is `brotli -q 11 -c`. MB = 10⁶ bytes.\n\n")
}

func (r *report) latencySection(p printer, depth int) {
	p("## Latency at queue depth %s\n\n", thousands(depth))
	p("Median (p90) per operation, in µs. The pending set holds %s jobs throughout: a sample is one enqueue and then one claim, each timed, and the round trip is the two together. *Samples* counts them over all rounds; *ops* counts every enqueue and claim the cell ran, warm-up included.\n\n", thousands(depth))
	p("| implementation | enqueue | claim | round trip | round trip vs real Redis | vs stock EVAL, same platform | samples | ops |\n")
	p("|---|---:|---:|---:|---:|---:|---:|---:|\n")
	ref := r.find(keyRedis, depth)
	for _, key := range backendOrder {
		c := r.find(key, depth)
		if c == nil {
			p("| %s | not measured | | | | | | |\n", backendLabels[key])
			continue
		}
		e, cl, rt := summarize(c.enqueue), summarize(c.claim), summarize(c.rt)
		vsRedis, vsStock := "—", "—"
		if ref != nil && key != keyRedis {
			vsRedis = ratio(rt.median, summarize(ref.rt).median)
		}
		stockKey := map[string]string{keyWasm: keyStockWasm, keyNativeAPI: keyStockNative, keyNative: keyStockNative}[key]
		if s := r.find(stockKey, depth); s != nil {
			vsStock = ratio(rt.median, summarize(s.rt).median)
		}
		p("| %s | %s | %s | %s | %s | %s | %s | %s |\n",
			backendLabels[key], cellStat(e), cellStat(cl), cellStat(rt), vsRedis, vsStock, thousands(rt.n), thousands(2*(rt.n+c.warmup)))
	}
	p("\n")
}

func (r *report) floorSection(p printer) {
	if len(r.node.floors) == 0 {
		return
	}
	p("## The cost of a call into wasm\n\n")
	p("Every JS API call crosses from JS into the Go program and back. The cheapest call of each module, timed the same way as the operations:\n\n")
	p("| module | call | median | p90 | samples |\n|---|---|---:|---:|---:|\n")
	keys := make([]string, 0, len(r.node.floors))
	for k := range r.node.floors {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		f := r.node.floors[k]
		s := summarize(f.samples)
		what := map[string]string{keyWasm: "static/echomq.wasm (JS API: argument checks, JSON out)", keyStockWasm: "bench/stockwasm (an empty `js.FuncOf`)"}[k]
		p("| %s | `%s` | %s | %s | %d |\n", what, f.call, us(s.median), us(s.p90), s.n)
	}
	if st := r.node.startMs[keyWasm]; st > 0 {
		p("\nInstantiating and starting `static/echomq.wasm` in Node (compile, `go.run`, `globalThis.echomq` published) took %s, once, while `brotli` ran beside it.\n", ms(st))
	}
	p("\n")
}

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
}

func (r *report) methodSection(p printer) {
	p("## How it was measured\n\n")
	p("The commands (paths relative to the repository; `$TMP` is a temporary directory the run removes):\n\n```sh\n")
	p("./build.sh bench     # builds static/, then runs:\n")
	p("%s\n", strings.TrimSpace("go run ./bench "+strings.Join(r.cfg.args, " ")))
	p("# which runs:\n")
	p("brotli -q 11 -c %s   # size, in the background until the first timed sample; gzip -9 is computed in Go\n", r.rel(filepath.Join(r.cfg.static, "echomq.wasm")))
	p("GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o $TMP/stock.wasm ./bench/stockwasm\n")
	p("redis-server --bind 127.0.0.1 --port <free port> --save '' --appendonly no   # via internal/redisserver\n")
	if r.node.command != "" {
		cmd := r.node.command
		cmd = strings.ReplaceAll(cmd, r.cfg.root+string(filepath.Separator), "")
		if i := strings.Index(cmd, "stockmq="); i >= 0 {
			end := strings.Index(cmd[i:], " ")
			if end < 0 {
				end = len(cmd) - i
			}
			cmd = cmd[:i] + "stockmq=$TMP/stock.wasm" + cmd[i+end:]
		}
		p("%s   # one process; a line on stdin starts each round\n", cmd)
	}
	if r.page.command != "" {
		p("%s\n", r.page.command)
	}
	p("```\n\n")
	p("- **Rounds.** %d round(s). In each, every native implementation and depth is measured in turns (the budget cut into four slices, %v and at most %d samples per implementation, depth and round), then the Node process, idle until asked, measures both wasm modules the same way (%v, at most %d samples). One Go process and one Node process serve the whole run, so queues keep their state from round to round. Every cell warms up with %d untimed round trips before its first sample.\n",
		r.cfg.rounds, r.cfg.budget, r.cfg.maxRT, r.cfg.nodeBud, r.cfg.nodeMax, r.cfg.warmup)
	p("- **One sample** is `enqueue(queue, id, payload)` then `claim(queue, 30000)`, each timed (Go `time.Now`, Node `performance.now`); the round trip is the two together. Every verdict is checked after the clock stops: the enqueue must answer `enqueued`, and the claim must lease the oldest job, so FIFO order is verified on every sample. Every 256 samples the active set is emptied, untimed; claimed rows stay.\n")
	p("- **Pre-fill.** Each queue is first filled to its depth by a Lua loop in chunks of %d (`HSET` the row, `ZADD` the id at score 0: what `@enqueue` writes), on every implementation alike.\n", prefillChunk)
	p("- **Same path everywhere.** Native rows go through `emq.Jobs` and its `Connector` (EVALSHA, EVAL on NOSCRIPT) over each server: the playground's engine, stock miniredis in-process (`Server().Dispatch`, as the engine sends commands), stock miniredis over TCP (`miniredis.Run()` and the `redisnet` client), and a real `redis-server` over loopback (`redisnet`). A claim is two commands on each of them: `EXISTS` on the pause flag, then the `@claim` script; an enqueue is one. The wasm rows call `globalThis.echomq` (the JS API: argument checks, the handles, JSON results with the wire exchanges) and `globalThis.stockmq` (`bench/stockwasm`: the same handles over stock miniredis, small plain results).\n")
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
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
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
	x := a / b
	switch {
	case x >= 10:
		return fmt.Sprintf("%.0f×", x)
	case x >= 1:
		return fmt.Sprintf("%.1f×", x)
	default:
		return fmt.Sprintf("%.2f×", x)
	}
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
