package browser

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

const (
	resumeOffer = "#resume-offer"
	savedKey    = `"echomq:resume:v1:" + location.protocol + location.pathname`
)

// reload reloads the tab's page, as the browser's reload button does.
func (tb *tab) reload() {
	tb.t.Helper()
	tb.run("reload", chromedp.Reload())
}

// saved waits for the page's saved state to settle where ok says, and
// returns it. Settled means unchanged for longer than resume.js's save
// delay (400 ms after the last change or keystroke): the page saves after
// each typed field as well as after each change, so a value that merely
// differs from before may be a save from before the last action, not
// after it.
func (tb *tab) saved(what string, ok func(string) bool) string {
	tb.t.Helper()
	const settle = time.Second
	var got string
	var since time.Time
	tb.eventually(what, func() (string, bool) {
		v, err := eval[*string](tb, "localStorage.getItem("+savedKey+")")
		if err != nil {
			return errString(err), false
		}
		if v == nil {
			return "nothing saved", false
		}
		if *v != got || since.IsZero() {
			got, since = *v, time.Now()
		}
		return got, ok(got) && time.Since(since) > settle
	})
	return got
}

func (tb *tab) offerShown() bool {
	tb.t.Helper()
	shown, err := eval[bool](tb, `!!document.querySelector("`+resumeOffer+`")`)
	if err != nil {
		tb.t.Fatal(err)
	}
	return shown
}

// TestResumeAfterAReload: the page keeps where the learner left off; on
// the next visit it offers to resume, and restores nothing until asked.
// Resume brings back the keyspace, the typed fields and the readouts,
// with the focus on the widget last worked in, and all together: a
// learner on a slow machine who claims the moment the job is back claims
// with the lease they typed. Start afresh forgets it; a damaged saved
// state is reported like a damaged link.
func TestResumeAfterAReload(t *testing.T) {
	tb := openReady(t, "/")
	if _, err := eval[bool](tb, "(localStorage.clear(), true)"); err != nil {
		t.Fatal(err)
	}
	tb.reload()
	ready(tb)
	if tb.offerShown() {
		t.Fatal("a page with nothing saved offers to resume")
	}

	r := tb.in("#roundtrip")
	enqueueJob(r, "JOB-41", "{:ok, :enqueued}")
	first := tb.saved("the page to save the enqueue", func(v string) bool { return v != "" })
	// A typed field is view state, saved as it is typed.
	r.fill("Lease (ms)", "12345")
	tb.saved("the page to save the typed lease", func(v string) bool { return v != first })

	tb.reload()
	ready(tb)
	page := tb.whole()
	page.wantText(resumeOffer, "You have been here before", "Nothing has been restored yet")
	// Never automatic: the fresh page is what shows until the learner chooses.
	r.wantRows(pendingKey, nil)
	if got := r.value("Lease (ms)"); got != "30000" {
		t.Errorf("before Resume the lease field says %q, want the default 30000", got)
	}
	// On an old laptop the page's work between two paints takes six times
	// as long, so a job shown before its lease field is back stays on
	// screen long enough to be claimed.
	tb.slowCPU(6)
	page.click("Resume where I left off")
	r.wantRows(pendingKey, [][]string{{"JOB-41", "0"}})
	if got := r.value("Lease (ms)"); got != "12345" {
		t.Errorf("after Resume the lease field says %q, want 12345", got)
	}
	// The readouts come back too, from the replay, and the learner is
	// back in the widget they worked in last.
	r.wantText(enqueueResult, "{:ok, :enqueued}")
	r.wantText(newestWireCall, "enqueue JOB-41")
	if f := r.focus(); !f.Inside || f.Tag != "section" {
		t.Errorf("after Resume the focus is on %s; want the round trip, where the learner left off", f)
	}
	r.clickShows("Claim", newestWireCall, "claim, lease 12345 ms")
	r.wantText(claimExplain, "Leased JOB-41 until 1767225612345")
	tb.slowCPU(1)
	if tb.offerShown() {
		t.Error("the offer is still shown after Resume")
	}

	// Start afresh forgets it: the next visit offers nothing.
	tb.reload()
	ready(tb)
	page.click("Start afresh")
	r.wantRows(pendingKey, nil)
	tb.reload()
	ready(tb)
	if tb.offerShown() {
		t.Error("after Start afresh, the next visit still offers to resume")
	}

	// A damaged saved state: the same notice as a damaged link, and it is dropped.
	if _, err := eval[bool](tb, fmt.Sprintf(`(localStorage.setItem(%s, JSON.stringify({v: 1, fragment: "#v1.not-a-link"})), true)`, savedKey)); err != nil {
		t.Fatal(err)
	}
	tb.reload()
	ready(tb)
	page.wantText("#notice", "Where you left off could not be restored:", "The playground starts from its default state instead.")
	if tb.offerShown() {
		t.Error("a damaged saved state is offered")
	}
	if v, _ := eval[*string](tb, "localStorage.getItem("+savedKey+")"); v != nil && *v == `{"v":1,"fragment":"#v1.not-a-link"}` {
		t.Error("the damaged saved state was kept")
	}
}

// TestEmbedsNeitherSaveNorOffer: an embed is one widget in someone else's
// page; it keeps nothing and offers nothing.
func TestEmbedsNeitherSaveNorOffer(t *testing.T) {
	tb := openReady(t, "/embed/roundtrip.html")
	r := tb.in("#roundtrip")
	enqueueJob(r, "JOB-7", "{:ok, :enqueued}")
	tb.reload()
	ready(tb)
	if tb.offerShown() {
		t.Error("an embed offers to resume")
	}
	if v, _ := eval[*string](tb, "localStorage.getItem("+savedKey+")"); v != nil {
		t.Errorf("an embed saved %q", *v)
	}
}

// TestOfflineLessonResumes: lesson.html opened from disk remembers too.
func TestOfflineLessonResumes(t *testing.T) {
	tb := openOffline(t)
	r := tb.in("#roundtrip")
	enqueueJob(r, "JOB-52", "{:ok, :enqueued}")
	tb.saved("the lesson to save the enqueue", func(v string) bool { return v != "" })
	tb.reload()
	ready(tb)
	r.wantRows(pendingKey, nil)
	tb.whole().click("Resume where I left off")
	r.wantRows(pendingKey, [][]string{{"JOB-52", "0"}})
}
