// EchoMQ Playground: the engine's Web Worker (a classic worker script).
//
// The Go program runs here, not on the page's thread, so a script that
// loops for its whole 900 ms budget never freezes a click, a scroll or the
// other widgets: like a Redis server, the worker is busy and the clients
// (the page) wait for their replies.
//
// The page talks to it in messages (web/assets/engine.js is the other end):
//
//   page → worker  {type:"start", wasmUrl, wasmBytes, wasmExecUrl}
//                    fetch the module (counting bytes) and start it; or
//                  {type:"start", gzip: ArrayBuffer}
//                    the module inlined, gzip-compressed (the offline lesson)
//                  {type:"call", id, method, args}
//                    one call of the JS API in wasm/echomq.d.ts
//   worker → page  {type:"progress", loaded, total}   while downloading
//                  {type:"compiling"}                  the last byte arrived
//                  {type:"ready", version, scripts}    globalThis.echomq is up
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

/** The byte count the body will yield, or 0 when the headers cannot say. */
function expectedBytes(response, hint) {
  const encoding = (response.headers.get("Content-Encoding") || "identity").trim().toLowerCase();
  const length = Number(response.headers.get("Content-Length"));
  if (encoding === "identity" && Number.isSafeInteger(length) && length > 0) return length;
  return Number.isSafeInteger(hint) && hint > 0 ? hint : 0;
}

/** Passes a stream through, posting its progress at most every 50 ms. */
function counted(body, total) {
  let loaded = 0;
  let known = total;
  let last = 0;
  return body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        loaded += chunk.byteLength;
        if (known > 0 && loaded > known) known = 0; // the hint was wrong: stop pretending
        const now = Date.now();
        if (now - last >= 50) {
          last = now;
          postMessage({ type: "progress", loaded, total: known });
        }
        controller.enqueue(chunk);
      },
      flush() {
        postMessage({ type: "progress", loaded, total: loaded });
        postMessage({ type: "compiling" });
      },
    }),
  );
}

/** Reads a stream to its end and drops the bytes: the count is the point. */
async function drain(stream) {
  const reader = stream.getReader();
  while (!(await reader.read()).done);
}

/** Fetches url; a network error names the file, since "Failed to fetch" alone says nothing. */
async function fetchOk(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (err) {
    throw new Error(`${url} could not be downloaded (${err && err.message ? err.message : err})`);
  }
  if (!response.ok) throw new Error(`${url}: the server answered ${response.status} ${response.statusText}`.trim());
  return response;
}

/**
 * Downloads and compiles the module while its bytes arrive. When the server
 * labels it application/wasm, the response itself goes to the compiler (a
 * response that keeps its URL lets the browser cache the compiled code) and
 * a clone is counted; otherwise the counted stream is handed over, typed.
 * Without streaming support it compiles the downloaded bytes.
 */
async function instantiateUrl(url, hint, imports) {
  const response = await fetchOk(url);
  const total = expectedBytes(response, hint);
  postMessage({ type: "progress", loaded: 0, total });
  if (!response.body || typeof WebAssembly.instantiateStreaming !== "function") {
    const bytes = response.body ? await new Response(counted(response.body, total)).arrayBuffer() : await response.arrayBuffer();
    return WebAssembly.instantiate(bytes, imports);
  }
  const type = (response.headers.get("Content-Type") || "").split(";")[0].trim().toLowerCase();
  if (type === "application/wasm") {
    const copy = response.clone();
    const counting = drain(counted(copy.body, total)).catch(() => {}); // the compiler reports a broken download
    const result = await WebAssembly.instantiateStreaming(response, imports);
    await counting;
    return result;
  }
  const typed = new Response(counted(response.body, total), { headers: { "Content-Type": "application/wasm" } });
  return WebAssembly.instantiateStreaming(typed, imports);
}

/** Inflates the gzip-compressed module of the offline lesson and compiles it. */
async function instantiateGzip(gzip, imports) {
  if (typeof DecompressionStream !== "function") {
    throw new Error("this browser cannot decompress the inlined engine (no DecompressionStream)");
  }
  postMessage({ type: "compiling" });
  const stream = new Blob([gzip]).stream().pipeThrough(new DecompressionStream("gzip"));
  const bytes = await new Response(stream).arrayBuffer();
  return WebAssembly.instantiate(bytes, imports);
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
  if (typeof self.Go !== "function") {
    if (!msg.wasmExecUrl) throw new Error("Go's wasm_exec.js is missing.");
    importScripts(msg.wasmExecUrl);
  }
  const go = new self.Go();
  const exit = { settled: false, code: undefined };
  const goExit = go.exit;
  go.exit = (code) => {
    exit.code = code;
    goExit.call(go, code);
  };
  const { instance } = msg.gzip
    ? await instantiateGzip(msg.gzip, go.importObject)
    : await instantiateUrl(msg.wasmUrl, msg.wasmBytes, go.importObject);
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

self.onmessage = (event) => {
  const msg = event.data || {};
  if (msg.type === "call") return call(msg);
  if (msg.type === "start") {
    // The page words it: "The playground could not start: <this>".
    start(msg).catch((err) => failed(String(err && err.message ? err.message : err)));
  }
};
