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
	"strings"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"echomq.dev/playground/web/server"
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

// Course pages: one engine for every embed. The page-load figures of a
// course page with embeds, side by side with the full page.

// courseLoads are the page-load figures of a course page with embeds, side
// by side with the full page, all from the project's own server
// (web/server: precompressed files, hashed names cached for good) on
// 127.0.0.1, each load in a fresh browser with a fresh profile.
type courseLoads struct {
	fullStep    []float64  // full page: navigation → the stepper's Step button enabled
	fullReady   []float64  // full page: navigation → "Ready"
	repeatReady []float64  // the same browser, the full page again: navigation → "Ready"
	oneReady    []float64  // a course page with 1 embed: navigation → the embed "Ready"
	fourReady   []float64  // with 4 embeds: navigation → all four "Ready"
	fourFetches []int      // requests for the Go program per 4-embed load
	repeatAsked []int      // requests the repeat visit made to the server, the page's own included
	repeatSent  []int      // of those, how many the server answered with a body (not 304)
	codeCache   [][2]int64 // bytes in the profile's compiled-wasm cache on leaving the first visit, and after the repeat visit
	oneMiB      []float64  // browser memory (PSS of every process) over about:blank, 1 embed
	fourMiB     []float64  // the same, 4 embeds
	slowFull    []float64  // full page over a 1.5 Mbit/s, 150 ms RTT link
	slowThree   []float64  // a course page with 3 embeds over that link
	oneAsked    []int      // requests the 1-embed course page made until Ready
	oneOwn      []int      // of those, the embed's own (its document and what it loads)
	onePaths    []string   // the embed's own requests, on the last load
	twenty      *twentyEmbeds
	note        string
}

// twentyEmbeds is a course page with 20 embeds, 3 at the top and 17 far
// below the fold, once the top three are Ready.
type twentyEmbeds struct {
	Frames  int `json:"frames"`
	Ready   int `json:"ready"`
	Waiting int `json:"waiting"` // frames that have not started their engine
	wasm    int
	workers map[string]int
}

// The course pages the bench loads. The frames are in view (the window is
// tall enough), since embeds start only when they come near the viewport.
const (
	courseOne  = `<iframe src="/echomq/embed/stepper.html" title="Stepper" data-echomq></iframe>`
	courseFour = `<iframe src="/echomq/embed/stepper.html" title="Stepper" data-echomq></iframe>
<iframe src="/echomq/embed/beats.html" title="Beats" data-echomq></iframe>
<iframe src="/echomq/embed/verdicts.html" title="Verdicts" data-echomq></iframe>
<iframe src="/echomq/embed/roundtrip.html" title="Round trip" data-echomq></iframe>`
	courseThree = `<iframe src="/echomq/embed/stepper.html" title="Stepper" data-echomq></iframe>
<iframe src="/echomq/embed/beats.html" title="Beats" data-echomq></iframe>
<iframe src="/echomq/embed/verdicts.html" title="Verdicts" data-echomq></iframe>`
)

// courseTwenty is a course page with 20 stepper embeds: 3 at the top and
// 17 more than a screen below them (embeds start within a screen of the
// viewport). The window is twentyHeight tall: a stepper embed is about
// 1,250 px tall, so in the 900 px window this page was first measured in
// the third began 2,474 px down, beyond 900 px below the viewport, and
// rightly never started; the bench waited for it to be Ready until its
// deadline.
func courseTwenty() string {
	var b strings.Builder
	for i := range 20 {
		if i == 3 {
			b.WriteString(`<canvas width="10" height="20000"></canvas>`)
		}
		fmt.Fprintf(&b, `<iframe src="/echomq/embed/stepper.html" title="Stepper %d" data-echomq></iframe>`, i+1)
	}
	return b.String()
}

// twentyCount counts the course page's frames: those Ready, and those
// that have not started their engine (no echomq:boot mark; a stepper's
// status line shows its recorded run meanwhile, not "Starts when you
// scroll to it").
const twentyCount = `(() => {
  const f = [...document.querySelectorAll("iframe")];
  const s = f.map((x) => x.contentDocument?.getElementById("status")?.textContent || "");
  const booted = f.map((x) => { try { return x.contentWindow.performance.getEntriesByName("echomq:boot").length > 0; } catch { return false; } });
  return { frames: f.length, ready: s.filter((t) => t === "Ready").length, waiting: booted.filter((b) => !b).length };
})()`

// twentyHeight is the 20-embed page's window height: the third embed's
// top (two steppers down, 2,474 px) is within a screen below it.
const twentyHeight = 1600

// twentyFrames says, frame by frame, what a 20-embed page shows: its
// height, whether it started its engine (data-near) and its status line.
const twentyFrames = `[...document.querySelectorAll("iframe")].map((f, i) => {
  const d = f.contentDocument;
  return (i + 1) + ": " + f.getBoundingClientRect().height + " px, " + (d?.documentElement.dataset.near || "-") + ", " + (d?.getElementById("status")?.textContent || d?.readyState || "no document");
})`

// twentyPoll is falsy until the first three frames are Ready.
const twentyPoll = `(() => {
  const f = [...document.querySelectorAll("iframe")].slice(0, 3);
  return f.length === 3 && f.every((x) => x.contentDocument?.getElementById("status")?.textContent === "Ready") ? ` + twentyCount + ` : null;
})()`

// courseProbe runs in every document, frames too: it notes, as epoch ms,
// when the status line first says Ready and when the stepper's Step
// button is first enabled.
const courseProbe = `(() => {
  const now = () => performance.timeOrigin + performance.now();
  const note = () => {
    const status = document.getElementById("status");
    if (window.__benchReady === undefined && status && status.textContent === "Ready") window.__benchReady = now();
    const step = document.getElementById("stepper-step");
    if (window.__benchStep === undefined && step && !step.disabled) window.__benchStep = now();
  };
  new MutationObserver(note).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
})();`

// coursePoll is falsy until every embed (or the page itself, without
// frames) is Ready, or one shows its failure panel.
const coursePoll = `(() => {
  const frames = [...document.querySelectorAll("iframe")].map((f) => f.contentWindow);
  const wins = frames.length ? frames : [window];
  for (const w of wins) {
    const f = w.document.getElementById("failure");
    if (f && !f.hidden) return { failure: w.document.getElementById("failure-message")?.textContent || "failed" };
  }
  if (wins.some((w) => w.__benchReady === undefined)) return null;
  const t0 = performance.timeOrigin;
  const steps = wins.map((w) => w.__benchStep).filter((t) => t !== undefined);
  return { ready: Math.max(...wins.map((w) => w.__benchReady)) - t0, step: steps.length ? Math.min(...steps) - t0 : 0 };
})()`

type coursePolled struct {
	Ready   float64 `json:"ready"`
	Step    float64 `json:"step"`
	Failure string  `json:"failure"`
}

// measureCourse takes the courseLoads figures, loads times each.
func measureCourse(cfg config, bin string, loads int, slow bool, logf func(string, ...any)) courseLoads {
	var c courseLoads
	h, err := server.New(cfg.static, server.Options{CSP: true})
	if err != nil {
		c.note = "not measured: " + err.Error()
		return c
	}
	defer h.Close()
	site := &benchSite{site: h}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		c.note = "not measured: " + err.Error()
		return c
	}
	srv := &http.Server{Handler: server.Logged(site, site.note), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String()

	var failures []string
	fail := func(what string, err error) {
		logf("course page (%s): %v", what, err)
		failures = append(failures, what+": "+err.Error())
	}
	for i := range loads {
		// The full page, then again in the same browser: a repeat visit.
		err := browse(bin, func(ctx context.Context, profile string) error {
			first, err := visit(ctx, base+"/")
			if err != nil {
				return err
			}
			c.fullStep, c.fullReady = append(c.fullStep, first.Step), append(c.fullReady, first.Ready)
			if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
				return err
			}
			cached := codeCacheBytes(profile)
			site.requests()
			again, err := visit(ctx, base+"/")
			if err != nil {
				return err
			}
			asked, sent := site.requests()
			c.repeatReady = append(c.repeatReady, again.Ready)
			c.repeatAsked, c.repeatSent = append(c.repeatAsked, asked), append(c.repeatSent, sent)
			c.codeCache = append(c.codeCache, [2]int64{cached, codeCacheBytes(profile)})
			logf("course %d: full page step %.0f ms, Ready %.0f ms; repeat visit Ready %.0f ms, %d requests, %d with a body; compiled wasm in the cache %d B on leaving, %d B after the repeat visit",
				i+1, first.Step, first.Ready, again.Ready, asked, sent, c.codeCache[len(c.codeCache)-1][0], c.codeCache[len(c.codeCache)-1][1])
			return nil
		})
		if err != nil {
			fail("full page", err)
		}
		for _, page := range []struct {
			body  string
			ready *[]float64
			mem   *[]float64
		}{{courseOne, &c.oneReady, &c.oneMiB}, {courseFour, &c.fourReady, &c.fourMiB}} {
			site.course = page.body
			site.fetches()
			err := browse(bin, func(ctx context.Context, _ string) error {
				blank, err := browserMiB(ctx)
				if err != nil {
					return err
				}
				site.requests()
				site.embedPaths()
				got, err := visit(ctx, base+"/course.html")
				if err != nil {
					return err
				}
				if page.body == courseOne {
					asked, _ := site.requests()
					own := site.embedPaths()
					c.oneAsked, c.oneOwn, c.onePaths = append(c.oneAsked, asked), append(c.oneOwn, len(own)), own
				}
				after, err := browserMiB(ctx)
				if err != nil {
					return err
				}
				*page.ready = append(*page.ready, got.Ready)
				*page.mem = append(*page.mem, after-blank)
				if page.body == courseFour {
					c.fourFetches = append(c.fourFetches, site.fetches())
				}
				logf("course %d: %d embed(s) all Ready %.0f ms, +%.0f MiB", i+1, strings.Count(page.body, "<iframe"), got.Ready, after-blank)
				return nil
			})
			if err != nil {
				fail("course page", err)
			}
		}
	}
	// Twenty embeds, once: one engine, and the far ones wait.
	site.course = courseTwenty()
	site.fetches()
	err = startBrowser(bin, 2*pageLoadTimeout, courseProbe, func(ctx context.Context, _ string) error {
		if err := chromedp.Do(ctx, chromedp.Navigate(base+"/course.html")); err != nil {
			return err
		}
		got, err := chromedp.Run(ctx, chromedp.Poll[*twentyEmbeds](twentyPoll,
			chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(pageLoadTimeout)))
		if err != nil {
			// Say what each frame showed, not only that time ran out.
			seen, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](twentyFrames))
			return fmt.Errorf("%w; the frames: %s", err, strings.Join(seen, "; "))
		}
		time.Sleep(time.Second) // anything that would start late, given the time
		if got, err = chromedp.Run(ctx, chromedp.Evaluate[*twentyEmbeds](twentyCount)); err != nil {
			return err
		}
		got.wasm = site.fetches()
		infos, err := chromedp.Targets(ctx)
		if err != nil {
			return err
		}
		got.workers = map[string]int{}
		for _, in := range infos {
			if strings.Contains(string(in.Type), "worker") {
				got.workers[string(in.Type)]++
			}
		}
		c.twenty = got
		logf("course with 20 embeds: %d frames, %d Ready, %d not started (no echomq:boot mark); %d engine downloads; workers %v", got.Frames, got.Ready, got.Waiting, got.wasm, got.workers)
		return nil
	}, chromedp.WindowSize(1280, twentyHeight))
	if err != nil {
		fail("20 embeds", err)
	}
	// The slow link: fewer loads, each takes seconds.
	site.slow = &slowLink{rate: 1.5e6 / 8, rtt: 150 * time.Millisecond}
	for i := range min(loads, 3) {
		if !slow {
			break
		}
		for _, page := range []struct {
			url   string
			times *[]float64
		}{{base + "/", &c.slowFull}, {base + "/course.html", &c.slowThree}} {
			site.course = courseThree
			err := browse(bin, func(ctx context.Context, _ string) error {
				got, err := visit(ctx, page.url)
				if err != nil {
					return err
				}
				*page.times = append(*page.times, got.Ready)
				logf("course %d at 1.5 Mbit/s: %s Ready %.0f ms", i+1, page.url, got.Ready)
				return nil
			})
			if err != nil {
				fail("slow link", err)
			}
		}
	}
	if len(failures) > 0 {
		c.note = fmt.Sprintf("%d loads failed and are left out; the first error: %s", len(failures), firstLine(failures[0]))
	}
	return c
}

// measureCourseOnly takes only the course-page figures, loads times each,
// and prints them: for trying a change to the start-up without the whole
// run. With several sites (built apart, say before and after a change) each
// load is taken from every site in turn, so that the machine's drift
// falls on all of them alike, and the medians are compared with the
// first site's. BENCHMARKS.md is not touched.
func measureCourseOnly(cfg config, sites []string, loads int, stdout, stderr io.Writer) error {
	logf := stepLogger(stderr)
	bin, err := needChromium()
	if err != nil {
		return err
	}
	for _, dir := range sites {
		if _, err := os.Stat(filepath.Join(dir, "index.html")); err != nil {
			return fmt.Errorf("there is no %s/index.html to load (./build.sh build writes it): %w", dir, err)
		}
	}
	logf("load average %s", loadAverage())
	got := make([]courseLoads, len(sites))
	for i := range loads {
		for j, dir := range sites {
			site := cfg
			site.static = dir
			logf("load %d of %d, %s", i+1, loads, dir)
			got[j].add(measureCourse(site, bin, 1, false, logf))
		}
	}
	logf("load average %s", loadAverage())
	p := func(format string, a ...any) { fmt.Fprintf(stdout, format, a...) }
	for j, dir := range sites {
		if len(sites) > 1 {
			p("## %s\n\n", dir)
		}
		got[j].write(p)
	}
	if len(sites) > 1 {
		got[0].compare(got[1:], sites, p)
	}
	return nil
}

// measureTwentyOnly takes only the 20-embed course page (measureCourse
// with no other loads) and prints its figures.
func measureTwentyOnly(cfg config, stdout, stderr io.Writer) error {
	bin, err := needChromium()
	if err != nil {
		return err
	}
	c := measureCourse(cfg, bin, 0, false, stepLogger(stderr))
	if t := c.twenty; t != nil {
		fmt.Fprintf(stdout, "20 embeds: %d frames, %d Ready, %d not started (no echomq:boot mark); %d engine download(s); workers %v\n", t.Frames, t.Ready, t.Waiting, t.wasm, t.workers)
	}
	if c.note != "" {
		fmt.Fprintln(stdout, c.note)
	}
	return nil
}

// codeCacheBytes is the size of Chromium's cache of compiled WebAssembly
// in a profile (what V8 serialized from a compileStreaming of a cacheable
// response, to deserialize on a repeat visit instead of compiling): 0
// when it holds nothing.
func codeCacheBytes(profile string) int64 {
	var n int64
	filepath.WalkDir(filepath.Join(profile, "Default", "Code Cache", "wasm"), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// browse starts a browser with a tall window (so a course page's embeds
// are all near the viewport) and the course probe, and runs f in a tab.
func browse(bin string, f func(ctx context.Context, profile string) error) error {
	return startBrowser(bin, 2*pageLoadTimeout, courseProbe, f, chromedp.WindowSize(1280, 4000))
}

// visit navigates to url and waits until every embed (or the page) is Ready.
func visit(ctx context.Context, url string) (coursePolled, error) {
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		return coursePolled{}, fmt.Errorf("navigate to %s: %w", url, err)
	}
	got, err := chromedp.Run(ctx, chromedp.Poll[coursePolled](coursePoll,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0)))
	switch {
	case err != nil:
		return got, fmt.Errorf("waiting for Ready at %s: %w", url, err)
	case got.Failure != "":
		return got, fmt.Errorf("%s failed: %s", url, got.Failure)
	}
	return got, nil
}

// browserMiB is the memory of the browser's processes, summed as PSS (a
// shared page counts once, in parts), in MiB.
func browserMiB(ctx context.Context) (float64, error) {
	c := chromedp.FromContext(ctx)
	if c == nil || c.Browser == nil || c.Browser.Process() == nil {
		return 0, fmt.Errorf("no browser process to measure")
	}
	children := map[int][]int{}
	procs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may hold spaces and parentheses.
		s := string(b)
		close := strings.LastIndexByte(s, ')')
		if close < 0 {
			continue
		}
		var pid, ppid int
		var state string
		fmt.Sscan(s[:strings.IndexByte(s, ' ')], &pid)
		fmt.Sscan(s[close+2:], &state, &ppid)
		children[ppid] = append(children[ppid], pid)
	}
	var total float64
	var walk func(pid int)
	walk = func(pid int) {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid)); err == nil {
			for _, line := range strings.Split(string(b), "\n") {
				if rest, ok := strings.CutPrefix(line, "Pss:"); ok {
					var kb float64
					fmt.Sscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), &kb)
					total += kb
				}
			}
		}
		for _, c := range children[pid] {
			walk(c)
		}
	}
	walk(c.Browser.Process().Pid)
	return total / 1024, nil
}
