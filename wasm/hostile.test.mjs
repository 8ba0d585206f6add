// Hostile JS callers: 20,000 random calls of globalThis.echomq with
// arguments of every wrong type a JS caller can pass (numbers, objects,
// arrays, null, undefined, bigint, symbols, functions, NaN, -0, huge and
// nested values, cyclic objects, throwing getters), lone surrogates and
// strings past the caps, through the built module and publish() as a page
// loads them. None may throw, every result must have the shape
// wasm/echomq.d.ts gives it, and at the end the engine must still serve a
// round trip. The seed is fixed (ECHOMQ_SEED overrides it) and printed on
// failure.
// Run by `./build.sh test` (node --test wasm/*.test.mjs); ECHOMQ_STATIC
// overrides the folder.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const staticDir = process.env.ECHOMQ_STATIC ?? path.join(here, "..", "static");
const require = createRequire(import.meta.url);
const SEED = Number(process.env.ECHOMQ_SEED ?? 20231);
const CALLS = 20000;

/** mulberry32: a small PRNG, so a seed replays the same calls. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const huge = "h".repeat(32 * 2 ** 20 + 1); // one byte past the string cap
const atCap = "c".repeat(32 * 2 ** 20);

function values(rand) {
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const strings = ["q", "emails", "JOB-1", "JOB-2", "JOB-\ud800", "JOB-\udfff", "\ud83d\ude00", "\udc00x", "x\ud800", "", " ", "{}",
    '{"to":"a@b"}', "30000", "-5", "abc", "1e3", "caf\u00e9", "\u0000", "<&>\u2028", "SET k v", "help ZADD", "GET 'x", "enqueue", "claim",
    "emq:{q}:pending", "emq:{q}:job:JOB-1", "embed-1", "PING", "ZADD", "HELLO", "3", "return 1", "worker-A", "x".repeat(40)];
  const numbers = [0, -0, 1, 2, 3, -1, 1.5, NaN, Infinity, -Infinity, 1e21, 2 ** 53 + 1, Number.MAX_VALUE, Number.MIN_VALUE, 30000, 25, 1800000000000, 253402300800000];
  const nested = (n) => { let v = "0-0"; for (let i = 0; i < n; i++) v = rand() < 0.5 ? [v] : { k: v }; return v; };
  const cyclic = () => { const o = { k: "0-0" }; o.self = o; return o; };
  const value = (depth = 0) => {
    switch (Math.floor(rand() * 16)) {
      case 0: case 1: case 2: case 3: return pick(strings);
      case 4: case 5: return pick(numbers);
      case 6: return pick([null, undefined, true, false]);
      case 7: return pick([10n, -(2n ** 70n), Symbol("s"), () => 1, function named() {}, class C {}]);
      case 8: return depth > 3 ? [] : Array.from({ length: Math.floor(rand() * 4) }, () => value(depth + 1));
      case 9: return depth > 3 ? {} : Object.fromEntries(Array.from({ length: Math.floor(rand() * 3) }, () => [pick(strings), value(depth + 1)]));
      case 10: return pick([nested(40), nested(5), cyclic(), new Date(0), new Map([["k", "v"]]), new Uint8Array(3), /re/, Object.create(null)]);
      case 11: return rand() < 0.005 ? pick([huge, atCap]) : pick(strings) + pick(strings);
      case 12: return { get k() { throw new Error("a getter that throws"); } };
      case 13: return [pick(strings), pick(strings), pick(strings)];
      case 14: return pick(["ZADD", "SET", "HSET", "GET", "EVAL", "HGETALL", "ZRANGE", "DEL", "MULTI", "EXEC", "WATCH", "HELLO", "INCR"]);
      default: return { [pick(strings)]: pick(strings) };
    }
  };
  return { value, pick };
}

const REPLY_TYPES = new Set(["status", "error", "int", "bulk", "nil", "array", "map", "set", "double", "bool", "bignum", "verbatim"]);
const ERRORS = new Set(["args", "internal", "guard", "kind", "lease", "queue", "server", "depth", "size", "syntax"]);

/** The problems with r as a Reply (wasm/echomq.d.ts), or "". */
function replyProblem(r, depth = 0) {
  if (r === null || typeof r !== "object" || !REPLY_TYPES.has(r.type)) return `not a Reply: ${JSON.stringify(r)?.slice(0, 100)}`;
  switch (r.type) {
    case "nil": return r.value === null ? "" : "nil with a value";
    case "bool": return typeof r.value === "boolean" ? "" : "bool without a boolean";
    case "array": case "set":
      if (!Array.isArray(r.value)) return `${r.type} without an array`;
      for (const e of r.value) { const p = replyProblem(e, depth + 1); if (p) return p; }
      return "";
    case "map":
      if (!Array.isArray(r.value)) return "map without pairs";
      for (const e of r.value) { const p = replyProblem(e.key, depth + 1) || replyProblem(e.value, depth + 1); if (p) return p; }
      return "";
    case "int": return /^-?\d+$/.test(r.value) ? "" : `int ${r.value}`;
  }
  return typeof r.value === "string" ? "" : `${r.type} without a string`;
}

const isArray = (v) => Array.isArray(v);
const num = (v) => typeof v === "number";
const str = (v) => typeof v === "string";
const SHAPES = {
  scripts: (r) => isArray(r) && r.every((s) => str(s.name) && /^[0-9a-f]{40}$/.test(s.sha) && str(s.source) && isArray(s.moves)),
  exec: (r) => !replyProblem(r),
  cli: (r) => isArray(r.args) && str(r.text) && (r.reply === undefined || !replyProblem(r.reply)),
  enqueue: (r) => ["enqueued", "duplicate"].includes(r.verdict) && isArray(r.wire) && r.wire.every((w) => !replyProblem(w.reply)),
  claim: (r) => (r.verdict === "leased" && str(r.id) && str(r.payload) && num(r.attempts)) || r.verdict === "empty",
  enqueueMany: (r) => str(r.first) && str(r.last) && num(r.enqueued) && num(r.duplicate) && num(r.ms),
  claimMany: (r) => num(r.claimed) && typeof r.empty === "boolean" && typeof r.paused === "boolean" && num(r.ms),
  pause: (r) => r.verdict === "paused",
  resume: (r) => r.verdict === "resumed",
  snapshot: (r) => num(r.now) && typeof r.paused === "boolean" && isArray(r.pending) && isArray(r.active) && isArray(r.rows) && num(r.counts.pending) && str(r.fresh),
  trace: (r) => !replyProblem(r.reply) && isArray(r.keys) && isArray(r.steps) && isArray(r.moves) && typeof r.stamps === "object",
  changed: (r) => isArray(r.changed) && r.changed.every(str),
  entries: (r) => isArray(r.entries),
  now: (r) => num(r.now),
  setNow: (r) => num(r.now),
  advance: (r) => num(r.now),
  reset: (r) => r.reset === true && num(r.now),
  drop: (r) => typeof r.dropped === "boolean",
};

/** Why r is not what method documents, or "". */
function shapeProblem(method, r, args) {
  if (r === null || typeof r !== "object") return `not an object: ${String(r)}`;
  if (method === "call") {
    const inner = args[1];
    if (typeof inner !== "string" || !SHAPES[inner] || inner === "call" || inner === "drop" || !Array.isArray(args[2])) return typeof r.error === "string" ? "" : "call with bad arguments did not answer an error";
    return shapeProblem(inner, r, args[2]);
  }
  if ("error" in r && !(method === "exec" && "type" in r)) {
    if (!ERRORS.has(r.error)) return `unknown error ${r.error}`;
    if (!str(r.message) || r.message === "") return "an error without a message";
    if (r.error === "guard" && !(str(r.function) && str(r.reason))) return "a guard error without function and reason";
    return "";
  }
  return SHAPES[method](r) ? "" : "not the documented shape";
}

const METHODS = [...Object.keys(SHAPES), "call"];

test(`${CALLS} random calls with hostile arguments never throw, answer in the documented shape, and leave the engine serving`, async () => {
  require(path.join(staticDir, "wasm_exec.js"));
  const go = new globalThis.Go();
  go.env = { ECHOMQ_GLOBAL: "echomq_hostile" };
  const { instance } = await WebAssembly.instantiate(readFileSync(path.join(staticDir, "echomq.wasm")), go.importObject);
  let exited = false;
  go.run(instance).then(() => { exited = true; });
  const api = require(path.join(staticDir, "worker.js")).publish(go, instance);
  delete globalThis.echomq_hostile;

  const rand = prng(SEED);
  const { value, pick } = values(rand);
  const internal = [];
  for (let i = 0; i < CALLS; i++) {
    const method = pick(METHODS);
    const args = Array.from({ length: Math.floor(rand() * 4) }, () => value());
    if (method === "call" && rand() < 0.7) args.splice(0, 3, pick(["embed-1", "embed-2"]), pick(METHODS), [value(), value(), value()]);
    if (method === "enqueueMany" || method === "claimMany") {
      // Valid counts stay small: 10,000 claims per call would be the time
      // of the whole run.
      for (let j = 0; j < args.length; j++) if (typeof args[j] === "number" && args[j] > 100 && args[j] <= 10000) args[j] = 3;
    }
    const what = () => `call ${i} of seed ${SEED} (ECHOMQ_SEED=${SEED} replays it): ${method}(${args.map((a) => { try { return typeof a === "bigint" ? `${a}n` : typeof a === "symbol" ? a.toString() : typeof a === "function" ? "a function" : JSON.stringify(a)?.slice(0, 80); } catch { return "?"; } }).join(", ")})`;
    let r;
    try {
      r = api[method](...args);
    } catch (err) {
      assert.fail(`${what()} threw: ${err && err.stack}`);
    }
    const problem = shapeProblem(method, r, args);
    assert.equal(problem, "", `${what()}: ${problem}: ${JSON.stringify(r)?.slice(0, 300)}`);
    if (r.error === "internal" && !/could not convert a value: a getter that throws/.test(r.message)) internal.push(`${what()}: ${r.message}`);
  }
  assert.deepEqual(internal, [], "internal errors that no caller's value explains");
  // The engine still serves: a round trip, as the lesson makes it.
  assert.deepEqual(api.reset().reset, true);
  assert.equal(api.enqueue("q", "JOB-1", '{"to":"a@b"}').verdict, "enqueued");
  const got = api.claim("q", 30000);
  assert.deepEqual([got.verdict, got.id, got.payload, got.attempts], ["leased", "JOB-1", '{"to":"a@b"}', 1]);
  assert.equal(exited, false, "the Go program exited");
});
