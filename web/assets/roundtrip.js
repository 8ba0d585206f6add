// Widget 4: the round trip. Enqueue (id + payload), claim with a lease,
// pause and resume the queue, and move the server clock that leases are
// measured against. The wire log shows how the connector sent each script:
// EVALSHA first, EVAL once on NOSCRIPT.
//
// Two bulk controls let a learner try it at depth: Enqueue 1,000 (ids
// numbered after the last one) and Claim all. Each is many calls of the
// handles, one @enqueue or claim/3 per job, made inside the engine's worker
// (echomq.enqueueMany, echomq.claimMany), which also times them; the page
// shows what they did as a measurement with its unit. A permalink records a
// bulk call as one operation, and Claim all as one per 1,000 claims.

import { announce, byId, partsOf, setText, toggleAttr } from "./dom.js";
import { claimVerdict, count, duration, enqueueVerdict, numberOrText, utc, wholeMs } from "./format.js";
import { drawQueue, freshId, queueTables } from "./keyspace.js";
import {
  bulkSays,
  clearReadouts,
  clockSays,
  drawAdvanceHint,
  drawClaim,
  drawClock,
  drawEnqueue,
  drawSlot,
  logCall,
  pending,
  WIRE_KEEP,
} from "./roundtrip-draw.js";
import { claimAllText, claimNote, claimReading, enqueueManyText, leaseLabel, leaseText } from "./roundtrip-words.js";

/** Jobs per click of "Enqueue 1,000". */
const BULK_ENQUEUE = 1000;
/** Claims per engine call of "Claim all": the tables and the line move on between calls. */
const CLAIM_CHUNK = 1000;

/** @returns {import("./widget.js").Widget} */
export function mountRoundTrip(root, ctx) {
  const queue = root.dataset.queue || "q";
  const el = {
    ...partsOf("roundtrip", [
      "id", "payload", "enqueue", "lease", "pause", "resume", "state", "clock", "advance", "advanceHint",
      "clockStatus", "enqueueResult", "claimResult", "claimExplain", "enqueueMany", "claimAll", "bulkResult",
      "wire", "slot", "live",
    ]),
    claim: byId("claim"),
    advanceBy: byId("roundtrip-advance-ms"),
    ...queueTables("roundtrip"),
  };

  let snapshot = null;
  let typed = false;
  const say = (text) => announce(el.live, text);

  // ---- what the readouts show, from the engine's replies ----------------------
  //
  // Each readout is drawn from a call's arguments and the engine's reply
  // only, so that a link, whose replay answers the same calls the same,
  // draws it again from the replay (restore) instead of carrying the text.
  // shown holds the journal places of the calls the readouts show.

  /** The journal places behind the readouts: the last enqueue and claim, and the wire log's calls, oldest first. */
  let shown = { enqueue: null, claim: null, log: [] };

  /** Keeps a logged call's journal places, as many as the wire log shows. */
  function keep(entry) {
    shown.log.push(entry);
    if (shown.log.length > WIRE_KEEP) shown.log.shift();
  }

  /** An enqueue's line in the wire log. */
  function logEnqueue(id, result) {
    logCall(el, ctx.scripts, `enqueue ${id}`, enqueueVerdict(result), result.wire, "No script was sent.");
  }

  async function enqueue() {
    if (!ctx.ready) return;
    const id = el.id.value.trim() === "" ? freshId(snapshot) : el.id.value;
    pending(el.enqueueResult);
    const { result, at } = await ctx.callAt("enqueue", queue, id, el.payload.value);
    typed = false;
    await ctx.changed("roundtrip");
    // The verdict is shown last, once the tables show what it did.
    logEnqueue(id, result);
    const verdict = drawEnqueue(el, result);
    shown.enqueue = at;
    keep(["enqueue", at]);
    say(`Enqueue ${id}: ${verdict}.`);
  }

  // The last lease handed over, so that its explanation follows the clock:
  // {id, attempts, deadline}, or null when the last claim leased nothing.
  let lastLease = null;

  async function claim() {
    if (!ctx.ready) return;
    // The lease goes to claim/3 as typed (a number when it is one): the
    // handle's guard refuses anything but a positive integer before a
    // script is sent, as the course's Elixir handle would.
    const lease = numberOrText(el.lease.value);
    pending(el.claimResult);
    const { result, at } = await ctx.callAt("claim", queue, lease);
    await ctx.changed("roundtrip");
    logClaim(lease, result);
    const { verdict, explain } = showClaim(lease, result);
    shown.claim = at;
    keep(["claim", at]);
    say(`Claim: ${verdict}. ${explain}`);
  }

  /** A claim's line in the wire log. A claim that sent no script and was not refused found the queue paused. */
  function logClaim(lease, result) {
    logCall(el, ctx.scripts, `claim, lease ${leaseLabel(lease)}`, claimVerdict(result), result.wire, claimNote(result));
  }

  /**
   * The last claim: its verdict, and what it means at the clock of the
   * snapshot drawn after it. Returns both.
   */
  function showClaim(lease, result) {
    const { held, explain } = claimReading(lease, result, snapshot);
    lastLease = held;
    return drawClaim(el, result, explain);
  }

  // ---- at depth ---------------------------------------------------------------

  async function enqueueMany() {
    if (!ctx.ready) return;
    bulkSays(el, `Enqueueing ${count(BULK_ENQUEUE)} jobs…`, "running");
    const { result, at } = await ctx.callAt("enqueueMany", queue, BULK_ENQUEUE, el.payload.value);
    typed = false;
    await ctx.changed("roundtrip");
    const text = enqueueManyText(result, BULK_ENQUEUE);
    logEnqueueMany(result);
    keep(["enqueueMany", at]);
    bulkSays(el, text, result.error ? "error" : "done");
    say(text);
  }

  /** Enqueue 1,000's line in the wire log. */
  function logEnqueueMany(result) {
    logCall(el, ctx.scripts, `enqueue ×${count(BULK_ENQUEUE)}`, result.error ? result.error : `${count(result.enqueued ?? 0)} enqueued`, null,
      "One @enqueue per job, EVALSHA each, not listed one by one.");
  }

  /** Claim all's line in the wire log: claimed is the sum over its calls, result the last call's answer. */
  function logClaimAll(lease, claimed, result) {
    logCall(el, ctx.scripts, `claim all, lease ${leaseLabel(lease)}`,
      result.error ? result.error : `${count(claimed)} leased`, null, "claim/3 per job, EVALSHA each, not listed one by one.");
  }

  async function claimAll() {
    if (!ctx.ready) return;
    const lease = numberOrText(el.lease.value);
    let claimed = 0;
    let ms = 0;
    let first = null;
    let last = null;
    let result;
    const ats = [];
    bulkSays(el, "Claiming…", "running");
    for (;;) {
      let at;
      ({ result, at } = await ctx.callAt("claimMany", queue, lease, CLAIM_CHUNK));
      ats.push(at);
      if (result.error && result.claimed === undefined) break;
      claimed += result.claimed;
      ms += result.ms;
      first = first ?? result.first ?? null;
      last = result.last ?? last;
      await ctx.changed("roundtrip");
      if (result.error || result.empty) break;
      bulkSays(el, `Claiming… ${count(claimed)} so far, in ${Math.round(ms)} ms of engine time.`, "running");
    }
    const text = claimAllText(result, claimed, ms, first, last);
    if (result.error && claimed === 0) await ctx.changed("roundtrip");
    logClaimAll(lease, claimed, result);
    keep(["claimAll", ...ats]);
    bulkSays(el, text, result.error ? "error" : "done");
    say(text);
  }

  async function setPaused(pause) {
    if (!ctx.ready) return;
    const result = await ctx.call(pause ? "pause" : "resume", queue);
    await ctx.changed("roundtrip");
    if (result.error) say(`${pause ? "Pause" : "Resume"} failed: ${result.message || result.error}`);
    else say(pause ? "Paused: claims now answer :empty and leave pending alone." : "Resumed: claims run @claim again.");
  }

  // ---- the clock (its own status line: roundtrip-draw.js) -----------------------

  async function advance() {
    if (!ctx.ready) return;
    // The page checks the amount itself, so a learner reads why in their
    // own terms; the engine still judges what the page lets through.
    const typedMs = el.advanceBy.value.trim();
    const ms = wholeMs(typedMs);
    if (ms === null) {
      const what = typedMs === "" ? "the field is empty" : `${JSON.stringify(typedMs)} is not one`;
      clockSays(el, `Advance by a whole number of milliseconds, 0 or more: ${what}. The clock did not move.`, true);
      return;
    }
    const result = await ctx.call("advance", ms);
    if (result.error) {
      clockSays(el, `The clock did not move: the engine refused to advance it by ${ms} ms. It said: ${result.message || result.error}`, true);
      return;
    }
    await ctx.changed("roundtrip");
    clockSays(el, `The server clock moved ${duration(ms)} forward, to ${utc(result.now)}.`, false);
  }

  el.enqueue.addEventListener("click", ctx.serially(enqueue));
  el.claim.addEventListener("click", ctx.serially(claim));
  el.enqueueMany.addEventListener("click", ctx.serially(enqueueMany));
  el.claimAll.addEventListener("click", ctx.serially(claimAll));
  el.pause.addEventListener("click", ctx.serially(() => setPaused(true)));
  el.resume.addEventListener("click", ctx.serially(() => setPaused(false)));
  el.advance.addEventListener("click", ctx.serially(advance));
  el.id.addEventListener("input", () => {
    typed = el.id.value !== "";
  });
  el.advanceBy.addEventListener("input", () => {
    drawAdvanceHint(el);
    // Fixed as typed: the field is no longer marked; the status line keeps
    // saying what the last Advance did until the next one.
    if (wholeMs(el.advanceBy.value) !== null) toggleAttr(el.advanceBy, "aria-invalid", false);
  });
  // Enter in a field presses the button of its panel.
  const enterPresses = [
    [el.id, el.enqueue],
    [el.payload, el.enqueue],
    [el.lease, el.claim],
    [el.advanceBy, el.advance],
  ];
  for (const [field, button] of enterPresses) {
    field.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.isComposing) {
        event.preventDefault();
        button.click();
      }
    });
  }

  // ---- a link's readouts ------------------------------------------------------

  /** Empties the readouts and what they were drawn from. */
  function forget() {
    shown = { enqueue: null, claim: null, log: [] };
    lastLease = null;
    clearReadouts(el);
  }

  /**
   * Draws the readouts a link saved (its shown) from the link's replay:
   * each place must name a replayed call of this queue of the kind the
   * readout shows, or that readout stays empty.
   */
  function replay(saved, replayed) {
    if (!saved || typeof saved !== "object") return;
    const call = (at, method) => {
      const r = Number.isSafeInteger(at) ? replayed[at] : undefined;
      return r && r.method === method && r.args[0] === queue && r.result && typeof r.result === "object" ? r : null;
    };
    const log = Array.isArray(saved.log) ? saved.log.slice(-WIRE_KEEP) : [];
    for (const entry of log) {
      if (!Array.isArray(entry)) continue;
      const [kind, ...ats] = entry;
      if (kind === "enqueue" && call(ats[0], "enqueue")) {
        const r = call(ats[0], "enqueue");
        logEnqueue(r.args[1], r.result);
      } else if (kind === "claim" && call(ats[0], "claim")) {
        const r = call(ats[0], "claim");
        logClaim(r.args[1], r.result);
      } else if (kind === "enqueueMany" && call(ats[0], "enqueueMany")) {
        logEnqueueMany(call(ats[0], "enqueueMany").result);
      } else if (kind === "claimAll" && ats.length > 0 && ats.every((at) => call(at, "claimMany"))) {
        const rs = ats.map((at) => call(at, "claimMany"));
        logClaimAll(rs[0].args[1], rs.reduce((n, r) => n + (r.result.claimed || 0), 0), rs[rs.length - 1].result);
      } else {
        continue;
      }
      keep(entry.slice());
    }
    const enq = call(saved.enqueue, "enqueue");
    if (enq) {
      drawEnqueue(el, enq.result);
      shown.enqueue = saved.enqueue;
    }
    const cl = call(saved.claim, "claim");
    if (cl) {
      showClaim(cl.args[1], cl.result);
      shown.claim = saved.claim;
    }
  }

  // ---- drawing --------------------------------------------------------------

  function draw(next, marked) {
    drawSlot(el, next.slots);
    drawQueue(el, marked ? snapshot : null, next);
    drawClock(el, next);

    snapshot = next;
    if (lastLease) setText(el.claimExplain, leaseText(lastLease, next.now));
    if (!typed) {
      const id = freshId(next);
      if (el.id.value !== id) el.id.value = id;
    }
  }

  return {
    root,
    queue,
    /** Starts on a keyspace: a fresh one, or a link's, so nothing of an earlier one is shown. */
    start(snap) {
      forget();
      if (snap) draw(snap, false);
      drawAdvanceHint(el);
    },
    update(snap) {
      draw(snap, true);
    },
    /** The fields a learner typed into, and where in the journal the readouts' calls are, for a permalink. */
    save() {
      return {
        payload: el.payload.value,
        lease: el.lease.value,
        advanceBy: el.advanceBy.value,
        shown: { enqueue: shown.enqueue, claim: shown.claim, log: shown.log.map((e) => e.slice()) },
      };
    },
    /**
     * Puts back the saved fields; anything that is not a short enough
     * string is ignored. The readouts are drawn again from the link's
     * replay: the engine's answers to the calls they showed.
     */
    restore(saved, replayed) {
      if (!saved || typeof saved !== "object") return;
      const fields = { payload: el.payload, lease: el.lease, advanceBy: el.advanceBy };
      for (const [name, input] of Object.entries(fields)) {
        const v = saved[name];
        if (typeof v === "string" && v.length <= 1024 * 1024) input.value = v;
      }
      drawAdvanceHint(el);
      replay(saved.shown, Array.isArray(replayed) ? replayed : []);
    },
  };
}
