// The contract between the page (app.js, links.js, resume.js) and each
// widget: what a mount function returns, and when the page calls each part.
// Written once here so that a widget and the page cannot drift apart
// quietly: app.js checks every widget against it when it mounts.
//
// A widget's parts, when one file would grow past 450 lines (web/page's
// TestNoScriptIsTooLong fails past it): <w>.js is the mount function and
// the only part that holds state (the elements it found, plain `let`
// values) and wires events to engine calls (ctx); after each change it
// hands the render part a plain view object, e.g. { mode, round,
// snapshot }. <w>-draw.js renders: functions of (el, view) that write the
// DOM, never call the engine and never change the view. <w>-<topic>.js
// holds the words and rules as functions of plain data, no DOM, so Node can
// test them. Parts talk only by arguments and return values, no shared
// module state. The workers, editor and round trip widgets follow it, and
// so do the page itself (app.js, app-ctx.js, app-boot.js, app-draw.js) and
// the engine's worker (worker.js and its worker-*.js parts).

/**
 * A snapshot of one queue, as echomq.snapshot returns it (wasm/echomq.d.ts).
 * @typedef {object} Snapshot
 */

/**
 * One widget on the page, as its mount function (mountStepper, mountRoundTrip...)
 * returns it. Only root and start are required.
 *
 * @typedef {object} Widget
 * @property {HTMLElement} root
 *   The widget's section. The page disables every control inside it while
 *   the engine is not running, and enables them when it is.
 * @property {string | null} [queue]
 *   The queue the widget shows, or null (or absent) for none. The page
 *   hands start and update a snapshot of this queue, taken once per queue
 *   however many widgets show it.
 * @property {(snapshot: Snapshot | null) => void | Promise<void>} start
 *   Called when the engine (or the recorded run) is ready, with the first
 *   snapshot of queue (null when the widget has no queue), and again when
 *   a link or Resume rebuilds the keyspace: it starts the widget afresh on
 *   that snapshot, showing nothing of an earlier keyspace.
 * @property {(snapshot: Snapshot, source: string) => void | Promise<void>} [update]
 *   Called after any widget changed the keyspace (ctx.changed), with a
 *   fresh snapshot of queue. source names the widget that changed it, or
 *   "elsewhere" for another page sharing the engine.
 * @property {() => unknown} [save]
 *   The widget's view for a permalink: plain JSON, or null/undefined for
 *   nothing worth keeping. Never the keyspace: the link's operations
 *   rebuild that.
 * @property {(saved: unknown, replayed: Array<{method: string, args: unknown[], result: unknown}>) => void | Promise<void>} [restore]
 *   Puts a saved view back after the link's operations have been replayed,
 *   right after this widget's start and before the next widget starts.
 *   saved is untrusted: check every field. replayed holds each replayed
 *   call with its result, replayed[n] answering the journal's n-th call
 *   (ctx.callAt's at): a widget rebuilds a recorded run, or its readouts,
 *   from those answers rather than from text saved in the link.
 * @property {HTMLElement[]} [recordedControls]
 *   The controls that work on the recorded run while the engine loads
 *   (recorded.js); the widget starts on the recorded snapshot.
 */

/** Every part a Widget may have. */
export const WIDGET_PARTS = Object.freeze(["root", "queue", "start", "update", "save", "restore", "recordedControls"]);

/**
 * Checks what a mount function returned against the Widget contract and
 * returns it. A missing root or start, a part of the wrong type, or a part
 * the page never calls (the page once called a refresh that no widget
 * had) is a bug in the page, said at mount time rather than never.
 *
 * @param {string} name the widget's section id, for the message
 * @param {Widget} w
 * @returns {Widget}
 */
export function checkWidget(name, w) {
  const wrong = (why) => new Error(`the ${name} widget ${why}`);
  if (!w || typeof w !== "object") throw wrong("is not an object");
  for (const part of Object.keys(w)) {
    if (!WIDGET_PARTS.includes(part)) throw wrong(`has a part "${part}" that the page never uses`);
  }
  if (!w.root || typeof w.root.querySelectorAll !== "function") throw wrong("has no root element");
  if (typeof w.start !== "function") throw wrong("has no start()");
  for (const part of ["update", "save", "restore"]) {
    if (w[part] !== undefined && typeof w[part] !== "function") throw wrong(`has a ${part} that is not a function`);
  }
  if (w.queue !== undefined && w.queue !== null && typeof w.queue !== "string") throw wrong("has a queue that is not a name");
  if (w.recordedControls !== undefined && !Array.isArray(w.recordedControls)) throw wrong("has recordedControls that are not a list");
  return w;
}
