package browser

// The tab: one per test, in the shared browser, with the guards every test
// gets whether it asks or not. A console error, an uncaught exception, a
// failed request, a crash, or a request to any host but this machine's
// loopback fails the test: waits fail at once when one shows up, and the
// test's cleanup reports any that came after the last wait.

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

const (
	tabTimeout  = 90 * time.Second // a whole test, at most
	waitTimeout = 20 * time.Second // one wait for the page to show something
	pollEvery   = 25 * time.Millisecond
)

// tab is one browser tab, owned by one test.
type tab struct {
	t    *testing.T
	ctx  context.Context // the tab's chromedp context; it ends with the test
	base string          // the server the tab loads pages from

	mu       sync.Mutex
	urls     map[network.RequestID]string // by request, for the failure events
	problems []string                     // unexpected: each one fails the test
	reported int                          // how many of problems a wait already reported
	// breakURL makes the requests whose URL contains it fail, on purpose;
	// expectURL says that failures of requests whose URL contains it are
	// expected (breakURL implies it).
	breakURL, expectURL string
	// holdURL keeps the requests whose URL contains it waiting until
	// released is closed.
	holdURL  string
	released chan struct{}
	// excused is set when an expected failure happened: the console errors
	// that follow are the page reporting it. The next page load ends it.
	excused bool
	// closed is set when the test has ended: chromedp's goroutines may still
	// deliver an event, and a test must not log after it ended.
	closed bool
	// fileURL is the one file: URL the tab may load (the offline lesson);
	// any other file, like any host but loopback, is a problem.
	fileURL string
	// noNetwork fails every request that would go over a network.
	noNetwork bool
	// warnings are what the page said with console.warn, for a test to read.
	warnings []string
}

// isAllowedFile reports whether u is the one file the tab may load,
// whatever its fragment. The caller holds tb.mu.
func (tb *tab) isAllowedFile(u string) bool {
	return tb.fileURL != "" && strings.SplitN(u, "#", 2)[0] == tb.fileURL
}

// allowFile lets the tab load exactly this file: URL.
func (tb *tab) allowFile(u string) *tab {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.fileURL = u
	return tb
}

// offline cuts the tab off the network, as a learner on a train is: every
// request that would need it, loopback included, fails and is a problem,
// and the page's navigator.onLine says false.
func (tb *tab) offline() {
	tb.t.Helper()
	tb.mu.Lock()
	tb.noNetwork = true
	tb.mu.Unlock()
	if _, err := chromedp.Call(tb.ctx, network.OverrideNetworkState, network.OverrideNetworkStateParams{
		Offline: true, DownloadThroughput: -1, UploadThroughput: -1,
	}); err != nil {
		tb.t.Fatalf("Network.overrideNetworkState: %v", err)
	}
}

// slowCPU makes the tab's page run as on a machine rate times slower, as
// an old laptop does: what the page does between two paints takes that
// much longer, so a half-drawn state that a fast machine shows for a blink
// stays on screen where a learner (and a test) can act on it.
func (tb *tab) slowCPU(rate float64) {
	tb.t.Helper()
	if _, err := chromedp.Call(tb.ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate}); err != nil {
		tb.t.Fatalf("Emulation.setCPUThrottlingRate: %v", err)
	}
}

// newTab opens a tab for t in the shared browser. It is closed when t ends.
// Pages are loaded from the project's server for the built site; use
// onServer for another.
func newTab(t *testing.T) *tab {
	t.Helper()
	needBrowser(t)
	return newTabIn(t, harness.browser)
}

// newTabIn opens a tab for t in the given browser (see startBrowser), with
// the same guards as newTab.
func newTabIn(t *testing.T, browser context.Context) *tab {
	t.Helper()
	return newTabFor(t, browser, tabTimeout)
}

// newLongTab is newTab for a test that must outlast tabTimeout (one that
// drains a deep queue): a bound on the test, as tabTimeout is.
func newLongTab(t *testing.T, timeout time.Duration) *tab {
	t.Helper()
	needBrowser(t)
	return newTabFor(t, harness.browser, timeout)
}

func newTabFor(t *testing.T, browser context.Context, timeout time.Duration) *tab {
	t.Helper()
	tb := &tab{t: t, base: harness.baseURL, urls: map[network.RequestID]string{}}

	bounded, cancelBound := context.WithTimeout(browser, timeout)
	ctx, cancel := chromedp.NewContext(bounded, chromedp.WithListener(tb.onEvent))
	tb.ctx = ctx
	t.Cleanup(func() {
		tb.finish()
		cancel()
		cancelBound()
		tb.mu.Lock()
		tb.closed = true
		tb.mu.Unlock()
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	// Every request of the page stops in the Fetch domain first, so that a
	// request off this machine is refused before it leaves, and a test can
	// fail a request on purpose.
	go tb.route(chromedp.Events(ctx, fetch.RequestPaused))
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{
		Patterns: []*fetch.RequestPattern{{URLPattern: "*"}},
	}); err != nil {
		t.Fatalf("Fetch.enable: %v", err)
	}
	return tb
}

// onServer makes the tab load its pages from another server.
func (tb *tab) onServer(base string) *tab {
	tb.base = base
	return tb
}

// breakRequests makes every later request whose URL contains part fail with
// a network error, and expects those failures.
func (tb *tab) breakRequests(part string) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.breakURL, tb.expectURL = part, part
}

// holdRequests keeps every later request whose URL contains part waiting,
// as a slow network would, until release is called.
func (tb *tab) holdRequests(part string) (release func()) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	ch := make(chan struct{})
	tb.holdURL, tb.released = part, ch
	var once sync.Once
	return func() {
		once.Do(func() {
			tb.mu.Lock()
			tb.holdURL = ""
			tb.mu.Unlock()
			close(ch)
		})
	}
}

// mendRequests stops failing requests on purpose.
func (tb *tab) mendRequests() {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.breakURL, tb.expectURL = "", ""
}

// expectFailedRequests says that requests whose URL contains part will fail
// (answer 4xx or 5xx, or not at all), and that the page may report it on the
// console until the next page load.
func (tb *tab) expectFailedRequests(part string) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.expectURL = part
}

// loopbackHost reports whether a request URL stays on this machine: the
// tests' server is on 127.0.0.1, and nothing else may be asked.
func loopbackHost(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	switch u.Scheme {
	case "data", "blob", "about":
		return true // no network
	case "http", "https", "ws", "wss":
		switch u.Hostname() {
		case "127.0.0.1", "localhost", "::1":
			return true
		}
	}
	return false
}

// route answers each paused request: off this machine, refused (and a
// problem); on purpose, failed; otherwise, continued.
func (tb *tab) route(paused iter.Seq2[fetch.EventRequestPaused, error]) {
	for ev, err := range paused {
		if err != nil {
			return // the tab is closing
		}
		reqURL := ev.Request.URL
		tb.mu.Lock()
		fileOK := tb.isAllowedFile(reqURL)
		networked := tb.noNetwork && !fileOK && !strings.HasPrefix(reqURL, "data:") && !strings.HasPrefix(reqURL, "blob:")
		broken := tb.breakURL != "" && strings.Contains(reqURL, tb.breakURL)
		held := tb.holdURL != "" && strings.Contains(reqURL, tb.holdURL)
		released := tb.released
		tb.mu.Unlock()
		if held && loopbackHost(reqURL) {
			tb.logf("holding %s", reqURL)
			go func(id fetch.RequestID) {
				select {
				case <-released:
				case <-tb.ctx.Done():
					return
				}
				if _, err := chromedp.Call(tb.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id}); err != nil && tb.ctx.Err() == nil {
					tb.problem("answering the held request %s: %v", reqURL, err)
				}
			}(ev.RequestID)
			continue
		}
		switch {
		case networked:
			tb.problem("a request over the network from an offline tab (refused): %s %s", ev.Request.Method, reqURL)
			_, err = chromedp.Call(tb.ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonInternetDisconnected})
		case fileOK:
			_, err = chromedp.Call(tb.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
		case !loopbackHost(reqURL):
			tb.problem("request off this machine (refused): %s %s", ev.Request.Method, reqURL)
			_, err = chromedp.Call(tb.ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
		case broken:
			tb.logf("failing on purpose: %s", reqURL)
			_, err = chromedp.Call(tb.ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonConnectionReset})
		default:
			_, err = chromedp.Call(tb.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
		}
		if err != nil && tb.ctx.Err() == nil {
			tb.problem("answering the paused request %s: %v", reqURL, err)
		}
	}
}

// onEvent sees every event of the tab, in order, on chromedp's reading
// goroutine: it only records.
func (tb *tab) onEvent(ev any) {
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			tb.pageError("console.%s: %s", ev.Type, formatArgs(ev.Args))
		}
		if ev.Type == runtime.ConsoleAPICalledTypeWarning {
			tb.mu.Lock()
			tb.warnings = append(tb.warnings, formatArgs(ev.Args))
			tb.mu.Unlock()
		}
	case *runtime.EventExceptionThrown:
		tb.problem("uncaught exception: %s", formatException(ev.ExceptionDetails))
	case *log.EventEntryAdded:
		if e := ev.Entry; e != nil && e.Level == log.EntryLevelError {
			tb.pageError("browser log (%s): %s %s", e.Source, e.Text, e.URL)
		}
	case *inspector.EventTargetCrashed:
		tb.problem("the page crashed")
	case *page.EventFrameNavigated:
		if ev.Frame != nil && ev.Frame.ParentID == "" {
			tb.mu.Lock()
			tb.excused = false
			tb.mu.Unlock()
		}
	case *network.EventRequestWillBeSent:
		if ev.Request == nil {
			return
		}
		tb.mu.Lock()
		tb.urls[ev.RequestID] = ev.Request.URL
		allowed := tb.isAllowedFile(ev.Request.URL)
		tb.mu.Unlock()
		if !allowed && !loopbackHost(ev.Request.URL) {
			tb.problem("request off this machine: %s %s", ev.Request.Method, ev.Request.URL)
		}
	case *network.EventResponseReceived:
		if r := ev.Response; r != nil && r.Status >= 400 {
			tb.requestFailed(r.URL, fmt.Sprintf("HTTP %d %s", r.Status, r.StatusText))
		}
	case *network.EventLoadingFailed:
		tb.mu.Lock()
		u := tb.urls[ev.RequestID]
		tb.mu.Unlock()
		if ev.Canceled {
			// The page or a navigation gave the request up; nothing failed.
			tb.logf("request canceled: %s", u)
			return
		}
		tb.requestFailed(u, ev.ErrorText+" "+string(ev.BlockedReason))
	}
}

// requestFailed records a failed request, as expected or as a problem.
func (tb *tab) requestFailed(u, why string) {
	tb.mu.Lock()
	expected := tb.expectURL != "" && strings.Contains(u, tb.expectURL)
	if expected {
		tb.excused = true
	}
	tb.mu.Unlock()
	if expected {
		tb.logf("failed as expected: %s: %s", u, strings.TrimSpace(why))
		return
	}
	tb.problem("request failed: %s: %s", u, strings.TrimSpace(why))
}

// pageError records an error the page (or the browser, for the page) wrote
// to the console: a problem, unless it follows a failure the test caused.
func (tb *tab) pageError(format string, args ...any) {
	tb.mu.Lock()
	excused := tb.excused || (tb.expectURL != "" && strings.Contains(fmt.Sprintf(format, args...), tb.expectURL))
	tb.mu.Unlock()
	if excused {
		tb.logf("after the expected failure: "+format, args...)
		return
	}
	tb.problem(format, args...)
}

// logf logs for the test, unless it has ended.
func (tb *tab) logf(format string, args ...any) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if !tb.closed {
		tb.t.Logf(format, args...)
	}
}

func (tb *tab) problem(format string, args ...any) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.problems = append(tb.problems, fmt.Sprintf(format, args...))
}

// newProblems returns the problems no wait has reported yet.
func (tb *tab) newProblems() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	p := tb.problems[tb.reported:]
	tb.reported = len(tb.problems)
	return p
}

// checkProblems fails the test at once if the page reported a problem.
func (tb *tab) checkProblems() {
	tb.t.Helper()
	if p := tb.newProblems(); len(p) > 0 {
		tb.t.Fatalf("the page reported a problem:\n\t%s", strings.Join(p, "\n\t"))
	}
}

// finish runs when the test ends: it reports the problems that came after
// the last wait, and saves a screenshot of a failed test's page.
func (tb *tab) finish() {
	if tb.ctx.Err() == nil {
		// A round trip: every event sent before its answer has been seen.
		_, _ = chromedp.Run(tb.ctx, chromedp.Evaluate[chromedp.Void](`0`))
	}
	if p := tb.newProblems(); len(p) > 0 {
		tb.t.Errorf("the page reported a problem:\n\t%s", strings.Join(p, "\n\t"))
	}
	if tb.t.Failed() && tb.ctx.Err() == nil {
		ctx, cancel := context.WithTimeout(tb.ctx, 5*time.Second)
		defer cancel()
		if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
			saveArtifact(tb.t, "FAILED-"+fileName(tb.t.Name())+".png", png)
		}
	}
}

// fileName makes a test name usable as a file name.
func fileName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
}

func formatArgs(args []*runtime.RemoteObject) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		switch {
		case a == nil:
		case a.Type == runtime.RemoteObjectTypeString:
			parts = append(parts, strings.Trim(string(a.Value), `"`))
		case a.Description != "":
			parts = append(parts, a.Description)
		case len(a.Value) > 0:
			parts = append(parts, string(a.Value))
		default:
			parts = append(parts, string(a.Type))
		}
	}
	return strings.Join(parts, " ")
}

func formatException(d *runtime.ExceptionDetails) string {
	if d == nil {
		return "(no details)"
	}
	msg := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		msg += " " + d.Exception.Description
	}
	return fmt.Sprintf("%s (%s:%d:%d)", msg, d.URL, d.LineNumber+1, d.ColumnNumber+1)
}

// run runs chromedp actions on the tab, bounded by waitTimeout, and fails
// the test on an error.
func (tb *tab) run(what string, actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, waitTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		tb.checkProblems()
		tb.t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression in the page and decodes its value.
func eval[T any](tb *tab, expr string) (T, error) {
	ctx, cancel := context.WithTimeout(tb.ctx, waitTimeout)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](expr))
}

// openURL loads an absolute URL (a file: one, for the offline lesson).
func (tb *tab) openURL(u string) {
	tb.t.Helper()
	tb.run("open "+u, chromedp.Navigate(u))
}

// open loads path (like "/" or "/embed/stepper.html") from the tab's server.
func (tb *tab) open(path string) {
	tb.t.Helper()
	tb.run("open "+path, chromedp.Navigate(tb.base+path))
}

// eventually calls check until it says ok, failing the test with what it
// last saw after waitTimeout, or at once if the page reports a problem.
func (tb *tab) eventually(what string, check func() (seen string, ok bool)) {
	tb.t.Helper()
	tb.eventuallyWithin(waitTimeout, what, check)
}

// eventuallyWithin is eventually with a wait of its own, for what takes a
// learner's page longer than one wait (draining a deep queue). It bounds
// the wait; it measures nothing.
func (tb *tab) eventuallyWithin(wait time.Duration, what string, check func() (seen string, ok bool)) {
	tb.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		tb.checkProblems()
		seen, ok := check()
		if ok {
			return
		}
		if time.Now().After(deadline) || tb.ctx.Err() != nil {
			tb.checkProblems()
			tb.t.Fatalf("waited %v for %s; last saw:\n%s", wait, what, seen)
		}
		time.Sleep(pollEvery)
	}
}

// errString is err's text, or "" for nil, for the "last saw" of a wait.
func errString(err error) string {
	if err == nil {
		return ""
	}
	var ee *chromedp.ExceptionError
	if errors.As(err, &ee) {
		return "script error: " + ee.Error()
	}
	return err.Error()
}
