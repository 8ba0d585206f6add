// Permalinks under Node: a link carries the state back unchanged, and a
// damaged or hostile fragment is refused with a sentence, never trusted.
import test from "node:test";
import assert from "node:assert/strict";
import { decode, encode, Journal, LIMITS, PREFIX } from "../permalink.js";

const widgets = ["stepper", "beats", "verdicts", "roundtrip", "editor", "console", "workers"];

function state(over = {}) {
  return {
    v: 1,
    widget: "stepper",
    ops: [
      ["enqueue", "q", "JOB-1", '{"task":"x"}'],
      ["claim", "q", 30000],
      ["advance", 5000],
      ["trace", "enqueue", ["emq:{q}:job:JOB-2", "emq:{q}:pending"], ["JOB-2", "{}"]],
    ],
    views: { stepper: { id: "JOB-2", index: 3 } },
    now: 1767225605000,
    ...over,
  };
}

/** A fragment holding any JSON text, packed the way encode packs it. */
async function packed(text) {
  const bytes = new TextEncoder().encode(text);
  const out = await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer();
  return PREFIX + Buffer.from(out).toString("base64url");
}

test("a link carries the state back unchanged", async () => {
  const s = state();
  const fragment = await encode(s);
  assert.ok(fragment.startsWith(PREFIX));
  assert.match(fragment.slice(PREFIX.length), /^[A-Za-z0-9_-]+$/, "only URL-safe characters");
  const got = await decode(fragment, widgets);
  assert.equal(got.problem, undefined);
  assert.deepEqual(got.state, s);
});

test("a 1 MiB payload still makes a link, which compresses it", async () => {
  const s = state({ ops: [["enqueue", "q", "JOB-1", "x".repeat(1024 * 1024)]] });
  const fragment = await encode(s);
  assert.ok(fragment.length < 8 * 1024, `a repetitive MiB packs small, got ${fragment.length}`);
  assert.deepEqual((await decode(fragment, widgets)).state, s);
});

test("no fragment is no link and no problem", async () => {
  assert.deepEqual(await decode("", widgets), {});
  assert.deepEqual(await decode("#", widgets), {});
});

test("damaged links are refused with a reason, and the default state follows", async () => {
  const good = await encode(state());
  const cases = [
    ["#stepper", "not a playground link"],
    [PREFIX + "!!!!", "damaged"],
    [good.slice(0, good.length - 12), "damaged"],
    [PREFIX + "A".repeat(LIMITS.fragment), "longer than"],
    [await packed("not json"), "damaged"],
    [await packed("[1,2,3]"), "holds no state"],
    [await packed(JSON.stringify(state({ v: 2 }))), "version 2"],
    [await packed(JSON.stringify(state({ widget: "evil" }))), "widget this page does not have"],
    [await packed(JSON.stringify(state({ ops: [["eval", "return 1"]] }))), "not one the playground records"],
    [await packed(JSON.stringify(state({ ops: [["__proto__"]] }))), "not one the playground records"],
    [await packed(JSON.stringify(state({ ops: [["enqueue", "q", 1, "{}"]] }))), "wrong kind"],
    [await packed(JSON.stringify(state({ ops: [["advance", -5]] }))), "wrong kind"],
    [await packed(JSON.stringify(state({ ops: [["exec", []]] }))), "wrong kind"],
    [await packed(JSON.stringify(state({ ops: [["exec", ["PING"], ""]] }))), "wrong kind"],
    [await packed(JSON.stringify(state({ ops: [["exec", ["PING"], 7]] }))), "wrong kind"],
    [await packed(JSON.stringify(state({ ops: new Array(LIMITS.ops + 1).fill(["advance", 1]) }))), "more than"],
    [await packed(JSON.stringify(state({ views: { nope: {} } }))), "unknown widget"],
    [await packed(JSON.stringify(state({ views: null }))), "view state is missing"],
    [await packed(JSON.stringify(state({ now: "soon" }))), "clock"],
    // A million levels unpack from a few KiB; JSON.parse takes them, and
    // anything that walks them by recursion would throw.
    [await packed(JSON.stringify(state()).replace(/}$/, `,"x":${"[".repeat(1e6)}${"]".repeat(1e6)}}`)), "nests more than 32 levels"],
    [await packed(JSON.stringify(state({ views: { stepper: { id: "JOB-2", index: 3, deep: JSON.parse("[".repeat(40) + "]".repeat(40)) } } }))), "nests more than 32 levels"],
  ];
  for (const [fragment, why] of cases) {
    const got = await decode(fragment, widgets);
    assert.equal(got.state, undefined, `${fragment.slice(0, 40)} must not open`);
    assert.match(got.problem, /could not be opened/);
    assert.match(got.problem, new RegExp(why), `${fragment.slice(0, 40)}: ${got.problem}`);
    assert.match(got.problem, /default state/);
    // Plain words for a learner: never the browser's exception text.
    assert.doesNotMatch(got.problem, /header check|decod|JSON|Unexpected token|Error/i, got.problem);
  }
});

test("a bulk control is one operation of a link, and a link may not enqueue without end", async () => {
  const ops = [...new Array(10).fill(["enqueueMany", "q", 1000, "{}"]), ["claimMany", "q", 30000, 1000]];
  const s = state({ widget: "roundtrip", ops, views: {} });
  assert.deepEqual((await decode(await encode(s), widgets)).state, s);
  for (const [bad, why] of [
    [[["enqueueMany", "q", 0, "{}"]], "wrong kind"],
    [[["enqueueMany", "q", 10001, "{}"]], "wrong kind"],
    [[["claimMany", "q", 30000]], "wrong kind"],
    [[["claimMany", "q", 30000, 1.5]], "wrong kind"],
    [new Array(11).fill(["enqueueMany", "q", 10000, "{}"]), "more than the 100000"],
  ]) {
    const got = await decode(await packed(JSON.stringify(state({ ops: bad }))), widgets);
    assert.equal(got.state, undefined);
    assert.match(got.problem, new RegExp(why), got.problem);
  }
});

test("a link that inflates past the cap is cut off, not unpacked", async () => {
  const bomb = await packed(JSON.stringify(state({ ops: [["enqueue", "q", "JOB-1", "y".repeat(LIMITS.json + 10)]] })));
  const got = await decode(bomb, widgets);
  assert.match(got.problem, /unpacks to more than/);
});

test("a link with Lua decodes as any other: the engine, not the link's text, says what runs", async () => {
  const ops = [
    ["trace", "return redis.call('FLUSHALL')", [], []],
    ["cli", '"\\x65val" "return 1" 0'],
    ["exec", ["EVAL", "return 2", "0"], "worker-A"],
  ];
  const got = await decode(await encode(state({ ops })), widgets);
  assert.deepEqual(got, { state: state({ ops }) });
});

test("the journal records writes, skips reads, and forgets what a reset wiped", () => {
  const j = new Journal();
  // record answers where a kept call went, which is where a link's replay
  // answers it: the place a widget saves to draw its readouts again.
  const places = [
    j.record("enqueue", ["q", "JOB-1", "{}"]),
    j.record("snapshot", ["q"]),
    j.record("now", []),
    j.record("reset", []),
    j.record("claim", ["q", 1000]),
    j.record("scripts", []),
    j.record("enqueue", ["q", "JOB-2", "{}"]),
  ];
  assert.deepEqual(j.ops, [["claim", "q", 1000], ["enqueue", "q", "JOB-2", "{}"]]);
  assert.deepEqual(places, [0, null, null, null, 0, null, 1]);
});
