// wasm/listen.mjs, the RESP listener over the built module (the one the
// suite measures, internal/suite): a client's bytes in, Redis's out, over
// TCP. Run by `./build.sh test` after the build, on the module built with
// the listener's exports (-tags wire, see wasm/wire_js.go) that
// ECHOMQ_WIRE_WASM names, beside its wasm_exec.js.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import net from "node:net";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const module = process.env.ECHOMQ_WIRE_WASM ?? path.join(here, "..", ".cache", "wire", "echomq.wasm");
let child;
let port;

before(async () => {
  child = spawn(process.execPath, [path.join(here, "listen.mjs"), "--addr", "127.0.0.1:0",
    "--wasm", module, "--wasm-exec", path.join(path.dirname(module), "wasm_exec.js"), "--stall", "5"], { stdio: ["ignore", "pipe", "inherit"] });
  port = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/listening on 127\.0\.0\.1:(\d+)/);
      if (m) resolve(Number(m[1]));
    });
    child.on("exit", (code) => reject(new Error(`listen.mjs exited with ${code} before it listened`)));
  });
});

after(() => child.kill());

/** Sends bytes on a new connection; resolves with what came back once the server is quiet, and whether it hung up. */
function exchange(bytes, quiet = 300) {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    const got = [];
    let timer;
    const done = (closed) => { clearTimeout(timer); s.destroy(); resolve([Buffer.concat(got).toString("latin1"), closed]); };
    const wait = () => { clearTimeout(timer); timer = setTimeout(() => done(false), quiet); };
    s.on("data", (d) => { got.push(d); wait(); });
    s.on("end", () => done(true));
    s.on("connect", () => { s.write(bytes); timer = setTimeout(() => done(false), 5000); });
  });
}

test("requests of both kinds, pipelined, get Redis's replies", async () => {
  const [out, closed] = await exchange("SET k v\r\n*2\r\n$3\r\nGET\r\n$1\r\nk\r\nGET nothing\r\nEVAL \"return redis.call('incr', KEYS[1])\" 1 n\r\n");
  assert.equal(out, "+OK\r\n$1\r\nv\r\n$-1\r\n:1\r\n");
  assert.equal(closed, false);
});

test("bytes that are not NUL-safe text travel as they are", async () => {
  const value = Buffer.from([0, 255, 13, 10, 128]);
  const req = Buffer.concat([Buffer.from("*3\r\n$3\r\nSET\r\n$1\r\nb\r\n$5\r\n"), value, Buffer.from("\r\n*2\r\n$3\r\nGET\r\n$1\r\nb\r\n")]);
  const [out] = await exchange(req);
  assert.equal(out, "+OK\r\n$5\r\n" + value.toString("latin1") + "\r\n");
});

test("RESP3 after HELLO 3 writes its own null", async () => {
  const [out] = await exchange("HELLO 3\r\nGET nothing\r\n");
  assert.match(out, /^%7\r\n/);
  assert.ok(out.endsWith("_\r\n"), out);
});

test("QUIT and a protocol error answer, then hang up", async () => {
  assert.deepEqual(await exchange("QUIT\r\nPING\r\n"), ["+OK\r\n", true]);
  assert.deepEqual(await exchange("*x\r\n"), ["-ERR Protocol error: invalid multibulk length\r\n", true]);
});
