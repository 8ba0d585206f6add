// A RESP listener over the playground's WebAssembly module, under Node: a
// TCP server on a loopback port whose connections are clients of the
// module's engine, so that redis-cli, a client library or Redis's own test
// suite (internal/suite) talk to the module the site ships.
//
//   node wasm/listen.mjs [--addr 127.0.0.1:6381] [--wasm static/echomq.wasm]
//                        [--wasm-exec static/wasm_exec.js] [--stall SECONDS]
//
// It prints "listening on HOST:PORT" once it accepts connections (port 0
// picks a free one). It only moves bytes: each connection's bytes go into
// the module (echomq_wire, see wasm/wire_js.go), whatever the module writes
// back goes out, and every decision of the protocol is the module's
// (api.Module.Wire, wasm/wire).
//
// With --stall, it writes "stalled: ..." to stderr when a request has not
// finished for that many seconds: a command the module never returns from,
// which blocks Node's one thread and every connection with it. The line
// comes from a worker thread that watches the main one, since the main one
// is the thread that is stuck. (internal/suite reads it, as it reads the
// native listener's.)
import net from "node:net";
import { Worker } from "node:worker_threads";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const opts = { addr: "127.0.0.1:6381", wasm: path.join(here, "..", "static", "echomq.wasm"), "wasm-exec": null, stall: "0" };
for (let i = 2; i < process.argv.length; i += 2) {
  const name = process.argv[i].replace(/^--?/, "");
  if (!(name in opts) || i + 1 >= process.argv.length) {
    console.error(`listen.mjs: unknown or incomplete option ${process.argv[i]}`);
    process.exit(2);
  }
  opts[name] = process.argv[i + 1];
}
opts["wasm-exec"] ??= path.join(path.dirname(opts.wasm), "wasm_exec.js");
const [host, port] = [opts.addr.slice(0, opts.addr.lastIndexOf(":")), Number(opts.addr.slice(opts.addr.lastIndexOf(":") + 1))];
if (!["127.0.0.1", "::1", "localhost"].includes(host)) {
  console.error(`listen.mjs: ${opts.addr} is not a loopback address`);
  process.exit(2);
}

createRequire(import.meta.url)(opts["wasm-exec"]);
const go = new globalThis.Go();
// The engine's work budget, when the caller sets one (internal/suite does:
// its runaway tests would otherwise take the real budget's minutes).
if (process.env.ECHOMQ_WORK_BUDGET) go.env = { ...go.env, ECHOMQ_WORK_BUDGET: process.env.ECHOMQ_WORK_BUDGET };
const { instance } = await WebAssembly.instantiate(readFileSync(opts.wasm), go.importObject);
go.run(instance).then(() => {
  console.error("listen.mjs: the Go program exited");
  process.exit(1);
});
const x = instance.exports;
if (typeof x.echomq_wire !== "function") {
  console.error(`listen.mjs: ${opts.wasm} has no echomq_wire export: build it with -tags wire (./build.sh test builds one in .cache/wire)`);
  process.exit(1);
}

const REFUSED = -(2 ** 31);

// busy[0] is 1 while a request runs; busy[1] counts the requests run.
const busy = new Int32Array(new SharedArrayBuffer(8));
if (Number(opts.stall) > 0) {
  const watcher = new Worker(`
    const { workerData: { busy, stall } } = require("node:worker_threads");
    const fs = require("node:fs");
    let last = -1, since = Date.now(), said = false;
    for (;;) {
      Atomics.wait(busy, 0, 2, stall * 100); // a sleep of a tenth of the bound
      const done = Atomics.load(busy, 1);
      if (done !== last || Atomics.load(busy, 0) === 0) {
        last = done; since = Date.now(); said = false;
      } else if (!said && Date.now() - since >= stall * 1000) {
        fs.writeSync(2, "stalled: no request finished for " + stall + "s\\n");
        said = true;
      }
    }`, { eval: true, workerData: { busy, stall: Number(opts.stall) } });
  watcher.unref();
}

/** Feeds bytes from connection id to the module; returns [reply, close]. */
function feed(id, bytes) {
  Atomics.store(busy, 0, 1);
  try {
    return feedModule(id, bytes);
  } finally {
    Atomics.store(busy, 0, 0);
    Atomics.add(busy, 1, 1);
  }
}

function feedModule(id, bytes) {
  // The buffer first, then the view: making room may grow the memory,
  // which detaches every view taken before.
  // 0 is room refused (past the module's cap): the module then ends the
  // connection with Redis's protocol error, and nothing may be written.
  const at = x.echomq_buffer(bytes.length) >>> 0;
  if (at !== 0) new Uint8Array(x.mem.buffer, at, bytes.length).set(bytes);
  let n = x.echomq_wire(id, bytes.length);
  if (n === REFUSED) throw new Error("the module refused a call: one was unfinished");
  const close = n < 0;
  if (close) n = -n - 1;
  const from = x.echomq_result() >>> 0;
  const reply = Buffer.from(new Uint8Array(x.mem.buffer, from, n)); // a copy
  return [reply, close];
}

let next = 1;
const server = net.createServer((socket) => {
  const id = next++;
  let open = true;
  socket.on("data", (chunk) => {
    if (!open) return;
    const [reply, close] = feed(id, chunk);
    if (reply.length > 0) socket.write(reply);
    if (close) {
      open = false;
      socket.end();
    }
  });
  const gone = () => {
    if (open) x.echomq_wire_close(id);
    open = false;
  };
  socket.on("close", gone);
  socket.on("error", gone);
});
server.listen(port, host, () => {
  const a = server.address();
  console.log(`listening on ${a.family === "IPv6" ? `[${a.address}]` : a.address}:${a.port}`);
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(0));
