// EchoMQ Playground: starts the engine from the page's head (a classic
// script, which the parser waits for: see layout.templ).
//
// The page's module graph (app.js and its imports) runs only once the
// whole page is parsed and laid out; on a cold load that is hundreds of
// milliseconds in which the engine could already be downloading, compiling
// and starting. So this script, which runs before the page's body is
// parsed, starts the engine's worker at once and asks it to download,
// compile and run the Go program itself (worker.js, "load"). The worker
// does all of that on its own thread: the page's thread, busy parsing and
// laying out, neither holds the download back nor shares its turns with
// the compiler.
//
// - A page of its own starts a dedicated worker.
// - An embed (data-embed) joins its course page's shared worker, named as
//   app.js names it, and only when its frame is already near the course
//   page's viewport: embeds start late on purpose, and one further down
//   starts from app.js once the reader scrolls to it. A course page on
//   another origin, or a browser without SharedWorker, is left to app.js.
//
// engine.js adopts what this started (takeEarlyEngine) and replays what
// the worker said in the meantime. Where this script cannot start one (no
// WebAssembly, no workers), it does nothing and app.js says why.
"use strict";

(() => {
  const me = document.currentScript;
  if (!me || typeof WebAssembly !== "object") return;
  const d = me.dataset;
  // The worker resolves relative URLs against its own URL, not the page's.
  const absolute = (url) => new URL(url, document.baseURI).href;
  const wasmUrl = absolute(d.wasmUrl);
  const hint = Number(d.wasmBytes);
  const load = {
    type: "load",
    wasmUrl,
    wasmExecUrl: absolute(d.wasmExecUrl),
    wasmBytes: Number.isSafeInteger(hint) && hint > 0 ? hint : 0,
  };
  // Until engine.js listens, what the worker says is kept, in order.
  const said = [];
  const keep = (target) => {
    target.onmessage = (event) => said.push(event);
    target.onmessageerror = (event) => said.push(event);
  };
  const keepErrors = (target) => {
    target.onerror = (event) => {
      event.preventDefault();
      said.push(event);
    };
  };
  try {
    if ("embed" in d) {
      const name = sharedName();
      if (!name) return;
      const shared = new SharedWorker(absolute(d.workerUrl), { name });
      keep(shared.port);
      keepErrors(shared);
      shared.port.postMessage(load);
      globalThis.echomqEarlyEngine = { shared, wasmUrl, said };
      return;
    }
    if (typeof Worker !== "function") return;
    const worker = new Worker(absolute(d.workerUrl));
    keep(worker);
    keepErrors(worker);
    worker.postMessage(load);
    globalThis.echomqEarlyEngine = { worker, wasmUrl, said };
  } catch {
    // engine.js tries again, and reports what goes wrong
  }

  /**
   * The course page's shared worker name (app.js's sharedWorkerName), when
   * this frame is near the course page's viewport (within a screen of it,
   * as app.js's whenNear asks), else null.
   */
  function sharedName() {
    if (typeof SharedWorker !== "function") return null;
    const top = window.top;
    // Not framed, framed deeper than the course page, or on another origin.
    if (top === window || window.parent !== top || !window.frameElement) return null;
    const box = window.frameElement.getBoundingClientRect();
    const screen = top.innerHeight;
    if (box.bottom < -screen || box.top > 2 * screen) return null;
    return `echomq ${top.location.origin} ${top.performance.timeOrigin}`;
  }
})();
