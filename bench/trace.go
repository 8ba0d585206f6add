package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"

	"echomq.dev/playground/web/server"
)

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
	bin := chromiumBinary()
	if bin == "" {
		return fmt.Errorf("Chromium is not installed (apt-get install -y chromium)")
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
