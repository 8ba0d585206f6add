// The page's end of the engine: it compiles the Go program and runs it in
// a Web Worker (web/assets/worker.js). Embeds of one course page share one
// SharedWorker instead, which downloads and compiles the program once for
// all of them (startShared, below).
//
// The worker downloads, compiles (compileStreaming of the cacheable
// response itself, which is what lets V8 keep the compiled code for a
// later visit: README) and runs the module, telling the page how far the
// download got for the progress bar, in a dedicated worker as in a shared
// one. The page calls startEngine once it has painted (app.js), so the
// download never competes with the page's own files. Only the offline
// lesson compiles on the page, from the module inside it, and hands it to
// its worker.
//
// Every call is a message; the worker answers in order, one call at a
// time, so a page never sees two calls interleave, just as clients of one
// Redis never see two commands interleave.

/**
 * @typedef {object} Engine
 * @property {string} version
 * @property {object[]} scripts       echomq.scripts(), as the worker sent it
 * @property {"shared"|"hosted"|"dedicated"} worker  which kind of worker runs it:
 *   a SharedWorker, the course page's own worker (embed.js), or this page's
 * @property {(method: string, args: unknown[]) => Promise<any>} call
 *   Never rejects: once the worker has failed, every call answers
 *   {error:"js", message}.
 * @property {(answer: object) => Promise<boolean>} [stop]
 *   Only for a worker of the page's own (startOwn): ends whatever it runs,
 *   answering the waiting calls with answer, and resolves once a fresh
 *   engine, with an empty keyspace, answers (false: it could not start).
 */

/**
 * Starts the engine.
 *
 * @param {object} o
 * @param {string} [o.workerUrl]     worker.js, next to the page's assets
 * @param {string} [o.workerSource]  or its text (the offline lesson runs it from a blob)
 * @param {string} [o.wasmUrl]       echomq.wasm
 * @param {number} [o.wasmBytes]     its size, when the headers will not say
 * @param {string} [o.workBudget]    the engine's work budget (the page's ?budget), or undefined for its own
 * @param {string} [o.wasmExecUrl]   Go's wasm_exec.js, for the worker to import
 * @param {ArrayBuffer} [o.gzip]     or the module itself, gzip-compressed (offline)
 * @param {string} [o.shared]        the name of a SharedWorker to share with the
 *                                   other embeds of one course page, when the browser has one
 * @param {MessagePort} [o.port]     or a port to the course page's engine worker (embed.js)
 * @param {string} [o.keyspace]      the keyspace this page calls in ("" for the engine's first)
 * @param {(keyspace: string) => void} [o.onChanged]  another page changed the keyspace
 * @param {(loaded: number, total: number) => void} [o.onProgress]
 * @param {() => void} [o.onCompiling]
 * @param {(info: {url: string, bytes: number}) => void} [o.onUncompressed]  the host sent the module uncompressed
 * @param {(message: string) => void} o.onFailure  the engine died after it was ready
 * @returns {Promise<Engine>}
 */
export async function startEngine(o) {
  if (o.port) return startHosted(o.port, o);
  if (o.shared && o.workerUrl && typeof SharedWorker === "function") {
    let shared = null;
    try {
      shared = new SharedWorker(o.workerUrl, { name: o.shared });
    } catch {
      shared = null; // a browser that refuses it here: a dedicated worker does the job
    }
    if (shared) return startShared(shared, o);
  }
  return startOwn(o);
}

/**
 * Starts a worker of the page's own and returns {engine, worker}. With a
 * module (a restart after Stop: the one the first worker compiled and
 * handed back), the new worker runs it at once; without one it downloads
 * and compiles it, or the page compiles the offline lesson's.
 */
async function launch(o, module) {
  let worker;
  try {
    worker = o.workerSource
      ? new Worker(URL.createObjectURL(new Blob([o.workerSource], { type: "text/javascript" })))
      : new Worker(o.workerUrl);
  } catch (err) {
    throw new Error(`the engine's worker could not start: ${err && err.message ? err.message : err}`);
  }
  worker.postMessage({ type: "init", wasmExecUrl: o.wasmExecUrl });
  const running = connect(worker, worker, o, "dedicated").then((engine) => ({ engine, worker }));
  if (module) {
    worker.postMessage({ type: "start", module, workBudget: o.workBudget });
    return running;
  }
  if (!o.gzip) {
    // The worker downloads, compiles and runs the module itself, as a
    // shared worker does: one path, and the page's thread stays free.
    worker.postMessage({ type: "load", wasmUrl: o.wasmUrl, wasmBytes: o.wasmBytes, workBudget: o.workBudget });
    return running;
  }
  running.catch(() => {}); // awaited below, after the compile; not an unhandled rejection meanwhile
  try {
    module = await compileGzip(o.gzip, o.onCompiling);
  } catch (err) {
    worker.terminate();
    throw err;
  }
  performance.mark("echomq:compiled");
  worker.postMessage({ type: "start", module, workBudget: o.workBudget });
  return running;
}

/**
 * The engine of a page with a worker of its own, which the page can stop
 * (stop.js's Stop): stop(answer) terminates the worker, whatever it is
 * running, answers every call still waiting with answer, and starts a
 * fresh worker on the same compiled module, with an empty keyspace (the
 * page rebuilds it: app.js's ctx.stop). Calls made meanwhile wait for the
 * fresh worker. A worker is the only thing that can end a call that is
 * running: the engine's thread hears no message until the call returns.
 * A SharedWorker cannot be terminated by one of its pages, so embeds that
 * share one engine have no stop (and their engine no stop method).
 */
async function startOwn(o) {
  let current = await launch(o, null);
  let now = Promise.resolve(current);
  const module = current.engine.module;
  return {
    version: current.engine.version,
    scripts: current.engine.scripts,
    worker: "dedicated",
    call: async (method, args) => (await now).engine.call(method, args),
    stop(answer) {
      current.worker.terminate();
      current.engine.end(answer);
      now = launch({ ...o, onProgress: undefined, onCompiling: undefined, onUncompressed: undefined }, module instanceof WebAssembly.Module ? module : null);
      return now.then(
        (fresh) => {
          current = fresh;
          return true;
        },
        (err) => {
          o.onFailure(`The playground could not restart its engine after Stop (${err && err.message ? err.message : err}). Reload to start again.`);
          return false;
        },
      );
    },
  };
}

/**
 * Joins the course page's shared worker, which downloads and compiles the
 * module once for every embed (worker.js); the first embed's "load" starts
 * it and later ones find it loading or ready.
 */
function startShared(shared, o) {
  const port = shared.port;
  const running = connect(port, shared, o, "shared");
  port.start();
  port.postMessage({ type: "load", wasmUrl: o.wasmUrl, wasmExecUrl: o.wasmExecUrl, wasmBytes: o.wasmBytes, workBudget: o.workBudget });
  // The page is going: its keyspaces can go too, unless another page uses them.
  // (A page kept for the back button keeps its keyspaces.)
  addEventListener("pagehide", (event) => {
    if (!event.persisted) port.postMessage({ type: "close" });
  });
  return running;
}

/**
 * Joins the engine worker the course page owns where SharedWorker is
 * missing (embed.js), on the port it handed this embed: the same
 * conversation as with a shared worker's port.
 */
function startHosted(port, o) {
  const running = connect(port, port, o, "hosted");
  port.start();
  port.postMessage({ type: "load", wasmUrl: o.wasmUrl, wasmExecUrl: o.wasmExecUrl, wasmBytes: o.wasmBytes, workBudget: o.workBudget });
  addEventListener("pagehide", (event) => {
    if (!event.persisted) port.postMessage({ type: "close" });
  });
  return running;
}

/**
 * How the page tells a worker that died from one that is busy. A worker
 * the browser kills, or one that closes, sends nothing, and neither a
 * SharedWorker nor its port reports it (Chromium fires no event), so the
 * page asks: every HEARTBEAT_MS it sends a ping, which the worker answers
 * in turn, after the calls before it. The lesson's calls end in
 * milliseconds, so a worker that has sent nothing at all for SILENCE_MS
 * while a ping waits has stopped. A call that may run a learner's script
 * (worker.js's MAY_RUN_LONG) can hold the worker for its whole work budget,
 * minutes in a browser, and never longer than the engine's last resort
 * (engine.LastResort in wasm/engine, 10 minutes): the worker says "busy"
 * as one starts, and after that the page waits BUSY_SILENCE_MS, which a
 * later "busy" (the next runaway in line) starts again.
 */
const HEARTBEAT_MS = 2000;
const SILENCE_MS = 32000;
const BUSY_SILENCE_MS = 11 * 60 * 1000;

/**
 * Wires the worker's messages (port: the Worker, or a SharedWorker's
 * port; errors: where its load errors arrive): resolves with the Engine
 * once the worker says it is ready, and rejects if it fails before.
 */
function connect(port, errors, o, kind) {
  const pending = new Map();
  let nextId = 1;
  let dead = null;
  const keyspace = o.keyspace || "";

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

    /**
     * Ends this connection without calling it a failure (a Stop terminated
     * the worker): every waiting call gets answer, and so does every later one.
     */
    function end(answer) {
      if (dead) return;
      dead = "stopped";
      clearInterval(heartbeat);
      for (const done of pending.values()) done(answer);
      pending.clear();
    }

    function call(method, args) {
      if (dead === "stopped") return Promise.resolve({ error: "js", message: "the engine is restarting" });
      if (dead) return Promise.resolve({ error: "js", message: dead });
      const id = nextId++;
      return new Promise((done) => {
        pending.set(id, done);
        try {
          port.postMessage({ type: "call", id, method, args, keyspace });
        } catch (err) {
          // Arguments that cannot be cloned (a function, a DOM node): the
          // caller's mistake, answered as the API answers one.
          pending.delete(id);
          done({ error: "args", message: `${method}: the arguments cannot be sent to the engine (${err && err.message ? err.message : err})` });
        }
      });
    }

    // The heartbeat (see HEARTBEAT_MS): lastHeard is when the worker last
    // sent anything, pingAt when the unanswered ping went (0: none).
    let lastHeard = performance.now();
    let pingAt = 0;
    let busy = false; // whether the last word from the worker was busy
    let lastTick = lastHeard;
    const heartbeat = setInterval(() => {
      if (dead) return clearInterval(heartbeat);
      const now = performance.now();
      // A tick that comes far too late means the page itself was held
      // (a frozen background tab, a laptop asleep): a pong may be queued
      // behind this tick, so the silence says nothing about the worker.
      // Ask again instead of calling it stopped.
      const held = now - lastTick > SILENCE_MS;
      lastTick = now;
      if (held) pingAt = 0;
      if (pingAt === 0) {
        pingAt = now;
        port.postMessage({ type: "ping" });
      } else if (now - Math.max(lastHeard, pingAt) > (busy ? BUSY_SILENCE_MS : SILENCE_MS)) {
        clearInterval(heartbeat);
        const why = `the engine has not answered for ${Math.round((busy ? BUSY_SILENCE_MS : SILENCE_MS) / 1000)} s: the browser closed its worker, or it crashed.`;
        die(ready ? `The playground stopped: ${why} Reload to start again.` : why);
      }
    }, HEARTBEAT_MS);

    errors.onerror = (event) => {
      event.preventDefault();
      die(`the engine's worker failed: ${event.message || "it could not load"}`);
    };
    port.onmessageerror = () => die("the engine sent a message the page could not read");
    port.onmessage = (event) => {
      const msg = event.data || {};
      lastHeard = performance.now();
      busy = msg.type === "busy";
      switch (msg.type) {
        case "pong":
          pingAt = 0;
          break;
        case "ready":
          if (ready) break;
          ready = true;
          markWorkerTimes(msg.timing);
          resolve({ version: msg.version, scripts: Array.isArray(msg.scripts) ? msg.scripts : [], worker: kind, call, end, module: msg.module });
          break;
        case "reply": {
          const done = pending.get(msg.id);
          if (done) {
            pending.delete(msg.id);
            done(msg.result);
          }
          break;
        }
        case "progress":
          if (o.onProgress) o.onProgress(msg.loaded, msg.total);
          break;
        case "compiling":
          if (o.onCompiling) o.onCompiling();
          break;
        case "uncompressed":
          if (o.onUncompressed) o.onUncompressed(msg);
          break;
        case "changed":
          if (ready && o.onChanged && msg.keyspace === keyspace) o.onChanged(keyspace);
          break;
        case "failed":
          die(msg.message);
          break;
      }
    };
  });
}

/**
 * Marks on the page's clock when the worker began to fetch the module and
 * when it had compiled it (epoch ms in msg.timing): what the bench reads
 * to tell a compile from a code-cache hit.
 */
function markWorkerTimes(timing) {
  if (!timing) return;
  for (const [name, at] of [
    ["echomq:fetch", timing.fetch],
    ["echomq:compiled", timing.compiled],
  ]) {
    const t = Number(at) - performance.timeOrigin;
    if (Number.isFinite(t) && t >= 0) performance.mark(name, { startTime: t });
  }
}

// ---- download and compile -----------------------------------------------------

/** Inflates the offline lesson's gzip-compressed module and compiles it as it inflates. */
async function compileGzip(gzip, onCompiling) {
  if (typeof DecompressionStream !== "function") {
    throw new Error("this browser cannot unpack the engine inside the lesson (it has no DecompressionStream)");
  }
  if (onCompiling) onCompiling();
  const stream = new Blob([gzip]).stream().pipeThrough(new DecompressionStream("gzip"));
  return WebAssembly.compileStreaming(new Response(stream, { headers: { "Content-Type": "application/wasm" } }));
}
