package browser

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestFirstScreenInvitesTheFirstStep: on a laptop (1280×800) and on a
// phone (360×740), the first screen holds a clear first control, the
// masthead's "Step the first move of @enqueue", without scrolling. It
// brings Step to the screen and takes the first move; stepping on from
// there, the move, its command and its reply stay on screen with Step, and
// on the phone the keys the move changed too.
func TestFirstScreenInvitesTheFirstStep(t *testing.T) {
	for _, vp := range []struct {
		name          string
		width, height int64
		tables        bool
	}{{"laptop", 1280, 800, false}, {"phone", 360, 740, true}} {
		t.Run(vp.name, func(t *testing.T) {
			tb := newTab(t)
			tb.run("set the viewport", chromedp.EmulateViewport(vp.width, vp.height))
			tb.open("/")
			ready(tb)
			if ok, where := tb.onScreen("#start-stepping"); !ok {
				t.Fatalf("the first screen has no first control: %s", where)
			}
			tb.run("click the first step", chromedp.Click(chromedp.JSPath(`document.getElementById("start-stepping")`)))
			st := tb.in("#stepper")
			st.wantText(stepPosition, "Move 1 of 4")
			if f := st.focus(); f.Tag != "button" || f.Name != "Step" {
				t.Errorf("after the first step the focus is on %s; want Step", f)
			}
			seen := []string{"#stepper-step", "#stepper-position", "#stepper-command", "#stepper-reply"}
			if vp.tables {
				seen = append(seen, "#stepper .keyspace-grid")
			}
			for n := 1; n <= 4; n++ {
				if n > 1 {
					st.click("Step")
					st.wantText(stepPosition, fmt.Sprintf("Move %d of 4", n))
				}
				// Together: from Step's top to the lowest of them, they fit in
				// one screen below the sticky contents bar, wherever the
				// learner has the page scrolled.
				span, err := eval[struct{ Span, Room float64 }](tb, `(() => {
					const boxes = `+jsArgs(seen)+`.map((s) => document.querySelector(s).getBoundingClientRect());
					const bar = document.getElementById("toc").getBoundingClientRect().height;
					return { Span: Math.max(...boxes.map((b) => b.bottom)) - Math.min(...boxes.map((b) => b.top)), Room: innerHeight - bar };
				})()`)
				if err != nil {
					t.Fatal(err)
				}
				if span.Span > span.Room {
					t.Errorf("at move %d, Step, the move, its command and reply%s span %.0f px; the screen has %.0f below the contents bar", n, map[bool]string{true: " and the tables"}[vp.tables], span.Span, span.Room)
				}
			}
			st.wantText("#stepper-command", "ZADD emq:{q}:pending 0 JOB-000001")
			tb.whole().screenshot("first-step-" + vp.name)
		})
	}
}
