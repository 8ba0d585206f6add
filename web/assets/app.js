// EchoMQ Playground: the page's module.
//
// Starts the engine in its Web Worker (engine.js, worker.js) with a visible
// byte count, then starts whichever widgets the page holds: all of them on
// index.html, one on an embed page.
//
// The widgets share one engine, so one keyspace, like clients of one Redis.
// Every engine call is a message to the worker and comes back as a promise
// (ctx.call), and the calls run one at a time in the order they were made.
// After a widget changes the keyspace it awaits ctx.changed(), which takes
// one snapshot per queue and hands it to every widget: that is the whole
// event bus. Every call that can change the keyspace is also written to a
// journal, which a permalink replays to rebuild the same keyspace.
//
// A crash of the Go program, a worker that cannot start, or a browser
// without WebAssembly ends in the failure panel, inside the frame when the
// page is an embed.

import { byId } from "./dom.js";
import { startEngine } from "./engine.js";
import { STOPPED } from "./stop.js";
import { readOptions } from "./options.js";
import { Journal, bytesOfBase64 } from "./permalink.js";
import { mountStepper } from "./stepper.js";
import { mountBeats } from "./beats.js";
import { mountVerdicts } from "./verdicts.js";
import { mountRoundTrip } from "./roundtrip.js";
import { mountEditor } from "./editor.js";
import { mountConsole } from "./console.js";
import { mountWorkers } from "./workers.js";
import { mountPermalinks } from "./links.js";
import { reportHeight, requestEnginePort } from "./embed-height.js";
import { whenNear } from "./near.js";
import { warnUncompressed } from "./hosting.js";
import { readRecording } from "./recorded.js";
import { mountToc } from "./toc.js";
import { mountStart } from "./start.js";
import { mountCards } from "./cards.js";
import { mountResume } from "./resume.js";
import { checkWidget } from "./widget.js";

const ui = {
  loader: byId("loader"),
  download: byId("download"),
  progress: byId("download-progress"),
  bytes: byId("download-bytes"),
  status: byId("status"),
  failure: byId("failure"),
  failureMessage: byId("failure-message"),
  reload: byId("reload"),
  notice: document.getElementById("notice"),
  recordedNote: document.getElementById("recorded-note"),
  version: document.getElementById("engine-version"), // the index page only
};

performance.mark("echomq:module");
const root = document.documentElement;
root.dataset.engine = "loading";

const { options, problems } = readOptions(location.search, document.body.classList.contains("embed") ? "embed" : undefined);
if (options.theme !== "auto") root.dataset.theme = options.theme;
// An embed under the course's own heading leaves its own out (app.css).
if (options.heading === "hide") root.dataset.heading = "hide";

// ---- the context every widget gets ----------------------------------------

/** How many members of each end of a list a snapshot shows: 25 + 25, "and 99,950 more". */
const SNAPSHOT_ENDS = 25;

/** The widgets on this page, by section id: each returns a Widget (widget.js). */
const mounts = {
  stepper: mountStepper,
  beats: mountBeats,
  verdicts: mountVerdicts,
  roundtrip: mountRoundTrip,
  editor: mountEditor,
  console: mountConsole,
  workers: mountWorkers,
};

/** name → widget, in page order. @type {Map<string, import("./widget.js").Widget>} */
const widgets = new Map();
let engine = null;
let failed = false;
/** The journal's length before each call that waits for its answer (ctx.stop cuts the journal there). */
const inFlight = new Set();
/** While a Stop rebuilds the keyspace, the promise that it is done: other calls wait for it. */
let restoring = null;
/** The recorded run the page steps while the engine loads, or null. */
let recorder = null;
/** The widgets that have started: all, once the engine is ready. */
const started = new Set();
/** Resolves once the live engine answers calls (after the hand-over). */
let goLive;
const live = new Promise((resolve) => {
  goLive = resolve;
});

const ctx = {
  ready: false,
  /** The protocol scripts by name, from echomq.scripts(). */
  scripts: new Map(),
  /** The page's options, from its URL (options.js). */
  options,
  queue: options.queue,
  /** Every keyspace-changing call since the page started, for permalinks. */
  journal: new Journal(),

  /**
   * Calls the engine: one method of wasm/echomq.d.ts, run in the worker.
   * Never rejects; a dead engine answers {error:"js"}.
   */
  async call(method, ...args) {
    return (await ctx.callAt(method, ...args)).result;
  },

  /**
   * ctx.call, and where the call went in the journal: {result, at}, with
   * at null for a call that is not recorded. A widget keeps the places of
   * its own calls in its saved view, so that a link's replay, whose n-th
   * answer is the n-th call's, gives it back the engine's own replies to
   * show (the last claim, the wire log) rather than a copy of the text.
   */
  async callAt(method, ...args) {
    const down = { result: { error: "js", message: "the engine is not running" }, at: null };
    if (failed) return down;
    if (!engine && recorder) {
      // While the engine loads: the recording's answer, or wait for it.
      const recorded = recorder.answer(ctx.journal.ops, method, args);
      if (recorded !== undefined) return { at: ctx.journal.record(method, args), result: recorded };
      await live;
      if (failed) return down;
    }
    if (restoring) await restoring; // a Stop's rebuild comes first
    if (!engine || failed) return down;
    const mark = ctx.journal.ops.length;
    const at = ctx.journal.record(method, args);
    inFlight.add(mark);
    try {
      return { at, result: await engine.call(method, args) };
    } finally {
      inFlight.delete(mark);
    }
  },

  /** Whether Stop can end a running call: only a worker of the page's own can be stopped (stop.js). */
  canStop() {
    return !!(engine && engine.stop) && !failed;
  },

  /**
   * Stops whatever the engine runs (stop.js): the waiting calls are
   * answered {error:"stopped", message: STOPPED}, the journal forgets them
   * (none of them ran to an end), and the fresh engine replays the calls
   * before them, with the page held meanwhile. Resolves once the page is
   * ready again.
   */
  async stop() {
    if (!ctx.canStop() || restoring || inFlight.size === 0) return;
    const cut = Math.min(...inFlight);
    let done;
    restoring = new Promise((resolve) => {
      done = resolve;
    });
    const release = hold("Stopping the script and restarting the engine…");
    ctx.journal.ops.length = Math.min(cut, ctx.journal.ops.length);
    try {
      if (!(await engine.stop({ error: "stopped", message: STOPPED }))) return;
      const ops = ctx.journal.ops.slice();
      // The learner ran every script in the journal on this page already:
      // all of them may run again.
      const found = await engine.call("review", [ops]);
      const allowed = found && Array.isArray(found.lua) ? found.lua.map((script) => script.sha) : [];
      for (const op of ops) await engine.call("replay", [op, allowed]);
    } finally {
      restoring = null;
      done();
      release();
    }
    await ctx.changed("stop");
  },

  /**
   * Replays one call of a link, op ([method, ...args]), with the engine
   * running no script but the lesson's and those whose SHA1 allowed holds
   * (echomq.replay). The journal keeps op itself, as if the page had made
   * the call, so a link copied after it holds the same calls.
   */
  async replay(op, allowed) {
    if (failed || !engine) return { error: "js", message: "the engine is not running" };
    const [method, ...args] = op;
    ctx.journal.record(method, args);
    return engine.call("replay", [op, allowed]);
  },

  /** True while the page steps the recorded run and the engine loads. */
  recorded: false,

  /**
   * A snapshot of a queue, or null if the engine could not give one. It is
   * bounded: each list comes as its first and last SNAPSHOT_ENDS members
   * and a count of the rest, so a click at 100,000 jobs ships no more
   * across the bridge (and draws no more) than one at 100.
   */
  async snapshot(queue) {
    const s = await ctx.call("snapshot", queue, SNAPSHOT_ENDS);
    return s && !s.error ? s : null;
  },

  /**
   * Tells every widget that the keyspace changed. source is the name of
   * the widget that changed it. One snapshot per queue serves them all.
   */
  async changed(source) {
    const snapshotOf = oncePerQueue();
    for (const w of widgets.values()) {
      if (!started.has(w)) continue; // it starts on the live engine (startRecorded)
      if (w.queue && w.update) {
        const snap = await snapshotOf(w.queue);
        if (snap) await w.update(snap, source); // a widget may ask the engine more (the stepper's stamps)
      }
    }
  },

  /**
   * Wraps an event handler so its runs queue up behind each other: a
   * second click waits for the first one's engine calls to finish, and an
   * error ends up on the console instead of as an unhandled rejection.
   */
  serially(fn) {
    let tail = Promise.resolve();
    return (...args) => {
      const run = tail.then(() => fn(...args));
      tail = run.catch((err) => console.error("a widget action failed", err));
      return run;
    };
  },
};

/**
 * Rewrites the key names the templates printed for the default queue "q"
 * (captions such as emq:{q}:pending) to the queue chosen in the URL.
 */
function renameQueue(queue) {
  for (const el of document.querySelectorAll("code.key")) {
    el.textContent = el.textContent.replaceAll("{q}", `{${queue}}`);
  }
}

function setStatus(text) {
  if (ui.status.textContent !== text) ui.status.textContent = text;
}

/** A step of the engine's loading, unless the recorded run is what the status line tells. */
function loadingStatus(text) {
  if (!ctx.recorded) setStatus(text);
}

/** Enables or disables every control of every widget. */
function setControls(enabled) {
  for (const w of widgets.values()) {
    for (const el of w.root.querySelectorAll("button, input, textarea, select")) el.disabled = !enabled;
  }
}

/** Shows the error panel; the first failure wins, later ones only log. */
function fail(message, cause) {
  if (cause !== undefined) console.error(message, cause);
  if (failed) return;
  failed = true;
  ctx.ready = false;
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

/** Shows a notice above the widgets: a bad option, a damaged link. */
function notice(text) {
  if (!ui.notice) return console.warn(text);
  const p = document.createElement("p");
  p.textContent = text;
  ui.notice.append(p);
  ui.notice.hidden = false;
}

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

/** An absolute URL: the worker resolves relative ones against its own URL, not the page's. */
const absolute = (url) => new URL(url, document.baseURI).href;

/**
 * Where the engine comes from. A normal page names the files; the offline
 * lesson carries the worker's text and the gzip-compressed module inside
 * itself (see web/lesson, which web/cmd/render runs).
 */
async function engineSource() {
  const inline = document.getElementById("engine-gzip");
  if (inline) {
    const bytes = bytesOfBase64(inline.textContent.trim());
    return { workerSource: byId("engine-worker").textContent, gzip: bytes.buffer, workBudget: options.budget ?? undefined };
  }
  const d = ui.loader.dataset;
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

// ---- start ----------------------------------------------------------------

/** Enqueues the ids the URL asked for (?ids=JOB-1,JOB-2), once, at start. */
async function seed() {
  for (const id of options.ids) {
    const r = await ctx.call("enqueue", options.queue, id, `{"seeded":${JSON.stringify(id)}}`);
    if (r.error) notice(`The id ${JSON.stringify(id)} from the address was not enqueued: ${r.message || r.error}.`);
  }
}

/**
 * Checks the browser and starts the engine: the download and the compile
 * run while the widgets mount and the page settles.
 */
async function boot() {
  if (typeof WebAssembly !== "object") {
    throw unsupported("this browser has WebAssembly turned off or does not support it, and the engine is a WebAssembly program.");
  }
  if (typeof Worker !== "function") {
    throw unsupported("this browser cannot run Web Workers, which the engine runs in.");
  }
  loadingStatus("Downloading the engine…");
  return startEngine({
    ...(await engineSource()),
    onProgress: showProgress,
    onCompiling: () => loadingStatus("Compiling the engine…"),
    onUncompressed: (info) => warnUncompressed(info, notice),
    onFailure: (message) => fail(message),
    // Another embed changed the keyspace this one shares: show it.
    onChanged: () => {
      if (ctx.ready) ctx.changed("elsewhere");
    },
  });
}

/** Waits for the engine, then opens a link or seeds the queue, and starts the widgets. */
async function start(booting) {
  const started = await booting;
  if (failed) return;
  performance.mark("echomq:published");
  let handedOver = false;
  if (recorder && !links.pending()) handedOver = await handOver(started);
  else if (recorder) ctx.journal = new Journal(); // a link arrived: it rebuilds the page from the live engine
  engine = started;
  ctx.recorded = false;
  goLive();
  ctx.scripts.clear();
  for (const s of engine.scripts) ctx.scripts.set(s.name, s);
  if (ctx.scripts.size === 0) throw new Error("the engine has no scripts");

  if (ui.version) ui.version.textContent = engine.version;
  ui.download.hidden = true;

  let opened = false;
  if (handedOver) {
    // The recorded widgets already show what the live engine now holds.
    await startTheRest();
  } else if (!(opened = await links.open())) {
    await seed();
    await startWidgets();
  }
  if (failed) return;
  setControls(true);
  for (const el of document.querySelectorAll("[data-waiting]")) el.removeAttribute("data-waiting");
  ui.loader.classList.add("is-ready");
  setStatus("Ready");
  ctx.ready = true;
  root.dataset.engine = "ready";
  performance.mark("echomq:ready");
  if (opened) links.land();
  await resume.offer(opened);
}

/**
 * Works on the recorded runs while the engine loads (recorded.js): on the
 * page or the embed the recording is for, with the options it was recorded
 * with and no link to open. The widgets it holds (those with
 * recordedControls) start on the recorded snapshot, and only their
 * recorded controls work; the others start on the live engine. The status
 * line and a note say so.
 */
async function startRecorded() {
  const rec = readRecording();
  if (!rec || rec.queue !== options.queue || options.ids.length > 0 || location.hash.length > 1) return;
  const held =
    rec.widget === "page"
      ? [...widgets.values()].filter((w) => w.recordedControls)
      : widgets.size === 1 && widgets.has(rec.widget) && widgets.get(rec.widget).recordedControls
        ? [widgets.get(rec.widget)]
        : [];
  if (held.length === 0) return;
  recorder = rec;
  ctx.recorded = true;
  for (const s of rec.scripts) ctx.scripts.set(s.name, s);
  const snapshot = await ctx.snapshot(options.queue);
  for (const w of held) {
    started.add(w);
    await w.start(snapshot);
  }
  if (engine || failed) return;
  for (const w of held) for (const el of w.recordedControls) el.disabled = false;
  root.dataset.engine = "recorded";
  if (ui.recordedNote) ui.recordedNote.hidden = false;
  setStatus("Loading (recorded run shown)");
  performance.mark("echomq:recorded");
}

/**
 * Hands the page over from the recording to the live engine: every call
 * answered from the recording runs again on the engine, which must answer
 * the same, byte for byte. True when it did; otherwise the page says so
 * and starts afresh from the live engine.
 */
async function handOver(started) {
  const check = await recorder.handOver(started);
  root.dataset.recording = check.differences.length === 0 ? `matched ${check.calls}` : "differs";
  if (ui.recordedNote) ui.recordedNote.hidden = true;
  if (check.differences.length === 0) return true;
  console.warn("the recorded run differs from the live engine's", check.differences);
  notice(`The live engine answered otherwise than the recorded run (${check.differences.join("; ")}), so the widget starts again from the live engine.`);
  await started.call("reset", []);
  ctx.journal = new Journal();
  return false;
}

/**
 * Holds the ready page still while it is rebuilt (resume.js's Resume):
 * the controls are off and the status line says why, so nothing a learner
 * clicks acts on a half-restored page or slips between the replayed calls.
 * Returns the function that lets go, with the page ready again.
 */
function hold(why) {
  ctx.ready = false;
  root.dataset.engine = "restoring";
  setControls(false);
  setStatus(why);
  return () => {
    if (failed) return;
    setControls(true);
    setStatus("Ready");
    root.dataset.engine = "ready";
    ctx.ready = true;
  };
}

/**
 * Says on the status line that the page waits for the learner to read a
 * link's Lua (links.js calls it): the engine is loaded, but nothing is
 * ready until they choose.
 */
function reviewing() {
  root.dataset.engine = "review";
  setStatus("Waiting for you to review the link");
}

/**
 * A snapshot getter that asks the engine once per queue, however many
 * widgets show that queue: one drawing of the page, one snapshot each.
 */
function oncePerQueue() {
  const taken = new Map();
  return async (queue) => {
    if (!taken.has(queue)) taken.set(queue, await ctx.snapshot(queue));
    return taken.get(queue);
  };
}

/**
 * Hands every widget its first snapshot. then(name, widget), if given, runs
 * right after each widget starts and before the next one does: a link's
 * views are put back there (links.js), so no widget is ever on screen
 * with the link's keyspace but its own default fields.
 */
function startWidgets(then) {
  return startEach(() => true, then);
}

/** Starts the widgets that did not start on the recording. */
function startTheRest() {
  return startEach((w) => !started.has(w));
}

/**
 * Starts, in the page's order, each widget that which(widget) picks, with
 * one snapshot per queue among them, and runs then(name, widget) after each.
 */
async function startEach(which, then) {
  const snapshotOf = oncePerQueue();
  for (const [name, w] of widgets) {
    if (!which(w)) continue;
    started.add(w);
    await w.start(w.queue ? await snapshotOf(w.queue) : null);
    if (then) await then(name, w);
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
function afterFirstPaint() {
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

// The widgets mount and the recorded run is shown first; the engine
// starts once the page has painted (and, in an embed, once its frame is
// near the reader).
const booting = whenNear(loadingStatus)
  .then(afterFirstPaint)
  .then(() => performance.mark("echomq:boot"))
  .then(boot);
booting.catch(() => {}); // start() reports it
for (const [name, mount] of Object.entries(mounts)) {
  const section = document.getElementById(name);
  if (!section) continue;
  if (section.dataset.queue) section.dataset.queue = options.queue;
  widgets.set(name, checkWidget(name, mount(section, ctx)));
}
if (options.queue !== "q") renameQueue(options.queue);
if (options.lease !== null) {
  for (const el of document.querySelectorAll('input[data-option="lease"]')) el.value = options.lease;
}

const links = mountPermalinks({ ctx, widgets, startWidgets, notice, reviewing });
const resume = mountResume({ ctx, links, widgets, notice, hold });
startRecorded().catch((err) => console.warn("the recorded run could not be shown", err));

for (const p of problems) notice(p);
mountToc();
mountStart();
mountCards();
if (document.body.classList.contains("embed")) reportHeight(document.body.dataset.widget || "");

/**
 * An error that is about the browser, not a bug: the page says it, and
 * the console is left alone.
 */
function unsupported(message) {
  return Object.assign(new Error(message), { unsupported: true });
}

start(booting).catch((err) => fail(`The playground could not start: ${err && err.message ? err.message : err}`, err && err.unsupported ? undefined : err));
