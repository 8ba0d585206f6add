// The playground at depth, through the JS API in wasm under Node, for
// `go run ./bench`: the same measurements as bench/depth (see its package
// comment), with the same scripts, through globalThis.echomq as a page
// calls it, bridge included.
//
//   node bench/depth_bench.mjs --wasm-exec static/wasm_exec.js --wasm static/echomq.wasm \
//     [--budget-ms 800] [--min-samples 5] [--max-samples 200] [--drain-cap-ms 20000]
//
// It prints one line of JSON on stdout, {"event":"depth","result":{...}}
// (bench/depth's Result), and progress on stderr.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { PREFILL, PREFILL_CHUNK } from "./prefill.mjs";

const require = createRequire(import.meta.url);

// The same as bench/depth and bench/loop.
const DEPTHS = [10, 1000, 10000, 100000];
const THROUGHPUT_CALLS = 5000;
const SCRIPTS = {
  SET: "for i = 1, tonumber(ARGV[1]) do redis.call('SET', KEYS[1], i) end return 1",
  ZADD: "for i = 1, tonumber(ARGV[1]) do redis.call('ZADD', KEYS[1], i, 'm' .. i) end return 1",
  HSET: "for i = 1, tonumber(ARGV[1]) do redis.call('HSET', KEYS[1], 'f' .. i, i) end return 1",
};
const MANY_SETS_SCRIPT = "for i = 1, tonumber(ARGV[1]) do redis.call('SET', KEYS[1] .. i, 'v') end return 1";
const MANY_SETS = 100000;
const POP_SCRIPT = "for i = 1, tonumber(ARGV[1]) do redis.call('ZPOPMIN', KEYS[1]) end return 1";
const POP_DEPTH = 10000;
const POPS = 1000;
const DRAIN_JOBS = 10000;
const WINDOW = 25;
const REPEAT = 3;
const WARMUP = 20; // round trips, at most
const WARMUP_MS = 300; // and at most this long
const BULK_CHUNK = 100;
const PAYLOAD = '{"to":"learner@example.com","template":"welcome"}';
const LEASE = 30000;
const HOUSEKEEPING_EVERY = 256;

const jobId = (n) => `JOB-${String(n).padStart(10, "0")}`;
const keys = (q) => ({ pending: `emq:{${q}}:pending`, active: `emq:{${q}}:active`, base: `emq:{${q}}:job:` });
const log = (text) => process.stderr.write(`depth_bench: ${text}\n`);

function parseArgs(argv) {
  const o = { wasmExec: "", wasm: "", budgetMs: 800, minSamples: 5, maxSamples: 200, drainCapMs: 20000 };
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    switch (flag) {
      case "--wasm-exec": o.wasmExec = value; break;
      case "--wasm": o.wasm = value; break;
      case "--budget-ms": o.budgetMs = Number(value); break;
      case "--min-samples": o.minSamples = Number(value); break;
      case "--max-samples": o.maxSamples = Number(value); break;
      case "--drain-cap-ms": o.drainCapMs = Number(value); break;
      default: throw new Error(`unknown flag ${flag}`);
    }
  }
  if (!o.wasmExec || !o.wasm) throw new Error("--wasm-exec and --wasm are required");
  return o;
}

function check(what, r) {
  if (!r || r.error || r.type === "error") throw new Error(`${what}: ${JSON.stringify(r).slice(0, 300)}`);
  return r;
}

function prefill(api, queue, first, last) {
  const k = keys(queue);
  for (let from = first; from < last; from += PREFILL_CHUNK) {
    const to = Math.min(from + PREFILL_CHUNK, last) - 1;
    check("prefill", api.exec(["EVAL", PREFILL, "1", k.pending, k.base, String(from), String(to), PAYLOAD]));
  }
}

/** One script over key with n; its time in ms, or the error that stopped it. */
function script(api, src, key, n) {
  const t0 = performance.now();
  const r = api.exec(["EVAL", src, "1", key, String(n)]);
  const ms = performance.now() - t0;
  if (r.type === "error") return { ms, error: `${r.value} (after ${Math.round(ms)} ms)` };
  return { ms };
}

function curve(api, queue, depth, o) {
  const k = keys(queue);
  const pt = { depth, enqueue: [], claim: [], zrange: [], snapshot: [] };
  let next = depth;
  let claimed = 0;
  // A few untimed round trips first: the first calls after a fill pay for
  // its garbage, and V8 compiles hot code again once it has run.
  const warm = performance.now() + WARMUP_MS;
  for (let i = 0; i < WARMUP && (i === 0 || performance.now() < warm); i++) {
    check("warm-up enqueue", api.enqueue(queue, jobId(next++), PAYLOAD));
    if (api.claim(queue, LEASE).id !== jobId(claimed++)) throw new Error(`warm-up claim at ${depth}`);
    check("warm-up snapshot", api.snapshot(queue, WINDOW));
  }
  const until = performance.now() + o.budgetMs;
  for (let n = 0; n < o.maxSamples && (n < o.minSamples || performance.now() < until); n++) {
    const id = jobId(next++);
    const t0 = performance.now();
    const e = api.enqueue(queue, id, PAYLOAD);
    const t1 = performance.now();
    const c = api.claim(queue, LEASE);
    const t2 = performance.now();
    const z = api.exec(["ZRANGE", k.pending, "0", String(WINDOW - 1)]);
    const t3 = performance.now();
    const s = api.snapshot(queue, WINDOW);
    const t4 = performance.now();
    if (s.error || s.counts.pending !== depth) throw new Error(`snapshot at ${depth}: ${JSON.stringify(s).slice(0, 200)}`);
    if (e.verdict !== "enqueued") throw new Error(`enqueue ${id}: ${JSON.stringify(e)}`);
    if (c.verdict !== "leased" || c.id !== jobId(claimed)) throw new Error(`claim at ${depth}: ${JSON.stringify(c).slice(0, 200)}`);
    if (z.type !== "array" || z.value.length !== Math.min(WINDOW, depth)) throw new Error(`ZRANGE at ${depth}: ${JSON.stringify(z).slice(0, 200)}`);
    claimed++;
    pt.enqueue.push((t1 - t0) * 1000);
    pt.claim.push((t2 - t1) * 1000);
    pt.zrange.push((t3 - t2) * 1000);
    pt.snapshot.push((t4 - t3) * 1000);
    if ((n + 1) % HOUSEKEEPING_EVERY === 0) api.exec(["DEL", k.active]);
  }
  api.exec(["DEL", k.active]);
  return { pt, used: next };
}

const CLEAR = `for n = tonumber(ARGV[2]), tonumber(ARGV[3]) do
  redis.call('DEL', ARGV[1] .. string.format('JOB-%010d', n))
end
return 1`;

/** Deletes a queue that used job ids 0..used-1: its rows and its sets. */
function clear(api, queue, used) {
  const k = keys(queue);
  for (let from = 0; from < used; from += 10 * PREFILL_CHUNK) {
    const to = Math.min(from + 10 * PREFILL_CHUNK, used) - 1;
    check("clear", api.exec(["EVAL", CLEAR, "0", k.base, String(from), String(to)]));
  }
  api.exec(["DEL", k.pending, k.active]);
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  require(path.resolve(o.wasmExec));
  // The page's worker publishes the JS API over the module's exports;
  // it sits next to wasm_exec.js in the built site.
  const { publish } = require(path.join(path.dirname(path.resolve(o.wasmExec)), "worker.js"));
  const go = new globalThis.Go();
  // GOGC for an experiment (a page runs with the module's own policy).
  if (process.env.ECHOMQ_GOGC) go.env.GOGC = process.env.ECHOMQ_GOGC;
  const { instance } = await WebAssembly.instantiate(readFileSync(o.wasm), go.importObject);
  go.run(instance);
  const api = publish(go, instance);
  if (!api) throw new Error(`${o.wasm} did not publish globalThis.echomq`);
  const memory = () => instance.exports.mem.buffer.byteLength;
  const res = { platform: "wasm", curve: [], throughput: [], pop: { ms: [] }, drain: {}, manySets: { ms: [] } };

  // Shallow to deep, each queue filled just before it is measured and
  // deleted after (see bench/depth): every garbage collection walks every
  // job in the heap, so no depth's samples pay for another's jobs.
  // Linear memory only grows, and the smaller depths' garbage grew it
  // before: "before" is the module's memory when it had started.
  const started = memory();
  for (const d of DEPTHS) {
    const deepest = d === DEPTHS.at(-1);
    prefill(api, `depth${d}`, 0, d);
    if (deepest) res.memory = { jobs: d, before: started, after: memory(), what: "the module's linear memory (WebAssembly.Memory.buffer.byteLength, which only grows), when it had started and with the 100,000 jobs" };
    log(`depth ${d}`);
    const { pt, used } = curve(api, `depth${d}`, d, o);
    res.curve.push(pt);
    clear(api, `depth${d}`, used);
  }

  log("script throughput");
  for (const [command, src] of Object.entries(SCRIPTS)) {
    const tp = { command, calls: THROUGHPUT_CALLS, ms: [] };
    for (let i = 0; i < REPEAT; i++) {
      const key = `tp:${command.toLowerCase()}`;
      const r = script(api, src, key, THROUGHPUT_CALLS);
      api.exec(["DEL", key]);
      if (r.error) { tp.error = r.error; break; }
      tp.ms.push(r.ms);
    }
    res.throughput.push(tp);
  }

  log(`one script popping ${POPS} of ${POP_DEPTH}`);
  const pop = keys("pop");
  prefill(api, "pop", 0, POP_DEPTH);
  let next = POP_DEPTH;
  for (let i = 0; i < REPEAT; i++) {
    const r = script(api, POP_SCRIPT, pop.pending, POPS);
    if (r.error) { res.pop.error = r.error; break; }
    res.pop.ms.push(r.ms);
    const left = Number(check("ZCARD", api.exec(["ZCARD", pop.pending])).value);
    prefill(api, "pop", next, next + POP_DEPTH - left);
    next += POP_DEPTH - left;
  }

  log(`draining ${DRAIN_JOBS} jobs, one claim() each`);
  prefill(api, "drain", 0, DRAIN_JOBS);
  res.drain = { jobs: DRAIN_JOBS, drained: 0, ms: 0 };
  let t0 = performance.now();
  while (res.drain.drained < DRAIN_JOBS) {
    const c = api.claim("drain", LEASE);
    if (c.verdict !== "leased" || c.id !== jobId(res.drain.drained)) throw new Error(`drain: ${JSON.stringify(c).slice(0, 200)}`);
    res.drain.drained++;
    if (performance.now() - t0 > o.drainCapMs) { res.drain.note = `stopped after ${o.drainCapMs / 1000} s`; break; }
  }
  res.drain.ms = performance.now() - t0;

  // In calls of 100, so that the cap is checked often; the page's Claim all
  // makes calls of 1,000, each claim the same.
  log(`draining ${DRAIN_JOBS} jobs, claimMany() of ${BULK_CHUNK}`);
  prefill(api, "bulk", 0, DRAIN_JOBS);
  res.drainBulk = { jobs: DRAIN_JOBS, drained: 0, ms: 0 };
  t0 = performance.now();
  while (res.drainBulk.drained < DRAIN_JOBS) {
    const c = api.claimMany("bulk", LEASE, BULK_CHUNK);
    if (c.error) throw new Error(`claimMany: ${JSON.stringify(c).slice(0, 200)}`);
    res.drainBulk.drained += c.claimed;
    if (c.empty) break;
    if (performance.now() - t0 > o.drainCapMs) { res.drainBulk.note = `stopped after ${o.drainCapMs / 1000} s`; break; }
  }
  res.drainBulk.ms = performance.now() - t0;

  log(`one script of ${MANY_SETS} SETs`);
  const many = script(api, MANY_SETS_SCRIPT, "many:", MANY_SETS);
  if (many.error) res.manySets.error = many.error;
  else res.manySets.ms.push(many.ms);

  await new Promise((resolve) => process.stdout.write(JSON.stringify({ event: "depth", result: res }) + "\n", resolve));
}

main().then(
  () => process.exit(0),
  (err) => { console.error(err && err.stack ? err.stack : String(err)); process.exit(1); },
);
