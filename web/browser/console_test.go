package browser

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

const (
	consoleLog = "[data-testid=console-log]"
	// lastEntry is the newest command on the console's screen and what it
	// printed; lastOut is only what it printed.
	lastEntry = consoleLog + " > li:last-child"
	lastOut   = lastEntry + " .console-out"
	lastNote  = lastEntry + " .console-note"
)

// typeLine types a line at the console's prompt and presses Enter, as a
// learner does, and waits until its reply is on the screen.
func typeLine(c scope, line string) {
	c.tb.t.Helper()
	c.fill("Command", line)
	c.press(kb.Enter)
	c.tb.eventually("the console to print a reply to "+line, func() (string, bool) {
		got, err := eval[[]string](c.tb, c.expr("attrs", []string{lastEntry, "data-kind"}))
		if err != nil {
			return errString(err), false
		}
		return strings.Join(got, " "), len(got) == 1 && got[0] != "running"
	})
}

// wantOut waits until the newest reply reads exactly want, line breaks and
// the spaces that line nested arrays up included.
func wantOut(c scope, want string) {
	c.tb.t.Helper()
	c.tb.eventually("the newest reply to read "+want, func() (string, bool) {
		got, err := eval[*string](c.tb, c.expr("text", lastOut))
		if err != nil || got == nil {
			return errString(err), false
		}
		return *got, *got == want
	})
}

// TestConsole types commands at the console and reads what redis-cli would
// print; the other widgets follow what the console writes, ↑ and ↓ walk the
// history, a runaway script comes back stopped within about a second, and
// HELLO 3 switches the console, and only the console, to RESP3.
func TestConsole(t *testing.T) {
	tb := openReady(t, "/?budget="+testBudget) // its runaway stops at a small budget
	c := tb.in("#console")

	typeLine(c, "ZADD emq:{q}:pending 0 JOB-9")
	c.wantText(lastEntry, "redis> ZADD emq:{q}:pending 0 JOB-9")
	wantOut(c, "(integer) 1")
	// One keyspace: the widgets that show the queue follow the console.
	tb.in("#roundtrip").wantRows(pendingKey, [][]string{{"JOB-9", "0"}})
	tb.in("#stepper").wantRows(pendingKey, [][]string{{"JOB-9", "0"}})

	typeLine(c, "ZRANGE emq:{q}:pending 0 -1")
	wantOut(c, `1) "JOB-9"`)
	typeLine(c, "HGET emq:{q}:job:JOB-9 state")
	wantOut(c, "(nil)")
	typeLine(c, `EVAL "return {1,{2,{'a'}},{}}" 0`)
	wantOut(c, "1) (integer) 1\n2) 1) (integer) 2\n   2) 1) \"a\"\n3) (empty array)")
	typeLine(c, `SET greeting "caf\xc3\xa9\n"`)
	wantOut(c, "OK")
	typeLine(c, "GET greeting")
	wantOut(c, `"caf\xc3\xa9\n"`)
	typeLine(c, "INCR greeting")
	wantOut(c, "(error) ERR value is not an integer or out of range")
	c.wantAttrs(lastEntry, "data-kind", "error")
	typeLine(c, `SET "a"b`)
	wantOut(c, "Invalid argument(s)")
	c.wantAttrs(lastEntry, "data-kind", "syntax")

	// ↑ recalls the newest line first, ↓ walks back to what was being typed.
	c.fill("Command", "PING half-typ")
	c.press(kb.ArrowUp)
	wantField(c, `SET "a"b`)
	c.press(kb.ArrowUp)
	wantField(c, "INCR greeting")
	c.press(kb.ArrowDown)
	wantField(c, `SET "a"b`)
	c.press(kb.ArrowDown)
	wantField(c, "PING half-typ")
	c.fill("Command", "")
	c.press(kb.ArrowUp)
	wantField(c, `SET "a"b`)
	c.press(kb.Enter)
	wantOut(c, "Invalid argument(s)")

	// A script that never ends is stopped, within about a second, with
	// Redis's SCRIPT KILL error and a note in plain words; its write stays.
	started := time.Now()
	typeLine(c, `EVAL "redis.call('SET', 'before', 'kept') while true do end" 0`)
	// How long it took is reported, never judged: these machines are shared.
	t.Logf("the runaway script's error showed %v after Enter", time.Since(started))
	c.wantTextWithin(budgetWait, lastOut, "(error) ERR Script killed by user with SCRIPT KILL... script: ", ", on @user_script:1.")
	// The work budget's note (the page's ?budget, see testBudget): it
	// begins so, as the last resort's does.
	c.wantText(lastNote, "The playground stopped this script ", "SCRIPT KILL", "nothing is rolled back")
	typeLine(c, "GET before")
	wantOut(c, `"kept"`)

	// HELLO 3 changes the console's replies, and only the console's.
	typeLine(c, "HELLO 3")
	c.wantText(lastOut, `1# "server" => "redis"`, `3# "proto" => (integer) 3`)
	typeLine(c, "ZSCORE emq:{q}:pending JOB-9")
	wantOut(c, "(double) 0")
	typeLine(c, "HSET h f v")
	typeLine(c, "HGETALL h")
	wantOut(c, `1# "f" => "v"`)
	tb.in("#roundtrip").wantRows(pendingKey, [][]string{{"JOB-9", "0"}})
	c.screenshot("console")

	// clear empties the screen, as in redis-cli, and sends nothing.
	typeLine(c, "ZCARD emq:{q}:pending")
	c.fill("Command", "clear")
	c.press(kb.Enter)
	tb.eventually("the console's screen to be empty", func() (string, bool) {
		got, err := eval[[]string](tb, c.expr("texts", consoleLog+" > li"))
		return strings.Join(got, " | ") + errString(err), err == nil && len(got) == 0
	})
	c.press(kb.ArrowUp)
	wantField(c, "clear")
}

// TestConsoleShowsItsDifferences: the known differences from Redis 7.0 are
// one click away, in words.
func TestConsoleShowsItsDifferences(t *testing.T) {
	tb := openReady(t, "/embed/console.html")
	c := tb.in("#console")
	c.wantText("[data-testid=console-differences] summary", "Where this console differs from Redis 7.0")
	tb.run("open the console's differences", chromedp.Click(chromedp.JSPath(`[document.querySelector("#console [data-testid=console-differences] summary")]`)))
	c.wantText("[data-testid=console-differences]", "got no value", "SCRIPT KILL", "(big number)")
}

// wantField waits until the console's prompt holds value.
func wantField(c scope, value string) {
	c.tb.t.Helper()
	c.tb.eventually("the prompt to hold "+value, func() (string, bool) {
		got := c.value("Command")
		return got, got == value
	})
}

// TestConsolePermalink copies the console's link and opens it in a fresh
// tab: the keyspace is rebuilt by the link's operations, the screen and
// the history come back, and nothing is sent twice.
func TestConsolePermalink(t *testing.T) {
	tb := openReady(t, "/")
	c := tb.in("#console")
	typeLine(c, "ZADD emq:{q}:pending 0 JOB-9")
	typeLine(c, `SET "a"b`)
	typeLine(c, "ZCARD emq:{q}:pending")
	wantOut(c, "(integer) 1")
	link := copyLink(c, "console")

	fresh := newTab(t)
	fresh.openURL(link)
	ready(fresh)
	c2 := fresh.in("#console")
	got := c2.texts(consoleLog + " > li")
	want := []string{"redis> ZADD emq:{q}:pending 0 JOB-9 (integer) 1", `redis> SET "a"b Invalid argument(s)`, "redis> ZCARD emq:{q}:pending (integer) 1"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the console after the link shows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	fresh.in("#roundtrip").wantRows(pendingKey, [][]string{{"JOB-9", "0"}})
	// A line redis-cli refuses is part of the story, not a broken link.
	fresh.whole().wantNoText("#notice", "could not")
	c2.fill("Command", "")
	c2.press(kb.ArrowUp)
	wantField(c2, "ZCARD emq:{q}:pending")
	// The ZADD ran once, when the link was replayed: still one member.
	typeLine(c2, "ZCARD emq:{q}:pending")
	wantOut(c2, "(integer) 1")
}

// TestConsoleRestoreDropsWhatItCouldNotHaveMade: a hand-made link with a
// console view of the wrong shape shows only the entries that check out,
// and runs none of them.
func TestConsoleRestoreDropsWhatItCouldNotHaveMade(t *testing.T) {
	fragment := linkFragment(t, map[string]any{
		"v": 1, "widget": "console", "ops": [][]any{},
		"views": map[string]any{"console": map[string]any{
			"history": "FLUSHALL",
			"transcript": []any{
				map[string]any{"line": "ZADD emq:{q}:pending 0 JOB-X", "text": "(integer) 1", "kind": "reply"},
				map[string]any{"line": "PING", "text": "<img src=x onerror=alert(1)>", "kind": "reply", "extra": true},
				map[string]any{"line": "GET k", "text": "x", "kind": "<script>"},
				map[string]any{"line": 7, "text": "x", "kind": "reply"},
				map[string]any{"line": "GET k", "text": strings.Repeat("x", 10000), "kind": "reply"},
				"not an entry",
			},
		}},
	})
	tb := openReady(t, "/"+fragment)
	c := tb.in("#console")
	got := c.texts(consoleLog + " > li")
	want := []string{"redis> ZADD emq:{q}:pending 0 JOB-X (integer) 1", "redis> PING <img src=x onerror=alert(1)>"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the console shows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n, _ := eval[int](tb, `document.querySelectorAll("#console-log img").length`); n != 0 {
		t.Errorf("a saved reply became markup: %d <img> elements", n)
	}
	// Nothing was sent: JOB-X was never added, and the history is empty.
	tb.in("#roundtrip").wantRows(pendingKey, nil)
	c.fill("Command", "")
	c.press(kb.ArrowUp)
	wantField(c, "")
}

// TestConsoleRunawayAllocation types a script that allocates without end:
// it comes back as a clear error, the page answers clicks meanwhile (the
// engine runs in its worker), and what the script wrote before stays, as
// in Redis, which rolls nothing back.
//
// Which budget stops the first run depends on the machine: memory the
// module has never had comes slowly (milliseconds per MiB), so on a slow
// one the work budget (or the last resort) can end it before it has 64 MiB. Once the
// module has the memory, allocating is quick, and the second run must be
// stopped by the memory budget, and say so.
func TestConsoleRunawayAllocation(t *testing.T) {
	tb := openReady(t, "/")
	c := tb.in("#console")
	runaway := `EVAL "redis.call('SET', 'before', 'kept') local t = {} while true do t[#t+1] = string.rep('x', 1e7) end" 0`
	c.fill("Command", runaway)
	c.press(kb.Enter)
	// While the engine is busy, the stepper still answers its Back button.
	tb.in("#stepper").clickAnyway("Back")
	tb.in("#stepper").wantAnnounced("Already before move 1.")
	tb.eventually("the first runaway to be stopped by a budget", func() (string, bool) {
		got, err := eval[*string](tb, c.expr("text", lastOut))
		if err != nil || got == nil {
			return errString(err), false
		}
		text := normSpace(*got)
		stopped := strings.HasPrefix(text, "(error) ERR Script used more than 64 MiB of memory") ||
			strings.HasPrefix(text, "(error) ERR Script killed by user with SCRIPT KILL...")
		return text, stopped && strings.HasSuffix(text, "on @user_script:1.")
	})
	typeLine(c, "GET before")
	wantOut(c, `"kept"`)

	typeLine(c, "DEL before")
	typeLine(c, runaway)
	c.wantText(lastOut, "(error) ERR Script used more than 64 MiB of memory", "the playground stopped it", "on @user_script:1.")
	typeLine(c, "GET before")
	wantOut(c, `"kept"`)
}
