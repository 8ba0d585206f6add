// The two workers' round (round.js) under Node: what each worker holds is
// folded from the round's entries, the presets give the steps in the
// orders the page names, and a saved round is checked step by step.
import { test } from "node:test";
import assert from "node:assert/strict";
import { both, firstBulk, foldRound, globPrefix, nextKind, PLANS, roundTrips, schedule, validRound } from "../round.js";

const line = (cmd, reply) => [cmd, reply];
const entry = (w, kind, id, ok = true, token = null, lines = [line(kind, "OK")]) => ({ w, kind, id, token, ok, lines });

// Split mode, taking turns: both read JOB-1 before either removes it.
const doubleClaim = [
  entry("A", "read", "JOB-1"),
  entry("B", "read", "JOB-1"),
  entry("A", "remove", "JOB-1"),
  entry("B", "remove", "JOB-1", false, null, [line("ZREM emq:{race}:pending JOB-1", "(integer) 0")]),
  entry("A", "lease", "JOB-1", true, "1"),
  entry("B", "lease", "JOB-1", true, "2"),
];

test("split, taking turns: both workers end up holding the same job", () => {
  const s = foldRound(doubleClaim);
  assert.equal(s.A.outcome, "holds");
  assert.equal(s.B.outcome, "holds");
  assert.equal(s.A.holds, "JOB-1");
  assert.equal(s.B.holds, "JOB-1");
  assert.deepEqual([s.A.token, s.B.token], ["1", "2"]);
  assert.equal(s.B.removed, false, "B's ZREM said 0, which the naive client ignores");
  assert.equal(nextKind("split", s.A), null, "a worker that holds a job has no step left");
});

test("the next step follows the mode's plan, and a failed step ends the claim with its reply", () => {
  let s = foldRound([]);
  assert.equal(nextKind("optimistic", s.A), "watch");
  s = foldRound([entry("A", "watch", null)]);
  assert.equal(s.A.outcome, "watching");
  assert.equal(nextKind("optimistic", s.A), "read");
  s = foldRound([entry("A", "watch", null, false, null, [line("WATCH emq:{race}:pending", "(error) ERR WATCH inside MULTI is not allowed")])]);
  assert.equal(s.A.outcome, "failed");
  assert.equal(s.A.error, "(error) ERR WATCH inside MULTI is not allowed");
  assert.equal(nextKind("optimistic", s.A), null);
  s = foldRound([entry("A", "watch", null), entry("A", "read", "JOB-1"), entry("A", "queue", "JOB-1", false, null, [line("MULTI", "(error) ERR x")])]);
  assert.deepEqual([s.A.outcome, s.A.over, s.A.error, s.A.inMulti], ["failed", true, "(error) ERR x", false]);
});

test("an EXEC that answers nil starts the worker again, and it gives up after three tries", () => {
  const attempt = [entry("B", "watch", null), entry("B", "read", "JOB-1"), entry("B", "queue", "JOB-1"), entry("B", "exec", null)];
  let s = foldRound(attempt);
  assert.deepEqual([s.B.outcome, s.B.retries, s.B.step, nextKind("optimistic", s.B)], ["retrying", 1, 0, "watch"]);
  s = foldRound([...attempt, ...attempt, ...attempt]);
  assert.deepEqual([s.B.outcome, s.B.over], ["gave-up", true]);
});

test("the presets' orders", () => {
  assert.deepEqual(schedule("serial", 3), ["A", "A", "A", "B", "B", "B"]);
  assert.deepEqual(schedule("turns", 2), ["A", "B", "A", "B"]);
  assert.equal(both(["A", "B"]), "A and B");
  assert.equal(both(["B"]), "B");
});

test("a saved round is taken only when every entry is the step its worker could take", () => {
  assert.deepEqual(validRound("split", doubleClaim), doubleClaim);
  assert.deepEqual(validRound("split", []), []);
  // Out of order: a remove before the read.
  assert.equal(validRound("split", [entry("A", "remove", "JOB-1")]), null);
  // Removing an id other than the one read.
  assert.equal(validRound("split", [entry("A", "read", "JOB-1"), entry("A", "remove", "JOB-2")]), null);
  // A step of another mode, an unknown worker, a token that is not digits, too long a line.
  assert.equal(validRound("atomic", [entry("A", "read", "JOB-1")]), null);
  assert.equal(validRound("split", [entry("C", "read", "JOB-1")]), null);
  assert.equal(validRound("atomic", [entry("A", "claim", "JOB-1", true, "1; DROP")]), null);
  assert.equal(validRound("split", [entry("A", "read", "JOB-1", true, null, [line("x".repeat(401), "")])]), null);
  assert.equal(validRound("split", "not a round"), null);
  // More entries than the plan allows.
  assert.equal(validRound("atomic", [entry("A", "claim", null), entry("B", "claim", null), entry("A", "claim", null)]), null);
  assert.equal(Object.keys(PLANS).join(" "), "split optimistic atomic");
});

test("the helpers the steps read replies with", () => {
  assert.equal(firstBulk({ type: "array", value: [{ type: "bulk", value: "JOB-1" }] }), "JOB-1");
  assert.equal(firstBulk({ type: "array", value: [] }), null);
  assert.equal(firstBulk({ type: "nil" }), null);
  assert.equal(globPrefix("emq:{ra*ce}:"), "emq:{ra\\*ce}:*");
});

test("round trips are counted as a pipelining client sends them: MULTI…EXEC is one", () => {
  const e = (kind, n) => ({ w: "A", kind, lines: Array(n).fill(["X", "OK"]) });
  // WATCH, ZRANGE, TIME + MULTI + 4 writes, EXEC: 9 commands, 4 round trips.
  const claim = [e("watch", 1), e("read", 1), e("queue", 6), e("exec", 1)];
  assert.equal(roundTrips(claim), 4);
  // A nil EXEC and its UNWATCH, then the claim again: 9 round trips.
  assert.equal(roundTrips([e("watch", 1), e("read", 1), e("queue", 6), e("exec", 2), ...claim]), 9);
  // A queue step that failed at TIME sent only TIME.
  assert.equal(roundTrips([e("watch", 1), e("read", 1), e("queue", 1)]), 3);
  // Split and atomic: every command waits for the one before.
  assert.equal(roundTrips([e("read", 1), e("remove", 1), e("lease", 3)]), 5);
  assert.equal(roundTrips([e("claim", 2)]), 2);
});
