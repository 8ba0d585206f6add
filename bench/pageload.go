package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// pageLoad is the time from navigation to a ready page, and to the first
// verdict, in milliseconds.
type pageLoad struct {
	samples  []float64 // navigation → "Ready", controls enabled
	verdicts []float64 // navigation → first verdict shown (Enqueue clicked at Ready)
	median   float64
	verdict  string // the first verdict the page showed, on the last load
	note     string // why it was not measured, or what went wrong on the way
	command  string // the browser command line, for the report
	course   courseLoads
	floors   *floors // nil when they were not measured
	phone    phoneLoads
	warm     warmLoads
}

// chromiumFlags are the browser tests' launch flags (web/browser's
// harness_test.go), so a page load is timed in the browser the tests use, for
// chromedp.Flag; chromedp adds --remote-debugging-pipe, and each load adds
// a fresh --user-data-dir.
var chromiumFlags = []string{
	"headless", "no-sandbox", "disable-gpu", "no-first-run",
	"disable-background-networking", "disable-component-update", "disable-sync",
}

// pageLoadTimeout bounds one load, from launch to the first verdict.
const pageLoadTimeout = 30 * time.Second

// measurePageLoad loads static/index.html in headless Chromium cfg.loads
// times (after one untimed load), each in a fresh browser with a fresh
// profile (so nothing is cached: a first visit), against a plain file
// server on 127.0.0.1.
//
// chromedp drives the browser. The times are taken inside the page,
// against performance.now() (zero at navigation start), by a script
// installed before the page's own, so the polling from here adds nothing
// to them.
func measurePageLoad(cfg config, logf func(string, ...any)) pageLoad {
	bin := chromiumBinary()
	if bin == "" {
		return pageLoad{note: "not measured: Chromium is not installed (apt-get install -y chromium)"}
	}
	if _, err := os.Stat(filepath.Join(cfg.static, "index.html")); err != nil {
		return pageLoad{note: "not measured: there is no static/index.html to load (./build.sh build writes it)"}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return pageLoad{note: "not measured: " + err.Error()}
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(cfg.static)), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	url := "http://" + ln.Addr().String() + "/"

	var pl pageLoad
	flags := make([]string, len(chromiumFlags))
	for i, f := range chromiumFlags {
		flags[i] = "--" + f
	}
	pl.command = fmt.Sprintf("%s %s --remote-debugging-pipe --user-data-dir=$TMP/profile   # via chromedp; page load, 1+%d times, against http://127.0.0.1:<free port>/",
		filepath.Base(bin), strings.Join(flags, " "), cfg.loads)
	// One load first, untimed: the first start of Chromium after a while
	// reads its files from disk, which no learner's browser does.
	if _, _, _, err := loadOnce(bin, url); err != nil {
		logf("page load (warm-up): %v", err)
	}
	var failures []string
	for i := range cfg.loads {
		ready, verdict, text, err := loadOnce(bin, url)
		if err != nil {
			logf("page load %d: %v", i+1, err)
			failures = append(failures, err.Error())
			continue
		}
		logf("page load %d: Ready at %.0f ms, first verdict (%s) at %.0f ms", i+1, ready, text, verdict)
		pl.verdict = text
		pl.samples = append(pl.samples, ready)
		pl.verdicts = append(pl.verdicts, verdict)
	}
	switch {
	case len(pl.samples) == 0:
		pl.note = "not measured: every load failed; the first error: " + firstLine(failures[0])
	case len(failures) > 0:
		pl.note = fmt.Sprintf("%d of %d loads failed and are left out; the first error: %s", len(failures), cfg.loads, firstLine(failures[0]))
	}
	if len(pl.samples) > 0 {
		pl.median = summarize(pl.samples).median
	}
	pl.course = measureCourse(cfg, bin, cfg.loads, true, logf)
	if pl.floors, err = runFloors(cfg, bin, cfg.loads, logf); err != nil {
		logf("floors: %v", err)
	}
	logf("the phone-like profile")
	pl.phone = measurePhone(cfg, bin, min(cfg.loads, 3), logf)
	logf("warm visits")
	pl.warm = measureWarm(cfg, bin, cfg.loads, logf)
	return pl
}

// probeScript runs in the page before any of the page's scripts. When the
// status says Ready and both buttons are enabled it notes the time and
// clicks Enqueue, as a learner would; when the verdict line first fills it
// notes that time too.
const probeScript = `(() => {
  const note = () => {
    const $ = (id) => document.getElementById(id);
    const status = $("status"), enq = $("enqueue"), claim = $("claim"), verdict = $("verdict");
    if (window.__benchReady === undefined && status && status.textContent === "Ready" &&
        enq && !enq.disabled && claim && !claim.disabled) {
      window.__benchReady = performance.now();
      enq.click();
    }
    if (window.__benchReady !== undefined && window.__benchVerdict === undefined &&
        verdict && verdict.textContent.trim() !== "") {
      window.__benchVerdict = performance.now();
      window.__benchVerdictText = (verdict.dataset.verdict || verdict.textContent).trim();
    }
  };
  new MutationObserver(note).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();`

// pollExpression is falsy until the probe has seen the first verdict or
// the page has shown its failure panel.
const pollExpression = `(() => {
  const failure = document.getElementById("failure");
  if (failure && !failure.hidden) {
    return { failure: document.getElementById("failure-message")?.textContent || "the failure panel is showing" };
  }
  if (window.__benchVerdict === undefined) return null;
  return { ready: window.__benchReady, verdict: window.__benchVerdict, verdictText: window.__benchVerdictText };
})()`

// probeResult is what pollExpression yields once there is something to say.
type probeResult struct {
	Ready       float64 `json:"ready"`
	Verdict     float64 `json:"verdict"`
	VerdictText string  `json:"verdictText"`
	Failure     string  `json:"failure"`
}

// loadOnce starts a browser with a fresh profile, loads url once and
// returns the times (ms since navigation start) of Ready and of the first
// verdict, and the verdict. chromedp starts the browser and ends it with the context.
func loadOnce(bin, url string) (ready, verdict float64, text string, err error) {
	err = startBrowser(bin, pageLoadTimeout, probeScript, func(ctx context.Context, _ string) error {
		if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
			return fmt.Errorf("navigate to %s: %w", url, err)
		}
		seen, err := chromedp.Run(ctx, chromedp.Poll[probeResult](pollExpression,
			chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0)))
		switch {
		case err != nil:
			return fmt.Errorf("waiting for Ready and the first verdict: %w", err)
		case seen.Failure != "":
			return fmt.Errorf("the page failed: %s", seen.Failure)
		}
		ready, verdict, text = seen.Ready, seen.Verdict, seen.VerdictText
		return nil
	})
	return ready, verdict, text, err
}

// startBrowser starts a browser with a fresh profile (and opts, such as a
// window size) for at most timeout, installs probe to run before each
// page's own scripts, and runs f in its tab, with the profile's directory.
// The profile goes when f returns.
func startBrowser(bin string, timeout time.Duration, probe string, f func(ctx context.Context, profile string) error, opts ...chromedp.ExecAllocatorOption) error {
	profile, err := os.MkdirTemp("", "echomq-bench-chromium-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(profile)
	return startBrowserIn(bin, profile, timeout, probe, f, opts...)
}

// startBrowserIn is startBrowser in a profile the caller keeps: a second
// browser started in it finds what the first one left (the HTTP cache, the
// code cache), as a learner's browser does on the next day. opts come
// after the bench's flags, so they can override one (--headless=new).
// The browser is closed (Browser.close, so it writes its caches out)
// when f returns.
func startBrowserIn(bin, profile string, timeout time.Duration, probe string, f func(ctx context.Context, profile string) error, opts ...chromedp.ExecAllocatorOption) error {
	bounded, cancelTimeout := context.WithTimeout(context.Background(), timeout)
	defer cancelTimeout()
	all := []chromedp.ExecAllocatorOption{chromedp.ExecPath(bin), chromedp.UserDataDir(profile)}
	for _, f := range chromiumFlags {
		all = append(all, chromedp.Flag(f, true))
	}
	opts = append(all, opts...)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(bounded, opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(allocCtx)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil {
		return fmt.Errorf("start %s: %w", bin, err)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: probe}); err != nil {
		return fmt.Errorf("install the probe: %w", err)
	}
	return f(ctx, profile)
}

// stepLogger returns a logf that prints each line to stderr with the
// seconds since the run began.
func stepLogger(stderr io.Writer) func(string, ...any) {
	began := time.Now()
	return func(format string, a ...any) {
		fmt.Fprintf(stderr, "bench: [%5.1fs] %s\n", time.Since(began).Seconds(), fmt.Sprintf(format, a...))
	}
}

// needChromium is the browser to load pages in, or why there is none.
func needChromium() (string, error) {
	if bin := chromiumBinary(); bin != "" {
		return bin, nil
	}
	return "", fmt.Errorf("Chromium is not installed (apt-get install -y chromium)")
}
