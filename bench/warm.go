package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/chromedp/chromedp"

	"echomq.dev/playground/web/server"
)

// The warm visit (issue 24): V8 keeps the code it compiled for a
// WebAssembly module that came from compileStreaming of a cacheable
// application/wasm response, in the profile's "Code Cache/wasm", and a
// later visit that gets the same response from the HTTP cache
// deserializes that code instead of compiling it. It needs a profile that
// outlives the browser: each load here is two browsers, one after the
// other, in one --user-data-dir kept between them.

// warmLoads are the cold and warm visits of the full page, in pairs.
type warmLoads struct {
	coldCompile, warmCompile []float64 // the page's echomq:fetch → echomq:compiled
	coldReady, warmReady     []float64 // navigation → Ready
	cacheAfterCold           []int64   // bytes under Code Cache/wasm once the first browser closed
	cacheAfterWarm           []int64   // and after the second
	note                     string
}

// warmProbe notes the page's compile marks and Ready, as ms since navigation.
const warmPoll = `(() => {
  const s = document.getElementById("status");
  if (!s || s.textContent !== "Ready") return null;
  const m = (n) => { const e = performance.getEntriesByName(n, "mark"); return e.length ? e[e.length - 1].startTime : -1; };
  return { ready: m("echomq:ready"), fetch: m("echomq:fetch"), compiled: m("echomq:compiled") };
})()`

type warmPolled struct {
	Ready    float64 `json:"ready"`
	Fetch    float64 `json:"fetch"`
	Compiled float64 `json:"compiled"`
}

// warmLinger is how long the first visit stays on the page after Ready:
// V8 writes the cache from a task it posts after the module's last
// optimised function, 2 s by default.
const warmLinger = 5 * time.Second

// measureWarm loads the full page cold and then warm, loads times, each
// pair in a profile of its own that both browsers use.
func measureWarm(cfg config, bin string, loads int, logf func(string, ...any)) warmLoads {
	var w warmLoads
	h, err := server.New(cfg.static, server.Options{CSP: true})
	if err != nil {
		w.note = "not measured: " + err.Error()
		return w
	}
	defer h.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		w.note = "not measured: " + err.Error()
		return w
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	url := "http://" + ln.Addr().String() + "/"
	headlessNew := chromedp.Flag("headless", "new")
	extra := []chromedp.ExecAllocatorOption{headlessNew, chromedp.WindowSize(1280, 4000)}
	if f := os.Getenv("WARM_JSFLAGS"); f != "" {
		extra = append(extra, chromedp.Flag("js-flags", f))
	}
	once := func(profile string, linger time.Duration) (warmPolled, error) {
		var got warmPolled
		err := startBrowserIn(bin, profile, 2*pageLoadTimeout, "", func(ctx context.Context, _ string) error {
			if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
				return err
			}
			var err error
			got, err = chromedp.Run(ctx, chromedp.Poll[warmPolled](warmPoll,
				chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0)))
			if err != nil {
				return err
			}
			time.Sleep(linger)
			return chromedp.Do(ctx, chromedp.Navigate("about:blank"))
		}, extra...)
		return got, err
	}
	linger := warmLinger
	if d, err := time.ParseDuration(os.Getenv("WARM_LINGER")); err == nil {
		linger = d // for trying how long V8 takes to write the cache
	}
	for i := range loads {
		profile, err := os.MkdirTemp("", "echomq-bench-warm-")
		if err != nil {
			w.note = err.Error()
			return w
		}
		cold, err := once(profile, linger)
		if err != nil {
			logf("warm %d (cold visit): %v", i+1, err)
			os.RemoveAll(profile)
			continue
		}
		afterCold := codeCacheBytes(profile)
		if os.Getenv("WARM_DUMP") != "" {
			filepath.WalkDir(profile, func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.Type().IsRegular() {
					if fi, err := d.Info(); err == nil && fi.Size() > 50000 {
						logf("profile file %s %d B", p, fi.Size())
					}
				}
				return nil
			})
		}
		warm, err := once(profile, 0)
		afterWarm := codeCacheBytes(profile)
		os.RemoveAll(profile)
		if err != nil {
			logf("warm %d (warm visit): %v", i+1, err)
			continue
		}
		w.coldCompile = append(w.coldCompile, cold.Compiled-cold.Fetch)
		w.warmCompile = append(w.warmCompile, warm.Compiled-warm.Fetch)
		w.coldReady, w.warmReady = append(w.coldReady, cold.Ready), append(w.warmReady, warm.Ready)
		w.cacheAfterCold, w.cacheAfterWarm = append(w.cacheAfterCold, afterCold), append(w.cacheAfterWarm, afterWarm)
		logf("warm %d: cold compile %.0f ms, Ready %.0f ms; Code Cache/wasm %d B; warm compile %.0f ms, Ready %.0f ms; Code Cache/wasm %d B",
			i+1, cold.Compiled-cold.Fetch, cold.Ready, afterCold, warm.Compiled-warm.Fetch, warm.Ready, afterWarm)
	}
	return w
}

// write prints the warm visits as part of the page-load section.
func (w warmLoads) write(p printer) {
	if len(w.coldCompile) == 0 {
		if w.note != "" {
			p("Warm visits: %s\n\n", w.note)
		}
		return
	}
	cc, wc := summarize(w.coldCompile), summarize(w.warmCompile)
	p("### Warm visits: V8's code cache\n\n")
	p("Each load is two headless Chromium browsers (`--headless=new`), one after the other, in one `--user-data-dir` kept between them; the first stays %s on the page after Ready, then closes. *Compile* is the page's `echomq:fetch` → `echomq:compiled` (fetch and `compileStreaming` of `echomq.<hash>.wasm`, served `immutable` as `application/wasm`).\n\n", warmLinger)
	p("| figure | cold (first visit) | warm (second browser, same profile) | warm / cold | target |\n|---|---:|---:|---:|---|\n")
	ratio := 0.0
	if cc.median > 0 {
		ratio = wc.median / cc.median
	}
	p("| compile, median of %d | %s | %s | %.2f× | ≤ 0.6× |\n", cc.n, ms(cc.median), ms(wc.median), ratio)
	cr, wr := summarize(w.coldReady), summarize(w.warmReady)
	p("| navigation → Ready | %s | %s | %.2f× | |\n\n", ms(cr.median), ms(wr.median), wr.median/cr.median)
	p("Bytes under `Code Cache/wasm` in the profile after the first browser closed, per load: %v; after the second: %v.\n\n", w.cacheAfterCold, w.cacheAfterWarm)
	if w.note != "" {
		p("%s\n\n", w.note)
	}
}

// measureWarmOnly takes only the warm-visit figures and prints them.
func measureWarmOnly(cfg config, loads int, stdout, stderr io.Writer) error {
	bin, err := needChromium()
	if err != nil {
		return err
	}
	logf := stepLogger(stderr)
	logf("load average %s", loadAverage())
	w := measureWarm(cfg, bin, loads, logf)
	logf("load average %s", loadAverage())
	w.write(func(format string, a ...any) { fmt.Fprintf(stdout, format, a...) })
	return nil
}
