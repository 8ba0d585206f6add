// Command bench measures the playground side by side with its references
// and writes the figures to BENCHMARKS.md:
//
//	go run ./bench [-out BENCHMARKS.md] [-static static] [-baseline REV] [-quick]
//
// (./build.sh bench builds static/ first, then runs exactly this.)
//
// In one run it measures
//   - the size of static/echomq.wasm: raw, gzip -9 and brotli -q 11;
//   - the latency of enqueue, claim and the enqueue+claim round trip at
//     queue depths 10 and 10,000: through the JS API in wasm under Node
//     (bench/wasm_bench.mjs, what a page pays, bridge included); inside a
//     Go program in wasm under Node, with no bridge (bench/inwasm: the
//     engine, the JS API's Go side, and stock miniredis's own EVAL); and
//     natively in this process (the engine, the JS API's Go side, stock
//     miniredis in-process and over TCP, and a real redis-server 7 over
//     loopback);
//   - the same JS-API round trip for an older revision (-baseline, built
//     from a temporary git worktree) in the same Node process, and that
//     revision's engine natively beside the current one;
//   - at depth (bench/depth, bench/depth_bench.mjs): enqueue, claim and a
//     bounded ZRANGE at 10 to 100,000 pending jobs, script throughput,
//     one script of 100,000 SETs, one popping 1,000 of 10,000, draining
//     10,000 jobs and the memory of 100,000: in wasm through the JS API,
//     natively over api.Call, and on the redis-server;
//   - the floors under the two targets still unmet (bench/depfloor): the
//     100,000 SETs' and the round trip's parts in miniredis, gopher-lua and
//     Go alone, and in the engine with part of the work left out, in wasm
//     and natively;
//   - what each of the engine's shortcuts buys (bench/shortcuts): the round
//     trip and the 100,000 SETs with the engine as it ships, the reference
//     engine (every cache and fast path off) and each shortcut alone off,
//     in wasm and natively;
//   - the time from navigation to a ready page in headless Chromium, when
//     that can be measured.
//
// The machines this runs on are small and shared, so every figure is a
// median over many samples, the implementations are measured in turns
// (round after round) rather than one after the other, and timings are
// only ever reported, never asserted.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"echomq.dev/playground/internal/cmdline"
	"echomq.dev/playground/wasm/api"
)

func main() {
	cmdline.Main("bench", 1, run)
}

// config is what one run measures and how hard.
type config struct {
	root     string // module root: every default path hangs off it
	static   string
	out      string
	baseline string // the revision to compare with, "" for none
	quick    bool
	args     []string // the flags as given, for the report
	depths   []int
	rounds   int
	warmup   int           // untimed round trips per cell before measuring
	budget   time.Duration // per cell and round, native
	maxRT    int           // samples per cell and round, native
	nodeBud  time.Duration // per cell and round, in wasm
	nodeMax  int           // samples per cell and round, in wasm
	loads    int           // page loads in Chromium
}

// defaultBaseline is where this round of issues started (9 to 14: Lua off
// the lesson's path, the engine at scale, course pages...): issue 9 holds
// the JS-API round trip to within 10% of it.
const defaultBaseline = "53adadf"

func run(args []string, stdout, stderr io.Writer) error {
	fl := cmdline.Flags("bench", stderr)
	out := fl.String("out", "", "where to write the report (default BENCHMARKS.md at the module root)")
	static := fl.String("static", "", "the built site holding echomq.wasm and wasm_exec.js (default static/ at the module root)")
	baseline := fl.String("baseline", defaultBaseline, `the revision to compare the current tree with, built from a temporary git worktree ("" for none)`)
	quick := fl.Bool("quick", false, "a short run: fewer rounds and samples, for trying the program out")
	courseOnly := fl.Int("course", 0, "measure only the course-page loads (full page, repeat visit, embeds), this many times each, and print them; BENCHMARKS.md is left alone. With -static OLD,NEW (sites built apart), each load is taken from every site in turn and the medians compared")
	floor := fl.Int("floor", 0, "measure only the floors (a bare page, a worker, a hello-world Go module, our module alone) and the full page, this many loads each, in turns, and print them; BENCHMARKS.md is left alone")
	trace := fl.String("trace", "", "load the full page once with a CDP trace running, write the trace to this file and print the page's marks and worker messages; BENCHMARKS.md is left alone")
	phone := fl.Int("phone", 0, "measure only the phone-like profile (CPU 4x, 1.6 Mbit/s, 150 ms): the full page beside a one-module page and the engine's download alone, this many loads each, and print them; BENCHMARKS.md is left alone")
	warm := fl.Int("warm", 0, "measure only the warm visits (the full page cold, then in a second browser with the same profile: V8's code cache), this many pairs, and print them; BENCHMARKS.md is left alone")
	twenty := fl.Bool("twenty", false, "measure only the course page with 20 embeds (one engine, the far ones waiting) and print it; BENCHMARKS.md is left alone")
	traceEmbeds := fl.Int("trace-embeds", 0, "with -trace: load a course page with this many embeds (1 or 4) instead of the full page")
	if err := cmdline.Parse(fl, args); err != nil {
		return err
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	cfg := config{root: root, static: *static, out: *out, baseline: *baseline, quick: *quick, args: args, depths: []int{10, 10000}}
	if cfg.static == "" {
		cfg.static = filepath.Join(root, "static")
	}
	if cfg.out == "" {
		cfg.out = filepath.Join(root, "BENCHMARKS.md")
	}
	var sites []string
	for _, dir := range strings.Split(cfg.static, ",") {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return err
		}
		sites = append(sites, abs)
	}
	cfg.static = sites[0]
	if len(sites) > 1 && *courseOnly == 0 && *phone == 0 {
		return fmt.Errorf("-static takes several sites only with -course or -phone")
	}
	if cfg.out, err = filepath.Abs(cfg.out); err != nil {
		return err
	}
	if cfg.quick {
		cfg.rounds, cfg.warmup = 1, 100
		cfg.budget, cfg.maxRT = 300*time.Millisecond, 500
		cfg.nodeBud, cfg.nodeMax = 400*time.Millisecond, 300
		cfg.loads = 2
	} else {
		cfg.rounds, cfg.warmup = 3, 300
		cfg.budget, cfg.maxRT = 1000*time.Millisecond, 1500
		cfg.nodeBud, cfg.nodeMax = 1600*time.Millisecond, 800
		cfg.loads = 5
	}
	if *trace != "" {
		return measureTrace(cfg, *trace, *traceEmbeds, stdout, stderr)
	}
	if *twenty {
		return measureTwentyOnly(cfg, stdout, stderr)
	}
	if *phone > 0 {
		return measurePhoneOnly(cfg, sites, *phone, stdout, stderr)
	}
	if *warm > 0 {
		return measureWarmOnly(cfg, *warm, stdout, stderr)
	}
	if *floor > 0 {
		return measureFloors(cfg, *floor, stdout, stderr)
	}
	if *courseOnly > 0 {
		return measureCourseOnly(cfg, sites, *courseOnly, stdout, stderr)
	}
	return measure(cfg, stdout, stderr)
}

// Child roles, in the order they start.
const (
	roleJS         = "js"          // bench/wasm_bench.mjs: the JS API, current and baseline
	roleInWasm     = "inwasm"      // bench/inwasm as wasm under Node
	roleNative     = "native"      // bench/inwasm natively, from this tree
	roleBaseNative = "base-native" // bench/inwasm natively, from the baseline's worktree
)

// measure runs every measurement, prints the report and writes it.
func measure(cfg config, stdout, stderr io.Writer) error {
	began := time.Now()
	logf := stepLogger(stderr)
	tmp, err := os.MkdirTemp("", "echomq-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	rep := &report{cfg: cfg, tmp: tmp, cells: cellSet{}, children: map[string]*child{}}
	rep.machine = describeMachine(cfg.root)
	logf("machine: %s, %d cores, load %s", rep.machine.cpu, rep.machine.cores, rep.machine.loadStart)

	wasmPath := filepath.Join(cfg.static, "echomq.wasm")
	if _, err := os.Stat(wasmPath); err != nil {
		return fmt.Errorf("%s: %w (build the site first: ./build.sh build)", wasmPath, err)
	}
	// Brotli -q 11 is slow (tens of seconds) and timed by nobody: it runs
	// beside everything that comes before the first timed sample (the
	// builds, starting the servers and the children, filling the queues,
	// warming up), and the rounds wait for it.
	sizeDone := make(chan wasmSize, 1)
	go func() { sizeDone <- measureSize(relTo(cfg.root, wasmPath)+" (the playground)", wasmPath, true) }()
	logf("compressing %s (brotli -q 11, in the background)", relTo(cfg.root, wasmPath))

	bl := buildAll(cfg, tmp, logf)
	rep.builds = bl
	rep.notes = append(rep.notes, bl.notes...)

	backends, closeAll, notes := openBackends(logf)
	defer closeAll()
	rep.notes = append(rep.notes, notes...)
	rep.redisVersion = redisVersionOf(backends)

	native := nativeCells(backends, cfg.depths)
	logf("native: filling the queues and warming up")
	if err := nativePrepare(native, cfg.warmup); err != nil {
		return err
	}

	// The children, each filled and warm before the next starts.
	depths := make([]string, len(cfg.depths))
	for i, d := range cfg.depths {
		depths[i] = strconv.Itoa(d)
	}
	loopArgs := func(budget time.Duration, samples int) []string {
		return []string{"-depths", strings.Join(depths, ","), "-budget", budget.String(),
			"-max", strconv.Itoa(samples), "-warmup", strconv.Itoa(cfg.warmup), "-rounds", "stdin"}
	}
	// The children take turns in groups: a group's children alternate
	// within each round, turns times (A B B A ...), each turn a share of
	// the budget; the groups follow one another.
	type group struct {
		children []*child
		turns    int
	}
	var groups []*group
	launch := func(g *group, role, what string, argv, env []string, keys map[string]string) {
		logf("starting %s: %s", role, what)
		t0 := time.Now()
		c, err := startChild(what, cfg.root, argv, env, keys, rep.cells)
		rep.children[role] = c
		if err != nil {
			rep.notes = append(rep.notes, fmt.Sprintf("%s: not measured: %s", what, firstLine(err.Error())))
			logf("%s: %v", role, err)
			return
		}
		logf("%s: filled and warm in %.1fs", role, time.Since(t0).Seconds())
		if g == nil {
			g = &group{turns: 1}
		}
		if len(g.children) == 0 {
			groups = append(groups, g)
		}
		g.children = append(g.children, c)
	}

	jsArgs := []string{"node", filepath.Join(cfg.root, "bench", "wasm_bench.mjs"),
		"--wasm-exec", filepath.Join(cfg.static, "wasm_exec.js"),
		"--target", "echomq=" + wasmPath}
	jsKeys := map[string]string{"echomq": keyWasm}
	if bl.baseWasm != "" {
		jsArgs = append(jsArgs, "--target", "echomq_base="+bl.baseWasm)
		jsKeys["echomq_base"] = keyWasmBase
	}
	jsArgs = append(jsArgs, "--depths", strings.Join(depths, ","),
		"--budget-ms", strconv.FormatInt(cfg.nodeBud.Milliseconds(), 10),
		"--max-samples", strconv.Itoa(cfg.nodeMax),
		"--warmup", strconv.Itoa(cfg.warmup), "--rounds", "stdin")
	launch(nil, roleJS, "the JS API in wasm under Node (bench/wasm_bench.mjs)", jsArgs, nil, jsKeys)

	if bl.inwasm != "" {
		if execPath, err := wasmExecRunner(); err != nil {
			rep.notes = append(rep.notes, "the rows measured inside wasm: not measured: "+err.Error())
		} else {
			argv := append([]string{execPath, bl.inwasm, "-impl", "api,engine,stock"}, loopArgs(cfg.nodeBud, cfg.nodeMax)...)
			// The module runs at api.GCPercent (api.NewModule sets it);
			// bench/inwasm calls api.New, not NewModule, so it is given
			// the same GOGC here, or its rows would collect twice as often
			// as the JS API row they are compared with.
			gogc := []string{"GOGC=" + strconv.Itoa(api.GCPercent)}
			launch(nil, roleInWasm, "bench/inwasm in wasm under Node", argv, gogc,
				map[string]string{"api": keyWasmAPI, "engine": keyWasmEngine, "stock": keyStockWasm})
		}
	}
	if bl.baseNative != "" && bl.native != "" {
		// Two processes, one per tree: they alternate in four turns per
		// round, each a quarter of the native budget (report.go says so).
		const turns = 4
		pair := &group{turns: turns}
		args := loopArgs(cfg.budget/turns, max(cfg.maxRT/turns, 1))
		argv := append([]string{bl.native, "-impl", "engine,api"}, args...)
		launch(pair, roleNative, "bench/inwasm natively, this tree", argv, nil,
			map[string]string{"engine": keyNativeProc, "api": keyNativeProcAPI})
		argv = append([]string{bl.baseNative, "-impl", "engine,api"}, args...)
		launch(pair, roleBaseNative, "bench/inwasm natively, baseline "+bl.baseShort, argv, nil,
			map[string]string{"engine": keyNativeBase, "api": keyNativeBaseAPI})
	}
	defer func() {
		for _, c := range rep.children {
			c.stop()
		}
	}()

	rep.sizes = append(rep.sizes, <-sizeDone)
	if bl.baseWasm != "" {
		rep.sizes = append(rep.sizes, measureSize(fmt.Sprintf("static wasm at %s (the baseline, with the current `wasm/main_js.go`)", bl.baseShort), bl.baseWasm, false))
	}
	if fi, err := os.Stat(wasmPath + ".br"); err == nil {
		rep.shippedBr = fi.Size()
	}
	logf("size: %s raw, %s brotli", mb(rep.sizes[0].raw), mb(rep.sizes[0].brotli))

	for r := 1; r <= cfg.rounds; r++ {
		logf("round %d/%d: native, this process (%d implementations × %d depths)", r, cfg.rounds, len(backends), len(cfg.depths))
		if err := nativeRound(native, rep.cells, cfg); err != nil {
			return err
		}
		// The groups take turns, in the other order every other round.
		turn := append([]*group(nil), groups...)
		if r%2 == 0 {
			slices.Reverse(turn)
		}
		for _, g := range turn {
			for t := range g.turns {
				kids := append([]*child(nil), g.children...)
				if (t+r)%2 == 0 {
					slices.Reverse(kids)
				}
				for _, c := range kids {
					if !c.ok {
						continue
					}
					if t == 0 {
						logf("round %d/%d: %s", r, cfg.rounds, c.name)
					}
					if err := c.round(rep.cells); err != nil {
						rep.notes = append(rep.notes, fmt.Sprintf("%s: round %d failed, the rounds before it stand: %s", c.name, r, firstLine(err.Error())))
						logf("%s: %v", c.name, err)
						c.ok = false
						c.stop()
					}
				}
			}
		}
		rep.cells.endRound()
	}
	for _, c := range rep.children {
		if !c.ok {
			continue
		}
		if err := c.finish(); err != nil {
			rep.notes = append(rep.notes, fmt.Sprintf("%s: the end of the run failed: %s", c.name, firstLine(err.Error())))
			logf("%s: %v", c.name, err)
		}
	}

	// The depth phase runs once the children are done, so nothing else
	// runs beside it.
	for _, c := range rep.children {
		c.stop()
	}
	logf("at depth: the curve to 100,000 jobs, script throughput, memory, drains")
	rep.depth = measureDepth(cfg, backends, logf)
	logf("the floors under the targets: bench/depfloor in wasm, then natively")
	rep.floors = measureDepFloors(cfg, bl, logf)
	logf("what each shortcut buys: bench/shortcuts in wasm, then natively")
	rep.shortcuts = measureShortcuts(cfg, bl, logf)

	logf("page load in headless Chromium")
	rep.page = measurePageLoad(cfg, logf)

	rep.machine.loadEnd = loadAverage()
	rep.elapsed = time.Since(began)
	text := rep.markdown()
	fmt.Fprint(stdout, text)
	if err := os.WriteFile(cfg.out, []byte(text), 0o644); err != nil {
		return err
	}
	logf("wrote %s", cfg.out)
	return nil
}

// wasmExecRunner is Go's script that runs a js/wasm program under Node.
func wasmExecRunner() (string, error) {
	if _, err := exec.LookPath("node"); err != nil {
		return "", fmt.Errorf("node is not installed (apt-get install nodejs)")
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOROOT: %w", err)
	}
	goroot := strings.TrimSpace(string(out))
	for _, dir := range []string{"lib/wasm", "misc/wasm"} {
		p := filepath.Join(goroot, dir, "go_js_wasm_exec")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("go_js_wasm_exec not found under %s/lib/wasm", goroot)
}

// moduleRoot is the directory of the go.mod governing the working
// directory, as the go command sees it.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("not inside a Go module: run from the repository (go run ./bench)")
	}
	return filepath.Dir(gomod), nil
}

// relTo shows path relative to root when it lies inside it.
func relTo(root, path string) string {
	if p, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(p, "..") {
		return p
	}
	return path
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
