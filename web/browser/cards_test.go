package browser

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

const cardPop = "#card-pop"

// shiftTabTo presses Shift+Tab until the focus is on the button named
// name inside the scope; at most limit presses.
func (s scope) shiftTabTo(limit int, name string) {
	s.tb.t.Helper()
	for range limit {
		s.tb.run("press Shift+Tab", chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
		if f := s.focus(); f.Inside && f.Tag == "button" && f.Name == name {
			return
		}
	}
	s.tb.t.Fatalf("%d Shift+Tab presses never reached the button %q in %s", limit, name, s.where())
}

// wantFocusOn waits for the focus to be on the button named name in the scope.
func (s scope) wantFocusOn(what, tag, name string) {
	s.tb.t.Helper()
	s.tb.eventually(what, func() (string, bool) {
		f := s.focus()
		return f.String(), f.Inside && f.Tag == tag && (name == "" || f.Name == name)
	})
}

// TestCommandCardFromTheStepper: the command in the stepper's readout
// opens its card in place, from the keyboard: Tab reaches it, Enter opens
// the card with the focus in it, and Escape closes it and gives the focus
// back. The card's example replies are the engine's.
func TestCommandCardFromTheStepper(t *testing.T) {
	tb := openReady(t, "/")
	s := tb.in("#stepper")
	s.click("Step")
	s.clickShows("Step", stepCommand, "EXISTS emq:{q}:job:")
	s.tabInto(12, func(f focusInfo) bool { return f.Tag == "button" && f.Name == "EXISTS" })
	s.press(kb.Enter)
	s.wantText(cardPop, "EXISTS", "Counts how many of the given keys exist", "Time complexity", "redis> EXISTS emq:{q}:job:JOB-000001", "(integer) 1", "https://redis.io/docs/latest/commands/exists/")
	s.wantFocusOn("the focus in the card", "div", "")
	// The readout reads as before: the name only became a button.
	s.wantText(stepCommand, "EXISTS emq:{q}:job:")
	s.press(kb.Escape)
	s.wantFocusOn("the focus back on the EXISTS button", "button", "EXISTS")
	s.wantNoText(".stepper-controls", "Counts how many of the given keys exist")
}

// TestCommandCardFromTheConsole: `help <command>` prints redis-cli's help
// and its command opens the card, by keyboard; COMMAND DOCS answers in
// Redis 7.0's shape with the same card's words.
func TestCommandCardFromTheConsole(t *testing.T) {
	tb := openReady(t, "/")
	c := tb.in("#console")
	c.fill("Command", "help zpopmin")
	c.press(kb.Enter)
	c.wantText("#console-log", "ZPOPMIN key [count]", "summary: Removes and returns the members with the lowest scores in a sorted set.", "since: 5.0.0", "group: sorted-set")
	// help shows the same card right away, and the focus stays at the prompt.
	c.wantText(cardPop, "ZPOPMIN", "Time complexity", "O(log(N)·M)", "redis> ZPOPMIN emq:{q}:pending", "(empty array)")
	c.wantFocusOn("the focus at the prompt", "input", "")
	// By keyboard: back to the command's name, Enter closes the card and
	// Enter opens it again, with the focus in it; Escape gives it back.
	c.shiftTabTo(6, "zpopmin")
	c.press(kb.Enter)
	c.wantNoText("#console-log", "Time complexity")
	c.press(kb.Enter)
	c.wantText(cardPop, "ZPOPMIN", "Time complexity")
	c.wantFocusOn("the focus in the card", "div", "")
	c.press(kb.Escape)
	c.wantFocusOn("the focus back on the zpopmin button", "button", "zpopmin")
	c.wantNoText("#console-log", "Time complexity")

	c.fill("Command", "COMMAND DOCS hset")
	c.press(kb.Enter)
	c.wantText("#console-log", `1) "hset"`, `"summary"`, `"Sets fields of a hash, creating the hash if needed."`, `"since"`, `"2.0.0"`, `"arguments"`, `"field_value"`)
}

// TestCommandCardFromTheWireLogs: the round trip's wire log and the
// workers' log open cards too.
func TestCommandCardFromTheWireLogs(t *testing.T) {
	tb := openReady(t, "/")
	r := tb.in("#roundtrip")
	enqueueJob(r, "JOB-1", "{:ok, :enqueued}")
	r.wantText(newestExchanges, "EVALSHA ")
	r.clickShows("EVALSHA", cardPop, "EVALSHA", "Runs a script the server already holds", "(error) NOSCRIPT No matching script. Please use EVAL.")
	r.click("Close")
	r.wantFocusOn("the focus back on the EVALSHA button", "button", "EVALSHA")
	r.wantNoText("#roundtrip-wire", "Runs a script the server already holds")

	w := tb.in(workers)
	fillRace(w)
	w.choose(atomicMode)
	waitFreshRound(w)
	takeTurns(w, 1)
	w.clickShows("EVAL", cardPop, "EVAL", "Runs a Lua script on the server, as one atomic step.")
	w.press(kb.Escape)
	w.wantFocusOn("the focus back on the EVAL button", "button", "EVAL")
}
