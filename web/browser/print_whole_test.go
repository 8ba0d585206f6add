package browser

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"echomq.dev/playground/lua"
)

// onPaper lays the tab's page out as it prints: print media, at about the
// width of a printed page (Letter with Chrome's margins is 741 px wide).
func (tb *tab) onPaper() {
	tb.t.Helper()
	if _, err := chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		tb.t.Fatalf("Emulation.setEmulatedMedia: %v", err)
	}
	tb.run("a page's width", chromedp.EmulateViewport(740, 900))
}

// TestPrintedScriptAndCards: a learner who edited the script prints the
// page. The script they wrote is on paper, whole (in the PDF, and laid
// out as tall as it is under print media), with its KEYS and ARGV; every
// widget and card keeps its right border, clear of the page's edge.
func TestPrintedScriptAndCards(t *testing.T) {
	tb := openReady(t, "/")
	ed := tb.in("#editor")
	const mine = "-- mine, to print: the gate comes first"
	ed.clickField("Script")
	ed.keyWith(kb.Home, chromedp.ModifierCtrl)
	ed.press(mine + "\r")
	if src := ed.value("Script"); !strings.HasPrefix(src, mine+"\n-- @enqueue") {
		t.Fatalf("the script after typing a first line:\n%s", src)
	}

	all := strings.Join(strings.Fields(strings.Join(tb.printed(), " ")), " ")
	// The script's last move, the ZADD to the pending set, read from lua/
	// (the one copy of the scripts: TestNoOtherCopyOfTheScripts).
	var zadd string
	for _, line := range strings.Split(lua.Enqueue().Source, "\n") {
		if strings.Contains(line, "'ZADD'") {
			zadd = strings.TrimSpace(line)
		}
	}
	if zadd == "" {
		t.Fatal("@enqueue has no ZADD line to look for")
	}
	for _, want := range []string{mine, "emq:{q}:job:JOB-000001 emq:{q}:pending", zadd} {
		if !strings.Contains(all, want) {
			t.Errorf("the printed page does not show the editor's %q", want)
		}
	}

	tb.onPaper()
	fields, err := eval[string](tb, `JSON.stringify(["editor-source", "editor-keys", "editor-argv"].map((id) => {
		const el = document.getElementById(id);
		return { id, shown: el.checkVisibility(), height: el.clientHeight, content: el.scrollHeight, right: el.getBoundingClientRect().right };
	}))`)
	if err != nil {
		t.Fatal(err)
	}
	var got []struct {
		ID      string
		Shown   bool
		Height  int
		Content int
		Right   float64
	}
	if err := json.Unmarshal([]byte(fields), &got); err != nil {
		t.Fatal(err)
	}
	page, _ := eval[float64](tb, `document.documentElement.clientWidth`)
	for _, f := range got {
		switch {
		case !f.Shown:
			t.Errorf("on paper, #%s is not shown", f.ID)
		case f.Height+1 < f.Content:
			t.Errorf("on paper, #%s is %d px tall and cuts off %d px of what it holds", f.ID, f.Height, f.Content-f.Height)
		case f.Right > page:
			t.Errorf("on paper, #%s runs past the page's edge (%v > %v px)", f.ID, f.Right, page)
		}
	}

	// A printed page is a fraction of a pixel narrower than the layout's
	// whole pixels, so a border on the layout's last pixel is cut off: each
	// box ends at least a pixel inside the page, with a border drawn.
	cut, err := eval[[]string](tb, `[...document.querySelectorAll(".widget, .card, .pattern-card")]
		.filter((el) => el.checkVisibility())
		.flatMap((el) => {
			const cs = getComputedStyle(el);
			const right = el.getBoundingClientRect().right;
			const edge = document.documentElement.clientWidth;
			const name = el.id || el.className;
			if (cs.borderRightStyle !== "solid" || parseFloat(cs.borderRightWidth) < 1) return [name + ": no right border (" + cs.borderRightStyle + " " + cs.borderRightWidth + ")"];
			if (right > edge - 1) return [name + ": ends at " + right + " px, on the page's last pixel (" + edge + ")"];
			return [];
		})`)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cut {
		t.Errorf("on paper, %s", c)
	}
}

// TestPrintedSentencesNameNoControl: paper has no buttons, so no printed
// sentence tells the reader to press one, points at controls by where they
// were ("the buttons", "the two orders above"), or is left broken by a
// control that stood inside it.
func TestPrintedSentencesNameNoControl(t *testing.T) {
	tb := openReady(t, "/")
	tb.onPaper()
	bad, err := eval[[]string](tb, `(() => {
		const found = [];
		const prose = [...document.querySelectorAll("p, li, figcaption, dd")].filter((el) => !el.closest("pre") && el.checkVisibility());
		const words = /\b(press|click|tap)\b|\bbuttons?\b|orders above|listed under/i;
		for (const el of prose) {
			for (const s of el.innerText.replace(/\s+/g, " ").split(/(?<=[.!?])\s+/)) {
				if (words.test(s)) found.push("names a control: " + JSON.stringify(s));
			}
		}
		// A control that paper leaves out, inside a printed sentence: the
		// printed text after it in the same paragraph has lost its subject.
		const controls = [...document.querySelectorAll("button, input, select, textarea")].filter((c) => !c.checkVisibility());
		for (const c of controls) {
			const p = c.closest("p");
			if (!p || !p.checkVisibility() || (c.parentElement && !c.parentElement.checkVisibility())) continue;
			const after = document.createRange();
			after.setStartAfter(c);
			after.setEnd(p, p.childNodes.length);
			const rest = document.createElement("div");
			rest.append(after.cloneContents());
			if (rest.textContent.trim() !== "") found.push("a left-out control (" + c.textContent.trim() + ") broke: " + JSON.stringify(p.innerText.replace(/\s+/g, " ").trim()));
		}
		return found;
	})()`)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Errorf("on paper, a sentence %s", b)
	}
}
