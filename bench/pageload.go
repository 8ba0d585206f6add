package main

import (
	"context"
	"fmt"
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
}

// chromiumFlags are the launch flags of DESIGN.md ("Testing layers"), for
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
	profile, err := os.MkdirTemp("", "echomq-bench-chromium-")
	if err != nil {
		return 0, 0, "", err
	}
	defer os.RemoveAll(profile)
	bounded, cancelTimeout := context.WithTimeout(context.Background(), pageLoadTimeout)
	defer cancelTimeout()
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(bin), chromedp.UserDataDir(profile)}
	for _, f := range chromiumFlags {
		opts = append(opts, chromedp.Flag(f, true))
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(bounded, opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(allocCtx)
	defer cancel()

	if err := chromedp.Do(ctx); err != nil {
		return 0, 0, "", fmt.Errorf("start %s: %w", bin, err)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: probeScript}); err != nil {
		return 0, 0, "", fmt.Errorf("install the probe: %w", err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		return 0, 0, "", fmt.Errorf("navigate to %s: %w", url, err)
	}
	seen, err := chromedp.Run(ctx, chromedp.Poll[probeResult](pollExpression,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0)))
	switch {
	case err != nil:
		return 0, 0, "", fmt.Errorf("waiting for Ready and the first verdict: %w", err)
	case seen.Failure != "":
		return 0, 0, "", fmt.Errorf("the page failed: %s", seen.Failure)
	}
	return seen.Ready, seen.Verdict, seen.VerdictText, nil
}
