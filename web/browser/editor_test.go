package browser

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The script editor's hooks (TESTING.md, "#editor").
const (
	editorSection  = "#editor"
	editorState    = "[data-testid=editor-state]"
	editorPosition = "[data-testid=editor-position]"
	editorCommand  = "[data-testid=editor-command]"
	editorReply    = "[data-testid=editor-reply]"
	editorOutcome  = "[data-testid=editor-outcome]"
	editorProblem  = "[data-testid=editor-problem]"
	editorRuns     = "[data-testid=editor-runs] > li"
	diffSummary    = "[data-testid=diff-summary]"
	diffRemoved    = "[data-testid=diff] .is-del"
	// editorLine is the line layer behind the text area: one row per line.
	editorRunning = ".editor-lines .line.running"
	editorError   = ".editor-lines .line.is-error"

	editorPayload = `{"task":"edit"}`
)

// keyWith presses one key with modifiers held, as a keyboard does.
func (s scope) keyWith(key string, mods chromedp.Modifier) {
	s.tb.t.Helper()
	s.tb.run(fmt.Sprintf("press %q with modifiers %d", key, mods), chromedp.KeyEvent(key, chromedp.KeyModifiers(mods)))
}

// clickField clicks into the field labelled label, putting the caret there.
func (s scope) clickField(label string) {
	s.tb.t.Helper()
	s.findControl("field", label)
	s.tb.run(fmt.Sprintf("click into %q", label), chromedp.Click(chromedp.JSPath(s.expr("field", label))))
}

// dropExistsCheck edits enqueue.lua in the editor as a learner would, with
// the keyboard: from the top, down to line 13, select the five lines of
// move 2 (its two comment lines and the EXISTS check), and delete them.
func dropExistsCheck(ed scope) {
	ed.tb.t.Helper()
	ed.clickField("Script")
	ed.keyWith(kb.Home, chromedp.ModifierCtrl)
	for range 12 {
		ed.press(kb.ArrowDown)
	}
	for range 5 {
		ed.keyWith(kb.ArrowDown, chromedp.ModifierShift)
	}
	ed.press(kb.Delete)
	src := ed.value("Script")
	if strings.Contains(src, "EXISTS") || strings.Contains(src, "@move 2") {
		ed.tb.t.Fatalf("after deleting move 2 the script still has it:\n%s", src)
	}
	if !strings.Contains(src, "redis.call('HSET'") || !strings.Contains(src, "@move 1 gate") {
		ed.tb.t.Fatalf("deleting move 2 took more with it:\n%s", src)
	}
}

// TestEditorDropExistsWritesTheDuplicateTwice is the course's exercise:
// take the EXISTS check out of enqueue.lua, run it twice with one id, and
// see both runs answer 1 and write the row and the pending entry again.
// The change shows as a diff, in words; Reset to original brings the check
// back, and the original then answers 0 and writes nothing.
func TestEditorDropExistsWritesTheDuplicateTwice(t *testing.T) {
	tb := openReady(t, "/")
	ed := tb.in(editorSection)

	ed.wantText(editorState, "unchanged")
	ed.wantText(diffSummary, "No changes")
	if got, want := ed.value("KEYS"), "emq:{q}:job:JOB-000001\nemq:{q}:pending"; got != want {
		t.Errorf("KEYS = %q, want %q", got, want)
	}
	if got, want := ed.value("ARGV"), "JOB-000001\n"+editorPayload; got != want {
		t.Errorf("ARGV = %q, want %q", got, want)
	}

	dropExistsCheck(ed)
	ed.wantText(editorState, "edited")
	ed.wantText(diffSummary, "Against enqueue.lua: 5 lines removed.")
	removed := ed.texts(diffRemoved)
	n, check := scriptLineAt(t, "EXISTS")
	if want := fmt.Sprintf("removed was line %d %s", n, check); len(removed) != 5 || !strings.Contains(removed[2], want) {
		t.Errorf("the diff's removed lines are %q; want five, the third reading %q: the EXISTS check, marked in words", removed, want)
	}

	ed.clickShows("Run", editorOutcome, "The script returned 1.", "It wrote: HSET emq:{q}:job:JOB-000001", "ZADD emq:{q}:pending")
	row := [][]string{{"state", "pending"}, {"attempts", "0"}, {"payload", editorPayload}}
	ed.wantRows("emq:{q}:job:JOB-000001", row)
	ed.wantRows(pendingKey, [][]string{{"JOB-000001", "0"}})

	ed.click("Run")
	out := ed.wantText(editorOutcome,
		"The script returned 1.",
		"Run 1 had the same KEYS and ARGV, and this run wrote again, with the same reply, 1, both times.",
		"the duplicate was written twice",
		"The original enqueue.lua answers 0 here and writes nothing")
	t.Logf("second run: %s", out)
	ed.wantText(editorOutcome, "HSET emq:{q}:job:JOB-000001 (answered 0)", "ZADD emq:{q}:pending (answered 0)")
	runs := ed.texts(editorRuns)
	if len(runs) != 2 {
		t.Fatalf("the runs list holds %q; want two runs", runs)
	}
	for _, r := range runs {
		if !strings.Contains(r, "enqueue.lua, edited") || !strings.Contains(r, "(integer) 1") || !strings.Contains(r, "2 writes") {
			t.Errorf("run %q: want the edited enqueue.lua answering (integer) 1 with 2 writes", r)
		}
	}
	ed.screenshot("editor-duplicate")

	// Reset to original: the check is back, and the same call is a duplicate.
	ed.clickShows("Reset to original", editorState, "unchanged")
	ed.wantText(diffSummary, "No changes")
	if _, check := scriptLineAt(t, "EXISTS"); !strings.Contains(ed.value("Script"), check) {
		src := ed.value("Script")
		t.Errorf("after Reset to original the script has no EXISTS check:\n%s", src)
	}
	ed.wantAnnounced("Back to enqueue.lua as it was")
	ed.clickShows("Run", editorOutcome, "The script returned 0.", "It wrote nothing.")
}

// TestEditorErrors: a syntax error shows Redis's message and marks the line
// it names; so does an error while running, and what the script wrote
// before it stays.
func TestEditorErrors(t *testing.T) {
	tb := openReady(t, "/")
	ed := tb.in(editorSection)
	ed.choose("A new script")
	ed.fill("KEYS", "scratch")

	ed.fill("Script", "local x = 1\nlocal y = {\nreturn x")
	ed.click("Run")
	ed.wantText(editorProblem, "Syntax error on line 3",
		"ERR Error compiling script (new function): user_script:3: unexpected symbol near 'return'")
	ed.wantAttrs(editorError, "data-line", "3")
	ed.wantText(editorReply, "(error) ERR Error compiling script")
	ed.wantText(editorOutcome, "nothing ran and nothing was written")
	ed.screenshot("editor-syntax-error")

	// Editing clears the mark: the line may have moved.
	ed.fill("Script", "redis.call('SET', KEYS[1], 'written first')\nreturn redis.call('HGET', KEYS[1], 'f')")
	ed.wantAttrs(editorError, "data-line")
	ed.clickShows("Run", editorProblem, "Runtime error on line 2", "WRONGTYPE Operation against a key holding the wrong kind of value", "@user_script:2")
	ed.wantAttrs(editorError, "data-line", "2")
	ed.wantText(editorOutcome, "It failed on line 2", "SET scratch", "those writes stay")
	ed.wantRows("scratch", [][]string{{"string", "written first"}})
}

// TestEditorRunawayKeepsThePageResponsive: a script that never returns is
// stopped once it is past the engine's budget with Redis's SCRIPT KILL error,
// and the page says so in words. The engine runs in a Web Worker, so while
// the script is still running, a click on another widget is answered.
func TestEditorRunawayKeepsThePageResponsive(t *testing.T) {
	tb := openReady(t, "/?budget="+testBudget)
	ed := tb.in(editorSection)
	st := tb.in("#stepper")
	ed.choose("A new script")
	ed.fill("KEYS", "runaway")
	ed.fill("Script", "redis.call('SET', KEYS[1], 'before the loop')\nwhile true do end")

	started := time.Now()
	ed.clickShows("Run", editorPosition, "Running the script")

	// The lesson's stepper answers its Back button while the engine is busy.
	st.clickAnyway("Back")
	type seen struct {
		Stepper string `json:"stepper"`
		Running bool   `json:"running"`
	}
	probe := `({stepper: document.getElementById("stepper-live").textContent,
		running: document.getElementById("editor").dataset.running === "true"})`
	var got seen
	tb.eventually("the stepper to answer Back", func() (string, bool) {
		var err error
		got, err = eval[seen](tb, probe)
		if err != nil {
			return errString(err), false
		}
		return fmt.Sprintf("%+v", got), strings.Contains(got.Stepper, "Already before move 1.")
	})
	if !got.Running {
		t.Errorf("the stepper answered only after the editor's run had ended (%v after Run): the page was not responsive meanwhile", time.Since(started))
	}
	t.Logf("the stepper answered %v after Run, with the script still running", time.Since(started))

	ed.wantTextWithin(budgetWait, editorProblem, "Stopped on line 2", "past its budget", "SCRIPT KILL", "What it wrote before that stays",
		"ERR Script killed by user with SCRIPT KILL")
	t.Logf("the runaway was reported %v after Run", time.Since(started)) // reported, never judged
	ed.wantText(editorOutcome, "The playground stopped it on line 2 when it ran past its budget", "Before that it wrote:", "those writes stay in the keyspace")
	if got := ed.text(editorOutcome); strings.Contains(got, "wrote nothing") || strings.Contains(got, "Nothing is rolled back") {
		t.Errorf("the runaway's outcome contradicts itself: %q", got)
	}
	ed.wantAttrs(editorError, "data-line", "2")
	ed.wantRows("runaway", [][]string{{"string", "before the loop"}})
	ed.screenshot("editor-runaway")
}

// TestEditorStepsAnEditedScript walks an edited enqueue.lua step by step,
// as the lesson's stepper walks the original: the line that ran, the
// command and its reply, and the keys with what is new.
func TestEditorStepsAnEditedScript(t *testing.T) {
	tb := openReady(t, "/")
	ed := tb.in(editorSection)
	dropExistsCheck(ed)

	ed.clickShows("Step", editorPosition, "Step 1 of 3 · move 1 · gate · line 10")
	ed.wantAttrs(editorRunning, "data-line", "10")
	ed.wantText(editorCommand, "(no command in this move)")
	ed.wantText(editorOutcome, "the script goes on to move 3 · row")
	ed.wantRows("emq:{q}:job:JOB-000001", nil)

	ed.clickShows("Step", editorPosition, "Step 2 of 3 · move 3 · row · line 15")
	ed.wantAttrs(editorRunning, "data-line", "15")
	ed.wantText(editorCommand, `HSET emq:{q}:job:JOB-000001 state pending attempts 0 payload "{\"task\":\"edit\"}"`)
	ed.wantText(editorReply, "(integer) 3")
	rowTable := ed.wantRows("emq:{q}:job:JOB-000001", [][]string{{"state", "pending"}, {"attempts", "0"}, {"payload", editorPayload}})
	for i, m := range rowTable.Marks {
		if len(m) != 1 || !strings.EqualFold(m[0], "new") {
			t.Errorf("row field %d is marked %q; want new", i, m)
		}
	}

	ed.clickShows("Step", editorPosition, "Step 3 of 3 · move 4 · pending · line 18")
	ed.wantText(editorCommand, "ZADD emq:{q}:pending 0 JOB-000001")
	ed.wantRows(pendingKey, [][]string{{"JOB-000001", "0"}})
	ed.wantText(editorOutcome, "The script returned 1.")
	ed.wantDisabled("Step")

	ed.clickShows("Back", editorPosition, "Step 2 of 3")
	ed.wantRows(pendingKey, nil)

	// The keys, from a button of the widget.
	ed.press(kb.ArrowLeft)
	ed.wantText(editorPosition, "Step 1 of 3")
	ed.press(kb.Home)
	ed.wantText(editorPosition, "Before the first step")
	ed.wantDisabled("Back")
	ed.press(kb.End)
	ed.wantText(editorPosition, "Step 3 of 3")
	ed.press(kb.ArrowRight)
	ed.wantAnnounced("That was the last step")
}

// TestEditorKeyboard: Tab in the script indents; Esc then Tab leaves it,
// so the keyboard is never trapped.
func TestEditorKeyboard(t *testing.T) {
	tb := openReady(t, "/")
	ed := tb.in(editorSection)
	ed.choose("A new script")
	ed.fill("Script", "x")
	ed.press(kb.Tab)
	if got := ed.value("Script"); got != "x  " {
		t.Errorf("after Tab the script is %q; want two spaces indented", got)
	}
	ed.press(kb.Escape)
	ed.press(kb.Tab)
	if f := ed.focus(); f.Tag == "textarea" && f.Name == "Script" {
		t.Errorf("Esc, Tab left the focus in the script: %v", f)
	}
}

// TestEditorPermalink copies a link after two runs of the edited script,
// stepped back to the middle of the second, and opens it: the link's Lua
// is shown for review first, then the editor has the edited text, the same
// KEYS and ARGV, both runs, and the step it was on. A link whose editor
// view was tampered with (wrong types, too many keys) opens with the
// original script and no run, rather than failing.
func TestEditorPermalink(t *testing.T) {
	tb := openReady(t, "/")
	ed := tb.in(editorSection)
	dropExistsCheck(ed)
	edited := ed.value("Script")
	ed.clickShows("Run", editorOutcome, "The script returned 1.")
	ed.clickShows("Run", editorOutcome, "Run 1 had the same KEYS and ARGV")
	ed.clickShows("Back", editorPosition, "Step 2 of 3 · move 3 · row · line 15 · run 2")
	link := copyLink(ed, "editor")

	opened := newTab(t)
	opened.openURL(link)
	opened.whole().click("Run it and open the link")
	ready(opened)
	o := opened.in(editorSection)
	o.wantText(editorPosition, "Step 2 of 3 · move 3 · row · line 15 · run 2")
	if got := o.value("Script"); got != edited {
		t.Errorf("the opened link's script differs:\n got %q\nwant %q", got, edited)
	}
	if got, want := o.value("ARGV"), "JOB-000001\n"+editorPayload; got != want {
		t.Errorf("ARGV = %q, want %q", got, want)
	}
	o.wantText(diffSummary, "5 lines removed")
	o.wantText(editorCommand, "HSET emq:{q}:job:JOB-000001")
	o.wantAttrs(editorRunning, "data-line", "15")
	if runs := o.texts(editorRuns); len(runs) != 2 {
		t.Errorf("the opened link lists the runs %q; want two", runs)
	}

	// Hostile view state: every field of the wrong kind or size.
	state := decodeLink(t, link[strings.Index(link, "#"):])
	many := make([]any, 65)
	for i := range many {
		many[i] = "k"
	}
	state["views"].(map[string]any)["editor"] = map[string]any{
		"base": "<img src=x>", "source": 42, "keys": many, "argv": "JOB-1", "step": "all",
	}
	tampered := newTab(t)
	tampered.open("/" + linkFragment(t, state))
	tampered.whole().click("Run it and open the link")
	ready(tampered)
	x := tampered.in(editorSection)
	x.wantText(editorState, "unchanged")
	if src := x.value("Script"); !strings.Contains(src, "redis.call('EXISTS', KEYS[1]) == 1") {
		t.Errorf("a tampered link put %q in the editor; want the original enqueue.lua", src)
	}
	x.wantText(editorPosition, "Not run yet")
	if got := x.value("KEYS"); strings.Count(got, "\n") > 1 {
		t.Errorf("a tampered link's 65 keys reached the editor: %q", got)
	}
}

// TestEditorNarrow: at a phone's width the editor fits, with no sideways
// scroll of the page; long lines scroll inside the text area instead.
func TestEditorNarrow(t *testing.T) {
	tb := newTab(t)
	tb.run("set the viewport", chromedp.EmulateViewport(360, 900))
	tb.open("/embed/editor.html")
	ready(tb)
	ed := tb.in(editorSection)
	dropExistsCheck(ed)
	ed.click("Step")
	ed.clickShows("Step", editorPosition, "Step 2 of 3")
	overflow, err := eval[float64](tb, "document.documentElement.scrollWidth - document.documentElement.clientWidth")
	if err != nil {
		t.Fatal(err)
	}
	if overflow > 0 {
		t.Errorf("at 360 px the page scrolls sideways by %v px", overflow)
	}
	ed.screenshot("editor-360")
}
