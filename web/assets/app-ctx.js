// The context every widget gets (ctx): the page's one door to the engine.
// Every engine call goes through it, one at a time and in the order made,
// into the journal a permalink replays; ctx.changed hands each widget a
// fresh snapshot of its queue after another changed the keyspace; ctx.stop
// ends a runaway script and rebuilds the keyspace.
//
// It holds no state of its own: what it reads and writes (the engine, the
// widgets, the recorded run, the calls in flight) is app.js's page record,
// passed in, so the page and its context see one truth.

import { Journal } from "./permalink.js";
import { STOPPED } from "./stop.js";

/** How many members of each end of a list a snapshot shows: 25 + 25, "and 99,950 more". */
const SNAPSHOT_ENDS = 25;

/**
 * The page's record, which app.js keeps and ctx reads and writes.
 *
 * @typedef {object} Page
 * @property {Map<string, import("./widget.js").Widget>} widgets name → widget, in page order
 * @property {object | null} engine the live engine (engine.js), once it has started
 * @property {boolean} failed whether the failure panel is up
 * @property {Set<number>} inFlight the journal's length before each call that waits for its answer (ctx.stop cuts the journal there)
 * @property {Promise<void> | null} restoring while a Stop rebuilds the keyspace, the promise that it is done: other calls wait for it
 * @property {object | null} recorder the recorded run the page steps while the engine loads (recorded.js), or null
 * @property {Set<import("./widget.js").Widget>} started the widgets that have started: all, once the engine is ready
 * @property {Promise<void>} live resolves once the live engine answers calls (after the hand-over)
 */

/**
 * The context for page. options are the page's, from its URL (options.js);
 * hold(why) holds the page still while it is rebuilt and returns what lets
 * go (app.js).
 *
 * @param {Page} page
 */
export function createContext(page, { options, hold }) {
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
      if (page.failed) return down;
      if (!page.engine && page.recorder) {
        // While the engine loads: the recording's answer, or wait for it.
        const recorded = page.recorder.answer(ctx.journal.ops, method, args);
        if (recorded !== undefined) return { at: ctx.journal.record(method, args), result: recorded };
        await page.live;
        if (page.failed) return down;
      }
      if (page.restoring) await page.restoring; // a Stop's rebuild comes first
      if (!page.engine || page.failed) return down;
      const mark = ctx.journal.ops.length;
      const at = ctx.journal.record(method, args);
      page.inFlight.add(mark);
      try {
        return { at, result: await page.engine.call(method, args) };
      } finally {
        page.inFlight.delete(mark);
      }
    },

    /** Whether Stop can end a running call: only a worker of the page's own can be stopped (stop.js). */
    canStop() {
      return !!(page.engine && page.engine.stop) && !page.failed;
    },

    /**
     * Stops whatever the engine runs (stop.js): the waiting calls are
     * answered {error:"stopped", message: STOPPED}, the journal forgets them
     * (none of them ran to an end), and the fresh engine replays the calls
     * before them, with the page held meanwhile. Resolves once the page is
     * ready again.
     */
    async stop() {
      if (!ctx.canStop() || page.restoring || page.inFlight.size === 0) return;
      const cut = Math.min(...page.inFlight);
      let done;
      page.restoring = new Promise((resolve) => {
        done = resolve;
      });
      const release = hold("Stopping the script and restarting the engine…");
      ctx.journal.ops.length = Math.min(cut, ctx.journal.ops.length);
      try {
        if (!(await page.engine.stop({ error: "stopped", message: STOPPED }))) return;
        const ops = ctx.journal.ops.slice();
        // The learner ran every script in the journal on this page already:
        // all of them may run again.
        const found = await page.engine.call("review", [ops]);
        const allowed = found && Array.isArray(found.lua) ? found.lua.map((script) => script.sha) : [];
        for (const op of ops) await page.engine.call("replay", [op, allowed]);
      } finally {
        page.restoring = null;
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
      if (page.failed || !page.engine) return { error: "js", message: "the engine is not running" };
      const [method, ...args] = op;
      ctx.journal.record(method, args);
      return page.engine.call("replay", [op, allowed]);
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
      const snapshotOf = oncePerQueue(ctx);
      for (const w of page.widgets.values()) {
        if (!page.started.has(w)) continue; // it starts on the live engine (startRecorded)
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

  return ctx;
}

/**
 * A snapshot getter that asks the engine once per queue, however many
 * widgets show that queue: one drawing of the page, one snapshot each.
 */
export function oncePerQueue(ctx) {
  const taken = new Map();
  return async (queue) => {
    if (!taken.has(queue)) taken.set(queue, await ctx.snapshot(queue));
    return taken.get(queue);
  };
}
