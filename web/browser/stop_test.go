package browser

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp/kb"
)

// testBudget is the work budget (the page's ?budget option) of the tests
// whose runaways the engine's own budget must end: 25 million units, which
// the engine spends in about a second, where the real budget (what a real
// Redis does in 5 s) takes minutes in a browser. TestStop* run with the
// real one and end their runaways with Stop.
const testBudget = "25000000"

// budgetWait is how long a test waits for a runaway that testBudget ends.
// It is a bound for a loaded machine, not a speed expected of the engine:
// about a second idle, 7 s on two busy CPUs, past the 20 s of waitTimeout
// with three test runs beside it (TestEditorRunawayKeepsThePageResponsive
// failed so).
const budgetWait = 3 * time.Minute

// stopped is what a learner reads after pressing Stop (web/assets/stop.js's
// STOPPED), in part.
var stopped = []string{"Stopped.", "restarted its engine", "the keyspace is as it was just before this run", "nothing the run wrote was kept"}

// TestStopEndsARunawayInTheEditor: with the real work budget, a learner runs
// `while true do end` from the editor, presses Stop, and within a second
// reads that the run was stopped and what became of the keyspace; the page
// is ready again soon after, the keys are as stated (the write before the
// run stays, the run's own write is gone), and a following Run works.
func TestStopEndsARunawayInTheEditor(t *testing.T) {
	tb := openReady(t, "/")
	c := tb.in("#console")
	typeLine(c, "SET before kept")
	wantOut(c, "OK")

	ed := tb.in(editorSection)
	ed.choose("A new script")
	ed.fill("KEYS", "runaway")
	ed.fill("Script", "redis.call('SET', KEYS[1], 'written by the run')\nwhile true do end")
	ed.clickShows("Run", editorOutcome, "Running…", "Stop ends it now")
	time.Sleep(300 * time.Millisecond) // well inside the loop by now
	watchStop(tb, "editor-stop", editorOutcome)
	pressed := time.Now()
	ed.click("Stop")
	ed.wantText(editorOutcome, stopped...)
	answeredWithinASecond(tb)
	ready(tb)
	t.Logf("the page was Ready again %v after the click (the test's clock)", time.Since(pressed))
	ed.wantText(editorProblem, stopped...)

	typeLine(c, "GET before")
	wantOut(c, `"kept"`)
	typeLine(c, "EXISTS runaway")
	wantOut(c, "(integer) 0")

	ed.fill("Script", "return redis.call('SET', KEYS[1], 'after Stop')")
	ed.clickShows("Run", editorOutcome, "The script returned")
	typeLine(c, "GET runaway")
	wantOut(c, `"after Stop"`)
	ed.screenshot("editor-stopped")
}

// TestStopEndsARunawayAtTheConsole: the console's Stop does the same for a
// line that runs a script, and the console answers the next line.
func TestStopEndsARunawayAtTheConsole(t *testing.T) {
	tb := openReady(t, "/")
	c := tb.in("#console")
	typeLine(c, "SET before kept")
	c.fill("Command", `EVAL "redis.call('SET', 'during', 'x') while true do end" 0`)
	c.press(kb.Enter)
	c.wantText(lastNote, "Running…", "Stop ends it now")
	watchStop(tb, "console-stop", lastOut)
	c.click("Stop")
	c.wantText(lastOut, stopped...)
	answeredWithinASecond(tb)
	ready(tb)
	typeLine(c, "MGET before during")
	wantOut(c, "1) \"kept\"\n2) (nil)")
}

// watchStop has the page time its own answer to Stop: from the click on the
// button with id to the moment sel first says "Stopped." (the page's clock,
// so the test's own round trips to the browser are not counted).
func watchStop(tb *tab, id, sel string) {
	tb.t.Helper()
	if _, err := eval[bool](tb, `(() => {
		window.stopAnswer = null;
		let pressed = 0;
		document.addEventListener("click", (e) => { if (e.target.id === `+jsArgs(id)+`) pressed = performance.now(); }, true);
		const o = new MutationObserver(() => {
			const el = [...document.querySelectorAll(`+jsArgs(sel)+`)].pop();
			if (pressed && el && el.textContent.includes("Stopped.")) { window.stopAnswer = performance.now() - pressed; o.disconnect(); }
		});
		o.observe(document.body, { subtree: true, childList: true, characterData: true });
		return true;
	})()`); err != nil {
		tb.t.Fatal(err)
	}
}

// answeredWithinASecond reads what watchStop measured and wants it under 1 s.
func answeredWithinASecond(tb *tab) {
	tb.t.Helper()
	ms, err := eval[*float64](tb, "window.stopAnswer")
	if err != nil || ms == nil {
		tb.t.Fatalf("the page did not time its answer to Stop: %v", err)
	}
	tb.t.Logf("Stop was answered %.0f ms after the click", *ms)
	if *ms >= 1000 {
		tb.t.Errorf("Stop was answered %.0f ms after the click; want within 1 s", *ms)
	}
}

// TestStopInTheOfflineLesson: the offline lesson's engine is compiled on
// the page from the module inside the file; Stop restarts it from the
// module its worker handed back, with no network, and the keys are as
// stated.
func TestStopInTheOfflineLesson(t *testing.T) {
	tb := openOffline(t)
	c := tb.in("#console")
	typeLine(c, "SET before kept")
	c.fill("Command", `EVAL "redis.call('SET', 'during', 'x') while true do end" 0`)
	c.press(kb.Enter)
	c.wantText(lastNote, "Running…", "Stop ends it now")
	watchStop(tb, "console-stop", lastOut)
	c.click("Stop")
	c.wantText(lastOut, stopped...)
	answeredWithinASecond(tb)
	ready(tb)
	typeLine(c, "MGET before during")
	wantOut(c, "1) \"kept\"\n2) (nil)")
}

// TestNoStopInEmbedsThatShareAnEngine: embeds of one course page share a
// SharedWorker, which no page can terminate, and a restart would empty the
// other embeds' keyspaces: while a runaway runs in one, no Stop is shown,
// and the running entry says why, so nothing is lost silently.
func TestNoStopInEmbedsThatShareAnEngine(t *testing.T) {
	c := newCountedCourse(t, `
<iframe id="console" src="/echomq/embed/console.html?budget=`+testBudget+`" title="Console" data-echomq></iframe>
<iframe id="trip" src="/echomq/embed/roundtrip.html?budget=`+testBudget+`" title="Round trip" data-echomq></iframe>`)
	tb := newTab(t).onServer(c.base)
	tb.open("/course.html")
	frameReady(tb, "#console")
	frameReady(tb, "#trip")
	type seen struct {
		Running bool `json:"running"`
		Stop    bool `json:"stop"`
	}
	if _, err := eval[bool](tb, `(() => {
		const d = document.getElementById("console").contentDocument;
		d.getElementById("console-input").value = 'EVAL "while true do end" 0';
		d.getElementById("console-form").requestSubmit();
		return true;
	})()`); err != nil {
		t.Fatal(err)
	}
	var got seen
	tb.eventually("the runaway to be running in the shared console", func() (string, bool) {
		var err error
		got, err = eval[seen](tb, `(() => {
			const d = document.getElementById("console").contentDocument;
			const last = [...d.querySelectorAll("#console-log > li")].pop();
			const stop = d.getElementById("console-stop");
			return { running: !!last && last.dataset.kind === "running", stop: !!stop && !stop.hidden };
		})()`)
		if err != nil {
			return errString(err), false
		}
		return fmt.Sprintf("%+v", got), got.Running
	})
	if got.Stop {
		t.Errorf("a Stop is shown in an embed that shares its engine")
	}
	tb.inFrame("#console", "#console").wantText(".console-note", "shared with the other widgets", "so it has no Stop")
	tb.inFrame("#console", "#console").wantTextWithin(budgetWait, ".console-out", "Script killed")
}
