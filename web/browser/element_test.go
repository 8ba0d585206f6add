package browser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	webpage "echomq.dev/playground/web/page"
)

// withoutSharedWorker removes SharedWorker from every document the tab
// opens, frames included, before any of their scripts run: a browser that
// has none (Chrome on Android before 148, or one where it is turned off).
func withoutSharedWorker(tb *tab) {
	tb.t.Helper()
	if _, err := chromedp.Call(tb.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: "delete globalThis.SharedWorker;",
	}); err != nil {
		tb.t.Fatalf("remove SharedWorker before any page script runs: %v", err)
	}
}

// TestEmbedsShareOneEngineWithoutSharedWorker: where the browser has no
// SharedWorker, the course page's embed.js (loaded twice here, as a
// careless page might) owns one engine for its four embeds: one download,
// one worker, every embed Ready, each in a keyspace of its own, and two
// that name one keyspace share it.
func TestEmbedsShareOneEngineWithoutSharedWorker(t *testing.T) {
	c := newCountedCourse(t, `
<iframe id="a" src="/echomq/embed/roundtrip.html" title="Round trip A" data-echomq></iframe>
<iframe id="b" src="/echomq/embed/roundtrip.html" title="Round trip B" data-echomq></iframe>
<iframe id="c" src="/echomq/embed/roundtrip.html?keyspace=dive1" title="Round trip C" data-echomq></iframe>
<iframe id="d" src="/echomq/embed/roundtrip.html?keyspace=dive1" title="Round trip D" data-echomq></iframe>
<script type="module" src="/echomq/embed.js"></script>`)
	tb := newTab(t).onServer(c.base)
	withoutSharedWorker(tb)
	tb.open("/course.html")
	for _, f := range []string{"#a", "#b", "#c", "#d"} {
		frameReady(tb, f)
	}
	if n := c.count("wasm"); n != 1 {
		t.Errorf("the engine was requested %d times for four embeds; want once", n)
	}
	if got := workersOf(tb, c.base); got["shared_worker"] != 0 || got["worker"] != 1 {
		t.Errorf("the browser runs these workers for the course page: %v; want one worker", got)
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
}

// TestCustomElement writes a course page with the custom element instead
// of iframes: each element makes the sandboxed frame the README's snippet
// does, sized to its widget, with its attributes as the embed's options;
// an unknown widget and a lease that does not pass each say so where the
// element stands. The script is loaded twice; the page still has one
// engine.
func TestCustomElement(t *testing.T) {
	c := newCountedCourse(t, `
<echomq-embed id="steps" widget="stepper"></echomq-embed>
<echomq-embed id="nothing" widget="stepperr"></echomq-embed>
<echomq-embed id="trip" widget="roundtrip" queue="emails" lease="abc"></echomq-embed>
<script type="module" src="/echomq/embed.js"></script>`)
	tb := newTab(t).onServer(c.base)
	tb.open("/course.html")
	frameReady(tb, "#steps iframe")
	frameReady(tb, "#trip iframe")
	if n := c.count("wasm"); n != 1 {
		t.Errorf("the engine was requested %d times for two elements; want once", n)
	}

	notice := func(sel string) string {
		got, err := eval[string](tb, fmt.Sprintf(`[...document.querySelectorAll(%s)].map((p) => p.getBoundingClientRect().height > 0 ? p.textContent : "").join(" | ")`, jsArgs(sel+" > p")))
		return got + errString(err)
	}
	if got := notice("#nothing"); !strings.Contains(got, `The widget "stepperr" does not exist`) || !strings.Contains(got, "stepper, beats, verdicts") {
		t.Errorf("the unknown widget shows %q; want a visible notice naming the widgets", got)
	}
	if n, _ := eval[int](tb, `document.querySelectorAll("#nothing iframe").length`); n != 0 {
		t.Errorf("the unknown widget made %d frames; want none", n)
	}
	if got := notice("#trip"); !strings.Contains(got, "The attribute lease was ignored: a lease is a whole number") {
		t.Errorf("the bad lease shows %q; want a visible notice in place", got)
	}
	trip := tb.inFrame("#trip iframe", "#roundtrip")
	trip.wantText("#roundtrip-pending caption code", "emq:{emails}:pending")
	lease, _ := eval[string](tb, `document.querySelector("#trip iframe").contentDocument.getElementById("roundtrip-lease").value`)
	if lease != "30000" {
		t.Errorf("the round trip's lease is %q; want the default 30000, the bad attribute left out", lease)
	}
	for _, f := range []string{"#steps iframe", "#trip iframe"} {
		got, err := eval[[]string](tb, fmt.Sprintf(`(() => { const f = document.querySelector(%s); return [f.getAttribute("sandbox"), f.title, String(Math.round(f.getBoundingClientRect().height))]; })()`, jsArgs(f)))
		if err != nil || len(got) != 3 {
			t.Fatalf("%s: %v", f, err)
		}
		if got[0] != webpage.EmbedSandbox {
			t.Errorf("%s has sandbox=%q; want %q", f, got[0], webpage.EmbedSandbox)
		}
		if got[1] == "" {
			t.Errorf("%s has no title", f)
		}
		var h int
		fmt.Sscan(got[2], &h)
		if h < 300 {
			t.Errorf("%s is %d px high; want it sized to its widget", f, h)
		}
	}
	clickIn(tb, "#trip iframe", "Enqueue")
	trip.wantText(enqueueResult, "{:ok, :enqueued}")
	tb.whole().screenshot("custom-element")
}

// TestLMSFrameResize: an embed also tells the page around it its height
// the way Canvas and Sakai listen for it, lti.frameResize, whenever it
// changes.
func TestLMSFrameResize(t *testing.T) {
	base := courseServer(t, "")
	tb := newTab(t).onServer(base)
	tb.open("/course.html")
	frameReady(tb, "iframe")
	if _, err := eval[bool](tb, `(window.lti = [], addEventListener("message", (e) => {
		if (typeof e.data !== "string") return;
		const m = JSON.parse(e.data);
		if (m.subject === "lti.frameResize") window.lti.push(m.height);
	}), document.querySelector("iframe").style.width = "520px", true)`); err != nil {
		t.Fatal(err)
	}
	tb.eventually("an lti.frameResize with the frame's new height", func() (string, bool) {
		got, err := eval[[]float64](tb, `[...window.lti.slice(-1), document.querySelector("iframe").getBoundingClientRect().height]`)
		if err != nil || len(got) != 2 {
			return fmt.Sprint(got, errString(err)), false
		}
		return fmt.Sprintf("last lti.frameResize %v, frame %v px", got[0], got[1]), got[0] > 300 && got[0]-got[1] < 2 && got[1]-got[0] < 2
	})
}
