package page

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/ from the current output")

func render(t *testing.T, v Index) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := IndexPage(v).Render(context.Background(), &buf); err != nil {
		t.Fatalf("render: %v", err)
	}
	return buf.Bytes()
}

// goldenIndex is the view the golden file is rendered from: the defaults,
// plus a fixed wasm size so the size hint is covered too.
func goldenIndex() Index {
	v := DefaultIndex()
	v.WasmBytes = 4_194_304
	return v
}

func TestIndexGolden(t *testing.T) {
	got := render(t, goldenIndex())
	path := filepath.Join("testdata", "index.html")
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
		t.Errorf("index page differs from %s (run `go test ./web/page -update` if the change is intended):\n%s",
			path, diff(tagLines(string(want)), tagLines(string(got))))
	}
}

func TestIndexSizeHint(t *testing.T) {
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
			v := DefaultIndex()
			v.WasmBytes = tc.bytes
			got := string(render(t, v))
			if tc.want == "" {
				if strings.Contains(got, "data-wasm-bytes") {
					t.Errorf("page has a size hint, want none")
				}
				return
			}
			if !strings.Contains(got, tc.want) {
				t.Errorf("page lacks %s", tc.want)
			}
		})
	}
}

func TestIndexEscapesViewModel(t *testing.T) {
	v := DefaultIndex()
	v.Payload = `</textarea><script>alert(1)</script>`
	v.JobID = `"><img src=x>`
	got := string(render(t, v))
	for _, bad := range []string{"<script>alert", "<img src=x>"} {
		if strings.Contains(got, bad) {
			t.Errorf("view model text %q reached the page unescaped", bad)
		}
	}
}

// TestIndexRules checks the promises the page makes to the browser tests and
// to the Content-Security-Policy: no inline script or style, no requests to
// another origin, every control labelled, and the demo disabled until ready.
func TestIndexRules(t *testing.T) {
	doc, err := html.Parse(bytes.NewReader(render(t, goldenIndex())))
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
			if a.Key == "src" || a.Key == "href" {
				if strings.Contains(a.Val, ":") || strings.HasPrefix(a.Val, "//") {
					t.Errorf("<%s %s=%q> points outside the site", n.Data, a.Key, a.Val)
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
		}
	}

	if got, want := strings.Join(scripts, ", "), " wasm_exec.js, module app.js"; got != want {
		t.Errorf("scripts = %q, want %q (wasm_exec.js must run before the module)", got, want)
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
	for _, id := range []string{"enqueue", "claim"} {
		if !hasAttr(byID(id), "disabled") {
			t.Errorf("button %q is enabled before the engine is ready", id)
		}
	}
	if got := attr(byID("loader"), "data-wasm-url"); got != "echomq.wasm" {
		t.Errorf("data-wasm-url = %q, want echomq.wasm", got)
	}
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
