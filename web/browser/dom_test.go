package browser

// What a learner does and reads, as test helpers: click a button by its
// visible text, pick a radio button or fill a field by its label, press
// keys, read a readout or a table by its caption. Each helper waits for the
// page (nothing here sleeps for a fixed time) and fails the test with what
// it saw when the page never gets there.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// probeJS is the page-side half of the helpers: one function, sent with its
// arguments in every call (the page's Content-Security-Policy allows no
// script of ours to be added to it). op says what to find or read; scopeSel
// is the CSS selector of the element to look inside ("" for the body).
//
// Names are what a learner reads: a button's text (or aria-label), a
// field's label. A name matches exactly, or else as the start of a longer
// name when a word boundary follows ("Move 1" matches "Move 1 gate", not
// "Move 10"). Only visible elements count.
const probeJS = `(op, scopeSel, arg) => {
	const norm = (s) => String(s ?? "").replace(/\s+/g, " ").trim();
	const shown = (el) => el.checkVisibility({ visibilityProperty: true });
	const root = scopeSel ? document.querySelector(scopeSel) : document.body;
	if (!root) return op.endsWith("?") ? { missing: true } : null;
	const all = (sel) => [...root.querySelectorAll(sel)];
	const textOfId = (id) => document.getElementById(id)?.innerText ?? "";
	const nameOf = (el) => {
		if (el.hasAttribute("aria-label")) return norm(el.getAttribute("aria-label"));
		if (el.hasAttribute("aria-labelledby")) {
			return norm(el.getAttribute("aria-labelledby").split(/\s+/).map(textOfId).join(" "));
		}
		if (el.matches("input[type=button], input[type=submit], input[type=reset]")) return norm(el.value);
		if (el.labels && el.labels.length) return norm([...el.labels].map((l) => l.innerText).join(" "));
		if (el.matches("input, textarea, select")) return norm(el.getAttribute("placeholder") || el.title);
		return norm(el.innerText);
	};
	const named = (els, name) => {
		const exact = els.filter((el) => nameOf(el) === name);
		if (exact.length) return exact;
		return els.filter((el) => {
			const n = nameOf(el);
			return n.startsWith(name) && !/[\p{L}\p{N}]/u.test(n.charAt(name.length));
		});
	};
	const kinds = {
		button: () => all("button, [role=button], input[type=button], input[type=submit], input[type=reset]").filter(shown),
		field: () => all("input:not([type=hidden], [type=radio], [type=checkbox], [type=button], [type=submit], [type=reset]), textarea, select").filter(shown),
		choice: () => all("input[type=radio], input[type=checkbox]").filter((el) => shown(el) || [...(el.labels ?? [])].some(shown)),
	};
	const BADGE = ".badge";
	const enabled = (el) => !el.disabled && el.getAttribute("aria-disabled") !== "true";
	switch (op) {
	case "button":
	case "field":
		return named(kinds[op](), arg);
	case "choice":
		// What a learner clicks: the radio button, or its label when the
		// button itself is drawn by CSS and hidden.
		return named(kinds.choice(), arg).map((el) =>
			shown(el) && el.getBoundingClientRect().width >= 4 ? el : [...el.labels].find(shown));
	case "button?":
	case "field?":
	case "choice?": {
		const k = op.slice(0, -1);
		const hits = named(kinds[k](), arg);
		return {
			matches: hits.length,
			enabled: hits.filter(enabled).length,
			checked: hits.filter((el) => el.checked).length,
			value: hits.length === 1 ? String(hits[0].value ?? "") : "",
			names: kinds[k]().map((el) => nameOf(el) + (enabled(el) ? "" : " (disabled)")),
		};
	}
	case "text": {
		const el = all(arg).find(shown);
		return el ? el.innerText : null;
	}
	case "texts":
		return all(arg).filter(shown).map((el) => norm(el.innerText));
	case "announced":
		// Live regions are read out, not seen: they may be visually hidden.
		// The page's own status line (#status, "Ready") is not a widget's.
		return all("[aria-live]").filter((el) => el.id !== "status").map((el) => norm(el.textContent)).join(" | ");
	case "attrs": {
		const [sel, name] = arg;
		return all(sel).filter(shown).map((el) => el.getAttribute(name) ?? "");
	}
	case "label":
		return nameOf(root);
	case "controls":
		return Object.entries(kinds).flatMap(([kind, find]) =>
			find().map((el) => ({ kind, name: nameOf(el), enabled: enabled(el) })));
	case "table": {
		const tables = all("table");
		const captions = tables.map((t) => norm(t.caption?.innerText ?? "(no caption)"));
		const hits = tables.filter((t) => t.caption && norm(t.caption.innerText).startsWith(arg));
		if (hits.length !== 1) return { count: hits.length, captions };
		const t = hits[0];
		// A cell's text without its change badges ("new", "changed"),
		// which are reported on their own.
		const badges = (c) => [...c.querySelectorAll(BADGE)].map((b) => norm(b.innerText));
		const plain = (c) => {
			const copy = c.cloneNode(true);
			copy.querySelectorAll(BADGE).forEach((b) => b.remove());
			return norm(copy.textContent);
		};
		const inPart = (tr, part) => !!part && part.contains(tr);
		const head = t.tHead ? [...t.tHead.rows].map((tr) => [...tr.cells].map(plain)) : [];
		const width = head.length ? head[0].length : 0;
		const body = [...t.rows].filter((tr) => !inPart(tr, t.tHead) && !inPart(tr, t.tFoot));
		// A row of one cell across every column is a note ("(empty)"), not data.
		const isNote = (tr) => tr.cells.length === 1 && width > 1 && tr.cells[0].colSpan >= width;
		const data = body.filter((tr) => !isNote(tr));
		return {
			count: 1,
			captions,
			caption: norm(t.caption.innerText),
			shown: shown(t),
			head,
			rows: data.map((tr) => [...tr.cells].map(plain)),
			marks: data.map((tr) => [...tr.cells].flatMap(badges)),
			notes: body.filter(isNote).map((tr) => norm(tr.innerText)),
			notesAt: body.filter(isNote).map((tr) => data.filter((d) => d.rowIndex < tr.rowIndex).length),
		};
	}
	case "focus": {
		const el = document.activeElement;
		return {
			inside: !!el && el !== document.body && root.contains(el),
			tag: el ? el.tagName.toLowerCase() : "",
			type: el && el.type ? String(el.type) : "",
			name: el ? nameOf(el).slice(0, 80) : "",
		};
	}
	}
	throw new Error("probe: unknown op " + op);
}`

// scope is a part of the page a test works in: a widget's section, or the
// whole page.
type scope struct {
	tb    *tab
	sel   string // CSS selector of the part; "" for the whole page
	frame string // CSS selector of the iframe the page is in; "" for the tab's own page
}

// in returns the part of the page that sel selects.
func (tb *tab) in(sel string) scope { return scope{tb: tb, sel: sel} }

// whole returns the whole page.
func (tb *tab) whole() scope { return scope{tb: tb} }

func (s scope) where() string {
	if s.sel == "" {
		return "the page"
	}
	return s.sel
}

// jsArgs encodes values as JavaScript arguments.
func jsArgs(args ...any) string {
	parts := make([]string, len(args))
	for i, a := range args {
		b, err := json.Marshal(a)
		if err != nil {
			panic(err)
		}
		parts[i] = string(b)
	}
	return strings.Join(parts, ", ")
}

// expr is the expression that runs the probe op in the scope.
func (s scope) expr(op string, arg any) string {
	probe := probeJS
	if s.frame != "" {
		probe = probeInFrame(s.frame)
	}
	return fmt.Sprintf("(%s)(%s)", probe, jsArgs(op, s.sel, arg))
}

// controlInfo is what the probe says about the controls of a kind.
type controlInfo struct {
	Missing bool     `json:"missing"`
	Matches int      `json:"matches"`
	Enabled int      `json:"enabled"`
	Checked int      `json:"checked"`
	Value   string   `json:"value"`
	Names   []string `json:"names"`
}

// waitProbe waits until done accepts what the probe's op answers about arg
// in the scope, and returns that answer; seen says what the page showed
// when the wait runs out. An answer the page cannot give yet (an error) is
// one more try.
func waitProbe[T any](s scope, what, op string, arg any, done func(T) (seen string, ok bool)) T {
	s.tb.t.Helper()
	return waitProbeWithin(s, waitTimeout, what, op, arg, done)
}

// waitProbeWithin is waitProbe with a wait of its own (see eventuallyWithin).
func waitProbeWithin[T any](s scope, wait time.Duration, what, op string, arg any, done func(T) (seen string, ok bool)) T {
	s.tb.t.Helper()
	var got T
	s.tb.eventuallyWithin(wait, what, func() (string, bool) {
		v, err := eval[T](s.tb, s.expr(op, arg))
		if err != nil {
			return errString(err), false
		}
		got = v
		return done(v)
	})
	return got
}

// containsAll reports whether text contains each of wants.
func containsAll(text string, wants []string) bool {
	for _, w := range wants {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// findControl waits until exactly one visible, enabled control of the kind
// ("button", "field", "choice") has the name, and returns what the probe
// saw. The engine loads in the background, so this is also how a test
// waits for the page to be ready for a click.
func (s scope) findControl(kind, name string) controlInfo {
	s.tb.t.Helper()
	return waitProbe(s, fmt.Sprintf("one enabled %s %q in %s", kind, name, s.where()), kind+"?", name, func(info controlInfo) (string, bool) {
		if info.Missing {
			return s.where() + " is not on the page", false
		}
		seen := fmt.Sprintf("%d match(es), %d enabled; the %ss there: %q", info.Matches, info.Enabled, kind, info.Names)
		return seen, info.Matches == 1 && info.Enabled == 1
	})
}

// click clicks the button whose visible text (or aria-label) is name, with
// the mouse, once it is there and enabled.
func (s scope) click(name string) {
	s.tb.t.Helper()
	s.findControl("button", name)
	s.tb.run(fmt.Sprintf("click %q in %s", name, s.where()), chromedp.Click(chromedp.JSPath(s.expr("button", name))))
}

// clickShows is the step a learner takes most: click the button named name,
// then read sel until it says each of wants (see click and wantText).
func (s scope) clickShows(name, sel string, wants ...string) {
	s.tb.t.Helper()
	s.click(name)
	s.wantText(sel, wants...)
}

// clickAnyway clicks the one visible button whose name is name even when it
// says it does nothing (aria-disabled="true"): a learner may click a
// greyed-out button, and the page must answer in words, not act.
func (s scope) clickAnyway(name string) {
	s.tb.t.Helper()
	waitProbe(s, fmt.Sprintf("one button %q in %s", name, s.where()), "button?", name, func(info controlInfo) (string, bool) {
		if info.Missing {
			return s.where() + " is not on the page", false
		}
		return fmt.Sprintf("%d match(es); the buttons there: %q", info.Matches, info.Names), info.Matches == 1
	})
	s.tb.run(fmt.Sprintf("click %q in %s", name, s.where()), chromedp.Click(chromedp.JSPath(s.expr("button", name))))
}

// choose clicks the radio button (or checkbox) labelled label, and waits
// until it is checked.
func (s scope) choose(label string) {
	s.tb.t.Helper()
	s.findControl("choice", label)
	s.tb.run(fmt.Sprintf("choose %q in %s", label, s.where()), chromedp.Click(chromedp.JSPath(s.expr("choice", label))))
	waitProbe(s, fmt.Sprintf("%q to be checked", label), "choice?", label, func(info controlInfo) (string, bool) {
		return fmt.Sprintf("%d checked of %d", info.Checked, info.Matches), info.Checked == 1
	})
}

// fill clicks into the field labelled label, selects what it holds, and
// types value over it, key by key.
func (s scope) fill(label, value string) {
	s.tb.t.Helper()
	s.findControl("field", label)
	field := s.expr("field", label)
	what := fmt.Sprintf("type %q into %q in %s", value, label, s.where())
	s.tb.run(what,
		chromedp.Click(chromedp.JSPath(field)),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf("(%s)[0].select()", field)),
	)
	if value == "" {
		s.tb.run(what, chromedp.KeyEvent(kb.Delete))
	} else {
		s.tb.run(what, chromedp.KeyEvent(value))
	}
	waitProbe(s, fmt.Sprintf("%q to hold %q", label, value), "field?", label, func(info controlInfo) (string, bool) {
		return fmt.Sprintf("%q", info.Value), info.Value == value
	})
}

// value is what the field labelled label holds now.
func (s scope) value(label string) string {
	s.tb.t.Helper()
	return s.findControl("field", label).Value
}

// press sends keys to whatever has the focus, as a keyboard does. Use the
// kb package's names for keys without a character (kb.ArrowRight).
func (s scope) press(keys string) {
	s.tb.t.Helper()
	s.tb.run(fmt.Sprintf("press %q", keys), chromedp.KeyEvent(keys))
}

// focusInfo is what has the keyboard focus.
type focusInfo struct {
	Inside bool   `json:"inside"` // inside the scope
	Tag    string `json:"tag"`
	Type   string `json:"type"`
	Name   string `json:"name"`
}

func (f focusInfo) String() string {
	return fmt.Sprintf("<%s type=%q> %q (inside: %v)", f.Tag, f.Type, f.Name, f.Inside)
}

// focus says what has the keyboard focus, relative to the scope.
func (s scope) focus() focusInfo {
	s.tb.t.Helper()
	f, err := eval[focusInfo](s.tb, s.expr("focus", ""))
	if err != nil {
		s.tb.t.Fatalf("read the focus: %v", err)
	}
	return f
}

// tabInto presses Tab, as a keyboard user does, until the focus is on
// something inside the scope that ok accepts; at most limit presses.
func (s scope) tabInto(limit int, ok func(focusInfo) bool) focusInfo {
	s.tb.t.Helper()
	var path []string
	for range limit {
		s.press(kb.Tab)
		f := s.focus()
		path = append(path, f.String())
		if f.Inside && ok(f) {
			return f
		}
	}
	s.tb.t.Fatalf("%d Tab presses never reached %s; the focus went:\n\t%s", limit, s.where(), strings.Join(path, "\n\t"))
	return focusInfo{}
}

// rawText waits for a visible element matching sel in the scope and returns
// its text as rendered (innerText, line breaks kept).
func (s scope) rawText(sel string) string {
	s.tb.t.Helper()
	return s.waitText(waitTimeout, fmt.Sprintf("%s in %s", sel, s.where()), sel, func(string) bool { return true })
}

// waitText waits until a visible element matching sel in the scope shows a
// text ok accepts, and returns that text as rendered.
func (s scope) waitText(wait time.Duration, what, sel string, ok func(text string) bool) string {
	s.tb.t.Helper()
	got := waitProbeWithin(s, wait, what, "text", sel, func(got *string) (string, bool) {
		if got == nil {
			return "nothing visible matches", false
		}
		return *got, ok(*got)
	})
	return *got
}

// text is rawText with runs of white space made one space.
func (s scope) text(sel string) string {
	s.tb.t.Helper()
	return normSpace(s.rawText(sel))
}

func normSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// texts returns the text of every visible element matching sel, without
// waiting.
func (s scope) texts(sel string) []string {
	s.tb.t.Helper()
	got, err := eval[[]string](s.tb, s.expr("texts", sel))
	if err != nil {
		s.tb.t.Fatalf("read %s: %v", sel, err)
	}
	return got
}

// wantText waits until the text of sel contains each of wants.
func (s scope) wantText(sel string, wants ...string) string {
	s.tb.t.Helper()
	return s.wantTextWithin(waitTimeout, sel, wants...)
}

// wantTextWithin is wantText with a wait of its own (see eventuallyWithin).
func (s scope) wantTextWithin(wait time.Duration, sel string, wants ...string) string {
	s.tb.t.Helper()
	return normSpace(s.waitText(wait, fmt.Sprintf("%s in %s to say %q", sel, s.where(), wants), sel, func(text string) bool {
		return containsAll(normSpace(text), wants)
	}))
}

// wantNoText waits until the text of sel contains none of unwanted.
func (s scope) wantNoText(sel string, unwanted ...string) string {
	s.tb.t.Helper()
	got := waitProbe(s, fmt.Sprintf("%s in %s not to say %q", sel, s.where(), unwanted), "text", sel, func(got *string) (string, bool) {
		if got == nil {
			return "", true
		}
		text := normSpace(*got)
		for _, w := range unwanted {
			if strings.Contains(text, w) {
				return text, false
			}
		}
		return text, true
	})
	if got == nil {
		return ""
	}
	return normSpace(*got)
}

// table is a <table> as a learner reads it.
type table struct {
	Count    int        `json:"count"`    // tables whose caption matched
	Captions []string   `json:"captions"` // every table's caption in the scope
	Caption  string     `json:"caption"`
	Shown    bool       `json:"shown"`
	Head     [][]string `json:"head"`
	Rows     [][]string `json:"rows"`    // the data rows' cells, without change badges
	Marks    [][]string `json:"marks"`   // each data row's change badges ("new", "changed")
	Notes    []string   `json:"notes"`   // rows of one cell across the table, like "(empty)"
	NotesAt  []int      `json:"notesAt"` // how many data rows come before each note
}

func (tb table) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "caption %q (visible: %v)\n", tb.Caption, tb.Shown)
	for _, r := range tb.Head {
		fmt.Fprintf(&b, "  head %q\n", r)
	}
	for i, r := range tb.Rows {
		fmt.Fprintf(&b, "  row  %q", r)
		if i < len(tb.Marks) && len(tb.Marks[i]) > 0 {
			fmt.Fprintf(&b, " marked %q", tb.Marks[i])
		}
		b.WriteString("\n")
	}
	for _, n := range tb.Notes {
		fmt.Fprintf(&b, "  note %q\n", n)
	}
	return b.String()
}

// table waits for the one table in the scope whose caption starts with
// caption, and returns it.
func (s scope) table(caption string) table {
	s.tb.t.Helper()
	return waitProbe(s, fmt.Sprintf("one table captioned %q… in %s", caption, s.where()), "table", caption, func(got table) (string, bool) {
		if got.Count != 1 {
			return fmt.Sprintf("%d match; the captions there: %q", got.Count, got.Captions), false
		}
		return got.String(), true
	})
}

// wantRows waits until the body rows of the table captioned caption… are
// want (cell texts, white space made single spaces).
func (s scope) wantRows(caption string, want [][]string) table {
	s.tb.t.Helper()
	if want == nil {
		want = [][]string{}
	}
	return waitProbe(s, fmt.Sprintf("table %q… in %s to hold %q", caption, s.where(), want), "table", caption, func(got table) (string, bool) {
		if got.Count != 1 {
			return fmt.Sprintf("%d tables match; the captions there: %q", got.Count, got.Captions), false
		}
		rows := got.Rows
		if rows == nil {
			rows = [][]string{}
		}
		return got.String(), reflect.DeepEqual(rows, want)
	})
}

// noTable waits until no table in the scope has a caption starting with
// caption (the key is not in the keyspace).
func (s scope) noTable(caption string) {
	s.tb.t.Helper()
	waitProbe(s, fmt.Sprintf("no table captioned %q… in %s", caption, s.where()), "table", caption, func(got table) (string, bool) {
		return fmt.Sprintf("%d match; the captions there: %q", got.Count, got.Captions), got.Count == 0
	})
}

// attrs returns the attribute name of each visible element matching sel in
// the scope, in document order.
func (s scope) attrs(sel, name string) []string {
	s.tb.t.Helper()
	got, err := eval[[]string](s.tb, s.expr("attrs", []string{sel, name}))
	if err != nil {
		s.tb.t.Fatalf("read %s of %s: %v", name, sel, err)
	}
	return got
}

// wantAttrs waits until attrs(sel, name) is want.
func (s scope) wantAttrs(sel, name string, want ...string) {
	s.tb.t.Helper()
	waitProbe(s, fmt.Sprintf("%s of %s in %s to be %q", name, sel, s.where(), want), "attrs", []string{sel, name}, func(got []string) (string, bool) {
		return fmt.Sprintf("%q", got), slices.Equal(got, want)
	})
}

// control is one visible control as controls reports it.
type control struct {
	Kind    string `json:"kind"` // "button", "field" or "choice"
	Name    string `json:"name"`
	Enabled bool   `json:"enabled"`
}

// controls lists the visible buttons, fields and radio buttons in the
// scope.
func (s scope) controls() []control {
	s.tb.t.Helper()
	got, err := eval[[]control](s.tb, s.expr("controls", ""))
	if err != nil {
		s.tb.t.Fatalf("list the controls of %s: %v", s.where(), err)
	}
	return got
}

// label is the scope element's accessible name (aria-labelledby and the
// like), as a screen reader announces the region.
func (s scope) label() string {
	s.tb.t.Helper()
	got, err := eval[string](s.tb, s.expr("label", ""))
	if err != nil {
		s.tb.t.Fatalf("read the label of %s: %v", s.where(), err)
	}
	return got
}

// wantAnnounced waits until the scope's live regions (aria-live, other than
// the page's status line #status) say each of wants.
func (s scope) wantAnnounced(wants ...string) string {
	s.tb.t.Helper()
	return waitProbe(s, fmt.Sprintf("%s to announce %q", s.where(), wants), "announced", "", func(text string) (string, bool) {
		return text, containsAll(text, wants)
	})
}

// wantDisabled waits until the button named name is visible and disabled
// (disabled, or aria-disabled="true": still focusable, but says it does
// nothing).
func (s scope) wantDisabled(name string) {
	s.tb.t.Helper()
	waitProbe(s, fmt.Sprintf("button %q in %s to be disabled", name, s.where()), "button?", name, func(info controlInfo) (string, bool) {
		return fmt.Sprintf("%d match(es), %d enabled; the buttons there: %q", info.Matches, info.Enabled, info.Names),
			info.Matches == 1 && info.Enabled == 0
	})
}

// screenshot saves a PNG of the scope's element as a test artifact.
func (s scope) screenshot(name string) {
	s.tb.t.Helper()
	sel := s.sel
	if sel == "" {
		sel = "body"
	}
	png, err := chromedp.Run(s.tb.ctx, chromedp.Screenshot(chromedp.CSS(sel)))
	if err != nil {
		s.tb.t.Errorf("screenshot of %s: %v", sel, err)
		return
	}
	saveArtifact(s.tb.t, name+".png", png)
}
