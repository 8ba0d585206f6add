// Memory that levels off, under Node against the built module (as
// echomq.test.mjs loads it): a worker's round trips with the queue at 0 to
// 1 jobs, and keys made and deleted, must stop growing the module's linear
// memory, which WebAssembly never gives back. miniredis kept a version of
// every key ever written (even after FLUSHALL), and the engine a field
// order per hash: 500,000 round trips grew the memory by 46.9 MiB per
// 100,000. Run by `./build.sh test`; ECHOMQ_STATIC overrides the folder.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const staticDir = process.env.ECHOMQ_STATIC ?? path.join(here, "..", "static");
const require = createRequire(import.meta.url);
const MiB = 2 ** 20;

let memory; // bytes of the instance's linear memory

before(async () => {
  require(path.join(staticDir, "wasm_exec.js"));
  const go = new globalThis.Go();
  const { instance } = await WebAssembly.instantiate(
    readFileSync(path.join(staticDir, "echomq.wasm")), go.importObject);
  go.run(instance);
  require(path.join(staticDir, "worker.js")).publish(go, instance);
  memory = () => instance.exports.mem.buffer.byteLength;
  assert.ok(globalThis.echomq, "globalThis.echomq is set once the module has started");
});

// grownOver runs step n times, twice, and returns how much the second n
// grew the memory: the first n lets the collector find its level.
function grownOver(n, step) {
  for (let i = 0; i < n; i++) step(i);
  const half = memory();
  for (let i = n; i < 2 * n; i++) step(i);
  return memory() - half;
}

test("200,000 round trips at a depth of 0 to 1 jobs stop growing the memory", () => {
  echomq.reset();
  const grown = grownOver(100_000, (i) => {
    const id = `JOB-${i}`;
    assert.equal(echomq.enqueue("q", id, "payload").verdict, "enqueued");
    assert.equal(echomq.claim("q", 30000).id, id);
    // The worker's ack: the row goes, and the id leaves the active set.
    assert.deepEqual(echomq.exec(["DEL", `emq:{q}:job:${id}`]), { type: "int", value: "1" });
    assert.deepEqual(echomq.exec(["ZREM", "emq:{q}:active", id]), { type: "int", value: "1" });
  });
  console.log(`# round trips 100,000 to 200,000 grew the memory by ${(grown / MiB).toFixed(1)} MiB, to ${(memory() / MiB).toFixed(1)} MiB`);
  assert.ok(grown < 4 * MiB, `the second 100,000 round trips grew the memory by ${grown / MiB} MiB`);
});

test("keys made and deleted, and FLUSHALL, stop growing the memory", () => {
  echomq.reset();
  const grown = grownOver(200_000, (i) => {
    echomq.exec(["HSET", `h:${i}`, "state", "pending"]);
    echomq.exec(["SET", `s:${i}`, "v"]);
    echomq.exec(["DEL", `h:${i}`, `s:${i}`]);
    if (i % 50_000 === 49_999) {
      for (let j = 0; j < 10_000; j++) echomq.exec(["SET", `f:${i}:${j}`, "v"]);
      assert.deepEqual(echomq.exec(["FLUSHALL"]), { type: "status", value: "OK" });
    }
  });
  console.log(`# keys 200,000 to 400,000 made and deleted grew the memory by ${(grown / MiB).toFixed(1)} MiB, to ${(memory() / MiB).toFixed(1)} MiB`);
  assert.deepEqual(echomq.exec(["DBSIZE"]), { type: "int", value: "0" });
  assert.ok(grown < 4 * MiB, `the second 200,000 keys grew the memory by ${grown / MiB} MiB`);
});
