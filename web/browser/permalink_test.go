package browser

import (
	"bytes"
	"compress/flate"
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// linkFragment packs a permalink state the way permalink.js does: JSON,
// raw deflate, base64url, behind "#v1.". Tests use it to hand-make the
// hostile links a learner might be sent.
func linkFragment(t *testing.T, state any) string {
	t.Helper()
	js, err := json.Marshal(state)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write(js)
	w.Close()
	return "#v1." + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// copyLink presses "Copy link" in a widget, as a learner does, and returns
// the link: the page shows it in the widget's field (and puts it in the
// address bar) whether or not the clipboard took it.
func copyLink(w scope, widget string) string {
	w.tb.t.Helper()
	w.clickShows("Copy link", ".permalink-status", "address bar")
	link, err := eval[string](w.tb, `document.getElementById(`+jsArgs(widget+"-link")+`).value`)
	if err != nil {
		w.tb.t.Fatal(err)
	}
	hash, _ := eval[string](w.tb, `location.hash`)
	if hash == "" || !strings.HasSuffix(link, hash) {
		w.tb.t.Fatalf("the address bar's fragment %q is not the copied link's %q", hash, link)
	}
	return link
}

// TestPermalinkRoundTrip builds up state the way a learner does (jobs
// enqueued and claimed, the clock moved, the stepper part-way through a
// run), copies the stepper's link, and opens it in a fresh tab: the same
// keyspace, the same clock, the stepper at the same move, and the page
// scrolled to the stepper.
func TestPermalinkRoundTrip(t *testing.T) {
	tb := openReady(t, "/")
	r := tb.in("#roundtrip")
	enqueueTwoClaimOne(r, "30000")
	r.fill("Advance by (ms)", "5000")
	r.clickShows("Advance", clock, "1767225605000")

	s := tb.in("#stepper")
	s.click("Step")
	s.clickShows("Step", stepPosition, "Move 2 of 4")
	// The change marks say what the last action did, so only the rows
	// themselves must come back.
	rows := func(tbl table) string { return fmt.Sprintf("%q", tbl.Rows) }
	before := struct{ pending, active, rows, position, command string }{
		rows(r.table(pendingKey)), rows(r.table(activeKey)), rows(r.table(rowsKey)),
		s.text(stepPosition), s.text("[data-testid=step-command]"),
	}

	link := copyLink(s, "stepper")

	fresh := newTab(t)
	fresh.openURL(link)
	ready(fresh)
	r2, s2 := fresh.in("#roundtrip"), fresh.in("#stepper")
	r2.wantText(clock, "1767225605000")
	s2.wantText(stepPosition, before.position)
	for what, pair := range map[string][2]string{
		"pending": {before.pending, rows(r2.table(pendingKey))},
		"active":  {before.active, rows(r2.table(activeKey))},
		"rows":    {before.rows, rows(r2.table(rowsKey))},
		"command": {before.command, s2.text("[data-testid=step-command]")},
	} {
		if pair[0] != pair[1] {
			t.Errorf("%s after the link:\n%s\nwant, as before:\n%s", what, pair[1], pair[0])
		}
	}
	if focused, _ := eval[string](fresh, `document.activeElement && document.activeElement.id`); focused != "stepper" {
		t.Errorf("the link opened with focus on %q; want the stepper it was copied from", focused)
	}
	fresh.whole().wantNoText("#notice", "could not")
	s2.screenshot("permalink-opened")
}

// rawWords are words of an engine or a browser, never of a notice a
// learner reads: they go to the console.
var rawWords = []string{"Error", "error:", "exception", "header check", "invalid", "Unexpected", "undefined", "FunctionClause", "**"}

// TestPermalinkCorrupt opens damaged and hostile links: each gets a notice
// that says why, that none of it ran and nothing else changed, in the
// learner's words, and the default playground, with nothing of the link
// run.
func TestPermalinkCorrupt(t *testing.T) {
	for name, c := range map[string]struct {
		fragment string
		want     string
	}{
		"garbage":      {"#v1.%%%not-base64", "could not be opened"},
		"cut short":    {linkFragment(t, map[string]any{"v": 1})[:12], "could not be opened"},
		"not ours":     {"#section-3", "not a playground link"},
		"unknown call": {linkFragment(t, map[string]any{"v": 1, "widget": "stepper", "ops": [][]any{{"enqueue", "q", "JOB-5", "{}"}, {"flushall"}}, "views": map[string]any{}}), "not one the playground records"},
		"bad argument": {linkFragment(t, map[string]any{"v": 1, "widget": "stepper", "ops": [][]any{{"advance", "soon"}}, "views": map[string]any{}}), "wrong kind"},
	} {
		t.Run(name, func(t *testing.T) {
			tb := openReady(t, "/"+c.fragment)
			notice := tb.whole().wantText("#notice", c.want, "Nothing in it was run, and nothing else changed", "default state")
			for _, raw := range rawWords {
				if strings.Contains(notice, raw) {
					t.Errorf("the notice passes on %q: %s", raw, notice)
				}
			}
			tb.in("#roundtrip").wantRows(pendingKey, nil)
			tb.in("#roundtrip").wantText(clock, startMS)
			tb.in("#stepper").wantText(stepPosition, "Before move 1")
		})
	}
}

// TestPermalinkPartlyRun opens a link one of whose calls the page cannot
// run (a claim with a lease of "abc", which claim/3's guard refuses): the
// notice names that call as the learner made it and says the others ran,
// in the learner's words; the guard's FunctionClauseError is in the
// console only, and the enqueue before it did run.
func TestPermalinkPartlyRun(t *testing.T) {
	fragment := linkFragment(t, map[string]any{
		"v": 1, "widget": "roundtrip",
		"ops":   [][]any{{"enqueue", "q", "JOB-9", "{}"}, {"claim", "q", "abc"}},
		"views": map[string]any{},
	})
	tb := openReady(t, "/"+fragment)
	notice := tb.whole().wantText("#notice",
		"One of the link's 2 operations, call 2 (a claim), could not run here",
		"The others ran, and nothing else changed.")
	for _, raw := range rawWords {
		if strings.Contains(notice, raw) {
			t.Errorf("the notice passes on %q: %s", raw, notice)
		}
	}
	tb.in("#roundtrip").wantRows(pendingKey, [][]string{{"JOB-9", "0"}})
	warned := strings.Join(consoleWarnings(tb)(), "\n")
	if !strings.Contains(warned, "call 2 of the link (claim) could not run") || !strings.Contains(warned, "FunctionClauseError") {
		t.Errorf("the console does not hold the engine's own words for call 2; it says:\n%s", warned)
	}
}

// TestPermalinkWithLua opens a link whose operations run Lua the learner
// has not seen: nothing runs until they have read it. Declining leaves
// the default playground; accepting rebuilds the link's keyspace.
func TestPermalinkWithLua(t *testing.T) {
	script := "redis.call('ZADD', KEYS[1], 0, 'JOB-LUA') return 1"
	fragment := linkFragment(t, map[string]any{
		"v": 1, "widget": "roundtrip",
		"ops": [][]any{
			{"enqueue", "q", "JOB-9", "{}"},
			{"exec", []string{"EVAL", script, "1", "emq:{q}:pending"}},
		},
		"views": map[string]any{},
	})

	for _, tc := range []struct {
		name, button string
		notice       string // what the notices say after it, or "" to read none
		pending      [][]string
	}{
		{"declined", "Start without it", "were not run", nil},
		{"accepted", "Run it and open the link", "", [][]string{{"JOB-9", "0"}, {"JOB-LUA", "0"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTab(t)
			tb.open("/" + fragment)
			review := tb.in("#link-review")
			review.wantText("pre", script)
			review.click(tc.button)
			ready(tb)
			if tc.notice != "" {
				tb.whole().wantText("#notice", tc.notice)
			}
			tb.in("#roundtrip").wantRows(pendingKey, tc.pending)
		})
	}
}

// TestPermalinkLuaAnySpelling opens links whose Lua is spelt the ways that
// once got past the page's review, each of which wrote a key on open: the
// console's "\x65val", "\x53CRIPT" LOAD then "\x45VALSHA", an EVAL queued
// in MULTI on a named connection and run by EXEC. Each shows its script
// for review, and with the learner declining nothing has been written;
// run, the script's member is in the pending set. ſcript LOAD then
// EVALſHA (the long s, which Go's case mapping takes for S) are no
// commands to Redis and none to the engine: the link opens with no review
// and writes nothing.
func TestPermalinkLuaAnySpelling(t *testing.T) {
	script := "redis.call('ZADD', KEYS[1], 0, 'JOB-LUA') return 1"
	sum := sha1.Sum([]byte(script))
	sha := hex.EncodeToString(sum[:])
	link := func(ops ...[]any) string {
		return "/" + linkFragment(t, map[string]any{"v": 1, "widget": "roundtrip", "ops": ops, "views": map[string]any{}})
	}
	quoted := `"` + strings.ReplaceAll(script, "'", `\x27`) + `"`
	for _, tc := range []struct {
		name string
		url  string
		run  bool // accept the review
	}{
		{"escaped eval", link([]any{"cli", `"\x65val" ` + quoted + ` 1 ` + pendingKey}), false},
		{"escaped script load and evalsha", link([]any{"cli", `"\x53CRIPT" LOAD ` + quoted}, []any{"cli", `"\x45VALSHA" ` + sha + ` 1 ` + pendingKey}), false},
		{"escaped script load and evalsha, run", link([]any{"cli", `"\x53CRIPT" LOAD ` + quoted}, []any{"cli", `"\x45VALSHA" ` + sha + ` 1 ` + pendingKey}), true},
		{"queued in multi on a named connection", link(
			[]any{"exec", []string{"MULTI"}, "worker-A"},
			[]any{"exec", []string{"EvAl", script, "1", pendingKey}, "worker-A"},
			[]any{"exec", []string{"EXEC"}, "worker-A"}), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTab(t)
			tb.open(tc.url)
			review := tb.in("#link-review")
			review.wantText("pre", script)
			if tc.run {
				review.click("Run it and open the link")
			} else {
				review.click("Start without it")
			}
			ready(tb)
			var want [][]string
			if tc.run {
				want = [][]string{{"JOB-LUA", "0"}}
			} else {
				tb.whole().wantText("#notice", "were not run")
			}
			tb.in("#roundtrip").wantRows(pendingKey, want)
		})
	}
	t.Run("long s", func(t *testing.T) {
		tb := newTab(t)
		tb.open(link([]any{"exec", []string{"\u017fcript", "LOAD", script}}, []any{"exec", []string{"EVAL\u017fHA", sha, "1", pendingKey}}))
		ready(tb)
		if hidden, err := eval[bool](tb, `document.getElementById("link-review").hidden`); err != nil || !hidden {
			t.Errorf("the review is shown (%v) for a link that runs no Lua", err)
		}
		tb.in("#roundtrip").wantRows(pendingKey, nil)
	})
}

// TestPermalinkReadouts: a learner enqueues and claims in the round trip,
// presses a verdict, copies the round trip's link and opens it. What the
// readouts said comes back word for word (the last enqueue, the last
// claim and what it means, the wire log, the latest verdict with its call
// and reply, and what "Enqueue it again" will send), replayed by the
// engine, and the focus is on the round trip the link was copied from.
func TestPermalinkReadouts(t *testing.T) {
	tb := openReady(t, "/")
	r, v := tb.in("#roundtrip"), tb.in("#verdicts")
	enqueueTwoClaimOne(r, "20000")
	v.clickShows("Enqueue a job", verdict, "{:ok, :enqueued}")
	v.wantText(againHint, "JOB-000003")

	readouts := []struct {
		in  scope
		sel string
	}{
		{r, enqueueResult}, {r, claimResult}, {r, claimExplain}, {r, wireLog},
		{v, verdict}, {v, verdictCall}, {v, verdictReply}, {v, "#verdicts-explain"}, {v, againHint},
	}
	before := make([]string, len(readouts))
	for i, x := range readouts {
		before[i] = x.in.text(x.sel)
	}
	link := copyLink(r, "roundtrip")

	fresh := newTab(t)
	fresh.openURL(link)
	ready(fresh)
	fresh.in("#roundtrip").wantRows(pendingKey, [][]string{{"JOB-000003", "0"}, {"JOB-2", "0"}})
	for i, x := range readouts {
		in := fresh.in(x.in.sel)
		if got := in.text(x.sel); got != before[i] {
			t.Errorf("%s in %s after the link:\n%q\nwant, as before:\n%q", x.sel, in.where(), got, before[i])
		}
	}
	if f := fresh.in("#roundtrip").focus(); !f.Inside || f.Tag != "section" {
		t.Errorf("the link opened with focus on %s; want the round trip it was copied from", f)
	}
	fresh.whole().wantNoText("#notice", "could not")
}

// enqueueTwoClaimOne does in the round trip what a learner does first:
// enqueue JOB-1 and JOB-2, then claim with the lease typed, which leases
// JOB-1.
func enqueueTwoClaimOne(r scope, lease string) {
	r.tb.t.Helper()
	for _, id := range []string{"JOB-1", "JOB-2"} {
		enqueueJob(r, id, "{:ok, :enqueued}")
	}
	r.fill("Lease (ms)", lease)
	r.clickShows("Claim", claimResult, `{:ok, {"JOB-1"`)
}
