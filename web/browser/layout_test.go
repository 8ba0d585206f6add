package browser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// cellLinesJS measures how the tables of a widget lay their cells out:
// for every body row of every table, the text of each cell and the number
// of lines it takes on screen, and for the page and each table's wrapper
// how far their content overflows sideways.
const cellLinesJS = `(sel) => {
	const root = document.querySelector(sel);
	const lines = (el) => {
		const range = document.createRange();
		range.selectNodeContents(el);
		const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
		return tops.size;
	};
	return {
		page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
		tables: [...root.querySelectorAll("table")].map((t) => {
			const wrap = t.closest(".table-wrap");
			return {
				caption: t.caption.innerText.replace(/\s+/g, " ").trim(),
				head: [...t.tHead.rows[0].cells].map((c) => c.innerText.trim()),
				scrolls: wrap ? wrap.scrollWidth - wrap.clientWidth : 0,
				rows: [...t.tBodies[0].rows].filter((tr) => tr.cells.length > 1).map((tr) =>
					[...tr.cells].map((c) => {
						const code = c.querySelector("code") || c;
						return { text: code.textContent, lines: lines(code) };
					})),
			};
		}),
	};
}`

type cellLines struct {
	Text  string `json:"text"`
	Lines int    `json:"lines"`
}

type tableLayout struct {
	Caption string        `json:"caption"`
	Head    []string      `json:"head"`
	Scrolls float64       `json:"scrolls"`
	Rows    [][]cellLines `json:"rows"`
}

type layout struct {
	Page   float64       `json:"page"`
	Tables []tableLayout `json:"tables"`
}

// TestRoundTripTableLayout reads the round trip's tables at a laptop's
// width and at a phone's, with ids and payloads of the lengths a learner
// types. Ids (in any table), deadlines and attempts stay on one line; a
// payload may wrap, but a line of it holds a readable run of characters,
// not one or two; and the page itself never scrolls sideways (a table that
// does not fit scrolls inside its own frame).
func TestRoundTripTableLayout(t *testing.T) {
	payloads := []string{
		`{"task":"resize"}`,
		`{"task":"resize","width":1024,"height":768,"format":"webp","quality":80}`,
		`a-payload-with-no-spaces-at-all-that-runs-on-and-on-past-the-column-edge`,
		`a plain sentence as a payload, long enough to need more than one line here`,
	}
	for _, width := range []int64{1280, 360} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			tb := newTab(t)
			tb.run("set the viewport", chromedp.EmulateViewport(width, 900))
			tb.open("/")
			ready(tb)
			r := tb.in("#roundtrip")
			for i, p := range payloads {
				r.fill("Job id", fmt.Sprintf("JOB-%d", 10000+i))
				r.fill("Payload", p)
				r.clickShows("Enqueue", enqueueResult, "{:ok, :enqueued}")
			}
			r.clickShows("Claim", claimResult, `{:ok, {"JOB-10000"`)
			r.wantRows(activeKey, [][]string{{"JOB-10000", deadline, "in 30 s"}})

			got, err := eval[layout](tb, fmt.Sprintf("(%s)(%s)", cellLinesJS, jsArgs("#roundtrip")))
			if err != nil {
				t.Fatalf("measure the tables: %v", err)
			}
			if got.Page > 0 {
				t.Errorf("at %d px the page scrolls sideways by %v px", width, got.Page)
			}
			rows := 0
			for _, tbl := range got.Tables {
				for _, row := range tbl.Rows {
					rows++
					for i, cell := range row {
						col := ""
						if i < len(tbl.Head) {
							col = tbl.Head[i]
						}
						checkCell(t, width, tbl.Caption, col, i, cell)
					}
				}
				t.Logf("%s: %d rows; overflows its frame by %v px", tbl.Caption, len(tbl.Rows), tbl.Scrolls)
			}
			// Pending holds all but the claimed job, active that one, and
			// the rows every job.
			if want := 2 * len(payloads); rows != want {
				t.Errorf("measured %d rows; want %d", rows, want)
			}
			r.screenshot(fmt.Sprintf("roundtrip-%d", width))
			tb.in("#roundtrip .keyspace-grid").screenshot(fmt.Sprintf("roundtrip-tables-%d", width))
		})
	}
}

// checkCell checks one measured cell: column i of a row in the table
// captioned caption, under the header col.
func checkCell(t *testing.T, width int64, caption, col string, i int, c cellLines) {
	t.Helper()
	where := fmt.Sprintf("at %d px, %s, column %q: %q", width, caption, col, c.Text)
	switch {
	case col == "payload":
		// A readable run per line: at least 12 characters, or all of it.
		if n := len([]rune(c.Text)); c.Lines > 1 && n/c.Lines < 12 {
			t.Errorf("%s takes %d lines, %d characters each: wrapped to a sliver", where, c.Lines, n/c.Lines)
		}
	case i == 0, strings.HasPrefix(col, "Deadline"), col == "attempts", col == "Score", col == "Lease":
		if c.Lines != 1 {
			t.Errorf("%s takes %d lines; want it unbroken on one", where, c.Lines)
		}
	}
}

// wordLinesJS counts the lines that the first occurrence of word takes in
// the text of the element sel selects, as laid out on screen (0: not there).
const wordLinesJS = `(sel, word) => {
	const el = document.querySelector(sel);
	if (!el) return 0;
	const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
	const nodes = [];
	let text = "";
	for (let n = walker.nextNode(); n; n = walker.nextNode()) {
		nodes.push([n, text.length]);
		text += n.data;
	}
	const at = text.indexOf(word);
	if (at < 0) return 0;
	const locate = (offset) => {
		let found = nodes[0];
		for (const pair of nodes) if (pair[1] <= offset) found = pair;
		return [found[0], offset - found[1]];
	};
	const range = document.createRange();
	range.setStart(...locate(at));
	range.setEnd(...locate(at + word.length - 1));
	range.setEnd(range.endContainer, range.endOffset + 1);
	return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
}`

// TestStepperPositionKeepsTheIdWhole reads the stepper's position line on
// a phone: the id in it reads as one word, not "JOB-" on one line and "1"
// on the next.
func TestStepperPositionKeepsTheIdWhole(t *testing.T) {
	tb := newTab(t)
	tb.run("set the viewport", chromedp.EmulateViewport(360, 900))
	tb.open("/embed/stepper.html")
	ready(tb)
	st := tb.in("#stepper")
	st.wantText(stepPosition, "Before move 1", `"JOB-000001"`)
	got, err := eval[int](tb, fmt.Sprintf("(%s)(%s)", wordLinesJS, jsArgs("#stepper "+stepPosition, `"JOB-000001"`)))
	if err != nil {
		t.Fatalf("measure the position line: %v", err)
	}
	if got != 1 {
		t.Errorf("at 360 px the id in %q takes %d lines; want 1", st.text(stepPosition), got)
	}
	st.screenshot("stepper-360")
}
