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
import { readOptions } from "./options.js";
import { Journal } from "./permalink.js";
import { mountStepper } from "./stepper.js";
import { mountBeats } from "./beats.js";
import { mountVerdicts } from "./verdicts.js";
import { mountRoundTrip } from "./roundtrip.js";
import { mountEditor } from "./editor.js";
import { mountConsole } from "./console.js";
import { mountWorkers } from "./workers.js";
import { mountPermalinks } from "./links.js";
import { reportHeight } from "./embed-height.js";
import { whenNear } from "./near.js";
import { warnUncompressed } from "./hosting.js";
import { readRecording } from "./recorded.js";
import { mountToc } from "./toc.js";
import { mountStart } from "./start.js";
import { mountCards } from "./cards.js";
import { mountResume } from "./resume.js";
import { checkWidget } from "./widget.js";
import { createContext, oncePerQueue } from "./app-ctx.js";
import { afterFirstPaint, engineSource } from "./app-boot.js";
import { progressBar, renameQueue } from "./app-draw.js";

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

// ---- the page and the context every widget gets ------------------------------

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

/**
 * What the page knows of its engine and widgets (app-ctx.js's Page): the
 * context reads and writes it too, so both see one truth.
 *
 * @type {import("./app-ctx.js").Page}
 */
/** Lets page.live resolve, once the live engine answers calls. */
let goLive;
const page = {
  widgets: new Map(),
  engine: null,
  failed: false,
  inFlight: new Set(),
  restoring: null,
  recorder: null,
  started: new Set(),
  live: new Promise((resolve) => {
    goLive = resolve;
  }),
};

const ctx = createContext(page, { options, hold });

function setStatus(text) {
  if (ui.status.textContent !== text) ui.status.textContent = text;
}

/** A step of the engine's loading, unless the recorded run is what the status line tells. */
function loadingStatus(text) {
  if (!ctx.recorded) setStatus(text);
}

/** Enables or disables every control of every widget. */
function setControls(enabled) {
  for (const w of page.widgets.values()) {
    for (const el of w.root.querySelectorAll("button, input, textarea, select")) el.disabled = !enabled;
  }
}

/** Shows the error panel; the first failure wins, later ones only log. */
function fail(message, cause) {
  if (cause !== undefined) console.error(message, cause);
  if (page.failed) return;
  page.failed = true;
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

/** Puts the download's progress on the bar (app-draw.js). */
const showProgress = progressBar(ui);

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
    ...(await engineSource(ui.loader, options)),
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
  if (page.failed) return;
  performance.mark("echomq:published");
  let handedOver = false;
  if (page.recorder && !links.pending()) handedOver = await handOver(started);
  else if (page.recorder) ctx.journal = new Journal(); // a link arrived: it rebuilds the page from the live engine
  page.engine = started;
  ctx.recorded = false;
  goLive();
  ctx.scripts.clear();
  for (const s of page.engine.scripts) ctx.scripts.set(s.name, s);
  if (ctx.scripts.size === 0) throw new Error("the engine has no scripts");

  if (ui.version) ui.version.textContent = page.engine.version;
  ui.download.hidden = true;

  let opened = false;
  if (handedOver) {
    // The recorded widgets already show what the live engine now holds.
    await startTheRest();
  } else if (!(opened = await links.open())) {
    await seed();
    await startWidgets();
  }
  if (page.failed) return;
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
      ? [...page.widgets.values()].filter((w) => w.recordedControls)
      : page.widgets.size === 1 && page.widgets.has(rec.widget) && page.widgets.get(rec.widget).recordedControls
        ? [page.widgets.get(rec.widget)]
        : [];
  if (held.length === 0) return;
  page.recorder = rec;
  ctx.recorded = true;
  for (const s of rec.scripts) ctx.scripts.set(s.name, s);
  const snapshot = await ctx.snapshot(options.queue);
  for (const w of held) {
    page.started.add(w);
    await w.start(snapshot);
  }
  if (page.engine || page.failed) return;
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
  const check = await page.recorder.handOver(started);
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
    if (page.failed) return;
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
  return startEach((w) => !page.started.has(w));
}

/**
 * Starts, in the page's order, each widget that which(widget) picks, with
 * one snapshot per queue among them, and runs then(name, widget) after each.
 */
async function startEach(which, then) {
  const snapshotOf = oncePerQueue(ctx);
  for (const [name, w] of page.widgets) {
    if (!which(w)) continue;
    page.started.add(w);
    await w.start(w.queue ? await snapshotOf(w.queue) : null);
    if (then) await then(name, w);
  }
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
  page.widgets.set(name, checkWidget(name, mount(section, ctx)));
}
if (options.queue !== "q") renameQueue(options.queue);
if (options.lease !== null) {
  for (const el of document.querySelectorAll('input[data-option="lease"]')) el.value = options.lease;
}

const links = mountPermalinks({ ctx, widgets: page.widgets, startWidgets, notice, reviewing });
const resume = mountResume({ ctx, links, widgets: page.widgets, notice, hold });
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
