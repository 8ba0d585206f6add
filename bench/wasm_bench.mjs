// Per-operation latency of the playground's JS API in WebAssembly under
// Node, for `go run ./bench`: what a page pays per call, the bridge
// (publish in web/assets/worker-bridge.js) and JSON.parse included.
//
//   node bench/wasm_bench.mjs --wasm-exec static/wasm_exec.js \
//     --target echomq=static/echomq.wasm [--target echomq_base=/tmp/base.wasm] \
//     [--depths 10,10000] [--budget-ms 1000] [--max-samples 1500] \
//     [--warmup 200] [--rounds 1|stdin] [--env echomq_base:GOGC=400]
//
// Each --target is GLOBAL=PATH: a build of the playground's module
// (wasm/main_js.go), which publishes its JS API as globalThis[GLOBAL]. The
// module reads the name from ECHOMQ_GLOBAL, which this script sets through
// go.env for every GLOBAL but "echomq" (the name a page gets), so two
// builds (the current one and a baseline) live in this one process and are
// measured in turns: within each slice of a round the cells run side by
// side, in the other order every other slice.
//
// For every target and depth, a queue is pre-filled to the depth (what
// @enqueue would have written), then each sample is one enqueue followed by
// one claim, each timed, so the pending set stays at the depth throughout.
//
// Output is JSON lines on stdout, and nothing else goes there: one "ready"
// event once the modules are started, filled and warm; one "round" event
// per round with that round's raw samples (microseconds; the Go program
// computes the statistics); one "end" event. With --rounds stdin the
// process waits for a line on stdin before each round and ends at EOF: the
// Go program measures its other rounds while this process sits idle, so
// they take turns without either starting over.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { performance } from "node:perf_hooks";
import readline from "node:readline";
import { PREFILL, PREFILL_CHUNK } from "./prefill.mjs";

const require = createRequire(import.meta.url);

function parseArgs(argv) {
  const opts = { targets: [], env: {}, depths: [10, 10000], budgetMs: 1000, maxSamples: 1500, warmup: 200, wasmExec: "", rounds: 1 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    switch (flag) {
      case "--wasm-exec": opts.wasmExec = value; break;
      case "--target": {
        const eq = value.indexOf("=");
        if (eq <= 0) throw new Error(`--target wants GLOBAL=PATH, got ${value}`);
        opts.targets.push({ global: value.slice(0, eq), file: value.slice(eq + 1) });
        break;
      }
      case "--env": {
        // GLOBAL:NAME=VALUE, into that target's go.env (GOGC, GODEBUG).
        const m = /^([^:]+):([^=]+)=(.*)$/.exec(value);
        if (!m) throw new Error(`--env wants GLOBAL:NAME=VALUE, got ${value}`);
        (opts.env[m[1]] ??= {})[m[2]] = m[3];
        break;
      }
      case "--depths": opts.depths = value.split(",").map(Number); break;
      case "--budget-ms": opts.budgetMs = Number(value); break;
      case "--max-samples": opts.maxSamples = Number(value); break;
      case "--warmup": opts.warmup = Number(value); break;
      case "--rounds": opts.rounds = value === "stdin" ? value : Number(value); break;
      default: throw new Error(`unknown flag ${flag}`);
    }
  }
  if (!opts.wasmExec) throw new Error("--wasm-exec is required");
  if (opts.targets.length === 0) throw new Error("at least one --target is required");
  for (const d of opts.depths) if (!Number.isInteger(d) || d < 0) throw new Error(`bad depth ${d}`);
  return opts;
}

/**
 * Publishes a started module's JS API as the page's worker does
 * (web/assets/worker-bridge.js, bundled as worker.js next to
 * wasm_exec.js), or, for a baseline built before the module had exports
 * (its syscall/js functions published themselves), waits for the module
 * to do it.
 */
let publishAPI;
async function loadBridge(wasmExec) {
  const { publish } = require(path.join(path.dirname(path.resolve(wasmExec)), "worker.js"));
  publishAPI = async (go, instance) => {
    if (typeof instance.exports.echomq_call === "function") return publish(go, instance);
    const name = go.env.ECHOMQ_GLOBAL || "echomq";
    for (let i = 0; i < 100 && !globalThis[name]; i++) await new Promise((r) => setTimeout(r, 10));
  };
}

/** Instantiates and starts one Go module; resolves once it published its global. */
async function start(target) {
  const began = performance.now();
  const go = new globalThis.Go();
  if (target.global !== "echomq") go.env.ECHOMQ_GLOBAL = target.global;
  Object.assign(go.env, target.env);
  const { instance } = await WebAssembly.instantiate(readFileSync(target.file), go.importObject);
  target.exited = false;
  go.run(instance).then(() => { target.exited = true; });
  await publishAPI(go, instance);
  const api = globalThis[target.global];
  if (!api) throw new Error(`${target.file} did not publish globalThis.${target.global}`);
  target.api = api;
  target.startMs = performance.now() - began;
}

const jobId = (n) => `JOB-${String(n).padStart(10, "0")}`;
const PAYLOAD = '{"to":"learner@example.com","template":"welcome"}';
const LEASE = 30000;

function must(what, r, ok) {
  if (!ok(r)) throw new Error(`${what}: unexpected reply ${JSON.stringify(r).slice(0, 300)}`);
  return r;
}
const notError = (r) => r && !r.error && r.type !== "error";


// The integer in an exec reply: {type:"int", value:"7"}.
const intOf = (r) => Number(r.value);

/** Writes depth pending jobs into the queue. */
function prefill(api, queue, depth) {
  const pending = `emq:{${queue}}:pending`;
  const rowBase = `emq:{${queue}}:job:`;
  for (let first = 0; first < depth; first += PREFILL_CHUNK) {
    const last = Math.min(first + PREFILL_CHUNK, depth) - 1;
    must("prefill", api.exec(["EVAL", PREFILL, "1", pending, rowBase, String(first), String(last), PAYLOAD]), notError);
  }
  const size = intOf(must("ZCARD", api.exec(["ZCARD", pending]), notError));
  if (size !== depth) throw new Error(`prefill ${queue}: ${size} pending, want ${depth}`);
}

/**
 * One timed enqueue + claim on cell c; returns [enqueueUs, claimUs,
 * roundTripUs]. The verdicts are checked after the clock stops: the claim
 * must lease the oldest job, the one pre-filled or enqueued first.
 */
function roundTrip(c) {
  const id = jobId(c.next++);
  const t0 = performance.now();
  const e = c.t.api.enqueue(c.queue, id, PAYLOAD);
  const t1 = performance.now();
  const got = c.t.api.claim(c.queue, LEASE);
  const t2 = performance.now();
  if (e.verdict !== "enqueued") throw new Error(`${c.target}: enqueue ${id}: ${JSON.stringify(e).slice(0, 300)}`);
  const want = jobId(c.claimed++);
  if (got.verdict !== "leased" || got.id !== want) {
    throw new Error(`${c.target}: claim, want ${want}: ${JSON.stringify(got).slice(0, 300)}`);
  }
  return [(t1 - t0) * 1000, (t2 - t1) * 1000, (t2 - t0) * 1000];
}

// Claimed ids pile up in the active set; clearing it now and then (untimed)
// keeps every sample's keyspace the same shape: pending at the depth, a
// small active set.
const HOUSEKEEPING_EVERY = 256;
const clearActive = (c) => must("DEL", c.t.api.exec(["DEL", `emq:{${c.queue}}:active`]), notError);

/**
 * The floor under every call: the cheapest method of the JS API, now(),
 * timed the same way. It is what crossing from JS into Go and back costs,
 * with the bridge's argument conversion and JSON result, before any work.
 */
function floor(t, n) {
  for (let i = 0; i < 200; i++) t.api.now();
  const samples = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    t.api.now();
    samples.push((performance.now() - t0) * 1000);
  }
  return { target: t.global, call: "now()", samples };
}

/** Prints one event as a line of JSON; resolves once stdout (a pipe) took it. */
function emit(event, body) {
  return new Promise((resolve) => process.stdout.write(JSON.stringify({ event, ...body }) + "\n", resolve));
}

/**
 * Measures every cell once, in turns: a slice of the budget at a time, the
 * cells in their order on even slices and in reverse on odd ones.
 */
function measureRound(cells, opts) {
  for (const c of cells) {
    c.enqueue = [];
    c.claim = [];
    c.roundTrip = [];
  }
  const slices = 4;
  for (let s = 0; s < slices; s++) {
    for (const c of s % 2 === 0 ? cells : [...cells].reverse()) {
      const until = performance.now() + opts.budgetMs / slices;
      const cap = Math.floor(opts.maxSamples * (s + 1) / slices);
      while (c.roundTrip.length < cap && performance.now() < until) {
        const [e, cl, rt] = roundTrip(c);
        c.enqueue.push(e);
        c.claim.push(cl);
        c.roundTrip.push(rt);
        if (c.roundTrip.length % HOUSEKEEPING_EVERY === 0) clearActive(c);
      }
    }
  }
  return cells.map((c) => ({
    target: c.target, depth: c.depth,
    finalDepth: intOf(must("ZCARD", c.t.api.exec(["ZCARD", `emq:{${c.queue}}:pending`]), notError)),
    enqueue: c.enqueue, claim: c.claim, roundTrip: c.roundTrip,
  }));
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  require(path.resolve(opts.wasmExec));
  await loadBridge(opts.wasmExec);
  for (const t of opts.targets) {
    t.env = opts.env[t.global] ?? {};
    await start(t);
  }

  // Cells by depth, then target, so the builds at a depth sit side by side.
  const cells = [];
  for (const depth of opts.depths) {
    for (const t of opts.targets) {
      const queue = `d${depth}`;
      const began = performance.now();
      prefill(t.api, queue, depth);
      cells.push({ target: t.global, depth, queue, prefillMs: performance.now() - began, next: depth, claimed: 0, t });
    }
  }
  // Warm up every cell (V8 compiles hot wasm functions again, better, once
  // they have run a while) before the first sample.
  for (const c of cells) {
    for (let i = 0; i < opts.warmup; i++) roundTrip(c);
    clearActive(c);
  }
  await emit("ready", {
    node: process.version,
    v8: process.versions.v8,
    targets: opts.targets.map((t) => ({ global: t.global, file: t.file, startMs: t.startMs, version: String(t.api.version ?? "") })),
    cells: cells.map((c) => ({ target: c.target, depth: c.depth, prefillMs: c.prefillMs, warmupOps: opts.warmup })),
  });

  const exited = () => opts.targets.filter((t) => t.exited).map((t) => t.global);
  if (opts.rounds === "stdin") {
    for await (const line of readline.createInterface({ input: process.stdin })) {
      if (line.trim() === "") continue;
      await emit("round", { cells: measureRound(cells, opts), exited: exited() });
    }
  } else {
    for (let r = 0; r < opts.rounds; r++) await emit("round", { cells: measureRound(cells, opts), exited: exited() });
  }
  await emit("end", { floors: opts.targets.map((t) => floor(t, 1000)), exited: exited() });
}

main().then(
  // Go's main never returns, so its pending promise would keep Node alive.
  () => process.exit(0),
  (err) => { console.error(err && err.stack ? err.stack : String(err)); process.exit(1); },
);
