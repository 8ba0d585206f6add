// EchoMQ Playground: the engine's worker. A module here, bundled into one
// classic worker script (web/bundle) with its parts: worker-bridge.js
// (globalThis.echomq over the module's exports, which Node's tests load
// alone as static/worker.js), worker-download.js and worker-warm.js.
//
// The Go program runs here, not on the page's thread, so a script that
// loops for its whole budget never freezes a click, a scroll or the
// other widgets: like a Redis server, the worker is busy and the clients
// (the pages) wait for their replies.
//
// It runs two ways:
//
// - As a dedicated Worker of one page (the full page, an embed alone). The
//   page's "load" makes it download, compile and run the module, from the
//   cacheable response itself (compileStreaming). The offline lesson
//   compiles its inlined module on the page and hands it over with
//   "start" (a blob worker has nothing to fetch from).
// - As a SharedWorker of every embed on one course page (engine.js names it
//   after the course page), or as the course page's own dedicated worker
//   where SharedWorker is missing (embed.js starts it and hands each embed
//   a MessagePort to it, "connect"): the first embed's "load" makes it
//   download and compile the module once, for every embed; each embed
//   calls in a keyspace of its own (echomq.call), or in one its author
//   named for several.
//
// The messages (engine.js is the other end):
//
//   page → worker  {type:"init", wasmExecUrl}
//                    import Go's wasm_exec.js now, while the page compiles,
//                    unless it is already here (the offline lesson prepends it)
//                  {type:"start", module, workBudget?}
//                    run the compiled module
//                  {type:"load", wasmUrl, wasmExecUrl, wasmBytes, workBudget?}
//                    download, compile and run the module, unless that has
//                    started already (shared); workBudget (the page's
//                    ?budget option) is the engine's ECHOMQ_WORK_BUDGET
//                  {type:"call", id, method, args, keyspace?}
//                    one call of the JS API in wasm/echomq.d.ts
//                  {type:"close"}
//                    the page is going: drop the keyspaces only it used
//                  {type:"connect"} with a MessagePort
//                    from the course page that owns this worker (embed.js):
//                    one more embed, talking on that port
//                  {type:"ping"}
//                    are you there? (answered in turn, after the calls before it)
//   worker → page  {type:"progress", loaded, total}  the download, for "load"
//                  {type:"compiling"}
//                  {type:"ready", version, scripts, module?}
//                                                      globalThis.echomq is up; a page's own
//                                                      worker hands back the compiled module,
//                                                      which a restart after Stop runs at once
//                  {type:"reply", id, result}          one call's result
//                  {type:"changed", keyspace}          another page changed a keyspace this one uses
//                  {type:"pong"}                       the answer to a ping
//                  {type:"busy"}                       a call that may run a learner's script
//                                                      for minutes starts now (MAY_RUN_LONG)
//                  {type:"failed", message}            it could not start (echomq.failed says
//                                                      why the engine refused), or Go exited
//
// Calls are answered in the order they came: the worker runs one at a time,
// whichever page sent them. A runaway script in one embed therefore delays
// the others' calls by at most its budget: its work budget (engine.
// WorkBudget, what a real Redis does in 5 s: tens of seconds to a few
// minutes of the engine's time in a browser), and never more than the
// engine's last resort (engine.LastResort, 10 minutes). A page with a
// worker of its own can stop it sooner: its Stop terminates this worker
// and starts another (engine.js, stop.js).

import { publish } from "./worker-bridge.js";
import { count, countedStream } from "./worker-download.js";
import { warmCodeCache } from "./worker-warm.js";

/**
 * Calls that can run a learner's own script, for as long as its work
 * budget lets it (minutes in a browser). Before one runs, every page hears
 * "busy", so that its heartbeat waits out the engine's last resort rather
 * than calling a silent worker dead (engine.js). The lesson's own calls
 * end in milliseconds and send nothing.
 */
const MAY_RUN_LONG = new Set(["exec", "cli", "trace", "replay"]);

/** Calls that only read, which tell no other page anything. */
const READS = new Set(["scripts", "snapshot", "now", "review"]);

/**
 * The pages talking to this worker: {port, keyspaces}. A dedicated worker
 * has one, itself.
 */
const clients = new Set();

/** "idle", "loading", "ready" or "failed", and what the late-comers need. */
let state = "idle";
let readyMessage = null;
let failure = null;
/** The page's ?budget option, the engine's ECHOMQ_WORK_BUDGET ("" for the engine's own). */
let workBudget = "";
/** Whether this is a page's own dedicated worker, which hands its module back to the page. */
let own = false;
/** When "load" began to fetch the module and had compiled it, epoch ms, for the pages' marks. */
const timing = {};
/** When a page last called, performance.now(): the code cache's warm-up waits for quiet (worker-warm.js). */
let lastCall = 0;

function broadcast(msg) {
  for (const c of clients) c.port.postMessage(msg);
}

/** Posts a failure once, to every page; later pages hear it as they come. */
function failed(message) {
  if (state === "failed") return;
  state = "failed";
  failure = { type: "failed", message };
  broadcast(failure);
}

/** Runs a compiled module and announces it to every page once it is up. */
async function run(module) {
  if (typeof WebAssembly !== "object") {
    throw new Error("WebAssembly is turned off or missing in this browser.");
  }
  if (!(module instanceof WebAssembly.Module)) {
    throw new Error("the page sent no compiled module");
  }
  if (typeof self.Go !== "function") throw new Error(`Go's wasm_exec.js did not load${initProblem ? ` (${initProblem})` : ""}.`);
  const go = new self.Go();
  if (workBudget !== "") go.env = { ...go.env, ECHOMQ_WORK_BUDGET: workBudget };
  const exit = { settled: false, code: undefined };
  const goExit = go.exit;
  go.exit = (code) => {
    exit.code = code;
    goExit.call(go, code);
  };
  const instance = await WebAssembly.instantiate(module, go.importObject);
  go.run(instance).then(
    () => {
      exit.settled = true;
      const code = exit.code === undefined ? "" : ` with code ${exit.code}`;
      failed(`The playground stopped: the Go program exited${code}. Reload to start again.`);
    },
    (err) => {
      exit.settled = true;
      failed(`The playground crashed: ${err && err.message ? err.message : err}. Reload to start again.`);
    },
  );
  // main has run (up to its select{}) by the time go.run returns: the
  // exports are ready unless the program has already stopped.
  if (exit.settled || go.exited) throw new Error("it stopped before it was ready");
  const echomq = publish(go, instance);
  // An engine whose Lua 5.1 hook did not install publishes only why
  // (api.Start); it never serves scripts without their limits.
  if (typeof echomq.failed === "string") throw new Error(echomq.failed);
  state = "ready";
  readyMessage = { type: "ready", version: String(echomq.version ?? "unknown"), scripts: echomq.scripts(), timing };
  // The module goes to the page that owns this worker alone: a port to
  // another frame (embed.js) may be in another agent cluster, which cannot
  // receive one.
  for (const c of clients) c.port.postMessage(own && c.port === self ? { ...readyMessage, module } : readyMessage);
}

/**
 * Runs one call. The API itself never throws; a Go program that has exited
 * does, and that is a failure of the whole engine.
 */
function call(client, msg) {
  lastCall = performance.now();
  const echomq = self.echomq;
  const keyspace = typeof msg.keyspace === "string" && msg.keyspace !== "" ? msg.keyspace : null;
  const args = Array.isArray(msg.args) ? msg.args : [];
  let result;
  if (!echomq || state === "failed") {
    result = { error: "js", message: "the engine is not running" };
  } else if (typeof echomq[msg.method] !== "function" || msg.method === "call" || msg.method === "drop") {
    result = { error: "args", message: `echomq has no method ${JSON.stringify(String(msg.method))}` };
  } else {
    if (MAY_RUN_LONG.has(msg.method)) broadcast({ type: "busy" });
    try {
      result = keyspace === null ? echomq[msg.method](...args) : echomq.call(keyspace, msg.method, args);
    } catch (err) {
      const text = String(err && err.message ? err.message : err);
      failed(`The playground stopped answering (${text}). Reload to start again.`);
      result = { error: "js", message: text };
    }
  }
  client.port.postMessage({ type: "reply", id: msg.id, result });
  if (keyspace === null) return;
  client.keyspaces.add(keyspace);
  if (READS.has(msg.method)) return;
  for (const other of clients) {
    if (other !== client && other.keyspaces.has(keyspace)) other.port.postMessage({ type: "changed", keyspace });
  }
}

/** Why wasm_exec.js could not be imported, for the start's error. */
let initProblem = "";

/** Imports Go's runtime support, unless the worker's own text carried it. */
function init(msg) {
  if (typeof self.Go === "function" || !msg.wasmExecUrl) return;
  try {
    importScripts(msg.wasmExecUrl);
  } catch (err) {
    initProblem = `${msg.wasmExecUrl}: ${err && err.message ? err.message : err}`;
  }
}

/** The page words a failure to start: "The playground could not start: <this>". */
function startFailed(err) {
  failed(String(err && err.message ? err.message : err));
}

// ---- a shared worker downloads and compiles the module itself ----------------

/** Downloads and compiles the module, telling every page how far it got. */
async function load(msg) {
  init(msg);
  const epoch = () => performance.timeOrigin + performance.now();
  timing.fetch = epoch();
  let response;
  try {
    response = await fetch(msg.wasmUrl);
  } catch (err) {
    throw new Error(`${msg.wasmUrl} could not be downloaded (${err && err.message ? err.message : err})`);
  }
  if (!response.ok) throw new Error(`${msg.wasmUrl}: the server answered ${response.status} ${response.statusText}`.trim());
  const encoding = (response.headers.get("Content-Encoding") || "identity").trim().toLowerCase();
  const length = Number(response.headers.get("Content-Length"));
  const hint = Number(msg.wasmBytes);
  const total = encoding === "identity" && length > 0 ? length : hint > 0 ? hint : 0;
  broadcast({ type: "progress", loaded: 0, total });
  // A host that does not compress sends the module whole, five times its
  // brotli size: say so to the author (hosting.js), from the headers when
  // they tell, else from the bytes on the wire once it has arrived.
  const plain = encoding === "identity" && length > 0 && hint > 0 && length >= 0.9 * hint;
  if (plain) broadcast({ type: "uncompressed", url: msg.wasmUrl, bytes: length });
  const type = (response.headers.get("Content-Type") || "").split(";")[0].trim().toLowerCase();
  let module;
  if (response.body && typeof WebAssembly.compileStreaming === "function" && type === "application/wasm") {
    // The response itself goes to the compiler, so the browser can cache
    // the compiled code for the next visit; a clone is counted.
    const counting = count(response.clone().body, total, broadcast).catch(() => {});
    module = await WebAssembly.compileStreaming(response);
    await counting;
  } else {
    const bytes = response.body ? await new Response(countedStream(response.body, total, broadcast)).arrayBuffer() : await response.arrayBuffer();
    module = await WebAssembly.compile(bytes);
  }
  timing.compiled = epoch();
  const wire = encoding === "identity" && !plain ? performance.getEntriesByName(response.url)[0] : null;
  if (wire && wire.encodedBodySize > 1e6 && wire.encodedBodySize >= 0.9 * wire.decodedBodySize) {
    broadcast({ type: "uncompressed", url: msg.wasmUrl, bytes: wire.encodedBodySize });
  }
  await run(module);
  const cached = performance.getEntriesByName(response.url).some((e) => e.transferSize === 0 && e.decodedBodySize > 0);
  if (!cached) warmCodeCache(self.echomq, () => state === "ready", () => lastCall);
}

// ---- the pages ----------------------------------------------------------------

function receive(client, event) {
  const msg = event.data || {};
  switch (msg.type) {
    case "call":
      return call(client, msg);
    case "ping":
      return client.port.postMessage({ type: "pong" });
    case "init":
      return init(msg);
    case "start":
      if (state !== "idle") return;
      takeBudget(msg);
      state = "loading";
      run(msg.module).catch(startFailed);
      return;
    case "load":
      if (state === "ready") return client.port.postMessage(readyMessage);
      if (state === "failed") return client.port.postMessage(failure);
      if (state === "loading") return;
      state = "loading";
      takeBudget(msg);
      load(msg).catch(startFailed);
      return;
    case "connect": {
      // The course page that owns this worker (embed.js, where
      // SharedWorker is missing) hands over a port for one more embed.
      const port = event.ports && event.ports[0];
      if (port) {
        connect(port);
        port.start();
      }
      return;
    }
    case "close":
      clients.delete(client);
      for (const keyspace of client.keyspaces) {
        if (![...clients].some((c) => c.keyspaces.has(keyspace)) && self.echomq) self.echomq.drop(keyspace);
      }
  }
}

/** Keeps the first start's ?budget, a whole number of units, for go.env. */
function takeBudget(msg) {
  if (/^[1-9][0-9]{0,18}$/.test(String(msg.workBudget ?? ""))) workBudget = String(msg.workBudget);
}

function connect(port) {
  const client = { port, keyspaces: new Set() };
  clients.add(client);
  port.onmessage = (event) => receive(client, event);
  return client;
}

if (typeof self.SharedWorkerGlobalScope === "function" && self instanceof self.SharedWorkerGlobalScope) {
  self.onconnect = (event) => {
    const port = event.ports[0];
    connect(port);
    port.start();
  };
} else {
  own = true;
  connect(self);
}
