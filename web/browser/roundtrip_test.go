package browser

import (
	"strings"
	"testing"

	"echomq.dev/playground/lua"
)

const (
	enqueueResult = "[data-testid=enqueue-result]"
	claimResult   = "[data-testid=claim-result]"
	clock         = "[data-testid=clock]"
	queueState    = "[data-testid=queue-state]"
	wireLog       = "[data-testid=wire]"
	// wireCalls are the wire log's entries, one per call, newest first;
	// newestExchanges are the commands the newest call sent.
	wireCalls       = wireLog + " > li"
	newestExchanges = wireLog + " > li:first-child li.exchange"
	newestWireCall  = wireLog + " > li:first-child"
	beatsSource     = "[data-testid=beats-source]"
)

// The server clock starts here and moves only when told; a 30 s lease
// taken then ends at deadline.
const (
	startMS  = "1767225600000"
	deadline = "1767225630000"
)

// TestRoundTrip enqueues and claims, reading the verdicts, the pending and
// active sets, the clock and the wire: a claim leases the oldest job until
// the server clock passes its deadline, a second claim finds nothing, a
// paused queue answers :empty without touching pending, and a lease
// expires when the clock moves past it.
func TestRoundTrip(t *testing.T) {
	tb := openReady(t, "/")
	r := tb.in("#roundtrip")
	r.wantText(clock, startMS)
	r.wantText(queueState, "Running")

	r.fill("Job id", "JOB-7")
	r.fill("Payload", `{"task":"resize"}`)
	r.clickShows("Enqueue", enqueueResult, "{:ok, :enqueued}")
	r.wantRows(pendingKey, [][]string{{"JOB-7", "0"}})
	r.wantRows(activeKey, nil)

	r.fill("Lease (ms)", "30000")
	r.clickShows("Claim", claimResult, `{:ok, {"JOB-7", "{\"task\":\"resize\"}", 1}}`)
	r.wantRows(pendingKey, nil)
	r.wantRows(activeKey, [][]string{{"JOB-7", deadline, "in 30 s"}})
	r.wantRows(rowsKey, [][]string{{"JOB-7", "active", "1", `{"task":"resize"}`}})
	// The first claim: the server did not know @claim, so EVALSHA met
	// NOSCRIPT and the connector sent the script with EVAL.
	wantInOrder(t, "the newest call on the wire", r.texts(wireCalls)[0], "claim", `{:ok, {"JOB-7"`)
	wantExchanges(t, "the first claim", r.texts(newestExchanges),
		[]string{"EVALSHA ", "NOSCRIPT", "cache miss"},
		[]string{"EVAL ‹the @claim source", `"JOB-7"`})

	r.clickShows("Claim", claimResult, ":empty")
	r.wantRows(activeKey, [][]string{{"JOB-7", deadline, "in 30 s"}})

	// Paused, a claim answers :empty and leaves pending alone.
	enqueueJob(r, "JOB-8", "{:ok, :enqueued}")
	claimPaused(r)
	r.wantRows(pendingKey, [][]string{{"JOB-8", "0"}})
	wantInOrder(t, "the newest call on the wire", r.texts(wireCalls)[0], "claim", ":empty")
	wantExchanges(t, "a claim on a paused queue", r.texts(newestExchanges))

	r.clickShows("Resume", queueState, "Running")
	r.clickShows("Claim", claimResult, `{:ok, {"JOB-8", "{\"task\":\"resize\"}", 1}}`)
	r.wantRows(pendingKey, nil)
	r.wantRows(activeKey, [][]string{{"JOB-7", deadline, "in 30 s"}, {"JOB-8", deadline, "in 30 s"}})
	// Now the server has the script: EVALSHA alone, a hit.
	wantExchanges(t, "a later claim", r.texts(newestExchanges),
		[]string{"EVALSHA ", `"JOB-8"`, "cache hit"})

	// A lease that is not a positive integer: claim/3's guard refuses it
	// as the Elixir handle would, before anything is sent, so JOB-9 stays
	// pending and the wire shows nothing sent. Enter in a field presses
	// its panel's button.
	r.fill("Job id", "JOB-9")
	r.press("\r")
	r.wantText(enqueueResult, "{:ok, :enqueued}")
	r.wantRows(pendingKey, [][]string{{"JOB-9", "0"}})
	for _, lease := range []string{"abc", "0", "-5"} {
		r.fill("Lease (ms)", lease)
		r.clickShows("Claim", claimResult, "** (FunctionClauseError) no function clause matching in EchoMQ.Jobs.claim/3")
		r.wantText(newestWireCall, "claim, lease", "Nothing was sent: claim/3's guard refused the lease.")
		if sent := r.texts(newestExchanges); len(sent) != 0 {
			t.Errorf("a lease of %q that fails the guard sent %q", lease, sent)
		}
		r.wantText("#roundtrip-claim-explain", "claim/3's guard", "a client in another language may have no such guard")
		r.wantRows(pendingKey, [][]string{{"JOB-9", "0"}})
	}
	r.fill("Lease (ms)", "30000")

	// The clock moves 31 s: both leases are over.
	r.fill("Advance by (ms)", "31000")
	r.clickShows("Advance", clock, "1767225631000")
	r.wantRows(activeKey, [][]string{{"JOB-7", deadline, "expired 1 s ago"}, {"JOB-8", deadline, "expired 1 s ago"}})
	r.screenshot("roundtrip")
}

// wantExchanges checks the commands one call sent on the wire: one
// exchange per want, each starting with want[0] and holding the rest of
// want in order (letter case aside: badges may be drawn in capitals).
func wantExchanges(t *testing.T, what string, got []string, want ...[]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s sent %d commands; want %d: %q", what, len(got), len(want), got)
		return
	}
	for i, w := range want {
		if !strings.HasPrefix(got[i], w[0]) {
			t.Errorf("%s: command %d is %q; want it to start with %q", what, i+1, got[i], w[0])
		}
		lower := make([]string, len(w))
		for j := range w {
			lower[j] = strings.ToLower(w[j])
		}
		wantInOrder(t, what, strings.ToLower(got[i]), lower...)
	}
}

// wantInOrder checks that text holds each of wants, in that order.
func wantInOrder(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	rest := text
	for _, w := range wants {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Errorf("%s: %q is missing after the earlier parts, or out of order, in %q", what, w, text)
			return
		}
		rest = rest[i+len(w):]
	}
}

// TestBeats reads the two beats: the Elixir handle, and the body read from
// the engine with its SHA1.
func TestBeats(t *testing.T) {
	tb := openReady(t, "/")
	b := tb.in("#beats")
	// The body on the page is the script in lua/, line for line.
	b.wantText(beatsSource, scriptLine(t, "string.sub"), scriptLine(t, "ZADD"))
	b.wantText("figure", "def enqueue(conn, queue, job_id, payload)")
	b.screenshot("beats")
}

// scriptLine is the line of enqueue.lua that contains marker, read from the
// embedded script: the tests never keep a copy of the protocol.
func scriptLine(t *testing.T, marker string) string {
	t.Helper()
	_, text := scriptLineAt(t, marker)
	return text
}

// scriptLineAt is scriptLine with its 1-based line number in enqueue.lua.
func scriptLineAt(t *testing.T, marker string) (int, string) {
	t.Helper()
	for i, l := range strings.Split(lua.Enqueue().Source, "\n") {
		if strings.Contains(l, marker) && !strings.HasPrefix(strings.TrimSpace(l), "--") {
			return i + 1, strings.TrimSpace(l)
		}
	}
	t.Fatalf("enqueue.lua has no code line with %q", marker)
	return 0, ""
}

// The server clock's panel, and its own status line: what the last press
// of Advance did.
const (
	clockPanel  = "#roundtrip-clock-panel"
	clockStatus = "[data-testid=clock-status]"
	// notWholeMS is how the page says that the Advance field does not
	// hold a whole, non-negative number of milliseconds.
	notWholeMS = "Advance by a whole number of milliseconds, 0 or more"
)

// TestRoundTripAdvanceChecksTheField types amounts the clock cannot move
// by into "Advance by (ms)". The page says so itself, in the learner's
// words, next to the clock and in the clock's own announcement, and not in
// the claim's panel or in the engine's words; the clock stays put. An
// amount the page accepts but the engine refuses (past the year 9999) is
// reported there too, and a good amount moves the clock and clears it all.
func TestRoundTripAdvanceChecksTheField(t *testing.T) {
	tb := openReady(t, "/")
	r := tb.in("#roundtrip")
	c := tb.in(clockPanel)
	r.wantText(clock, startMS)

	for _, typed := range []string{"-5", "1.5", "soon", "3e4", ""} {
		t.Logf("Advance by %q", typed)
		r.fill("Advance by (ms)", typed)
		r.click("Advance")
		c.wantText(clockStatus, notWholeMS, "did not move")
		c.wantAnnounced(notWholeMS)
		r.wantText(clock, startMS)
		r.wantAttrs("#roundtrip-advance-ms", "aria-invalid", "true")
		// The engine's own words never reach the learner for these.
		r.wantNoText(clockStatus, "must be", "got a")
		// The claim's panel and the widget's other announcements are not
		// the clock's.
		r.wantNoText(".results", "milliseconds", "clock")
		r.wantNoText("#roundtrip-live", "milliseconds", "clock")
	}

	// Enter in the field presses Advance: the same check.
	r.fill("Advance by (ms)", "-1")
	r.press("\r")
	c.wantText(clockStatus, notWholeMS, `"-1"`)

	// A whole number the clock cannot take: from the start, one more than
	// this passes the clock's last millisecond, in the year 9999. The page
	// lets the engine judge that, and passes its refusal on, next to the
	// clock.
	r.fill("Advance by (ms)", "251635075200000")
	r.click("Advance")
	c.wantText(clockStatus, "did not move", "the engine refused", "year 9999")
	c.wantAnnounced("did not move", "year 9999")
	r.wantText(clock, startMS)
	r.wantNoText(".results", "9999")

	r.fill("Advance by (ms)", "31000")
	r.clickShows("Advance", clock, "1767225631000")
	c.wantText(clockStatus, "moved 31 s forward")
	c.wantAnnounced("moved 31 s forward")
	r.wantAttrs("#roundtrip-advance-ms", "aria-invalid", "")
	r.wantNoText(clockStatus, notWholeMS, "did not move")
	c.screenshot("roundtrip-clock")
}
