package browser

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

const otherTabNotice = "#resume-other-tab"

// clearSaved forgets whatever the browser's profile saved for the page.
func (tb *tab) clearSaved() {
	tb.t.Helper()
	if _, err := eval[bool](tb, "(localStorage.clear(), true)"); err != nil {
		tb.t.Fatal(err)
	}
}

// savedNow is the page's saved state as it is, or "" for none.
func (tb *tab) savedNow() string {
	tb.t.Helper()
	v, err := eval[*string](tb, "localStorage.getItem("+savedKey+")")
	if err != nil {
		tb.t.Fatal(err)
	}
	if v == nil {
		return ""
	}
	return *v
}

// onScreen says whether sel's box lies wholly inside the viewport, and
// where it is, for the message.
func (tb *tab) onScreen(sel string) (bool, string) {
	tb.t.Helper()
	type box struct {
		Top, Bottom, Height, ScrollY float64
		Missing                      bool
	}
	b, err := eval[box](tb, `(() => {
		const el = document.querySelector(`+strconv.Quote(sel)+`);
		if (!el) return {Missing: true};
		const r = el.getBoundingClientRect();
		return {Top: r.top, Bottom: r.bottom, Height: innerHeight, ScrollY: scrollY};
	})()`)
	if err != nil {
		tb.t.Fatal(err)
	}
	if b.Missing {
		return false, sel + " is not on the page"
	}
	where := fmt.Sprintf("%s spans y=%.0f…%.0f of a %.0f px screen, scrolled to %.0f", sel, b.Top, b.Bottom, b.Height, b.ScrollY)
	return b.Top >= 0 && b.Bottom <= b.Height && b.Bottom > b.Top, where
}

// TestResumeOfferWhereTheLearnerIs: a page reloaded far down comes back at
// its scroll position, and the offer is on that screen, not thousands of
// pixels above it. A learner who carries on without answering keeps what
// they did: saving does not wait on the offer, and the next visit offers
// the newer work, not the state the offer was holding.
func TestResumeOfferWhereTheLearnerIs(t *testing.T) {
	tb := openReady(t, "/")
	tb.clearSaved()
	tb.reload()
	ready(tb)
	r := tb.in("#roundtrip")
	enqueueJob(r, "JOB-41", "{:ok, :enqueued}")
	first := tb.saved("the page to save the enqueue", func(v string) bool { return v != "" })

	if _, err := eval[bool](tb, "(scrollTo(0, document.documentElement.scrollHeight), true)"); err != nil {
		t.Fatal(err)
	}
	tb.reload()
	ready(tb)
	page := tb.whole()
	page.wantText(resumeOffer, "You have been here before")
	tb.eventually("the offer to be on the learner's screen", func() (string, bool) {
		ok, where := tb.onScreen(resumeOffer)
		y, _ := eval[float64](tb, "scrollY")
		return where, ok && y > 2000
	})

	// Carry on without answering: the new work is saved at once, and the
	// offer says what Resume would now replace.
	enqueueJob(r, "JOB-NEW", "{:ok, :enqueued}")
	page.wantText(resumeOffer, "You carried on here")
	tb.saved("the page to save the work done while the offer waited", func(v string) bool { return v != first })

	tb.reload()
	ready(tb)
	page.click("Resume where I left off")
	r.wantRows(pendingKey, [][]string{{"JOB-NEW", "0"}})
}

// TestTwoTabsKeepEachOthersWork: with the lesson open in two tabs, one of
// them keeps where the learner left off; the other says so, saves
// nothing, and offers no "Start afresh" that would erase the first tab's
// state. When the first tab closes, the second says it keeps the work now.
func TestTwoTabsKeepEachOthersWork(t *testing.T) {
	a := openReady(t, "/")
	a.clearSaved()
	a.reload()
	ready(a)
	ra := a.in("#roundtrip")
	enqueueJob(ra, "JOB-A1", "{:ok, :enqueued}")
	kept := a.saved("tab A to save its enqueue", func(v string) bool { return v != "" })

	b := openReady(t, "/")
	pb := b.whole()
	pb.wantText(otherTabNotice, "This lesson is open in another tab", "not saved")
	if b.offerShown() {
		t.Error("the second tab offers to resume (and to start afresh over the first tab's work)")
	}
	if ok, where := b.onScreen(otherTabNotice); !ok {
		t.Errorf("the second tab's notice is off screen: %s", where)
	}
	rb := b.in("#roundtrip")
	enqueueJob(rb, "JOB-B1", "{:ok, :enqueued}")
	time.Sleep(1500 * time.Millisecond) // past the save delay
	if got := a.savedNow(); got != kept {
		t.Fatal("tab B's enqueue overwrote what tab A keeps")
	}
	// Tab A still saves (brought to the front first, as a learner
	// switching back to it does).
	if _, err := chromedp.Call(a.ctx, page.BringToFront, cdp.Empty{}); err != nil {
		t.Fatalf("Page.bringToFront: %v", err)
	}
	enqueueJob(ra, "JOB-A2", "{:ok, :enqueued}")
	keptA := a.saved("tab A to save its second enqueue", func(v string) bool { return v != kept })

	// Tab A is closed: B takes over, says so, and saves its own work.
	if err := chromedp.Cancel(a.ctx); err != nil {
		t.Fatalf("close tab A: %v", err)
	}
	pb.wantText(otherTabNotice, "The other tab has closed", "saved in place of what that tab kept")
	b.saved("tab B to save once it owns the lesson", func(v string) bool { return v != keptA })
	b.reload()
	ready(b)
	pb.click("Resume where I left off")
	rb.wantRows(pendingKey, [][]string{{"JOB-B1", "0"}})
	if shown, _ := eval[bool](b, `!!document.querySelector("`+otherTabNotice+`")`); shown {
		t.Error("after the other tab closed, the reloaded tab still says the lesson is open in another tab")
	}
}
