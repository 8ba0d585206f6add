package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"echomq.dev/playground/web/server"
)

// Embeds on one course page share one engine: one download, one worker,
// and a keyspace of its own for each embed unless the author names one.

// countedCourse is courseWith, counting the requests for the engine's
// files: the Go program (echomq*.wasm) and the worker (worker*.js).
type countedCourse struct {
	base string
	mu   sync.Mutex
	seen map[string]int // "wasm", "worker" → requests
	// refuseEngine makes the server answer 404 for the Go program.
	refuseEngine bool
}

func (c *countedCourse) count(kind string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seen[kind]
}

// The engine's files, under their plain or content-hashed names.
var (
	engineFile = regexp.MustCompile(`^echomq(\.[0-9a-f]+)?\.wasm$`)
	workerFile = regexp.MustCompile(`^(echomq-)?worker(\.[0-9a-f]+)?\.js$`)
)

func newCountedCourse(t *testing.T, body string) *countedCourse {
	t.Helper()
	site, err := server.New(harness.static, server.Options{CSP: true})
	if err != nil {
		t.Fatal(err)
	}
	c := &countedCourse{seen: map[string]int{}}
	mux := http.NewServeMux()
	mux.Handle("/echomq/", http.StripPrefix("/echomq", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
		c.mu.Lock()
		switch {
		case engineFile.MatchString(name):
			c.seen["wasm"]++
			if c.refuseEngine {
				c.mu.Unlock()
				http.NotFound(w, r)
				return
			}
		case workerFile.MatchString(name):
			c.seen["worker"]++
		}
		c.mu.Unlock()
		site.ServeHTTP(w, r)
	})))
	mux.HandleFunc("/course.html", serveCourse(body))
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.Close()
		site.Close()
	})
	c.base = srv.URL
	return c
}

// scrollTo scrolls the course page until the frame is in view, as a reader does.
func scrollTo(tb *tab, frameSel string) {
	tb.t.Helper()
	if _, err := eval[bool](tb, fmt.Sprintf(`(document.querySelector(%s).scrollIntoView({block: "start"}), true)`, jsArgs(frameSel))); err != nil {
		tb.t.Fatal(err)
	}
}

// frameReady scrolls to the frame and waits for its status line to say Ready.
func frameReady(tb *tab, frameSel string) {
	tb.t.Helper()
	scrollTo(tb, frameSel)
	tb.eventually(frameSel+" to say Ready", func() (string, bool) {
		s := frameStatus(tb, frameSel)
		return s, s == "Ready"
	})
}

// clickIn clicks the enabled button named name inside a frame's widget,
// once there is one (a scope's click moves the mouse in the top page's
// coordinates, which do not reach into a frame).
func clickIn(tb *tab, frameSel, name string) {
	tb.t.Helper()
	w := tb.inFrame(frameSel, "#roundtrip")
	w.findControl("button", name)
	if _, err := eval[bool](tb, fmt.Sprintf("((%s)[0].click(), true)", w.expr("button", name))); err != nil {
		tb.t.Fatal(err)
	}
}

// workersOf lists the workers the browser runs for pages of base, by kind
// ("shared_worker", "worker").
func workersOf(tb *tab, base string) map[string]int {
	tb.t.Helper()
	infos, err := chromedp.Targets(tb.ctx)
	if err != nil {
		tb.t.Fatal(err)
	}
	out := map[string]int{}
	for _, in := range infos {
		if strings.Contains(string(in.Type), "worker") && strings.HasPrefix(in.URL, base) {
			out[string(in.Type)]++
		}
	}
	return out
}

// TestEmbedsShareOneEngine puts four round trips on one course page: the
// engine is downloaded once and runs in one shared worker. The first two
// embeds have keyspaces of their own: a job enqueued in one is not in the
// other. The last two name one keyspace (?keyspace=dive1): a job enqueued
// in one shows in the other.
func TestEmbedsShareOneEngine(t *testing.T) {
	c := newCountedCourse(t, `
<iframe id="a" src="/echomq/embed/roundtrip.html" title="Round trip A" data-echomq></iframe>
<iframe id="b" src="/echomq/embed/roundtrip.html" title="Round trip B" data-echomq></iframe>
<iframe id="c" src="/echomq/embed/roundtrip.html?keyspace=dive1" title="Round trip C" data-echomq></iframe>
<iframe id="d" src="/echomq/embed/roundtrip.html?keyspace=dive1" title="Round trip D" data-echomq></iframe>`)
	tb := newTab(t).onServer(c.base)
	tb.open("/course.html")
	for _, f := range []string{"#a", "#b", "#c", "#d"} {
		frameReady(tb, f)
	}
	if n := c.count("wasm"); n != 1 {
		t.Errorf("the engine was requested %d times for four embeds; want once", n)
	}
	if got := workersOf(tb, c.base); got["shared_worker"] != 1 || got["worker"] != 0 {
		t.Errorf("the browser runs these workers for the course page: %v; want one shared_worker", got)
	}

	clickIn(tb, "#a", "Enqueue")
	tb.inFrame("#a", "#roundtrip").wantText(enqueueResult, "{:ok, :enqueued}")
	tb.inFrame("#a", "#roundtrip").wantRows(pendingKey, [][]string{{"JOB-000001", "0"}})
	clickIn(tb, "#b", "Claim")
	tb.inFrame("#b", "#roundtrip").wantText(claimResult, ":empty")
	tb.inFrame("#b", "#roundtrip").wantRows(pendingKey, nil)

	clickIn(tb, "#c", "Enqueue")
	tb.inFrame("#c", "#roundtrip").wantText(enqueueResult, "{:ok, :enqueued}")
	tb.inFrame("#d", "#roundtrip").wantRows(pendingKey, [][]string{{"JOB-000001", "0"}})
	clickIn(tb, "#d", "Claim")
	tb.inFrame("#d", "#roundtrip").wantText(claimResult, `{:ok, {"JOB-000001"`)
	tb.inFrame("#c", "#roundtrip").wantRows(pendingKey, nil)
	tb.inFrame("#a", "#roundtrip").wantRows(pendingKey, [][]string{{"JOB-000001", "0"}})
}

// TestEmbedBelowTheFold puts an embed far down a course page (without
// loading="lazy", so the frame itself loads at once): it waits, saying
// so, and the engine is not fetched until the reader scrolls to it.
func TestEmbedBelowTheFold(t *testing.T) {
	c := newCountedCourse(t, `<p>A long lesson.</p>
<canvas width="10" height="5000"></canvas>
<iframe id="far" src="/echomq/embed/roundtrip.html" title="The round trip" data-echomq></iframe>`)
	tb := newTab(t).onServer(c.base)
	tb.open("/course.html")
	tb.eventually("the embed below the fold to wait", func() (string, bool) {
		s := frameStatus(tb, "#far")
		return s, s == "Starts when you scroll to it"
	})
	if n := c.count("wasm") + c.count("worker"); n != 0 {
		t.Errorf("before the reader scrolled, the engine's files were requested %d times (%v); want none", n, c.seen)
	}
	frameReady(tb, "#far")
	if n := c.count("wasm"); n != 1 {
		t.Errorf("after scrolling, the engine was requested %d times; want once", n)
	}
}

// TestEmbedRunawayDelaysOthers starts a script that never ends in one
// embed's console and, in the same moment, an enqueue in another embed of
// the page. The shared engine runs one call at a time: the enqueue is
// answered, after the runaway was stopped by its budget, not never.
func TestEmbedRunawayDelaysOthers(t *testing.T) {
	c := newCountedCourse(t, `
<iframe id="console" src="/echomq/embed/console.html?budget=`+testBudget+`" title="Console" data-echomq></iframe>
<iframe id="trip" src="/echomq/embed/roundtrip.html?budget=`+testBudget+`" title="Round trip" data-echomq></iframe>`)
	tb := newTab(t).onServer(c.base)
	tb.open("/course.html")
	frameReady(tb, "#console")
	frameReady(tb, "#trip")
	// One task: the runaway's call is sent, then the enqueue's; each
	// frame's answer is written down in the order it shows.
	if _, err := eval[bool](tb, `(() => {
		window.order = [];
		const watch = (id, sel, want, name) => {
			const d = document.getElementById(id).contentDocument;
			const seen = () => [...d.querySelectorAll(sel)].some((el) => el.textContent.includes(want));
			const o = new MutationObserver(() => { if (seen()) { o.disconnect(); window.order.push(name); } });
			o.observe(d.body, { subtree: true, childList: true, characterData: true });
		};
		watch("console", ".console-out", "Script killed", "runaway stopped");
		watch("trip", "[data-testid=enqueue-result]", "enqueued", "enqueue answered");
		const con = document.getElementById("console").contentDocument;
		con.getElementById("console-input").value = 'EVAL "while true do end" 0';
		con.getElementById("console-form").requestSubmit();
		document.getElementById("trip").contentDocument.getElementById("roundtrip-enqueue").click();
		return true;
	})()`); err != nil {
		t.Fatal(err)
	}
	tb.inFrame("#trip", "#roundtrip").wantTextWithin(budgetWait, enqueueResult, "{:ok, :enqueued}")
	tb.inFrame("#console", "#console").wantTextWithin(budgetWait, ".console-out", "Script killed")
	order, err := eval[[]string](tb, `window.order`)
	if err != nil || strings.Join(order, ", ") != "runaway stopped, enqueue answered" {
		t.Errorf("the answers came in the order %q (%v); want the runaway stopped, then the other embed answered", order, err)
	}
}

// TestSharedEngineFailure refuses the Go program to a course page with two
// embeds: the one shared engine cannot start, and each embed says so in
// its frame, with a Reload button.
func TestSharedEngineFailure(t *testing.T) {
	c := newCountedCourse(t, `
<iframe id="a" src="/echomq/embed/stepper.html" title="The stepper" data-echomq></iframe>
<iframe id="b" src="/echomq/embed/verdicts.html" title="The verdicts" data-echomq></iframe>`)
	c.mu.Lock()
	c.refuseEngine = true
	c.mu.Unlock()
	tb := newTab(t).onServer(c.base)
	tb.expectFailedRequests(".wasm")
	tb.open("/course.html")
	for _, f := range []string{"#a", "#b"} {
		scrollTo(tb, f)
		tb.wantSeen(f, "[role=alert]", "could not start")
		tb.inFrame(f, "").findControl("button", "Reload")
		if s := frameStatus(tb, f); s != "Stopped" {
			t.Errorf("%s says %q; want Stopped", f, s)
		}
	}
	if n := c.count("wasm"); n != 1 {
		t.Errorf("the engine was asked for %d times; want once, by the shared worker", n)
	}
}

// stopSharedEngine ends the course page's shared engine from outside the
// page, as a browser that ends a worker does: through DevTools, the worker
// itself calls close(). Nothing in the site can do this; no learner can.
func stopSharedEngine(tb *tab) {
	tb.t.Helper()
	infos, err := chromedp.Targets(tb.ctx)
	if err != nil {
		tb.t.Fatal(err)
	}
	stopped := 0
	for _, i := range infos {
		if i.Type != "shared_worker" || !strings.HasPrefix(i.URL, tb.base) {
			continue
		}
		ctx, cancel := chromedp.NewContext(tb.ctx, chromedp.WithTargetID(i.TargetID))
		_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(setTimeout(() => close(), 0), true)`))
		cancel()
		if err != nil {
			tb.t.Fatalf("close the shared worker %s: %v", i.URL, err)
		}
		stopped++
	}
	if stopped != 1 {
		tb.t.Fatalf("stopped %d shared workers; want the page's one", stopped)
	}
}

// TestSharedEngineDeathShowsInEveryEmbed ends the shared engine of a
// course page with three embeds: it sends no word as it goes, yet every
// embed shows the failure with its Reload button, its controls go
// disabled, and Reload in one embed brings that one back to Ready.
func TestSharedEngineDeathShowsInEveryEmbed(t *testing.T) {
	c := newCountedCourse(t, `
<iframe id="a" src="/echomq/embed/stepper.html" title="Stepper" data-echomq></iframe>
<iframe id="b" src="/echomq/embed/roundtrip.html" title="Round trip" data-echomq></iframe>
<iframe id="c" src="/echomq/embed/console.html" title="Console" data-echomq></iframe>`)
	tb := newTab(t).onServer(c.base)
	tb.open("/course.html")
	frames := []string{"#a", "#b", "#c"}
	for _, f := range frames {
		frameReady(tb, f)
	}
	stopSharedEngine(tb)
	for _, f := range frames {
		// The heartbeat's silence (32 s) and its beat (2 s), on a busy machine.
		scrollTo(tb, f)
		tb.inFrame(f, "#loader").wantTextWithin(70*time.Second, "#failure", "The playground stopped", "Reload to start again", "Reload")
		tb.wantSeen(f, "#failure-message", "The playground stopped")
		tb.wantSeen(f, "#reload", "Reload")
		if s := frameStatus(tb, f); s != "Stopped" {
			t.Errorf("%s: the status line says %q; want Stopped", f, s)
		}
	}
	tb.inFrame("#b", "#roundtrip").wantDisabled("Enqueue")
	tb.whole().screenshot("shared-engine-stopped")

	if _, err := eval[bool](tb, `(document.querySelector("#b").contentDocument.getElementById("reload").click(), true)`); err != nil {
		t.Fatal(err)
	}
	frameReady(tb, "#b")
	clickIn(tb, "#b", "Enqueue")
	tb.inFrame("#b", "#roundtrip").wantText(enqueueResult, "{:ok, :enqueued}")
}
