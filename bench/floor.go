package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"

	"echomq.dev/playground/web/server"
)

// The floors (issue 11's start-up targets): how soon this headless Chromium,
// on this machine, can run a page's first script, start a worker, start a Go
// program in one, and compile and start our module, each with nothing of
// the playground's page around it. Measured in the same browser start and
// from the same server (web/server, strict CSP) as the course figures, in
// turns with the full page, so a target below a floor is one no page can
// meet here.

// floorPage is one page the floors load: what it does before it says done.
type floorPage struct {
	key    string
	what   string
	page   string // the floor page it loads, floor-<page>.html
	repeat bool   // loaded twice in one browser, the second load timed
}

var floorPages = []floorPage{
	{key: "a", what: "(a) a static page with one module: navigation → the module runs and enables a button"},
	{key: "b", what: "(b) the same page starting an empty dedicated worker: → its first message"},
	{key: "c", what: "(c) the worker compiles (compileStreaming) and runs a hello-world Go program (GOOS=js, `func main() {}`): → it has exited"},
	{key: "d", what: "(d) the worker compiles and instantiates `echomq.wasm` and does not run it: → instantiated"},
	{key: "e", what: "(e) the worker compiles and runs `echomq.wasm`: → `globalThis.echomq` published (package init and `api.Start`, no page)"},
	{key: "g", what: "(g) (e) with GODEBUG=inittrace=1,gctrace=1, for the breakdown below (its console output slows it)"},
	{key: "f", what: "(f) (e) again in the same browser, a repeat visit: every file from the HTTP cache (revalidated: the floors' names carry no hash)", page: "e", repeat: true},
}

// floorHTML is every floor page: one button and one module, no inline
// script (the strict CSP).
const floorHTML = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>floor</title><link rel="icon" href="data:,"></head>
<body><button id="b" disabled>Go</button><script type="module" src="floor.js"></script></body></html>`

// floorJS is the floor pages' module: the page's mode is its file name.
const floorJS = `const mode = location.pathname.match(/floor-(\w)\.html$/)[1];
const t0 = performance.timeOrigin;
const marks = { run: performance.now() };
const done = (extra) => {
  Object.assign(marks, extra);
  document.getElementById("b").disabled = false;
  marks.done = performance.now();
  window.__floor = marks;
};
if (mode === "a") {
  done({});
} else if (mode === "n") {
  // The engine's own download, nothing else: the floor under Ready on a
  // slow link (phone.go).
  fetch("echomq.wasm").then((r) => r.arrayBuffer()).then((b) => done({ bytes: b.byteLength }));
} else {
  const w = new Worker("floor-worker.js");
  w.onmessage = (e) => {
    const m = {};
    for (const [k, v] of Object.entries(e.data)) {
      if (typeof v === "number") m["worker " + k] = v - t0;
    }
    if (e.data.trace) window.__floorTrace = e.data.trace.map(([t, line]) => [t - t0, line]);
    done(m);
  };
  w.postMessage({ mode, exec: new URL("wasm_exec.js", location.href).href,
    wasm: new URL(mode === "c" ? "hello.wasm" : "echomq.wasm", location.href).href });
}`

// floorWorker is the floors' worker: it marks each stage in epoch ms.
const floorWorker = `const now = () => performance.timeOrigin + performance.now();
const marks = { started: now() };
onmessage = async (e) => {
  const { mode, exec, wasm } = e.data;
  if (mode === "b") return postMessage(marks);
  importScripts(exec);
  marks["wasm_exec imported"] = now();
  const go = new Go();
  const response = await fetch(wasm);
  marks["response headers"] = now();
  const module = await WebAssembly.compileStreaming(response);
  marks.compiled = now();
  const instance = await WebAssembly.instantiate(module, go.importObject);
  marks.instantiated = now();
  if (mode === "d") return postMessage(marks);
  // (g) also tells where Go's start goes: GODEBUG's init and GC traces,
  // which wasm_exec.js writes to console.log.
  const lines = [];
  if (mode === "g") {
    go.env = { GODEBUG: "inittrace=1,gctrace=1" };
    const log = console.log;
    console.log = (...a) => { lines.push([now(), a.join(" ")]); log(...a); };
  }
  marks["go.run called"] = now();
  const exited = go.run(instance);
  marks["go.run returned"] = now();
  if (mode === "c") { await exited; marks.exited = now(); return postMessage(marks); }
  // Go's main has made the module when go.run returns: its answer to the
  // bridge's hello is what publish() in worker.js makes globalThis.echomq
  // from (a JS wrapper of no cost worth measuring).
  instance.exports.echomq_hello();
  marks.published = now();
  postMessage({ ...marks, trace: lines });
};`

const floorPoll = `window.__floor || null`

// pollFloor waits for a floor page's marks. A poll that starts while the
// tab is still between documents finds no context to run in; it asks
// again.
func pollFloor(ctx context.Context) (map[string]float64, error) {
	for try := 0; ; try++ {
		got, err := chromedp.Run(ctx, chromedp.Poll[map[string]float64](floorPoll,
			chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0)))
		if err == nil || try == 3 || !strings.Contains(err.Error(), "Cannot find context") {
			return got, err
		}
	}
}

// measureFloors loads each floor page and the full page, loads times each,
// in turns (every load a fresh browser with a fresh profile), and prints
// the medians. BENCHMARKS.md is not touched.
func measureFloors(cfg config, loads int, stdout, stderr io.Writer) error {
	bin, err := needChromium()
	if err != nil {
		return err
	}
	f, err := runFloors(cfg, bin, loads, stepLogger(stderr))
	if err != nil {
		return err
	}
	f.write(func(format string, a ...any) { fmt.Fprintf(stdout, format, a...) })
	return nil
}

// floors are the floors' figures, and the full page's beside them.
type floors struct {
	loads              int
	loadStart, loadEnd string
	done               map[string][]float64            // by floor page: navigation → done
	stages             map[string]map[string][]float64 // by floor page and mark
	step, ready        []float64                       // the full page
	goStart            goStartTrace
}

// runFloors loads each floor page and the full page, loads times each, in
// turns, every load a fresh browser with a fresh profile.
func runFloors(cfg config, bin string, loads int, logf func(string, ...any)) (*floors, error) {
	dir, err := os.MkdirTemp("", "echomq-floor-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := writeFloorSite(cfg, dir, logf); err != nil {
		return nil, err
	}
	floorSite, err := server.New(dir, server.Options{CSP: true})
	if err != nil {
		return nil, err
	}
	defer floorSite.Close()
	site, err := server.New(cfg.static, server.Options{CSP: true})
	if err != nil {
		return nil, err
	}
	defer site.Close()
	mux := http.NewServeMux()
	mux.Handle("/floor/", http.StripPrefix("/floor", floorSite))
	mux.Handle("/", site)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String()

	fl := &floors{loads: loads, loadStart: loadAverage(), done: map[string][]float64{}, stages: map[string]map[string][]float64{}}
	logf("load average %s", fl.loadStart)
	// One untimed load first, as the page-load figures take one.
	browse(bin, func(ctx context.Context, _ string) error { _, err := visit(ctx, base+"/"); return err })
	done, stages, goStart := fl.done, fl.stages, &fl.goStart
	for i := range loads {
		for _, f := range floorPages {
			page := f.page
			if page == "" {
				page = f.key
			}
			err := browse(bin, func(ctx context.Context, _ string) error {
				url := base + "/floor/floor-" + page + ".html"
				if f.repeat {
					if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
						return err
					}
					if _, err := pollFloor(ctx); err != nil {
						return err
					}
					if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
						return err
					}
				}
				if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
					return err
				}
				got, err := pollFloor(ctx)
				if err != nil {
					return err
				}
				if f.key == "g" {
					lines, err := chromedp.Run(ctx, chromedp.Evaluate[[][2]any](`window.__floorTrace || []`))
					if err != nil {
						return err
					}
					goStart.add(lines, got)
					if os.Getenv("FLOOR_DUMP") != "" {
						for _, l := range lines {
							logf("go: %v %v", l[0], l[1])
						}
					}
				}
				done[f.key] = append(done[f.key], got["done"])
				if stages[f.key] == nil {
					stages[f.key] = map[string][]float64{}
				}
				for k, v := range got {
					stages[f.key][k] = append(stages[f.key][k], v)
				}
				logf("load %d, floor %s: done at %.0f ms", i+1, f.key, got["done"])
				return nil
			})
			if err != nil {
				logf("load %d, floor %s: %v", i+1, f.key, err)
			}
		}
		err := browse(bin, func(ctx context.Context, _ string) error {
			got, err := visit(ctx, base+"/")
			if err != nil {
				return err
			}
			fl.step, fl.ready = append(fl.step, got.Step), append(fl.ready, got.Ready)
			logf("load %d, the full page: step %.0f ms, Ready %.0f ms", i+1, got.Step, got.Ready)
			return nil
		})
		if err != nil {
			logf("load %d, the full page: %v", i+1, err)
		}
	}
	fl.loadEnd = loadAverage()
	return fl, nil
}

// write prints the floors as a part of the page-load section.
func (fl *floors) write(p printer) {
	done, stages, loads, step, ready := fl.done, fl.stages, fl.loads, fl.step, fl.ready
	p("### Floors: what this browser on this machine takes with no page around it\n\n")
	p("Headless Chromium (the bench's flags, a fresh profile per load, 1280×4000), `web/server` with the strict CSP on 127.0.0.1, the loads in turns; %d loads each; load average %s at the start, %s at the end. A target below a floor is one no page can meet on this machine.\n\n", loads, fl.loadStart, fl.loadEnd)
	p("| page | navigation → done, median | p90 | loads |\n|---|---:|---:|---:|\n")
	for _, f := range floorPages {
		s := summarize(done[f.key])
		p("| %s | %.0f ms | %.0f ms | %d |\n", f.what, s.median, s.p90, s.n)
	}
	if len(ready) > 0 {
		s, r := summarize(step), summarize(ready)
		p("| the full page (`/`): navigation → the stepper can step | %.0f ms | %.0f ms | %d |\n", s.median, s.p90, s.n)
		p("| the full page (`/`): navigation → Ready | %.0f ms | %.0f ms | %d |\n", r.median, r.p90, r.n)
	}
	p("\nMedians of each stage (ms since navigation; the worker's marks on the page's clock):\n\n")
	for _, f := range floorPages {
		type kv struct {
			k string
			v float64
		}
		var row []kv
		for k, v := range stages[f.key] {
			row = append(row, kv{k, summarize(v).median})
		}
		sort.Slice(row, func(i, j int) bool { return row[i].v < row[j].v })
		p("- %s:", f.key)
		for _, e := range row {
			p(" %s %.0f;", e.k, e.v)
		}
		p("\n")
	}
	fl.goStart.write(p)
}

// goStartTrace sums what GODEBUG=inittrace=1,gctrace=1 said over the
// loads of floor (e): where the Go program's start goes in the browser.
type goStartTrace struct {
	initMs   []float64            // every package's init, summed, per load
	byPkg    map[string][]float64 // one package's init, per load
	gcs      []float64            // garbage collections before echomq was published
	gcMs     []float64            // their wall-clock time, summed (the three phases gctrace prints)
	initEnd  []float64            // when the last init ended, ms after go.run was called
	runToPub []float64            // go.run called → published
}

func (g *goStartTrace) add(lines [][2]any, marks map[string]float64) {
	if g.byPkg == nil {
		g.byPkg = map[string]float64s{}
	}
	call, pub := marks["worker go.run called"], marks["worker published"]
	var initSum, gcs, gcMs, initEnd float64
	seen := map[string]float64{}
	for _, l := range lines {
		at, _ := l[0].(float64)
		text, _ := l[1].(string)
		for _, line := range strings.Split(text, "\n") {
			f := strings.Fields(line)
			switch {
			case len(f) >= 5 && f[0] == "init":
				// init PKG @T ms, D ms clock, B bytes, N allocs
				var d float64
				fmt.Sscan(f[4], &d)
				initSum += d
				seen[f[1]] += d
				initEnd = at - call
			case len(f) >= 5 && f[0] == "gc" && at <= pub:
				// gc N @Ts P%: a+b+c ms clock, ...
				gcs++
				for _, part := range strings.Split(f[4], "+") {
					var v float64
					fmt.Sscan(part, &v)
					gcMs += v
				}
			}
		}
	}
	g.initMs = append(g.initMs, initSum)
	g.gcs = append(g.gcs, gcs)
	g.gcMs = append(g.gcMs, gcMs)
	g.initEnd = append(g.initEnd, initEnd)
	g.runToPub = append(g.runToPub, pub-call)
	for k, v := range seen {
		g.byPkg[k] = append(g.byPkg[k], v)
	}
}

type float64s = []float64

func (g goStartTrace) write(p printer) {
	if len(g.runToPub) == 0 {
		return
	}
	med := func(v []float64) float64 { return summarize(v).median }
	p("\nFloor (g), inside `go.run` (GODEBUG=inittrace=1,gctrace=1, which wasm_exec.js prints; medians of %d loads): go.run called → `globalThis.echomq` published %.0f ms; every package's init summed %.1f ms, the last init done %.0f ms after go.run was called (so `main` up to the publish, `api.Start` and the first keyspace included, about %.0f ms); %.0f garbage collections before the publish, %.1f ms of them.\n",
		len(g.runToPub), med(g.runToPub), med(g.initMs), med(g.initEnd), med(g.runToPub)-med(g.initEnd), med(g.gcs), med(g.gcMs))
	type kv struct {
		k string
		v float64
	}
	var rows []kv
	for k, v := range g.byPkg {
		rows = append(rows, kv{k, med(v)})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].v > rows[j].v })
	p("The slowest inits:")
	for i, r := range rows {
		if i == 8 {
			break
		}
		p(" %s %.2f ms;", r.k, r.v)
	}
	p("\n")
}

// writeFloorSite writes the floor pages into dir, with Go's wasm_exec.js
// and echomq.wasm (and its compressed siblings) from the built site, and
// a hello-world Go program built for js/wasm as the module is.
func writeFloorSite(cfg config, dir string, logf func(string, ...any)) error {
	files := map[string]string{"floor.js": floorJS, "floor-worker.js": floorWorker}
	for _, f := range floorPages {
		files["floor-"+f.key+".html"] = floorHTML
	}
	files["floor-n.html"] = floorHTML // the engine's download alone (phone.go)
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	for _, name := range []string{"wasm_exec.js", "echomq.wasm", "echomq.wasm.br", "echomq.wasm.gz"} {
		b, err := os.ReadFile(filepath.Join(cfg.static, name))
		if err != nil {
			return fmt.Errorf("%w (./build.sh build writes it)", err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			return err
		}
	}
	src := filepath.Join(dir, "hello")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return err
	}
	os.WriteFile(filepath.Join(src, "go.mod"), []byte("module hello\n\ngo 1.24\n"), 0o644)
	os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644)
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(dir, "hello.wasm"), ".")
	build.Dir = src
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOFLAGS=", "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		return fmt.Errorf("build the hello-world module: %v: %s", err, out)
	}
	hello, err := os.ReadFile(filepath.Join(dir, "hello.wasm"))
	if err != nil {
		return err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(hello)
	zw.Close()
	logf("hello.wasm: %d B raw, %d B gzip", len(hello), gz.Len())
	// The sibling must not be older than the original (web/server).
	return os.WriteFile(filepath.Join(dir, "hello.wasm.gz"), gz.Bytes(), 0o644)
}

// ---- a trace of one load ------------------------------------------------

// traceProbe is the course probe, plus a log of the page's messages to and
// from its engine's worker (the method of each call, the type of each
// answer), each with its time since navigation: where Ready's time goes
// between the engine's start and the page's.
const traceProbe = courseProbe + `
(() => {
  if (window.top !== window) return;
  const log = (window.__msgs = []);
  const Real = window.Worker;
  window.Worker = function (...a) {
    const w = new Real(...a);
    const post = w.postMessage.bind(w);
    w.postMessage = (m, ...rest) => {
      log.push([performance.now(), "→ " + (m && m.type) + (m && m.method ? " " + m.method : "")]);
      return post(m, ...rest);
    };
    w.addEventListener("message", (e) => log.push([performance.now(), "← " + (e.data && e.data.type)]));
    return w;
  };
  window.Worker.prototype = Real.prototype;
})();`

// traceCategories are what a CDP trace of the start records: the main
// thread's tasks, user timing marks (the page's echomq:* marks), V8's
// compiles, wasm's compile and tier-up, and the scheduler's waits.
var traceCategories = []string{
	"devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "loading", "toplevel",
	"v8", "v8.wasm", "disabled-by-default-v8.compile", "v8.execute", "blink", "renderer.scheduler",
}

// measureTrace loads the full page once (after one untimed load) with a
// CDP trace running, writes the trace to out (a file chrome://tracing or
// Perfetto opens) and prints the page's marks and its worker messages.
//
// With embeds > 0 it loads a course page with that many embeds (1 or 4,
// the course figures' pages) instead of the full page.
func measureTrace(cfg config, out string, embeds int, stdout, stderr io.Writer) error {
	bin, err := needChromium()
	if err != nil {
		return err
	}
	site, err := server.New(cfg.static, server.Options{CSP: true})
	if err != nil {
		return err
	}
	defer site.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	bs := &benchSite{site: site, course: courseOne}
	url := "http://" + ln.Addr().String() + "/"
	switch embeds {
	case 0:
	case 1:
		url += "course.html"
	case 4:
		bs.course = courseFour
		url += "course.html"
	default:
		return fmt.Errorf("-trace-embeds takes 0, 1 or 4")
	}
	srv := &http.Server{Handler: bs, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	fmt.Fprintf(stderr, "bench: load average %s\n", loadAverage())
	browse(bin, func(ctx context.Context, _ string) error { _, err := visit(ctx, url); return err })

	var mu sync.Mutex
	var events []jsonv2.Value
	complete := make(chan struct{})
	return startBrowser(bin, 2*pageLoadTimeout, traceProbe, func(ctx context.Context, _ string) error {
		chromedp.Listen(ctx, func(ev any) {
			switch ev := ev.(type) {
			case *tracing.EventDataCollected:
				mu.Lock()
				events = append(events, ev.Value...)
				mu.Unlock()
			case *tracing.EventTracingComplete:
				close(complete)
			}
		})
		if _, err := chromedp.Call(ctx, tracing.Start, tracing.StartParams{
			TransferMode: tracing.StartTransferModeReportEvents,
			TraceConfig:  &tracing.TraceConfig{IncludedCategories: traceCategories},
		}); err != nil {
			return fmt.Errorf("start the trace: %w", err)
		}
		got, err := visit(ctx, url)
		if err != nil {
			return err
		}
		marks, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]any](`({
  marks: performance.getEntriesByType("mark").map((m) => [m.startTime, m.name]),
  msgs: window.__msgs || [],
  origin: performance.timeOrigin,
})`))
		if err != nil {
			return err
		}
		time.Sleep(300 * time.Millisecond)
		if _, err := chromedp.Call(ctx, tracing.End, struct{}{}); err != nil {
			return fmt.Errorf("end the trace: %w", err)
		}
		select {
		case <-complete:
		case <-time.After(20 * time.Second):
			return fmt.Errorf("the trace did not complete")
		}
		mu.Lock()
		defer mu.Unlock()
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		defer f.Close()
		fmt.Fprint(f, `{"traceEvents":[`)
		for i, e := range events {
			if i > 0 {
				fmt.Fprint(f, ",\n")
			}
			f.Write(e)
		}
		fmt.Fprint(f, "]}\n")
		fmt.Fprintf(stdout, "step %.0f ms, Ready %.0f ms; %d trace events in %s; timeOrigin %v\n", got.Step, got.Ready, len(events), out, marks["origin"])
		var lines []string
		for _, kind := range []string{"marks", "msgs"} {
			list, _ := marks[kind].([]any)
			for _, m := range list {
				pair, _ := m.([]any)
				if len(pair) == 2 {
					t, _ := pair[0].(float64)
					lines = append(lines, fmt.Sprintf("%8.1f  %s", t, pair[1]))
				}
			}
		}
		sort.Strings(lines)
		fmt.Fprintln(stdout, strings.Join(lines, "\n"))
		return nil
	})
}
