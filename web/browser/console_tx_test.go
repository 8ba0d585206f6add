package browser

import "testing"

// TestConsoleTransactionOutlivesTheTracedRun opens a transaction at the
// console, then steps @enqueue in the stepper (a traced run, and snapshots
// for every widget) before sending EXEC: the transaction is still open and
// runs. A WATCH on the pending set, though, sees the round trip's enqueue
// as the write it is, and EXEC answers nil.
func TestConsoleTransactionOutlivesTheTracedRun(t *testing.T) {
	tb := openReady(t, "/")
	c := tb.in("#console")
	st := tb.in("#stepper")

	typeLine(c, "MULTI")
	wantOut(c, "OK")
	typeLine(c, "SET note queued")
	wantOut(c, "QUEUED")
	st.choose("A fresh id")
	st.click("Step")
	wantMove(st, 1, 4, freshMoves[0], "JOB-000001")
	typeLine(c, "GET note")
	wantOut(c, "QUEUED")
	typeLine(c, "EXEC")
	wantOut(c, "1) OK\n2) \"queued\"")

	// The stepper has run its script; the round trip's enqueue is a write
	// from the handles' connection, and spoils the console's WATCH.
	typeLine(c, "WATCH emq:{q}:pending")
	wantOut(c, "OK")
	rt := tb.in("#roundtrip")
	rt.click("Enqueue")
	rt.wantRows(pendingKey, [][]string{{"JOB-000001", "0"}, {"JOB-000002", "0"}})
	typeLine(c, "MULTI")
	typeLine(c, "ZREM emq:{q}:pending JOB-000001")
	wantOut(c, "QUEUED")
	typeLine(c, "EXEC")
	wantOut(c, "(nil)")
	rt.wantRows(pendingKey, [][]string{{"JOB-000001", "0"}, {"JOB-000002", "0"}})
}
