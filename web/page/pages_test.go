package page

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/a-h/templ"
	"golang.org/x/net/html"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ from the current output")

// renderedPage is one page as build.sh writes it, with the golden file that
// pins it and the prefix its URLs carry.
type renderedPage struct {
	name   string // as written into static/
	golden string // in testdata/
	prefix string // "" at the root, "../" in embed/
	widget string // the embed page's widget, or "" for the index
	c      templ.Component
}

// goldenSite is the site the golden files are rendered from: the defaults,
// plus a fixed wasm size so the size hint is covered too.
func goldenSite() Site {
	s := DefaultSite()
	s.WasmBytes = 4_194_304
	return s
}

func allPages() []renderedPage {
	pages := []renderedPage{{
		name: "index.html", golden: "index.html",
		c: IndexPage(Index{Site: goldenSite(), Widgets: DefaultWidgets()}),
	}}
	for _, w := range WidgetNames {
		e := DefaultEmbed(w)
		e.WasmBytes = goldenSite().WasmBytes
		pages = append(pages, renderedPage{
			name: "embed/" + w + ".html", golden: "embed-" + w + ".html",
			prefix: "../", widget: w, c: EmbedPage(e),
		})
	}
	return pages
}

func render(t *testing.T, c templ.Component) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := c.Render(context.Background(), &buf); err != nil {
		t.Fatalf("render: %v", err)
	}
	return buf.Bytes()
}

// cardsMark stands in a page's golden file where the page carries the
// command cards. Every page carries them byte for byte, so one golden file,
// testdata/command-cards.html, pins them once, and each page's golden holds
// only what is its own.
const cardsMark = "<!-- the command cards, as in command-cards.html -->"

func TestGolden(t *testing.T) {
	cards := render(t, commandCards())
	t.Run("command cards", func(t *testing.T) {
		checkGolden(t, "command-cards.html", cards)
	})
	for _, p := range allPages() {
		t.Run(p.name, func(t *testing.T) {
			got := render(t, p.c)
			if n := bytes.Count(got, cards); n != 1 {
				t.Errorf("%s carries the command cards %d times, want once", p.name, n)
			}
			checkGolden(t, p.golden, bytes.Replace(got, cards, []byte(cardsMark), 1))
		})
	}
}

// checkGolden compares got with testdata/golden, or rewrites the file under -update.
func checkGolden(t *testing.T, golden string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", golden)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("updated %s", path)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test ./web/page -update` to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the rendering differs from %s (run `go test ./web/page -update` if the change is intended):\n%s",
			path, diff(tagLines(string(want)), tagLines(string(got))))
	}
}

func TestSizeHint(t *testing.T) {
	tests := []struct {
		desc  string
		bytes int64
		want  string // the attribute as rendered, or "" for none
	}{
		{desc: "known size", bytes: 1234567, want: `data-wasm-bytes="1234567"`},
		{desc: "unknown size", bytes: 0, want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			s := DefaultSite()
			s.WasmBytes = tc.bytes
			e := DefaultEmbed(WidgetStepper)
			e.WasmBytes = tc.bytes
			for name, c := range map[string]templ.Component{
				"index": IndexPage(Index{Site: s, Widgets: DefaultWidgets()}),
				"embed": EmbedPage(e),
			} {
				got := string(render(t, c))
				if tc.want == "" && strings.Contains(got, "data-wasm-bytes") {
					t.Errorf("%s page has a size hint, want none", name)
				}
				if tc.want != "" && !strings.Contains(got, tc.want) {
					t.Errorf("%s page lacks %s", name, tc.want)
				}
			}
		})
	}
}

func TestEscapesViewModel(t *testing.T) {
	w := DefaultWidgets()
	w.Queue = `"><img src=x>`
	w.Stepper.Payload = `"><script>alert(1)</script>`
	w.Verdicts.Payload = `'><img src=x>`
	w.RoundTrip.Payload = `"><img src=x>`
	w.Stepper.Moves = []Move{{N: 1, Name: "<b>gate</b>", Summary: "<i>x</i>"}}
	got := string(render(t, IndexPage(Index{Site: DefaultSite(), Widgets: w})))
	for _, bad := range []string{"<script>alert", "<img src=x>", "<b>gate", "<i>x"} {
		if strings.Contains(got, bad) {
			t.Errorf("view model text %q reached the page unescaped", bad)
		}
	}
}

func TestSiteUnder(t *testing.T) {
	s := DefaultSite().Under("../")
	for _, u := range []string{s.IconURL, s.StyleURL, s.WorkerURL, s.ScriptURL, s.WasmURL} {
		if !strings.HasPrefix(u, "../") {
			t.Errorf("%q does not climb out of embed/", u)
		}
	}
	if got := DefaultSite().ScriptURL; strings.HasPrefix(got, "../") {
		t.Errorf("Under changed the site it was called on: %q", got)
	}
}

// buttonTexts are the controls the browser tests click by their visible
// text, per widget. Changing one breaks those tests: see TESTING.md.
var buttonTexts = map[string][]string{
	WidgetStepper:   {"Move 1 · gate", "Move 2 · idempotency", "Move 3 · row", "Move 4 · pending", "Back", "Step", "Reset"},
	WidgetBeats:     nil,
	WidgetVerdicts:  {"Enqueue a job", "Enqueue it again", "Try a malformed id"},
	WidgetRoundTrip: {"Enqueue", "Enqueue 1,000", "Claim", "Claim all", "Pause", "Resume", "Advance"},
	WidgetWorkers:   {"Fill the queue", "Play: A, then B", "Play: take turns", "A: next step", "B: next step"},
	WidgetConsole:   {"Run", "Clear"},
	WidgetEditor:    {"Run", "Back", "Step", "Reset to original"},
}

// labelTexts are the fields (and radio buttons) the tests find by label.
var labelTexts = map[string][]string{
	WidgetStepper:   {"A fresh id", "A duplicate", "No JOB prefix", "Job id"},
	WidgetBeats:     nil,
	WidgetVerdicts:  {"Job id"},
	WidgetRoundTrip: {"Job id", "Payload", "Lease (ms)", "Advance by (ms)"},
	WidgetWorkers:   {"Non-atomic: ZRANGE, then ZREM", "Atomic: @claim"},
	WidgetConsole:   {"Command"},
	WidgetEditor:    {"enqueue.lua", "claim.lua", "A new script", "Script", "KEYS", "ARGV"},
}

// testIDs are the data-testid hooks each widget must carry.
var testIDs = map[string][]string{
	WidgetStepper:   {"step-command", "step-reply", "step-outcome", "step-position", "step-source"},
	WidgetBeats:     {"beats-source"},
	WidgetVerdicts:  {"verdict", "verdict-reply", "verdict-call", "again-hint"},
	WidgetRoundTrip: {"claim-result", "enqueue-result", "wire", "clock", "clock-status", "queue-state"},
	WidgetWorkers:   {"workers-verdict", "workers-explain", "workers-timeline", "worker-a", "worker-b", "worker-a-holds", "worker-b-holds"},
	WidgetConsole:   {"console-log", "console-input", "console-differences"},
	WidgetEditor:    {"editor-source", "editor-state", "editor-position", "editor-command", "editor-reply", "editor-outcome", "editor-problem", "diff-summary", "diff", "editor-keyspace", "editor-runs"},
}

// liveRegions are each widget's aria-live regions, in page order: one per
// interactive widget for what its buttons did, and the round trip's clock
// has its own status line, so that what Advance did is heard (and seen)
// apart from the claims, as has its bulk runs' measurement.
var liveRegions = map[string][]string{
	WidgetStepper:   {"stepper-live"},
	WidgetBeats:     nil, // nothing happens there to announce
	WidgetVerdicts:  {"verdicts-live"},
	WidgetRoundTrip: {"roundtrip-clock-status", "roundtrip-bulk-result", "roundtrip-live"},
	WidgetWorkers:   {"workers-live"},
	WidgetConsole:   {"console-transcript"}, // the div around the transcript's ol: role=log on the ol would drop its list role
	WidgetEditor:    {"editor-live"},
}

// captionKeys are the keys the widgets' tables are captioned with.
var captionKeys = map[string][]string{
	WidgetStepper:   {"emq:{q}:pending", "emq:{q}:job:…"},
	WidgetBeats:     nil,
	WidgetVerdicts:  {"emq:{q}:pending", "emq:{q}:job:…"},
	WidgetRoundTrip: {"emq:{q}:pending", "emq:{q}:active", "emq:{q}:job:…"},
	WidgetWorkers:   {"emq:{race}:pending", "emq:{race}:active", "emq:{race}:job:…"},
}

// TestRules checks the promises every page makes to the browser tests and
// to the Content-Security-Policy: no inline script or style, no requests to
// another origin, every control labelled and disabled until the engine is
// ready, one live region per interactive widget, tables with captions and
// scoped headers, and the hooks TESTING.md lists.
func TestRules(t *testing.T) {
	for _, p := range allPages() {
		t.Run(p.name, func(t *testing.T) {
			checkRules(t, p)
		})
	}
}

func checkRules(t *testing.T, p renderedPage) {
	doc, err := html.Parse(bytes.NewReader(render(t, p.c)))
	if err != nil {
		t.Fatal(err)
	}
	var (
		nodes   []*html.Node
		ids     = map[string]int{}
		labels  = map[string]bool{}
		scripts []string
	)
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			nodes = append(nodes, n)
			if id := attr(n, "id"); id != "" {
				ids[id]++
			}
			if n.Data == "label" {
				labels[attr(n, "for")] = true
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)

	for id, n := range ids {
		if n > 1 {
			t.Errorf("id %q is used %d times", id, n)
		}
	}
	for _, n := range nodes {
		for _, a := range n.Attr {
			if a.Key == "style" || strings.HasPrefix(a.Key, "on") {
				t.Errorf("<%s> has inline %s=%q", n.Data, a.Key, a.Val)
			}
			// A link out to the official documentation is no request: it is
			// allowed on an <a rel="external"> to https, and nowhere else.
			outLink := n.Data == "a" && a.Key == "href" && strings.HasPrefix(a.Val, "https://") && strings.Contains(" "+attr(n, "rel")+" ", " external ")
			if (a.Key == "src" || a.Key == "href") && !outLink {
				if strings.Contains(a.Val, ":") || strings.HasPrefix(a.Val, "//") {
					t.Errorf("<%s %s=%q> points outside the site", n.Data, a.Key, a.Val)
				}
			}
			if a.Key == "aria-labelledby" || a.Key == "aria-describedby" || a.Key == "for" {
				for ref := range strings.FieldsSeq(a.Val) {
					if ids[ref] == 0 {
						t.Errorf("<%s %s=%q>: no element has id %q", n.Data, a.Key, a.Val, ref)
					}
				}
			}
		}
		switch n.Data {
		case "style":
			t.Errorf("page has a <style> element")
		case "script":
			if attr(n, "src") == "" {
				t.Errorf("page has an inline <script>")
			}
			scripts = append(scripts, attr(n, "type")+" "+attr(n, "src"))
		case "input", "textarea", "select", "progress":
			if !labels[attr(n, "id")] {
				t.Errorf("<%s id=%q> has no <label for>", n.Data, attr(n, "id"))
			}
		case "button":
			if attr(n, "type") == "" {
				t.Errorf("<button id=%q> has no type", attr(n, "id"))
			}
			if strings.TrimSpace(text(n)) == "" {
				t.Errorf("<button id=%q> has no visible text", attr(n, "id"))
			}
		case "th":
			if attr(n, "scope") == "" {
				t.Errorf("<th>%s</th> has no scope", text(n))
			}
		case "table":
			if first := firstElement(n); first == nil || first.Data != "caption" {
				t.Errorf("<table id=%q> does not start with a <caption>", attr(n, "id"))
			}
		}
	}

	// The page loads one module; Go's wasm_exec.js runs in the engine's
	// worker, which the module starts.
	want := fmt.Sprintf("module %sapp.js", p.prefix)
	if got := strings.Join(scripts, ", "); got != want {
		t.Errorf("scripts = %q, want %q", got, want)
	}

	byID := func(id string) *html.Node {
		for _, n := range nodes {
			if attr(n, "id") == id {
				return n
			}
		}
		t.Fatalf("no element with id %q", id)
		return nil
	}
	if n := byID("status"); attr(n, "role") != "status" || attr(n, "aria-live") != "polite" {
		t.Errorf("status line lacks role=status aria-live=polite")
	}
	if !hasAttr(byID("failure"), "hidden") {
		t.Errorf("failure panel is visible before anything failed")
	}
	if got := attr(byID("loader"), "data-wasm-url"); got != p.prefix+"echomq.wasm" {
		t.Errorf("data-wasm-url = %q, want %sechomq.wasm", got, p.prefix)
	}
	if got := attr(byID("loader"), "data-worker-url"); got != p.prefix+WorkerFile {
		t.Errorf("data-worker-url = %q, want %s%s", got, p.prefix, WorkerFile)
	}

	widgets := WidgetNames
	if p.widget != "" {
		widgets = []string{p.widget}
		for _, w := range WidgetNames {
			if w != p.widget && ids[w] > 0 {
				t.Errorf("embed page of %s also holds the %s widget", p.widget, w)
			}
		}
	}
	for _, w := range widgets {
		section := byID(w)
		checkWidget(t, w, section, labels)
	}
}

func checkWidget(t *testing.T, name string, section *html.Node, labels map[string]bool) {
	t.Helper()
	if section.Data != "section" {
		t.Errorf("#%s is a <%s>, want a <section>", name, section.Data)
	}
	heading := find(section, func(n *html.Node) bool { return attr(n, "id") == attr(section, "aria-labelledby") })
	if heading == nil || heading.Data != "h2" {
		t.Errorf("#%s is not labelled by an <h2> inside it", name)
	}

	var live, buttons, labelText, testids, captions []string
	for _, n := range all(section) {
		if attr(n, "aria-live") != "" {
			live = append(live, attr(n, "id"))
		}
		if id := attr(n, "data-testid"); id != "" {
			testids = append(testids, id)
		}
		switch n.Data {
		case "button":
			buttons = append(buttons, strings.TrimSpace(text(n)))
			if !hasAttr(n, "disabled") {
				t.Errorf("#%s: button %q is enabled before the engine is ready", name, text(n))
			}
		case "input":
			if !hasAttr(n, "disabled") {
				t.Errorf("#%s: input %q is enabled before the engine is ready", name, attr(n, "id"))
			}
		case "label":
			labelText = append(labelText, strings.TrimSpace(text(n)))
		case "caption":
			captions = append(captions, strings.TrimSpace(text(n)))
		}
	}
	if !slices.Equal(live, liveRegions[name]) {
		t.Errorf("#%s has the aria-live regions %q, want %q", name, live, liveRegions[name])
	}
	for _, want := range buttonTexts[name] {
		if !slices.Contains(buttons, want) {
			t.Errorf("#%s has no button %q (buttons: %q)", name, want, buttons)
		}
	}
	for _, want := range labelTexts[name] {
		if !slices.Contains(labelText, want) {
			t.Errorf("#%s has no label %q (labels: %q)", name, want, labelText)
		}
	}
	for _, want := range testIDs[name] {
		if !slices.Contains(testids, want) {
			t.Errorf("#%s has no data-testid=%q", name, want)
		}
	}
	for _, want := range captionKeys[name] {
		if !slices.ContainsFunc(captions, func(c string) bool { return strings.HasPrefix(c, want) }) {
			t.Errorf("#%s has no table captioned %q... (captions: %q)", name, want, captions)
		}
	}
}

func TestHighlight(t *testing.T) {
	tests := []struct {
		desc string
		line string
		want []Token
	}{
		{
			desc: "comment after code",
			line: `{:ok, 1} -> x   # "not a string"`,
			want: []Token{{"", "{"}, {"atom", ":ok"}, {"", ", "}, {"num", "1"}, {"", "} -> x   "}, {"com", `# "not a string"`}},
		},
		{
			desc: "string with a hash and an escaped quote",
			line: `f("a#b\"c", @enqueue)`,
			want: []Token{{"", "f("}, {"str", `"a#b\"c"`}, {"", ", "}, {"attr", "@enqueue"}, {"", ")"}},
		},
		{
			desc: "keywords and module names",
			line: `def f(x) when is_binary(x) do Keyspace.job_key end`,
			want: []Token{
				{"kw", "def"}, {"", " f(x) "}, {"kw", "when"}, {"", " is_binary(x) "}, {"kw", "do"}, {"", " "},
				{"mod", "Keyspace"}, {"", ".job_key "}, {"kw", "end"},
			},
		},
		{desc: "unterminated string", line: `"abc`, want: []Token{{"str", `"abc`}}},
		{desc: "empty line", line: "", want: nil},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			got := highlightLine(tc.line)
			if !slices.Equal(got, tc.want) {
				t.Errorf("highlightLine(%q) =\n %q\nwant\n %q", tc.line, got, tc.want)
			}
		})
	}
	lines := Highlight(HandleSource)
	var back []string
	for _, l := range lines {
		var b strings.Builder
		for _, tok := range l.Tokens {
			b.WriteString(tok.Text)
		}
		back = append(back, b.String())
	}
	if got := strings.Join(back, "\n"); got != HandleSource {
		t.Errorf("the highlighted handle does not read back as its source")
	}
}

func TestStepperListsTheScriptsMoves(t *testing.T) {
	moves := DefaultWidgets().Stepper.Moves
	var names []string
	for _, m := range moves {
		names = append(names, m.Name)
		if m.Summary == "" {
			t.Errorf("move %d %q has no summary", m.N, m.Name)
		}
	}
	if got := strings.Join(names, ","); got != "gate,idempotency,row,pending" {
		t.Errorf("moves = %s", got)
	}
}

func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func firstElement(n *html.Node) *html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			return c
		}
	}
	return nil
}

func all(n *html.Node) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode {
				out = append(out, c)
			}
			walk(c)
		}
	}
	walk(n)
	return out
}

func find(n *html.Node, ok func(*html.Node) bool) *html.Node {
	for _, c := range all(n) {
		if ok(c) {
			return c
		}
	}
	return nil
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

// tagLines splits HTML after every '>' so that a diff of templ's one-line
// output points at the tag that changed.
func tagLines(s string) []string {
	return strings.SplitAfter(s, ">")
}

// diff returns a line diff of want and got ("-" only in want, "+" only in
// got), with a little context, from a longest-common-subsequence table.
// The pages are small, so the quadratic table is fine.
func diff(want, got []string) string {
	n, m := len(want), len(got)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if want[i] == got[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
	}
	var lines []line
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && want[i] == got[j]:
			lines = append(lines, line{' ', want[i]})
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			lines = append(lines, line{'-', want[i]})
			i++
		default:
			lines = append(lines, line{'+', got[j]})
			j++
		}
	}
	const context = 2
	var b strings.Builder
	last := -1
	for k, l := range lines {
		near := false
		for d := -context; d <= context; d++ {
			if k+d >= 0 && k+d < len(lines) && lines[k+d].op != ' ' {
				near = true
				break
			}
		}
		if !near {
			continue
		}
		if last >= 0 && k > last+1 {
			b.WriteString("...\n")
		}
		fmt.Fprintf(&b, "%c %s\n", l.op, l.text)
		last = k
	}
	return b.String()
}

func TestDiff(t *testing.T) {
	got := diff([]string{"a", "b", "c"}, []string{"a", "x", "c"})
	want := "  a\n- b\n+ x\n  c\n"
	if got != want {
		t.Errorf("diff = %q, want %q", got, want)
	}
}
