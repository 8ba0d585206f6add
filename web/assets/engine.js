// The page's end of the engine worker (web/assets/worker.js).
//
// startEngine starts the worker, forwards its download progress, and
// resolves with an Engine once globalThis.echomq is up inside it. Every
// call is a message; the worker answers in order, one call at a time, so a
// page never sees two calls interleave, just as clients of one Redis never
// see two commands interleave.

/**
 * @typedef {object} Engine
 * @property {string} version
 * @property {object[]} scripts       echomq.scripts(), as the worker sent it
 * @property {(method: string, args: unknown[]) => Promise<any>} call
 *   Never rejects: once the worker has failed, every call answers
 *   {error:"js", message}.
 */

/**
 * Starts the engine.
 *
 * @param {object} o
 * @param {string} [o.workerUrl]     worker.js, next to the page's assets
 * @param {string} [o.workerSource]  or its text (the offline lesson runs it from a blob)
 * @param {string} [o.wasmUrl]       echomq.wasm
 * @param {number} [o.wasmBytes]     its size, when the headers will not say
 * @param {string} [o.wasmExecUrl]   Go's wasm_exec.js, for the worker to import
 * @param {ArrayBuffer} [o.gzip]     or the module itself, gzip-compressed (offline)
 * @param {(loaded: number, total: number) => void} [o.onProgress]
 * @param {() => void} [o.onCompiling]
 * @param {(message: string) => void} o.onFailure  the engine died or could not start
 * @returns {Promise<Engine>}
 */
export function startEngine(o) {
  let worker;
  try {
    worker = o.workerSource
      ? new Worker(URL.createObjectURL(new Blob([o.workerSource], { type: "text/javascript" })))
      : new Worker(o.workerUrl);
  } catch (err) {
    return Promise.reject(new Error(`the engine's worker could not start: ${err && err.message ? err.message : err}`));
  }

  const pending = new Map();
  let nextId = 1;
  let dead = null;

  return new Promise((resolve, reject) => {
    let ready = false;

    /**
     * Ends the engine: every waiting call gets an error, and so does every
     * later one. Before it was ready, the start's promise carries the
     * reason; after, onFailure does.
     */
    function die(message) {
      if (dead) return;
      dead = message;
      for (const done of pending.values()) done({ error: "js", message });
      pending.clear();
      if (ready) o.onFailure(message);
      else reject(new Error(message));
    }

    worker.onerror = (event) => {
      event.preventDefault();
      die(`the engine's worker failed: ${event.message || "it could not load"}`);
    };
    worker.onmessageerror = () => die("the engine sent a message the page could not read");
    worker.onmessage = (event) => {
      const msg = event.data || {};
      switch (msg.type) {
        case "progress":
          if (o.onProgress) o.onProgress(msg.loaded, msg.total);
          break;
        case "compiling":
          if (o.onCompiling) o.onCompiling();
          break;
        case "ready":
          ready = true;
          resolve({
            version: msg.version,
            scripts: Array.isArray(msg.scripts) ? msg.scripts : [],
            call(method, args) {
              if (dead) return Promise.resolve({ error: "js", message: dead });
              const id = nextId++;
              return new Promise((done) => {
                pending.set(id, done);
                try {
                  worker.postMessage({ type: "call", id, method, args });
                } catch (err) {
                  // Arguments that cannot be cloned (a function, a DOM node):
                  // the caller's mistake, answered as the API answers one.
                  pending.delete(id);
                  done({ error: "args", message: `${method}: the arguments cannot be sent to the engine (${err && err.message ? err.message : err})` });
                }
              });
            },
          });
          break;
        case "reply": {
          const done = pending.get(msg.id);
          if (done) {
            pending.delete(msg.id);
            done(msg.result);
          }
          break;
        }
        case "failed":
          die(msg.message);
          break;
      }
    };
    const start = { type: "start", wasmUrl: o.wasmUrl, wasmBytes: o.wasmBytes, wasmExecUrl: o.wasmExecUrl, gzip: o.gzip };
    worker.postMessage(start, o.gzip ? [o.gzip] : []);
  });
}
