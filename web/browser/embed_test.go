package browser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// coursePage is the body of a course author's page, as the README's
// snippet tells them to write it: the playground's files copied under
// /echomq/, one iframe per widget, and embed.js (which courseWith adds) to
// fit each frame to its content. No inline script or style anywhere.
const coursePage = `<p>Try the round trip:</p>
<iframe src="/echomq/embed/roundtrip.html?%s" title="Enqueue, then claim: the round trip" data-echomq></iframe>
<p>The end of the lesson.</p>`

// courseServer serves coursePage, its iframe's address carrying query, at
// /course.html and the built site under /echomq/ (see courseWith).
func courseServer(t *testing.T, query string) string {
	t.Helper()
	return courseWith(t, fmt.Sprintf(coursePage, query))
}

// frameEval evaluates an expression inside the course page's iframe.
func frameEval[T any](tb *tab, expr string) (T, error) {
	return eval[T](tb, `(() => { const d = document.querySelector("iframe").contentDocument; return (`+expr+`); })()`)
}

// TestEmbedInCourse puts the round trip in a course page that runs under
// the strict CSP (the harness fails on any violation, which Chromium logs
// as a console error). The URL options take effect: the queue's name, the
// ids enqueued at start, the lease, and the dark theme. The frame fits its
// content, and keeps fitting as the content grows.
func TestEmbedInCourse(t *testing.T) {
	base := courseServer(t, "queue=emails&ids=JOB-1,JOB-2&lease=5000&theme=dark")
	tb := newTab(t).onServer(base)
	tb.open("/course.html")
	tb.eventually("the embed to say Ready", func() (string, bool) {
		got, err := frameEval[string](tb, `d && d.querySelector("#status") ? d.querySelector("#status").textContent : ""`)
		return got + errString(err), got == "Ready"
	})

	pending, err := frameEval[[]string](tb, `[...d.querySelectorAll("#roundtrip-pending tbody tr")].map((tr) => tr.cells[0].textContent.trim())`)
	if err != nil || strings.Join(pending, ",") != "JOB-1,JOB-2" {
		t.Errorf("the ids from the URL: pending holds %q (%v); want JOB-1, JOB-2", pending, err)
	}
	caption, _ := frameEval[string](tb, `d.querySelector("#roundtrip-pending caption code").textContent`)
	if caption != "emq:{emails}:pending" {
		t.Errorf("the pending table is captioned %q; want the queue from the URL, emq:{emails}:pending", caption)
	}
	lease, _ := frameEval[string](tb, `d.getElementById("roundtrip-lease").value`)
	if lease != "5000" {
		t.Errorf("the lease field holds %q; want 5000 from the URL", lease)
	}
	scheme, _ := frameEval[string](tb, `getComputedStyle(d.documentElement).colorScheme`)
	if scheme != "dark" {
		t.Errorf("the embed's color-scheme is %q; want dark from the URL", scheme)
	}

	fits := func(what string) float64 {
		var last float64
		tb.eventually("the frame to fit its content "+what, func() (string, bool) {
			got, err := frameEval[[]float64](tb, `[document.querySelector("iframe").getBoundingClientRect().height, d.documentElement.getBoundingClientRect().height]`)
			if err != nil || len(got) != 2 {
				return errString(err), false
			}
			last = got[0]
			return fmt.Sprintf("frame %.0f px, content %.0f px", got[0], got[1]), got[0] > 300 && got[0]-got[1] < 2 && got[1]-got[0] < 2
		})
		return last
	}
	first := fits("at start")

	// Claim both jobs with the URL's lease: the active table grows by rows,
	// and the wire log by entries; the frame follows.
	for i := 0; i < 6; i++ {
		if _, err := frameEval[bool](tb, `(d.querySelector("#roundtrip-enqueue").click(), true)`); err != nil {
			t.Fatal(err)
		}
	}
	tb.eventually("six more jobs pending", func() (string, bool) {
		n, err := frameEval[int](tb, `d.querySelectorAll("#roundtrip-pending tbody tr").length`)
		return fmt.Sprint(n, errString(err)), n == 8
	})
	if grown := fits("after it grew"); grown <= first {
		t.Errorf("the frame stayed %.0f px high after the content grew (it was %.0f)", grown, first)
	}
	tb.whole().screenshot("embed-in-course")
}

// TestEmbedWithoutWebAssembly opens an embed where WebAssembly is missing,
// as in a browser whose policy turns it off (Safari's Lockdown Mode removes
// it the same way): the frame says so, in its own alert, rather than
// staying blank or spinning.
func TestEmbedWithoutWebAssembly(t *testing.T) {
	tb := newTab(t)
	if _, err := chromedp.Call(tb.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: "delete globalThis.WebAssembly;",
	}); err != nil {
		t.Fatalf("remove WebAssembly before any page script runs: %v", err)
	}
	tb.open("/embed/stepper.html")
	alert := tb.whole().wantText("[role=alert]", "could not start", "WebAssembly")
	t.Logf("the embed says: %s", alert)
	tb.whole().wantText(statusLine, "Stopped")
	tb.whole().screenshot("embed-no-wasm")
}
