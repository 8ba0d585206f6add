// Permalinks: the whole state of the playground in the URL fragment.
//
// A link holds the operations that rebuild the keyspace (every engine call
// that can change it, in order, from a fresh engine: the clock is rebuilt
// the same way, since only calls move it), the view state of each widget,
// and which widget the link is about:
//
//   #v1.<base64url of deflate-raw of JSON>
//   {"v":1, "widget":"stepper", "ops":[["enqueue","q","JOB-1","{}"], ...],
//    "views":{"stepper":{...}}, "now":1767225600000}
//
// A fragment never reaches a server, and this module trusts nothing in it:
// every size is capped before it is read, and every operation must be one
// of the calls below with arguments of the right types. Which Lua the
// operations would run (an edited script, an EVAL typed at the console,
// however it is spelt) is not judged here, from the link's text: the page
// asks the engine (review), which reads each call as it will run it, shows
// that Lua, and replays each call with every other script refused
// (replay; see links.js).

import { linkRefused } from "./link-words.js";

export const PREFIX = "#v1.";
export const VERSION = 1;

/** Limits on what a link may hold: a link is for a lesson's state, not a dump. */
export const LIMITS = Object.freeze({
  fragment: 256 * 1024, // characters of the fragment
  json: 2 * 1024 * 1024, // bytes of JSON after inflating
  ops: 2000,
  text: 1024 * 1024 + 1024, // one string: a 1 MiB payload still fits
  args: 64, // arguments of one exec
  bulk: 100000, // jobs all the enqueueMany calls of one link enqueue together
  depth: 32, // levels of arrays and objects: a saved view needs a handful
});

/**
 * What each recorded method takes. A checker returns null when the
 * arguments are right, or what is wrong with them.
 */
const str = (v) => typeof v === "string" && v.length <= LIMITS.text;
const strs = (v) => Array.isArray(v) && v.length <= LIMITS.args && v.every(str);
const ms = (v) => Number.isSafeInteger(v) && v >= 0;
const lease = (v) => str(v) || (typeof v === "number" && Number.isFinite(v));
const many = (v) => Number.isSafeInteger(v) && v >= 1 && v <= 10000; // the API's MaxBulk
const METHODS = {
  enqueue: (a) => a.length === 3 && a.every(str),
  claim: (a) => a.length === 2 && str(a[0]) && lease(a[1]),
  // A bulk control is recorded as the one call it makes (Claim all, as one
  // per 1,000 claims): replayed on the same keyspace it numbers and claims
  // the same jobs, and a link to 10,000 jobs stays ten operations long.
  enqueueMany: (a) => a.length === 3 && str(a[0]) && many(a[1]) && str(a[2]),
  claimMany: (a) => a.length === 3 && str(a[0]) && lease(a[1]) && many(a[2]),
  pause: (a) => a.length === 1 && str(a[0]),
  resume: (a) => a.length === 1 && str(a[0]),
  // exec(args) on exec's connection, or exec(args, name) on a named one.
  exec: (a) => (a.length === 1 || (a.length === 2 && typeof a[1] === "string" && a[1].length >= 1 && a[1].length <= 32)) && strs(a[0]) && a[0].length > 0,
  cli: (a) => a.length === 1 && str(a[0]),
  trace: (a) => a.length >= 1 && a.length <= 3 && str(a[0]) && (a[1] === undefined || strs(a[1])) && (a[2] === undefined || strs(a[2])),
  setNow: (a) => a.length === 1 && ms(a[0]),
  advance: (a) => a.length === 1 && ms(a[0]),
};

/**
 * Methods never recorded: the ones that only read, and a link's review
 * and replay (the journal keeps the call a replay runs, not the replay).
 */
const READS = new Set(["scripts", "snapshot", "now", "changed", "entries", "review", "replay"]);

/**
 * The journal of one page: every call that can change the keyspace, in
 * order. A reset empties it, since nothing before a reset matters to the
 * keyspace after it.
 */
export class Journal {
  constructor() {
    this.ops = [];
  }

  /** Records a call; returns its place in ops, or null when it is not kept. */
  record(method, args) {
    if (READS.has(method)) return null;
    if (method === "reset") {
      this.ops = [];
      return null;
    }
    return this.ops.push([method, ...args]) - 1;
  }
}

// ---- encoding ---------------------------------------------------------------

function toBase64Url(bytes) {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("it has characters a link never has");
  return bytesOfBase64(text.replaceAll("-", "+").replaceAll("_", "/"));
}

/**
 * The bytes of standard base64 text. Links use it, and so does the offline
 * lesson, whose page carries the engine as base64.
 */
export function bytesOfBase64(text) {
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** A link that unpacks past the cap: the notice says so, in its own words. */
class TooBig extends Error {
  constructor(max) {
    super(`unpacks past ${max} bytes`);
    this.why = `it unpacks to more than ${Math.round(max / 1024)} KiB`;
  }
}

/** Runs bytes through a (de)compression stream, stopping past max bytes out (TooBig). */
async function pump(bytes, transform, max) {
  const reader = new Blob([bytes]).stream().pipeThrough(transform).getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw new TooBig(max);
    }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** The fragment for a state. */
export async function encode(state) {
  const json = new TextEncoder().encode(JSON.stringify(state));
  const packed = await pump(json, new CompressionStream("deflate-raw"), Infinity);
  return PREFIX + toBase64Url(packed);
}

/**
 * Reads a fragment. Returns {state} for a good link, {problem} for a bad
 * one (link-words.js's linkRefused sentence), or {} when there is no link at all.
 */
export async function decode(fragment, widgetNames) {
  if (!fragment || fragment === "#") return {};
  const damaged = (why) => ({ problem: linkRefused(why) });
  if (!fragment.startsWith(PREFIX)) return damaged("it is not a playground link (it should start with #v1.)");
  if (fragment.length > LIMITS.fragment) return damaged(`it is longer than ${LIMITS.fragment / 1024} KiB`);
  let value;
  try {
    const packed = fromBase64Url(fragment.slice(PREFIX.length));
    const json = await pump(packed, new DecompressionStream("deflate-raw"), LIMITS.json);
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(json));
  } catch (err) {
    // The browser's own words (an "incorrect header check", a decoding
    // error) say nothing to a learner; the console keeps them for whoever
    // made the link.
    console.warn("the link could not be unpacked", err);
    if (err instanceof TooBig) return damaged(err.why);
    return damaged("it is damaged or cut short, as happens when only part of a link is copied; copy the whole link again");
  }
  const why = check(value, widgetNames);
  if (why) return damaged(why);
  return { state: value };
}

/**
 * True when a decoded value nests arrays and objects more than limit deep.
 * JSON.parse reads any depth, but code that walks a value by recursion
 * (JSON.stringify, a structured clone) overflows the stack at a few
 * thousand levels, and a 2 MiB link can hold a million. This walk keeps
 * its own stack.
 */
function deeperThan(value, limit) {
  const stack = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop();
    if (v === null || typeof v !== "object") continue;
    if (depth > limit) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** What is wrong with a decoded link, or null. */
function check(v, widgetNames) {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return "it holds no state";
  if (deeperThan(v, LIMITS.depth)) return `it nests more than ${LIMITS.depth} levels deep`;
  if (v.v !== VERSION) return `it is version ${JSON.stringify(v.v)}, and this playground reads version ${VERSION}`;
  if (typeof v.widget !== "string" || !widgetNames.includes(v.widget)) return "it names a widget this page does not have";
  if (!Array.isArray(v.ops) || v.ops.length > LIMITS.ops) return `its operations are missing or more than ${LIMITS.ops}`;
  for (const [i, op] of v.ops.entries()) {
    if (!Array.isArray(op) || typeof op[0] !== "string" || !Object.hasOwn(METHODS, op[0])) {
      return `operation ${i + 1} is not one the playground records`;
    }
    if (!METHODS[op[0]](op.slice(1))) return `operation ${i + 1} (${op[0]}) has arguments of the wrong kind`;
  }
  const bulk = v.ops.reduce((sum, op) => sum + (op[0] === "enqueueMany" ? op[2] : 0), 0);
  if (bulk > LIMITS.bulk) return `its operations enqueue ${bulk} jobs, more than the ${LIMITS.bulk} a link may`;
  if (v.views === null || typeof v.views !== "object" || Array.isArray(v.views)) return "its view state is missing";
  for (const name of Object.keys(v.views)) {
    if (!widgetNames.includes(name)) return `it has view state for an unknown widget ${JSON.stringify(name)}`;
  }
  if (v.now !== undefined && !ms(v.now)) return "its clock is not a time";
  return null;
}
