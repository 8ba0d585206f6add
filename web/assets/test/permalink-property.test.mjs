// The permalink decoder against links nobody meant to make: random states,
// every operation with arguments of every wrong type, valid links with
// bits flipped, cut short or grown, a 10 MB link, a zip bomb, a million
// levels of nesting, __proto__ keys. The property: decode never throws;
// it refuses with the damaged-link notice, or gives a state that an
// independent reading of the format (valid, below) accepts and that
// encodes back to itself. And its work is bounded: it reads no more
// base64 than LIMITS.fragment, inflates no more than LIMITS.json (and one
// stream chunk) and parses no more JSON than that. There
// is no timing assertion: the bound on work is what keeps it fast.
//
// Every random choice comes from one seeded generator. The seed is fixed
// (PERMALINK_SEED overrides it) and every failure names it and the case.
import test from "node:test";
import assert from "node:assert/strict";
import { decode, encode, LIMITS, PREFIX } from "../permalink.js";

const SEED = Number(process.env.PERMALINK_SEED ?? 20261203);
const widgets = ["stepper", "beats", "verdicts", "roundtrip", "editor", "console", "workers"];

/** mulberry32: a small seeded generator, enough to pick cases. */
function generator(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  return { next, int, pick: (list) => list[int(list.length)] };
}

// ---- what the decoder may do, measured ---------------------------------

/** Base64 read, bytes inflated and JSON parsed by the decode under way. */
const work = { unpacked: 0, inflated: 0, parsed: 0 };
const realAtob = globalThis.atob;
globalThis.atob = (text) => {
  work.unpacked = Math.max(work.unpacked, String(text).length);
  return realAtob(text);
};
const RealDecompression = globalThis.DecompressionStream;
globalThis.DecompressionStream = class extends RealDecompression {
  constructor(format) {
    super(format);
    const counter = new TransformStream({
      transform(chunk, c) {
        work.inflated += chunk.byteLength;
        c.enqueue(chunk);
      },
    });
    const readable = super.readable.pipeThrough(counter);
    Object.defineProperty(this, "readable", { value: readable });
  }
};
const realParse = JSON.parse;
JSON.parse = function (text, ...rest) {
  work.parsed = Math.max(work.parsed, String(text).length);
  return realParse.call(this, text, ...rest);
};

// ---- an independent reading of the format -------------------------------

const isStr = (v) => typeof v === "string" && v.length <= LIMITS.text;
const isStrs = (v) => Array.isArray(v) && v.length <= LIMITS.args && v.every(isStr);
const isMs = (v) => Number.isInteger(v) && v >= 0 && v <= Number.MAX_SAFE_INTEGER;
const isLease = (v) => isStr(v) || (typeof v === "number" && Number.isFinite(v));
const isCount = (v) => Number.isInteger(v) && v >= 1 && v <= 10000;
const isConn = (v) => typeof v === "string" && v.length >= 1 && v.length <= 32;

/** Each recorded method and the argument lists it takes, written from the format's description. */
const takes = {
  enqueue: (a) => a.length === 3 && a.every(isStr),
  claim: (a) => a.length === 2 && isStr(a[0]) && isLease(a[1]),
  enqueueMany: (a) => a.length === 3 && isStr(a[0]) && isCount(a[1]) && isStr(a[2]),
  claimMany: (a) => a.length === 3 && isStr(a[0]) && isLease(a[1]) && isCount(a[2]),
  pause: (a) => a.length === 1 && isStr(a[0]),
  resume: (a) => a.length === 1 && isStr(a[0]),
  exec: (a) => (a.length === 1 || (a.length === 2 && isConn(a[1]))) && isStrs(a[0]) && a[0].length > 0,
  cli: (a) => a.length === 1 && isStr(a[0]),
  trace: (a) => a.length >= 1 && a.length <= 3 && isStr(a[0]) && (a.length < 2 || isStrs(a[1])) && (a.length < 3 || isStrs(a[2])),
  setNow: (a) => a.length === 1 && isMs(a[0]),
  advance: (a) => a.length === 1 && isMs(a[0]),
};
const methods = Object.keys(takes);

/** A string one past the longest a link may hold. */
const OVER = "x".repeat(LIMITS.text + 1);

function depth(v) {
  let deepest = 0;
  const stack = [[v, 1]];
  while (stack.length) {
    const [x, d] = stack.pop();
    if (x === null || typeof x !== "object") continue;
    deepest = Math.max(deepest, d);
    for (const c of Object.values(x)) stack.push([c, d + 1]);
  }
  return deepest;
}

/** Why a decoded state breaks the format, or null. */
function invalid(s) {
  if (s === null || typeof s !== "object" || Array.isArray(s)) return "not an object";
  if (depth(s) > LIMITS.depth) return "too deep";
  if (s.v !== 1) return "version";
  if (!widgets.includes(s.widget)) return "widget";
  if (!Array.isArray(s.ops) || s.ops.length > LIMITS.ops) return "ops";
  for (const op of s.ops) {
    if (!Array.isArray(op) || !Object.hasOwn(takes, op[0]) || !takes[op[0]](op.slice(1))) return `op ${JSON.stringify(op).slice(0, 80)}`;
  }
  const bulk = s.ops.filter((op) => op[0] === "enqueueMany").reduce((n, op) => n + op[2], 0);
  if (bulk > LIMITS.bulk) return "bulk";
  if (s.views === null || typeof s.views !== "object" || Array.isArray(s.views)) return "views";
  if (Object.keys(s.views).some((k) => !widgets.includes(k))) return "view of an unknown widget";
  if (s.now !== undefined && !isMs(s.now)) return "now";
  return null;
}

// ---- links to try --------------------------------------------------------

/** Any JSON value, of some depth, with the odd huge string and hostile key. */
function value(g, room = 3) {
  switch (g.int(room > 0 ? 12 : 8)) {
    case 0:
      return null;
    case 1:
      return g.next() < 0.5;
    case 2:
      return g.pick([0, -1, 1.5, 1e308, -0, 2 ** 53, 10001, 30000, 1767225600000, -5]);
    case 3:
      // One string in 64 is past LIMITS.text: each costs a MiB to pack.
      return g.int(8) === 0 ? OVER : g.pick(["", "q", "JOB-1", "{}", "EVAL 'return 1' 0", "\u017fcript", "\ud800"]);
    case 4:
      return "JOB-" + g.int(1000);
    case 5:
      return g.pick(methods);
    case 6:
      return [];
    case 7:
      return {};
    case 8:
    case 9:
      return Array.from({ length: g.int(4) }, () => value(g, room - 1));
    default: {
      const o = {};
      for (let i = g.int(4); i > 0; i--) o[g.pick(["a", "__proto__", "constructor", "toString", "v", "ops"])] = value(g, room - 1);
      return o;
    }
  }
}

/** An argument list for method: right most of the time, wrong in one place or in length otherwise. */
function args(g, method) {
  const right = {
    enqueue: () => ["q", "JOB-" + g.int(100), "{}"],
    claim: () => ["q", g.pick([30000, "30000", "abc", 1.5])],
    enqueueMany: () => ["q", 1 + g.int(100), "{}"],
    claimMany: () => ["q", 30000, 1 + g.int(100)],
    pause: () => ["q"],
    resume: () => ["q"],
    exec: () => (g.next() < 0.5 ? [["SET", "k", "v"]] : [["PING"], "worker-A"]),
    cli: () => [g.pick(["PING", '"\\x65val" "return 1" 0', "SET k v"])],
    trace: () => ["enqueue", ["emq:{q}:job:JOB-1"], ["JOB-1", "{}"]],
    setNow: () => [1767225600000],
    advance: () => [g.int(100000)],
  }[method]();
  const r = g.next();
  if (r < 0.5) return right;
  if (r < 0.8 && right.length > 0) {
    right[g.int(right.length)] = value(g);
    return right;
  }
  return Array.from({ length: g.int(5) }, () => value(g));
}

function randomState(g) {
  const ops = Array.from({ length: g.int(6) }, () => {
    const m = g.next() < 0.9 ? g.pick(methods) : g.pick(["eval", "__proto__", "reset", "constructor", 7, null]);
    return typeof m === "string" && Object.hasOwn(takes, m) ? [m, ...args(g, m)] : [m, ...args(g, "cli")];
  });
  const s = { v: g.next() < 0.95 ? 1 : value(g), widget: g.next() < 0.9 ? g.pick(widgets) : value(g), ops, views: {}, now: 1767225600000 };
  if (g.next() < 0.3) s.views[g.pick(widgets)] = value(g);
  if (g.next() < 0.05) s.views = value(g);
  if (g.next() < 0.1) s.now = value(g);
  if (g.next() < 0.1) s.__proto__x = value(g);
  return s;
}

/** A fragment holding any text, deflated and packed as encode packs it. */
async function pack(text) {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  const out = await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer();
  return PREFIX + Buffer.from(out).toString("base64url");
}

/** fragment with its packed bytes changed by change (bit flips, cuts, garbage). */
function mutateBytes(fragment, change) {
  const bytes = Buffer.from(fragment.slice(PREFIX.length), "base64url");
  return PREFIX + Buffer.from(change(bytes)).toString("base64url");
}

function mutation(g, fragment) {
  switch (g.int(6)) {
    case 0: // a bit of the deflated bytes
      return mutateBytes(fragment, (b) => {
        if (b.length) b[g.int(b.length)] ^= 1 << g.int(8);
        return b;
      });
    case 1: // several
      return mutateBytes(fragment, (b) => {
        for (let i = 0; i < 1 + g.int(8) && b.length; i++) b[g.int(b.length)] = g.int(256);
        return b;
      });
    case 2: // cut short
      return fragment.slice(0, g.int(fragment.length));
    case 3: // grown
      return fragment + "A".repeat(g.int(40));
    case 4: // a character of the text
      return fragment.slice(0, PREFIX.length + g.int(fragment.length - PREFIX.length)) + g.pick(["-", "_", "=", "%", "A", " ", "é"]) + fragment.slice(PREFIX.length + 1);
    default: // deflated bytes cut short
      return mutateBytes(fragment, (b) => b.subarray(0, g.int(b.length + 1)));
  }
}

// ---- the property ---------------------------------------------------------

/** Decodes one fragment and checks everything the property says of it. */
async function check(name, fragment) {
  const where = `seed ${SEED}, case ${name} (fragment ${String(fragment).slice(0, 60)}…, ${String(fragment).length} characters)`;
  work.unpacked = 0;
  work.inflated = 0;
  work.parsed = 0;
  let got;
  try {
    got = await decode(fragment, widgets);
  } catch (err) {
    assert.fail(`decode threw ${err && err.stack ? err.stack : err}: ${where}`);
  }
  assert.ok(work.inflated <= LIMITS.json + 64 * 1024, `inflated ${work.inflated} bytes, past the cap: ${where}`);
  assert.ok(work.parsed <= LIMITS.json, `parsed ${work.parsed} characters of JSON: ${where}`);
  assert.ok(work.unpacked <= LIMITS.fragment, `read ${work.unpacked} characters of base64, past the fragment cap: ${where}`);
  if (typeof fragment === "string" && fragment.length > LIMITS.fragment) assert.equal(work.inflated, 0, `inflated a fragment over the cap: ${where}`);
  assert.equal(Object.prototype.polluted, undefined, `Object.prototype was written: ${where}`);
  assert.equal({}.v, undefined, `Object.prototype was written: ${where}`);
  if (!fragment || fragment === "#") {
    assert.deepEqual(got, {}, where);
    return "none";
  }
  if (got.problem !== undefined) {
    assert.equal(got.state, undefined, where);
    assert.match(got.problem, /^This link could not be opened: .+\. Nothing in it was run, and nothing else changed: the playground starts from its default state instead\.$/, where);
    // The browser's words (an inflate error, a JSON position) stay in the console.
    assert.doesNotMatch(got.problem, /Error|invalid literal|header check|Unexpected token|position \d/, where);
    return "refused";
  }
  const why = invalid(got.state);
  assert.equal(why, null, `decoded a state that breaks the format (${why}): ${where}`);
  const again = await decode(await encode(got.state), widgets);
  assert.deepEqual(again.state, got.state, `the state does not encode back to itself: ${where}`);
  return "opened";
}

test("random states and every operation with wrong arguments: refused or valid, never a throw", async () => {
  const g = generator(SEED);
  const seen = { opened: 0, refused: 0 };
  for (let i = 0; i < 800; i++) {
    const s = randomState(g);
    seen[await check(`random ${i}`, await encode(s))]++;
  }
  // A property met by refusing everything would prove little.
  assert.ok(seen.opened > 50 && seen.refused > 50, `seed ${SEED}: ${JSON.stringify(seen)}`);
});

test("every method with each argument of each wrong type", async () => {
  const g = generator(SEED + 1);
  const wrong = [null, true, 0, -1, 1.5, "", OVER, [], [1], {}, { __proto__: 1 }];
  for (const m of methods) {
    const right = args({ ...g, next: () => 0 }, m); // the right list: next() below a half
    for (let at = 0; at < right.length; at++) {
      for (const [k, w] of wrong.entries()) {
        const list = right.slice();
        list[at] = w;
        const verdict = await check(`${m} argument ${at} = wrong #${k}`, await encode({ v: 1, widget: "console", ops: [[m, ...list]], views: {} }));
        if (!takes[m](list)) assert.equal(verdict, "refused", `seed ${SEED}: ${m} with ${JSON.stringify(list).slice(0, 80)} opened`);
      }
    }
  }
});

test("valid links with bits flipped, cut short or grown: refused or valid, never a throw", async () => {
  const g = generator(SEED + 2);
  for (let i = 0; i < 500; i++) {
    const good = await encode(randomState(g));
    await check(`mutation ${i}`, mutation(g, good));
  }
});

test("hostile links: 10 MB, a zip bomb, a million levels, __proto__ keys, junk", async () => {
  const state = { v: 1, widget: "stepper", ops: [["enqueue", "q", "JOB-1", "{}"]], views: {} };
  const json = JSON.stringify(state);
  const cases = {
    "10 MB": PREFIX + "A".repeat(10 * 1024 * 1024),
    "zip bomb (20 MB of zeros)": await pack(new Uint8Array(20 * 1024 * 1024)),
    "a million levels": await pack(json.replace(/}$/, `,"x":${"[".repeat(1e6)}${"]".repeat(1e6)}}`)),
    "deep views": await pack(JSON.stringify({ ...state, views: { stepper: JSON.parse("[".repeat(500) + "]".repeat(500)) } })),
    "__proto__ at the top": await pack(json.replace(/^{/, '{"__proto__":{"polluted":1,"v":2},')),
    "__proto__ in the views": await pack(JSON.stringify({ ...state, views: JSON.parse('{"__proto__":{"polluted":1}}') })),
    "__proto__ as an operation": await pack(JSON.stringify({ ...state, ops: [["__proto__", 1]] })),
    "constructor as a widget": await pack(JSON.stringify({ ...state, widget: "constructor" })),
    "toString as a method": await pack(JSON.stringify({ ...state, ops: [["toString"]] })),
    "not UTF-8": await pack(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])),
    "a lone surrogate in JSON": await pack(json.replace("JOB-1", "JOB-\\ud800")),
    "JSON then junk": await pack(json + "junk"),
    "two documents": await pack(json + json),
    "empty": PREFIX,
    "prefix only, no dot": "#v1",
    "nothing": "",
    "a lone hash": "#",
    "not base64": PREFIX + "@@@@",
    "raw JSON": PREFIX + json,
    "ops past the cap": await pack(JSON.stringify({ ...state, ops: new Array(LIMITS.ops + 1).fill(["advance", 1]) })),
    "enqueueMany past the bulk cap": await pack(JSON.stringify({ ...state, ops: new Array(11).fill(["enqueueMany", "q", 10000, "{}"]) })),
  };
  for (const [name, fragment] of Object.entries(cases)) await check(name, fragment);
  assert.equal((await decode(cases["zip bomb (20 MB of zeros)"], widgets)).problem?.includes("unpacks to more than"), true, `seed ${SEED}: the bomb`);
});
