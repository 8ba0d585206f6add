package browser

import (
	"testing"

	"github.com/chromedp/chromedp/kb"
)

// TestKeyboardReachesTheLessonQuickly: a keyboard learner's first Tab
// stop is a skip link to the lesson's widgets, and from it Step is a few
// presses away; the contents bar is one Tab stop, its arrows move along
// it, and Tab leaves it.
func TestKeyboardReachesTheLessonQuickly(t *testing.T) {
	tb := openReady(t, "/")
	page, toc := tb.whole(), tb.in("#toc")

	page.press(kb.Tab)
	if f := page.focus(); f.Tag != "a" || f.Name != "Skip to the lesson's widgets" {
		t.Fatalf("the first Tab stop is %s; want the skip link to the lesson's widgets", f)
	}
	if ok, where := tb.onScreen(".skip-link"); !ok {
		t.Errorf("the focused skip link is not on screen: %s", where)
	}
	page.press(kb.Tab)
	if f := page.focus(); f.Tag != "a" || f.Name != "Step the first move of @enqueue" {
		t.Fatalf("the second Tab stop is %s; want the masthead's invitation to the first step", f)
	}
	page.press(kb.Tab)
	first := toc.focus()
	if !first.Inside || first.Tag != "a" {
		t.Fatalf("the third Tab stop is %s; want the contents bar", first)
	}
	page.press(kb.ArrowRight)
	if f := toc.focus(); !f.Inside || f.Name == first.Name {
		t.Errorf("→ in the contents bar moved the focus from %q to %s; want the next part", first.Name, f)
	}
	page.press(kb.End)
	if f := toc.focus(); !f.Inside || f.Name != "Two workers" {
		t.Errorf("End in the contents bar put the focus on %s; want the last part, Two workers", f)
	}
	page.press(kb.Tab)
	if f := toc.focus(); f.Inside {
		t.Errorf("Tab from the contents bar stayed in it (%s): the bar must be one Tab stop", f)
	}

	// From the top again: the skip link, Enter, and Step is near.
	tb.reload()
	ready(tb)
	page.press(kb.Tab)
	page.press(kb.Enter)
	st := tb.in("#stepper")
	presses := 0
	st.tabInto(10, func(f focusInfo) bool {
		presses++
		return f.Tag == "button" && f.Name == "Step"
	})
	t.Logf("Step is %d Tab presses after the skip link", presses)
	st.press(kb.Enter)
	st.wantText(stepPosition, "Move 1 of 4")
}
