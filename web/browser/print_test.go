package browser

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/ledongthuc/pdf"
)

// printed prints the tab's page to PDF, as a learner's "Save as PDF"
// does, and returns the text of the PDF, line by line as the PDF lays its
// text runs out (ligatures undone, so words read as typed).
func (tb *tab) printed() []string {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, waitTimeout)
	defer cancel()
	res, err := chromedp.Call(ctx, page.PrintToPDF, page.PrintToPDFParams{})
	if err != nil {
		tb.t.Fatalf("Page.printToPDF: %v", err)
	}
	data := res.Data
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		tb.t.Fatalf("read the PDF: %v", err)
	}
	plain, err := r.GetPlainText()
	if err != nil {
		tb.t.Fatalf("the PDF's text: %v", err)
	}
	b, err := io.ReadAll(plain)
	if err != nil {
		tb.t.Fatal(err)
	}
	text := strings.NewReplacer("ﬁ", "fi", "ﬂ", "fl", "ﬀ", "ff").Replace(string(b))
	return strings.Split(text, "\n")
}

// TestPrintedHandout prints the lesson and reads the PDF: every section
// heading is there, the current move is marked in words, the references
// carry their addresses, and no control, status line or copy-link button
// made it onto paper.
func TestPrintedHandout(t *testing.T) {
	tb := openReady(t, "/")
	s := tb.in("#stepper")
	s.click("Step")
	s.clickShows("Step", stepPosition, "Move 2 of 4")

	lines := tb.printed()
	all := strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
	for _, c := range courseParts {
		if c.heading != "" && !strings.Contains(all, c.heading) {
			t.Errorf("the handout has no heading %q", c.heading)
		}
	}
	for _, want := range []string{
		"The commands, offline",
		"▶ now: Move 2 · idempotency",
		"https://valkey.io/commands/zpopmin/",
		"https://redis.io/docs/latest/commands/evalsha/",
		"redis> ZPOPMIN emq:{q}:pending",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the handout does not say %q", want)
		}
	}

	// The page's own buttons, read from it: the labels that name only a
	// button (the prose says "press Step", so Step is not one) must not be
	// on paper, anywhere.
	labels, err := eval[[]string](tb, `(() => {
		const sel = "button:not(.move-jump):not(.cmd-card)";
		const labels = [...new Set([...document.querySelectorAll(sel)].map((b) => b.textContent.replace(/\s+/g, " ").trim()).filter((l) => l !== ""))];
		const rest = document.body.cloneNode(true);
		for (const b of rest.querySelectorAll(sel)) b.remove();
		const prose = rest.textContent.replace(/\s+/g, " ");
		return labels.filter((l) => !prose.includes(l));
	})()`)
	if err != nil {
		t.Fatal(err)
	}
	if len(labels) < 10 || !slices.Contains(labels, "Copy link") {
		t.Fatalf("only %d labels name nothing but a button: %q", len(labels), labels)
	}
	for _, l := range labels {
		if strings.Contains(all, l) {
			t.Errorf("the handout shows the button label %q", l)
		}
	}
	for _, gone := range []string{"Copy link", "Ready", "Downloading the engine"} {
		if strings.Contains(all, gone) {
			t.Errorf("the handout shows %q", gone)
		}
	}
}
