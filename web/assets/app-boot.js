// When and from where the page's engine starts: after the page's first
// paint, from the files the page names, the offline lesson's inlined
// bytes, or the engine the embeds of one course page share. Reads the
// page and its frame, never the engine; app.js's boot starts it.

import { byId } from "./dom.js";
import { requestEnginePort } from "./embed-height.js";
import { bytesOfBase64 } from "./permalink.js";

/** An absolute URL: the worker resolves relative ones against its own URL, not the page's. */
const absolute = (url) => new URL(url, document.baseURI).href;

/**
 * Where the engine comes from. A normal page names the files (on loader,
 * the loading panel's data-*); the offline lesson carries the worker's text
 * and the gzip-compressed module inside itself (see web/lesson, which
 * web/cmd/render runs). options are the page's (options.js).
 */
export async function engineSource(loader, options) {
  const inline = document.getElementById("engine-gzip");
  if (inline) {
    const bytes = bytesOfBase64(inline.textContent.trim());
    return { workerSource: byId("engine-worker").textContent, gzip: bytes.buffer, workBudget: options.budget ?? undefined };
  }
  const d = loader.dataset;
  const hint = Number(d.wasmBytes);
  const workerUrl = absolute(d.workerUrl || "echomq-worker.js");
  const shared = sharedWorkerName();
  // Without SharedWorker, the course page's embed.js owns one engine for
  // every embed and hands this one a port to it (null: a worker of its own).
  const port = !shared && embedded() && typeof SharedWorker !== "function" ? await requestEnginePort(workerUrl) : null;
  return {
    workerUrl,
    port,
    // ?budget: the engine's work budget (options.js), for the worker that starts it.
    workBudget: options.budget ?? undefined,
    wasmUrl: absolute(d.wasmUrl || "echomq.wasm"),
    // Go's wasm_exec.js is inside the site's worker (web/bundle); a page
    // that names it apart has the worker import it.
    wasmExecUrl: d.wasmExecUrl ? absolute(d.wasmExecUrl) : undefined,
    wasmBytes: Number.isSafeInteger(hint) && hint > 0 ? hint : 0,
    shared,
    // In a shared engine each embed calls in a keyspace of its own, unless
    // the author named one for several (?keyspace=).
    keyspace: !shared && !port ? "" : options.keyspace ? `shared:${options.keyspace}` : `embed:${crypto.randomUUID()}`,
  };
}

/** True on an embed's page inside a frame. */
function embedded() {
  return document.body.classList.contains("embed") && window.top !== window;
}

/**
 * The name of the SharedWorker the embeds of this course page share, or
 * null for a worker of this page's own: on a page of its own, where
 * SharedWorker is missing, or where the course page is on another origin
 * (its document cannot be read to tell one page load from another). The
 * name is the course page's load time, so two tabs of one course page get
 * two engines, and the engine ends with its page.
 */
function sharedWorkerName() {
  if (!document.body.classList.contains("embed") || typeof SharedWorker !== "function") return null;
  try {
    const top = window.top;
    if (top === window) return null;
    return `echomq ${top.location.origin} ${top.performance.timeOrigin}`;
  } catch {
    return null;
  }
}

/**
 * Resolves once the page itself has arrived and been painted: everything
 * it loads has loaded (the load event) and a frame has been drawn since.
 * The engine is 2 MB (brotli) to download and a second of work for two
 * cores to compile and start; begun any earlier, it would share the cores
 * with the page's first layout and paint, and the link with whatever the
 * page still fetches. (The README says how this was chosen.)
 */
export function afterFirstPaint() {
  const loaded =
    document.readyState === "complete" ? Promise.resolve() : new Promise((resolve) => addEventListener("load", resolve, { once: true }));
  return loaded.then(
    () =>
      new Promise((resolve) => {
        // A frame after the load, then the task after that frame: the
        // paint has happened. A hidden page draws no frame, so a timer
        // stands in for it.
        const next = () => setTimeout(resolve, 0);
        if (document.visibilityState === "hidden") next();
        else requestAnimationFrame(next);
      }),
  );
}
