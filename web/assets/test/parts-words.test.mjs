// The words the round trip and the script editor say, under Node, now that
// they live apart from the DOM (roundtrip-words.js, editor-words.js): a
// claim's lease read against the clock of the snapshot drawn after it,
// and a script run twice with the same KEYS and ARGV told as the repeat
// it is.
import { test } from "node:test";
import assert from "node:assert/strict";
import { claimAllText, claimNote, claimReading, leaseLabel, leaseText } from "../roundtrip-words.js";
import { finalText, runLabel, runOfTrace, STARTER } from "../editor-words.js";

test("a claim's lease takes its deadline from the snapshot drawn after it, and says when it has expired", () => {
  const result = { verdict: "leased", id: "JOB-1", attempts: 1, wire: [{}] };
  const snapshot = { now: 1_000, active: [{ id: "JOB-1", deadline: 31_000 }] };
  const { held, explain } = claimReading(30000, result, snapshot);
  assert.deepEqual(held, { id: "JOB-1", attempts: 1, deadline: 31_000 });
  assert.match(explain, /^Leased JOB-1 until 31000 \(.*\): the lease ends in 30 s on the server clock\. attempts is now 1/);
  // The same lease once the clock has passed it: still in active, nothing reclaims it here.
  assert.match(leaseText(held, 36_000), /that lease expired 5 s ago on the server clock.*stays in active until something reclaims the job/);
  // Leased, but not in the snapshot's active set: no deadline to give.
  assert.equal(claimReading(30000, result, { now: 0, active: [] }).held.deadline, null);
});

test("a claim that sent nothing says why: the guard, or a paused queue", () => {
  assert.equal(claimNote({ error: "guard" }), "Nothing was sent: claim/3's guard refused the lease.");
  assert.equal(claimNote({ verdict: "empty" }), "No script was sent: the queue is paused.");
  assert.equal(claimReading("soon", { error: "guard" }, null).held, null);
  assert.match(claimReading("soon", { error: "guard" }, null).explain, /no clause for the lease "soon"/);
  assert.equal(leaseLabel(30000), "30000 ms");
  assert.equal(leaseLabel("soon"), '"soon"');
});

test("Claim all says what it leased, or why it leased nothing", () => {
  assert.equal(claimAllText({ paused: true }, 0, 0, null, null), "Nothing claimed: the queue is paused, so claim/3 answered :empty without running @claim.");
  assert.equal(claimAllText({ empty: true }, 0, 0, null, null), "Nothing claimed: @claim found nothing pending.");
  assert.match(claimAllText({ empty: true }, 3, 1.5, "JOB-1", "JOB-3"), /^JOB-1 … JOB-3: /);
});

test("the same KEYS and ARGV run twice is told as a repeat that wrote again", () => {
  const trace = {
    before: [],
    steps: [{ move: 1, name: "write", line: 1, write: true, command: ["ZADD", "emq:{q}:pending", "1", "JOB-1"], reply: { type: "int", value: "1" } }],
    reply: { type: "int", value: "1" },
  };
  const fields = { source: "-- edited", keys: ["emq:{q}:pending"], argv: ["JOB-1"], result: trace, label: "enqueue.lua, edited" };
  const first = runOfTrace(fields, 1, []);
  assert.equal(first.repeatOf, null);
  const history = [{ n: 1, keys: first.keys, argv: first.argv, reply: first.reply }];
  const second = runOfTrace(fields, 2, history);
  assert.equal(second.repeatOf, history[0]);
  assert.match(finalText(second, "emq:{q}:pending"), /Run 1 had the same KEYS and ARGV, and this run wrote again.*So the duplicate was written twice/);
});

test("a run is named after the text it ran", () => {
  const originals = { enqueue: "enqueue text", claim: "claim text" };
  const original = (name) => originals[name];
  const scripts = new Map([["enqueue", {}], ["claim", {}]]);
  assert.equal(runLabel("claim text", "enqueue", original, scripts), "claim.lua");
  assert.equal(runLabel("changed", "enqueue", original, scripts), "enqueue.lua, edited");
  assert.equal(runLabel(STARTER, "new", original, scripts), "the starter script");
  assert.equal(runLabel("changed", null, original, scripts), "an edited script");
});
