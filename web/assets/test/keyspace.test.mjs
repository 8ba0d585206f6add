// What the queue tables mark as new or changed when the snapshots are
// bounded: an id that comes into view from a gap is not new.
import test from "node:test";
import assert from "node:assert/strict";
import { freshId, malformedId, snapshotMarks } from "../keyspace.js";

const pend = (...ids) => ids.map((id) => ({ id, score: "0" }));
const snap = (pending, gaps = {}, extra = {}) => ({ pending, active: [], rows: [], gaps, ...extra });

test("after a claim at depth, the id that comes into view at the head is not new", () => {
  // JOB-1 … JOB-9 in byte order, limit 2: JOB-1 JOB-2 … JOB-8 JOB-9.
  const before = snap(pend("JOB-1", "JOB-2", "JOB-8", "JOB-9"), { pending: { at: 2, count: 5 } });
  const after = snap(pend("JOB-2", "JOB-3", "JOB-8", "JOB-9"), { pending: { at: 2, count: 4 } });
  assert.deepEqual([...snapshotMarks(before, after).pending], []);
});

test("an id that could not have been in the gap is new", () => {
  const before = snap(pend("JOB-2", "JOB-3", "JOB-8", "JOB-9"), { pending: { at: 2, count: 4 } });
  // JOB-1 sorts before the head: it cannot have been hidden.
  const after = snap(pend("JOB-1", "JOB-2", "JOB-8", "JOB-9"), { pending: { at: 2, count: 5 } });
  assert.deepEqual([...snapshotMarks(before, after).pending], [["JOB-1", "new"]]);
  // Without a gap before, anything unseen is new.
  const whole = snap(pend("JOB-2", "JOB-3"));
  assert.deepEqual([...snapshotMarks(whole, snap(pend("JOB-2", "JOB-3", "JOB-4"))).pending], [["JOB-4", "new"]]);
});

test("rows read from the sets' ids are never marked new for coming into view", () => {
  const row = (id) => ({ id, state: "pending", attempts: "0", payload: "{}" });
  const before = snap([], {}, { rows: [row("JOB-1")], rowsOfSets: true });
  const after = snap([], {}, { rows: [row("JOB-1"), row("JOB-5")], rowsOfSets: true });
  assert.deepEqual([...snapshotMarks(before, after).rows], []);
});

test("the fresh id comes from the engine when it says, and the malformed one follows it", () => {
  const s = snap(pend("JOB-1"), {}, { fresh: "JOB-10001" });
  assert.equal(freshId(s), "JOB-10001");
  assert.equal(malformedId(s), "job-10001");
  assert.equal(freshId(snap(pend("JOB-7"))), "JOB-000008");
});
