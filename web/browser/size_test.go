package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// inEngine evaluates expr inside the page's engine, its dedicated worker,
// where globalThis.echomq is: for the sizes no learner can type. Nothing
// in the site can do this; the calls are the page's own engine's.
func inEngine[T any](tb *tab, expr string) T {
	tb.t.Helper()
	infos, err := chromedp.Targets(tb.ctx)
	if err != nil {
		tb.t.Fatal(err)
	}
	for _, i := range infos {
		if i.Type != "worker" || !strings.HasPrefix(i.URL, tb.base) {
			continue
		}
		ctx, cancel := chromedp.NewContext(tb.ctx, chromedp.WithTargetID(i.TargetID))
		defer cancel()
		// A bound, not a measure: 32 MiB on every path is a few seconds
		// idle and minutes on a loaded machine.
		ctx, stop := context.WithTimeout(ctx, 20*waitTimeout)
		defer stop()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
		if err != nil {
			tb.t.Fatalf("in the engine's worker, %.200s: %v", expr, err)
		}
		return got
	}
	tb.t.Fatalf("the page has no engine worker under %s", tb.base)
	panic("unreachable")
}

// claimText is the length of the round trip's last claim as the page
// shows it, and its first characters.
func claimText(tb *tab) (int, string) {
	tb.t.Helper()
	got, err := eval[[]any](tb, `(() => { const t = document.querySelector("#roundtrip `+claimResult+`").textContent; return [t.length, t.slice(0, 40)]; })()`)
	if err != nil {
		tb.t.Fatal(err)
	}
	return int(got[0].(float64)), got[1].(string)
}

// TestValuesOfAnySizeThroughThePage carries large values through the
// page's engine in Chromium: a learner pastes a 256 KiB payload into the
// round trip (past the ~128 KiB at which main's bridge threw), enqueues
// and claims it and reads it back; the engine in the page's worker takes
// 1, 4, 16 and 32 MiB on every path (enqueue and claim, exec, EVAL's ARGV,
// a script's reply, snapshot, trace) whole. Past the 32 MiB cap, and for
// a lone surrogate, it answers an error that names the cap, and the
// keyspace is as it was.
//
// The learner's part stays at 256 KiB: the page itself (its readouts,
// tables and wire log) took 41 s to show the verdict of a 1 MiB enqueue
// on a machine under a load of 25, which is the page's cost, not the
// bridge's. And the test does not go back to the page after the 32 MiB
// calls: under such a load one of them holds the worker past the page's
// 10 s watchdog, and the page says the engine stopped.
func TestValuesOfAnySizeThroughThePage(t *testing.T) {
	// 32 MiB on every path is seconds on an idle machine and minutes on a
	// loaded one: a bound on the test, as tabTimeout is on others.
	tb := newLongTab(t, 10*time.Minute)
	tb.open("/")
	ready(tb)
	r := tb.in("#roundtrip")

	const mib = 1 << 20
	const pasted = 256 << 10
	r.fill("Job id", "JOB-big")
	r.fill("Payload", "x")
	// A learner pastes the rest: one insertion, as a paste is.
	if _, err := chromedp.Call(tb.ctx, input.InsertText, input.InsertTextParams{Text: strings.Repeat("x", pasted-1)}); err != nil {
		t.Fatal(err)
	}
	if got := len(r.value("Payload")); got != pasted {
		t.Fatalf("the payload field holds %d characters after the paste, want %d", got, pasted)
	}
	r.clickShows("Enqueue", enqueueResult, "{:ok, :enqueued}")
	r.clickShows("Claim", claimResult, `{:ok, {"JOB-big", "xxxx`)
	if n, start := claimText(tb); n < pasted {
		t.Errorf("the claim of a 256 KiB payload shows %d characters (%q…)", n, start)
	}

	// One call per evaluation: the page pings its engine every 2 s and
	// calls it stopped after 10 s without an answer, so nothing here may
	// hold the worker much longer than one call does.
	for _, n := range []int{1 * mib, 4 * mib, 16 * mib, 32 * mib} {
		inEngine[bool](tb, fmt.Sprintf(`(self.testValue = "\u00e9".repeat(%d / 4) + "y".repeat(%d / 2), true)`, n, n))
		for _, c := range []struct{ what, call, ok string }{
			{"enqueue", `e.enqueue("q", "JOB-" + n, v)`, `r.verdict === "enqueued"`},
			{"claim", `e.claim("q", 30000)`, `r.id === "JOB-" + n && r.payload === v`},
			{"snapshot", `e.snapshot("q", 25)`, `r.rows.some((row) => row.id === "JOB-" + n && row.payload === v)`},
			{"exec SET", `e.exec(["SET", "k", v])`, `r.value === "OK"`},
			{"exec GET", `e.exec(["GET", "k"])`, `r.value === v`},
			{"EVAL's ARGV", `e.exec(["EVAL", "return #ARGV[1]", "0", v])`, `r.value === String(n)`},
			{"a script's reply", `e.exec(["EVAL", "return string.rep('ab', " + n / 2 + ")", "0"])`, `r.value === "ab".repeat(n / 2)`},
			// A trace reads the key it shows through miniredis's RESP, inside
			// the script's 900 ms; on a loaded machine the budget may stop it
			// at 32 MiB, an answer in words, as the Node test allows.
			{"trace", `e.trace("return redis.call('SET', KEYS[1], ARGV[1])", ["t"], [v])`,
				`(n >= 32 * 1048576 && r.problem && r.problem.kind === "killed") || (r.steps[0].keyspace[0].string === v && r.steps[0].command[2] === v)`},
		} {
			got := inEngine[string](tb, fmt.Sprintf(`(() => {
				const n = %d, e = self.echomq, v = self.testValue;
				const r = %s;
				try { if (%s) return ""; } catch (err) { return String(err); }
				return JSON.stringify(r).slice(0, 300);
			})()`, n, c.call, c.ok))
			if got != "" {
				t.Errorf("%s of %d MiB through the page's engine: %s", c.what, n/mib, got)
			}
		}
		inEngine[bool](tb, `(self.echomq.exec(["DEL", "k", "t", "emq:{q}:job:JOB-`+fmt.Sprint(n)+`"]), delete self.testValue, true)`)
	}
	before := inEngine[string](tb, `JSON.stringify([self.echomq.snapshot("q"), self.echomq.exec(["DBSIZE"])]).length + ""`)
	var refused string
	for _, call := range []string{`e.enqueue("q", "JOB-over", "x".repeat(32 * 1048576 + 1))`, `e.exec(["SET", "k", "x".repeat(32 * 1048576 + 1)])`,
		`e.enqueue("q", "JOB-\ud800", "{}")`, `e.enqueue("q", "JOB-\udfff", "{}")`} {
		refused += inEngine[string](tb, `(() => { const e = self.echomq, r = `+call+`; return r.error + ": " + r.message + "\n"; })()`)
	}
	for _, want := range []string{
		"args: enqueue(queue, id, payload): payload is 33554433 bytes in UTF-8, more than the 32 MiB the playground allows a string",
		"args: exec(args, connection): args[2] is 33554433 bytes in UTF-8, more than the 32 MiB",
		`args: enqueue(queue, id, payload): id is not valid UTF-16: it has a lone surrogate, \ud800, at index 4`,
		`args: enqueue(queue, id, payload): id is not valid UTF-16: it has a lone surrogate, \udfff, at index 4`,
	} {
		if !strings.Contains(refused, want) {
			t.Errorf("the refusals read\n%s\nwant a line starting %q", refused, want)
		}
	}
	if after := inEngine[string](tb, `JSON.stringify([self.echomq.snapshot("q"), self.echomq.exec(["DBSIZE"])]).length + ""`); after != before {
		t.Errorf("the refused calls changed the keyspace (a snapshot of %s characters, then %s)", before, after)
	}
}
