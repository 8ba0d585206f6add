package browser

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// readmeCourse is the README's iframe snippet, as a course author pastes it.
const readmeCourse = `<p>Step the moves, then read the two beats and run the round trip below.</p>
<iframe src="/echomq/embed/stepper.html" title="Step the @enqueue moves" loading="lazy" data-echomq
  sandbox="allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox" allow="clipboard-write"></iframe>
<iframe src="/echomq/embed/beats.html" title="The two beats of @enqueue" loading="lazy" data-echomq></iframe>
<iframe src="/echomq/embed/verdicts.html" title="Run @enqueue: the three verdicts" loading="lazy" data-echomq></iframe>
<iframe src="/echomq/embed/roundtrip.html" title="Enqueue, then claim: the round trip" loading="lazy" data-echomq></iframe>`

// frameNear says whether the embed in the frame has started its engine
// ("started"), is waiting to be near ("waiting"), or has not run yet ("").
func frameNear(tb *tab, frameSel string) string {
	got, err := eval[string](tb, fmt.Sprintf(`document.querySelector(%s)?.contentDocument?.documentElement?.dataset.near ?? ""`, jsArgs(frameSel)))
	return got + errString(err)
}

// TestEmbedsStartWhereTheyStay: on the README's course page, unscrolled in
// an 800 px window, the stepper at the top starts; the verdicts and the
// round trip, screens below once the frames have their heights, wait,
// however the frames' heights arrive. The page hardly moves while the
// embeds arrive: embed.js reserves each frame's height before its widget
// reports it.
func TestEmbedsStartWhereTheyStay(t *testing.T) {
	base := courseWith(t, readmeCourse)
	tb := newTab(t).onServer(base)
	tb.run("set the viewport", chromedp.EmulateViewport(1280, 800))
	tb.open("/course.html")
	const stepper, verdicts, trip = `iframe[src*="stepper"]`, `iframe[src*="verdicts"]`, `iframe[src*="roundtrip"]`
	tb.eventually("the stepper at the top to be Ready", func() (string, bool) {
		s := frameStatus(tb, stepper)
		return s, s == "Ready"
	})
	time.Sleep(2 * time.Second) // time for a wrong start to show
	for _, f := range []string{verdicts, trip} {
		top, _ := eval[float64](tb, fmt.Sprintf(`document.querySelector(%s).getBoundingClientRect().top`, jsArgs(f)))
		if got := frameNear(tb, f); got == "started" {
			t.Errorf("%s, whose top is at %.0f px in an 800 px window, started its engine before the reader scrolled", f, top)
		}
	}
	type shift struct {
		Sum   float64 `json:"sum"`
		Count int     `json:"count"`
	}
	cls, err := eval[shift](tb, `new Promise((resolve) => {
		let sum = 0, count = 0;
		new PerformanceObserver((list) => {
			for (const e of list.getEntries()) if (!e.hadRecentInput) { sum += e.value; count++; }
		}).observe({ type: "layout-shift", buffered: true });
		setTimeout(() => resolve({ sum, count }), 200);
	})`)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("layout shift while the embeds arrived: %.4f in %d shifts", cls.Sum, cls.Count)
	if cls.Sum >= 0.05 {
		t.Errorf("the course page's layout shift while the embeds arrived is %.3f; want well under 0.1 (below 0.05)", cls.Sum)
	}
	// Scrolled to, the round trip starts.
	frameReady(tb, trip)
}
