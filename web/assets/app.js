// EchoMQ Playground: the page's module.
//
// Downloads echomq.wasm with a visible byte count while the browser
// compiles it (streaming), starts it with Go's wasm_exec.js (loaded before
// this module as a classic script), waits for the Go program to publish
// globalThis.echomq, and then starts whichever widgets the page holds: all
// four on index.html, one on an embed page.
//
// The widgets share one engine, so one keyspace, like clients of one Redis.
// After any widget changes the keyspace it calls ctx.changed(), which takes
// one snapshot and hands it to every widget: that is the whole event bus.
//
// The Go program is meant to run for the life of the page. If go.run()'s
// promise settles, Go has exited: that is a crash, and the page says so.

import { byId } from "./dom.js";
import { mountStepper } from "./stepper.js";
import { mountBeats } from "./beats.js";
import { mountVerdicts } from "./verdicts.js";
import { mountRoundTrip } from "./roundtrip.js";

const READY_TIMEOUT_MS = 15000;

const ui = {
  loader: byId("loader"),
  download: byId("download"),
  progress: byId("download-progress"),
  bytes: byId("download-bytes"),
  status: byId("status"),
  failure: byId("failure"),
  failureMessage: byId("failure-message"),
  reload: byId("reload"),
  version: document.getElementById("engine-version"), // the index page only
};

const root = document.documentElement;
root.dataset.engine = "loading";

// ---- the context every widget gets ----------------------------------------

/** The widgets on this page, by section id. */
const mounts = { stepper: mountStepper, beats: mountBeats, verdicts: mountVerdicts, roundtrip: mountRoundTrip };

const widgets = [];
let failed = false;

const ctx = {
  /** globalThis.echomq, once the engine is ready. */
  engine: null,
  /** The protocol scripts by name, from echomq.scripts(). */
  scripts: new Map(),

  /**
   * Calls the engine. The API never throws, but a Go program that exited
   * does: that becomes the crash message and an error result.
   */
  call(fn) {
    if (!ctx.engine || failed) return { error: "js", message: "the engine is not running" };
    try {
      return fn(ctx.engine);
    } catch (err) {
      fail("The playground stopped answering. Reload to start again.", err);
      return { error: "js", message: String(err && err.message ? err.message : err) };
    }
  },

  /** A snapshot of a queue, or null if the engine could not give one. */
  snapshot(queue) {
    const s = ctx.call((e) => e.snapshot(queue));
    return s && !s.error ? s : null;
  },

  /**
   * Tells every widget that the keyspace changed. source is the widget
   * that changed it. One snapshot per queue serves them all.
   */
  changed(source) {
    const snaps = new Map();
    for (const w of widgets) {
      if (!w.update || !w.queue) continue;
      if (!snaps.has(w.queue)) snaps.set(w.queue, ctx.snapshot(w.queue));
      const snap = snaps.get(w.queue);
      if (snap) w.update(snap, source);
    }
  },
};

for (const [id, mount] of Object.entries(mounts)) {
  const section = document.getElementById(id);
  if (section) widgets.push(mount(section, ctx));
}

function setStatus(text) {
  if (ui.status.textContent !== text) ui.status.textContent = text;
}

/** Enables or disables every control of every widget. */
function setControls(enabled) {
  for (const w of widgets) {
    for (const el of w.root.querySelectorAll("button, input")) el.disabled = !enabled;
  }
}

/** Shows the error panel; the first failure wins, later ones only log. */
function fail(message, cause) {
  if (cause !== undefined) console.error(message, cause);
  if (failed) return;
  failed = true;
  root.dataset.engine = "failed";
  setControls(false);
  ui.download.hidden = true;
  ui.loader.classList.remove("is-ready");
  setStatus("Stopped");
  for (const el of document.querySelectorAll("[data-waiting]")) el.textContent = "The engine is not running.";
  ui.failureMessage.textContent = message;
  ui.failure.hidden = false;
  ui.reload.focus();
}

ui.reload.addEventListener("click", () => location.reload());

// ---- download -------------------------------------------------------------

function formatBytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

let progressFrame = 0;
let progressNext = null;

/**
 * Puts loaded/total on the bar, at most once per frame. total 0 means
 * unknown: the bar is left indeterminate and only the byte count shows.
 */
function showProgress(loaded, total) {
  progressNext = [loaded, total];
  if (progressFrame) return;
  progressFrame = requestAnimationFrame(() => {
    progressFrame = 0;
    const [l, t] = progressNext;
    if (t > 0) {
      ui.progress.max = t;
      ui.progress.value = Math.min(l, t);
      ui.bytes.textContent = `${formatBytes(l)} of ${formatBytes(t)}`;
    } else {
      ui.progress.removeAttribute("value");
      ui.bytes.textContent = formatBytes(l);
    }
  });
}

/**
 * The number of bytes the body stream will yield, or 0 if unknown.
 * Content-Length counts the bytes on the wire, so it only describes the
 * body when the response is not content-encoded; otherwise fall back to the
 * size the renderer wrote into the page, if any.
 */
function expectedBytes(response) {
  const encoding = (response.headers.get("Content-Encoding") || "identity").trim().toLowerCase();
  const length = Number(response.headers.get("Content-Length"));
  if (encoding === "identity" && Number.isSafeInteger(length) && length > 0) return length;
  const hint = Number(ui.loader.dataset.wasmBytes);
  return Number.isSafeInteger(hint) && hint > 0 ? hint : 0;
}

async function fetchWasm(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: the server answered ${response.status} ${response.statusText}`.trim());
  return response;
}

/** Counts the bytes flowing through a stream onto the progress bar. */
function counted(body, total) {
  let loaded = 0;
  let known = total;
  return body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        loaded += chunk.byteLength;
        if (known > 0 && loaded > known) known = 0; // the hint was wrong: stop pretending
        showProgress(loaded, known);
        controller.enqueue(chunk);
      },
      flush() {
        showProgress(loaded, loaded);
        setStatus("Compiling the engine…");
      },
    }),
  );
}

/** Reads a stream to its end, counting, and drops the bytes. */
async function drain(body, total) {
  const reader = counted(body, total).getReader();
  for (;;) {
    const { done } = await reader.read();
    if (done) return;
  }
}

/** The whole body as bytes, counted. */
async function readAll(response) {
  const total = expectedBytes(response);
  showProgress(0, total);
  if (!response.body) {
    const whole = new Uint8Array(await response.arrayBuffer());
    showProgress(whole.byteLength, whole.byteLength);
    return whole;
  }
  return new Uint8Array(await new Response(counted(response.body, total)).arrayBuffer());
}

function isWasmType(response) {
  return (response.headers.get("Content-Type") || "").split(";")[0].trim().toLowerCase() === "application/wasm";
}

/**
 * Downloads and compiles the module: compilation runs while the bytes
 * arrive (instantiateStreaming), and a counter on the way fills the
 * progress bar.
 *
 * When the server labels the file application/wasm, the response itself
 * goes to the compiler and a clone of it is counted: a response that keeps
 * its URL lets the browser cache the compiled code for the next visit.
 * Otherwise the counted stream is handed over as a new Response typed
 * application/wasm. Without streaming support, or if streaming fails for a
 * reason other than a bad module, it falls back to instantiate() on the
 * downloaded bytes.
 */
async function instantiate(url, imports) {
  const canStream = typeof WebAssembly.instantiateStreaming === "function" && typeof TransformStream === "function";
  const response = await fetchWasm(url);
  if (canStream && response.body) {
    const total = expectedBytes(response);
    showProgress(0, total);
    let source;
    let counting = Promise.resolve();
    if (isWasmType(response)) {
      const copy = response.clone();
      source = response;
      counting = drain(copy.body, total).catch(() => {}); // the compiler reports a broken download
    } else {
      source = new Response(counted(response.body, total), { headers: { "Content-Type": "application/wasm" } });
    }
    try {
      const result = await WebAssembly.instantiateStreaming(source, imports);
      await counting;
      return result;
    } catch (err) {
      if (err instanceof WebAssembly.CompileError || err instanceof WebAssembly.LinkError) throw err;
      console.warn("streaming compilation failed; downloading the module again", err);
      return WebAssembly.instantiate(await readAll(await fetchWasm(url)), imports);
    }
  }
  return WebAssembly.instantiate(await readAll(response), imports);
}

// ---- start ----------------------------------------------------------------

/** Resolves once the Go program has published globalThis.echomq. */
function whenPublished(exit) {
  return new Promise((resolve, reject) => {
    const deadline = performance.now() + READY_TIMEOUT_MS;
    const check = () => {
      if (globalThis.echomq) return resolve(globalThis.echomq);
      if (exit.settled) return reject(new Error("it stopped before it was ready"));
      if (performance.now() > deadline) {
        return reject(new Error(`echomq did not appear within ${READY_TIMEOUT_MS / 1000} s`));
      }
      setTimeout(check, 5);
    };
    check();
  });
}

async function start() {
  if (typeof WebAssembly !== "object") {
    throw new Error("This browser does not support WebAssembly.");
  }
  if (typeof globalThis.Go !== "function") {
    throw new Error("wasm_exec.js did not load, so the Go runtime is missing.");
  }
  const url = ui.loader.dataset.wasmUrl || "echomq.wasm";
  setStatus("Downloading the engine…");

  const go = new globalThis.Go();
  const exit = { settled: false, code: undefined };
  const goExit = go.exit;
  go.exit = (code) => {
    exit.code = code;
    goExit.call(go, code);
  };
  const { instance } = await instantiate(url, go.importObject);
  performance.mark("echomq:compiled");

  setStatus("Starting…");
  go.run(instance).then(
    () => {
      exit.settled = true;
      const code = exit.code === undefined ? "" : ` with code ${exit.code}`;
      fail(`The playground stopped: the Go program exited${code}. The browser console may say why. Reload to start again.`);
    },
    (err) => {
      exit.settled = true;
      fail("The playground crashed. Reload to start again.", err);
    },
  );

  const echomq = await whenPublished(exit);
  if (failed) return;
  performance.mark("echomq:published");
  ctx.engine = echomq;
  const scripts = ctx.call((e) => e.scripts());
  if (!Array.isArray(scripts)) throw new Error(`the engine has no scripts: ${scripts && scripts.message}`);
  for (const s of scripts) ctx.scripts.set(s.name, s);

  if (ui.version) ui.version.textContent = String(echomq.version ?? "unknown");
  ui.download.hidden = true;
  ui.loader.classList.add("is-ready");
  setControls(true);
  const snaps = new Map();
  for (const w of widgets) {
    if (w.queue && !snaps.has(w.queue)) snaps.set(w.queue, ctx.snapshot(w.queue));
    w.start(w.queue ? snaps.get(w.queue) : null);
  }
  for (const el of document.querySelectorAll("[data-waiting]")) el.removeAttribute("data-waiting");
  setStatus("Ready");
  root.dataset.engine = "ready";
  performance.mark("echomq:ready");
}

start().catch((err) => fail(`The playground could not start: ${err && err.message ? err.message : err}`, err));
