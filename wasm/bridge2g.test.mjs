// The bridge past 2 GiB: once the module's memory passes 2 GiB, the
// buffers the bridge hands JS lie at addresses past 2^31, which an i32
// result brings to JS as negative numbers. Read as int32 they made every
// call fail ("Start offset -1986527232 is outside the bounds of the
// buffer"), after the call had run: a script's SET was kept while its
// call was reported as a throw. This fills one module's keyspace past
// 2 GiB (about 10 s) and checks that calls still answer, with the
// addresses the exports returned past 2^31, and that the memory limit
// (api.MemoryLimit) keeps the Go program alive there.
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

const MiB = 1 << 20;
const GiB = 1 << 30;

test("past 2 GiB of memory every call still answers, at addresses past 2^31", async () => {
  require(path.join(staticDir, "wasm_exec.js"));
  const go = new globalThis.Go();
  go.env = { ECHOMQ_GLOBAL: "echomq_2g" };
  const { instance } = await WebAssembly.instantiate(readFileSync(path.join(staticDir, "echomq.wasm")), go.importObject);
  let exited = false;
  go.run(instance).then(() => { exited = true; });
  // publish() over the real exports, with each address they return noted
  // (as the unsigned number it stands for).
  const x = instance.exports;
  const addresses = [];
  const noted = (f) => (...a) => { const at = f(...a); addresses.push(at >>> 0); return at; };
  const exports = { ...x, echomq_buffer: noted(x.echomq_buffer), echomq_result: noted(x.echomq_result) };
  const api = require(path.join(staticDir, "worker.js")).publish(go, { exports });
  delete globalThis.echomq_2g;
  const memory = () => x.mem.buffer.byteLength;

  // 32 MiB strings made inside the engine, one per key, until the memory
  // is past 2 GiB and a good part of it is live. One script makes the
  // first; each other is a COPY of it that an APPEND makes a string of its
  // own. (A script's string.rep for every key, in a heap that big on a
  // machine with a load average of 22, ran into the page's 15 s last
  // resort at key 50.) Digits, so that their JSON is as long as they are.
  const started = Date.now();
  // (One byte short of 32 MiB, so that the APPEND stays within the
  // playground's 32 MiB string cap.)
  assert.deepEqual(api.exec(["EVAL", "redis.call('SET', KEYS[1], string.rep('7', 33554430)) return 1", "1", "fill:0"]), { type: "int", value: "1" });
  assert.deepEqual(api.exec(["APPEND", "fill:0", "0"]), { type: "int", value: String(32 * MiB - 1) });
  let keys = 1;
  for (; memory() < 2 * GiB + 256 * MiB || keys < 66; keys++) {
    assert.deepEqual(api.exec(["COPY", "fill:0", `fill:${keys}`]), { type: "int", value: "1" });
    const r = api.exec(["APPEND", `fill:${keys}`, String(keys % 10)]);
    assert.deepEqual(r, { type: "int", value: String(32 * MiB) }, `filling key ${keys} at ${memory() / MiB} MiB`);
    assert.ok(keys < 120, `the memory did not pass 2 GiB: ${memory() / MiB} MiB after ${keys} keys`);
  }
  assert.ok(memory() > 2 * GiB, `memory ${memory() / MiB} MiB`);
  console.log(`# ${keys} keys of 32 MiB, memory ${memory() / MiB} MiB, in ${Date.now() - started} ms`);

  addresses.length = 0;
  // A script that writes and answers: the call answers it, and its write is there.
  assert.deepEqual(api.exec(["EVAL", "redis.call('SET', KEYS[1], ARGV[1]) return redis.call('GET', KEYS[1])", "1", "past", "2GiB"]),
    { type: "bulk", value: "2GiB" });
  assert.deepEqual(api.exec(["GET", "past"]), { type: "bulk", value: "2GiB" });
  // Requests and results too large to reuse the module's small buffers
  // (it keeps at most 1 MiB), so each is made anew, high in memory.
  for (let i = 0; i < 4; i++) {
    const payload = `${i}`.repeat(2 * MiB);
    assert.equal(api.enqueue("q", `JOB-${i}`, payload).verdict, "enqueued");
    const got = api.claim("q", 1000);
    assert.equal(got.id, `JOB-${i}`);
    assert.ok(got.payload === payload, `the payload of JOB-${i} came back changed`);
  }
  assert.deepEqual(api.exec(["STRLEN", "fill:1"]), { type: "int", value: String(32 * MiB) });
  assert.equal(api.snapshot("q", 25).counts.active, 4);
  const high = addresses.filter((a) => a >= 2 ** 31);
  assert.ok(high.length > 0, `no buffer past 2^31 was handed out (highest ${Math.max(...addresses).toString(16)}): the test proves nothing`);

  // A result past the 256 MiB cap is refused in words, and the engine goes on.
  const all = api.exec(["MGET", ...Array.from({ length: 9 }, (_, i) => `fill:${i}`)]);
  assert.equal(all.error, "size", JSON.stringify(all).slice(0, 200));
  assert.match(all.message, /^The result is \d+ bytes of JSON, more than the 256 MiB the playground hands the page in one answer\. The command ran/);
  assert.deepEqual(api.exec(["PING"]), { type: "status", value: "PONG" });
  assert.equal(exited, false, "the Go program exited");
});
