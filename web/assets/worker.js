// EchoMQ Playground: the engine's Web Worker (a classic worker script).
//
// The Go program runs here, not on the page's thread, so a script that
// loops for its whole 900 ms budget never freezes a click, a scroll or the
// other widgets: like a Redis server, the worker is busy and the clients
// (the page) wait for their replies.
//
// The page downloads and compiles the module itself (engine.js), where the
// download can start from the page's preload while the HTML is still
// parsed, and hands the compiled WebAssembly.Module over; this worker only
// instantiates and runs it. The messages (engine.js is the other end):
//
//   page → worker  {type:"init", wasmExecUrl}
//                    import Go's wasm_exec.js now, while the page compiles,
//                    unless it is already here (the offline lesson prepends it)
//                  {type:"start", module}
//                    run the compiled module
//                  {type:"call", id, method, args}
//                    one call of the JS API in wasm/echomq.d.ts
//   worker → page  {type:"ready", version, scripts}    globalThis.echomq is up
//                  {type:"reply", id, result}          one call's result
//                  {type:"failed", message}            it could not start, or Go exited
//
// Calls are answered in the order they came: the worker runs one at a time.

"use strict";

const READY_TIMEOUT_MS = 15000;

/** Posts a failure once; the page shows it and stops calling. */
let failedOnce = false;
function failed(message) {
  if (failedOnce) return;
  failedOnce = true;
  postMessage({ type: "failed", message });
}

/** Resolves once the Go program has published globalThis.echomq. */
function whenPublished(exit) {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    const check = () => {
      if (self.echomq) return resolve(self.echomq);
      if (exit.settled) return reject(new Error("it stopped before it was ready"));
      if (Date.now() > deadline) return reject(new Error(`echomq did not appear within ${READY_TIMEOUT_MS / 1000} s`));
      setTimeout(check, 5);
    };
    check();
  });
}

async function start(msg) {
  if (typeof WebAssembly !== "object") {
    throw new Error("WebAssembly is turned off or missing in this browser.");
  }
  if (!(msg.module instanceof WebAssembly.Module)) {
    throw new Error("the page sent no compiled module");
  }
  if (typeof self.Go !== "function") throw new Error(`Go's wasm_exec.js did not load${initProblem ? ` (${initProblem})` : ""}.`);
  const go = new self.Go();
  const exit = { settled: false, code: undefined };
  const goExit = go.exit;
  go.exit = (code) => {
    exit.code = code;
    goExit.call(go, code);
  };
  const instance = await WebAssembly.instantiate(msg.module, go.importObject);
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
  const echomq = await whenPublished(exit);
  postMessage({ type: "ready", version: String(echomq.version ?? "unknown"), scripts: echomq.scripts() });
}

/**
 * Runs one call. The API itself never throws; a Go program that has exited
 * does, and that is a failure of the whole engine.
 */
function call(msg) {
  const echomq = self.echomq;
  let result;
  if (!echomq || failedOnce) {
    result = { error: "js", message: "the engine is not running" };
  } else if (typeof echomq[msg.method] !== "function") {
    result = { error: "args", message: `echomq has no method ${JSON.stringify(String(msg.method))}` };
  } else {
    try {
      result = echomq[msg.method](...(Array.isArray(msg.args) ? msg.args : []));
    } catch (err) {
      const text = String(err && err.message ? err.message : err);
      failed(`The playground stopped answering (${text}). Reload to start again.`);
      result = { error: "js", message: text };
    }
  }
  postMessage({ type: "reply", id: msg.id, result });
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

self.onmessage = (event) => {
  const msg = event.data || {};
  if (msg.type === "call") return call(msg);
  if (msg.type === "init") return init(msg);
  if (msg.type === "start") {
    // The page words it: "The playground could not start: <this>".
    start(msg).catch((err) => failed(String(err && err.message ? err.message : err)));
  }
};
