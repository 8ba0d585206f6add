// Command bench measures the playground side by side with its references
// and writes the figures to BENCHMARKS.md:
//
//	go run ./bench [-out BENCHMARKS.md] [-static static] [-quick]
//
// (./build.sh bench builds static/ first, then runs exactly this.)
//
// In one run it measures
//   - the size of static/echomq.wasm: raw, gzip -9 and brotli -q 11;
//   - the latency of enqueue, claim and the enqueue+claim round trip at
//     queue depths 10 and 10,000, for the playground (natively, and in wasm
//     under Node through the JS API) and for two references: stock
//     miniredis running the same scripts with its own EVAL (natively, over
//     TCP, and in wasm) and a real redis-server 7 over loopback;
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
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "bench:", err)
		}
		os.Exit(1)
	}
}

// config is what one run measures and how hard.
type config struct {
	root    string // module root: every default path hangs off it
	static  string
	out     string
	quick   bool
	args    []string // the flags as given, for the report
	depths  []int
	rounds  int
	warmup  int           // untimed round trips per cell before measuring
	budget  time.Duration // per cell and round, native
	maxRT   int           // samples per cell and round, native
	nodeBud time.Duration // per cell and round, in Node
	nodeMax int           // samples per cell and round, in Node
	loads   int           // page loads in Chromium
}

func run(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("bench", flag.ContinueOnError)
	fl.SetOutput(stderr)
	out := fl.String("out", "", "where to write the report (default BENCHMARKS.md at the module root)")
	static := fl.String("static", "", "the built site holding echomq.wasm and wasm_exec.js (default static/ at the module root)")
	quick := fl.Bool("quick", false, "a short run: fewer rounds and samples, for trying the program out")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fl.Args())
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	cfg := config{root: root, static: *static, out: *out, quick: *quick, args: args, depths: []int{10, 10000}}
	if cfg.static == "" {
		cfg.static = filepath.Join(root, "static")
	}
	if cfg.out == "" {
		cfg.out = filepath.Join(root, "BENCHMARKS.md")
	}
	if cfg.static, err = filepath.Abs(cfg.static); err != nil {
		return err
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
	return measure(cfg, stdout, stderr)
}

// measure runs every measurement, prints the report and writes it.
func measure(cfg config, stdout, stderr io.Writer) error {
	began := time.Now()
	logf := func(format string, a ...any) {
		fmt.Fprintf(stderr, "bench: [%5.1fs] %s\n", time.Since(began).Seconds(), fmt.Sprintf(format, a...))
	}
	tmp, err := os.MkdirTemp("", "echomq-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	rep := &report{cfg: cfg}
	rep.machine = describeMachine(cfg.root)
	logf("machine: %s, %d cores, load %s", rep.machine.cpu, rep.machine.cores, rep.machine.loadStart)

	wasmPath := filepath.Join(cfg.static, "echomq.wasm")
	if _, err := os.Stat(wasmPath); err != nil {
		return fmt.Errorf("%s: %w (build the site first: ./build.sh build)", wasmPath, err)
	}
	// Brotli -q 11 is slow (tens of seconds) and timed by nobody: it runs
	// beside everything that comes before the first timed sample (the
	// reference build, starting the servers, filling the queues, warming
	// up), and the rounds wait for it.
	sizeDone := make(chan wasmSize, 1)
	go func() { sizeDone <- measureSize(relTo(cfg.root, wasmPath)+" (the playground)", wasmPath, true) }()
	logf("compressing %s (brotli -q 11, in the background)", relTo(cfg.root, wasmPath))

	logf("building the stock-miniredis wasm reference (bench/stockwasm)")
	stockWasm := filepath.Join(tmp, "stock.wasm")
	if err := buildStockWasm(cfg.root, stockWasm); err != nil {
		rep.notes = append(rep.notes, "stock miniredis in wasm: not measured, the build failed: "+firstLine(err.Error()))
		logf("stock wasm build failed: %v", err)
		stockWasm = ""
	}

	backends, closeAll, notes := openBackends(logf)
	defer closeAll()
	rep.notes = append(rep.notes, notes...)
	rep.redisVersion = redisVersionOf(backends)

	cells := newCells(backends, cfg.depths)
	logf("native: filling the queues and warming up")
	if err := prefillNative(cells); err != nil {
		return err
	}
	if err := nativeWarmup(cells, cfg); err != nil {
		return err
	}
	node := &nodeRunner{cfg: cfg, wasm: wasmPath, stockWasm: stockWasm, logf: logf}
	defer node.stop()
	nodeCells := map[string]*cell{}
	logf("starting Node: both wasm modules, queues filled to depth, warm-up")
	nodeOK := true
	if err := node.start(nodeCells); err != nil {
		rep.notes = append(rep.notes, "wasm under Node: not measured: "+firstLine(err.Error()))
		logf("node: %v", err)
		nodeOK = false
	}

	rep.sizes = append(rep.sizes, <-sizeDone)
	if stockWasm != "" {
		rep.sizes = append(rep.sizes, measureSize("bench/stockwasm (stock miniredis EVAL, for scale)", stockWasm, false))
	}
	if fi, err := os.Stat(wasmPath + ".br"); err == nil {
		rep.shippedBr = fi.Size()
	}
	logf("size: %s raw, %s brotli", mb(rep.sizes[0].raw), mb(rep.sizes[0].brotli))

	for r := 1; r <= cfg.rounds; r++ {
		logf("round %d/%d: native (%d implementations × %d depths)", r, cfg.rounds, len(backends), len(cfg.depths))
		if err := nativeRound(cells, cfg); err != nil {
			return err
		}
		if !nodeOK {
			continue
		}
		logf("round %d/%d: wasm under Node", r, cfg.rounds)
		if err := node.round(nodeCells); err != nil {
			rep.notes = append(rep.notes, fmt.Sprintf("wasm under Node: round %d failed, the rounds before it stand: %s", r, firstLine(err.Error())))
			logf("node round failed: %v", err)
			nodeOK = false
		}
	}
	if nodeOK {
		if err := node.finish(); err != nil {
			rep.notes = append(rep.notes, "wasm under Node: the end of the run failed: "+firstLine(err.Error()))
			logf("node: %v", err)
		}
	}
	node.stop()
	rep.node = node.info
	for _, c := range nodeCells {
		if len(c.rt) > 0 {
			cells = append(cells, c)
		}
	}
	rep.cells = cells

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

// buildStockWasm compiles bench/stockwasm for js/wasm into out, with the
// flags the playground's own module is built with.
func buildStockWasm(root, out string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, "./bench/stockwasm")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v: %s", err, b)
	}
	return nil
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
