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

import { announce, byId, h, partsOf, setText, toggleAttr } from "./dom.js";
import { claimVerdict, count, duration, enqueueVerdict, measurement, numberOrText, relative, utc, wholeMs } from "./format.js";
import { cacheHit, cacheMiss, replyLine, sentParts } from "./wire.js";
import { drawQueue, freshId, queueTables } from "./keyspace.js";

const WIRE_KEEP = 12;

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

  // ---- the wire log ---------------------------------------------------------

  /** One exchange: what the connector sent and what came back. */
  function exchange(x) {
    const sent = sentParts(x, ctx.scripts);
    const hit = cacheHit(x);
    const miss = cacheMiss(x);
    return h(
      "li",
      { class: `exchange${miss ? " is-miss" : ""}${hit ? " is-hit" : ""}` },
      h("code", { class: "sent" }, sent.command, sent.elided ? h("span", { class: "elided", text: sent.elided }) : null),
      h("span", { class: "arrow", "aria-hidden": "true", text: " → " }),
      h("span", { class: "visually-hidden", text: " replied " }),
      h("code", { class: "got", text: replyLine(x.reply) }),
      miss ? h("span", { class: "badge badge-miss", text: "cache miss" }) : null,
      hit ? h("span", { class: "badge badge-hit", text: "cache hit" }) : null,
    );
  }

  function logCall(title, verdict, wire, note) {
    const item = h(
      "li",
      { class: "wire-call" },
      h("p", { class: "wire-title" }, h("span", { class: "wire-what", text: title }), " ", h("code", { class: "wire-verdict", text: verdict })),
      wire && wire.length ? h("ol", { class: "exchanges" }, ...wire.map(exchange)) : h("p", { class: "wire-none", text: note }),
    );
    el.wire.prepend(item);
    while (el.wire.children.length > WIRE_KEEP) el.wire.lastElementChild.remove();
  }

  // ---- actions --------------------------------------------------------------

  /** Marks a result as on its way, so an old verdict is never read as the new one. */
  function pending(out) {
    setText(out, "…");
    out.dataset.verdict = "pending";
  }

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
    logCall(`enqueue ${id}`, enqueueVerdict(result), result.wire, "No script was sent.");
  }

  /** The last enqueue's verdict. Returns it. */
  function showEnqueue(result) {
    const verdict = enqueueVerdict(result);
    setText(el.enqueueResult, verdict);
    el.enqueueResult.dataset.verdict = result.verdict || result.error || "";
    return verdict;
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
    const verdict = showEnqueue(result);
    shown.enqueue = at;
    keep(["enqueue", at]);
    say(`Enqueue ${id}: ${verdict}.`);
  }

  // The last lease handed over, so that its explanation follows the clock:
  // {id, attempts, deadline}, or null when the last claim leased nothing.
  let lastLease = null;

  /**
   * The last claim in words at server time now: the lease's expiry, and,
   * once it has passed, what becomes of the job: it stays in active until
   * something reclaims it, which a later dive of the course builds.
   */
  function leaseText(lease, now) {
    const token = `attempts is now ${lease.attempts}, the fencing token the worker shows when it reports back.`;
    if (lease.deadline === null) return `Leased ${lease.id}: it is in the active set. ${token}`;
    const head = `Leased ${lease.id} until ${lease.deadline} (${utc(lease.deadline)})`;
    if (lease.deadline > now) return `${head}: the lease ends ${relative(lease.deadline, now)} on the server clock. ${token}`;
    return (
      `${head}: that lease ${relative(lease.deadline, now)} on the server clock. ${token}` +
      ` An expired lease stays in active until something reclaims the job; nothing here does yet (a later dive of the course).`
    );
  }

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
    const paused = result.verdict === "empty" && !result.wire;
    logCall(
      `claim, lease ${typeof lease === "number" ? `${lease} ms` : JSON.stringify(lease)}`,
      claimVerdict(result),
      result.wire,
      result.error === "guard"
        ? "Nothing was sent: claim/3's guard refused the lease."
        : paused
          ? "No script was sent: the queue is paused."
          : "No script was sent.",
    );
  }

  /**
   * The last claim: its verdict, and what it means at the clock of the
   * snapshot drawn after it. Returns both.
   */
  function showClaim(lease, result) {
    const verdict = claimVerdict(result);
    let explain = "";
    lastLease = null;
    if (result.verdict === "leased") {
      const held = snapshot && snapshot.active.find((a) => a.id === result.id);
      lastLease = { id: result.id, attempts: result.attempts, deadline: held ? held.deadline : null };
      explain = leaseText(lastLease, snapshot ? snapshot.now : 0);
    } else if (result.verdict === "empty" && !result.wire) {
      explain = "The queue is paused, so claim/3 answered :empty without running @claim. Pending is untouched.";
    } else if (result.verdict === "empty") {
      explain = "@claim found nothing pending and replied with an empty array.";
    } else if (result.error === "guard") {
      explain = `claim/3's guard, when is_integer(lease_ms) and lease_ms > 0, matched no clause for the lease ${JSON.stringify(String(lease))}: the handle raised before sending anything, so no script ran and pending is untouched. @claim has its own check too (send it a bad lease from the editor or the console), because a client in another language may have no such guard.`;
    } else if (result.error === "lease") {
      explain = "@claim refused the lease before its first write, so no job was popped.";
    } else if (result.error) {
      explain = result.message || result.error;
    }
    setText(el.claimExplain, explain);
    setText(el.claimResult, verdict);
    el.claimResult.dataset.verdict = result.verdict || result.error || "";
    return { verdict, explain };
  }

  // ---- at depth ---------------------------------------------------------------

  /** Says what a bulk run did (or is doing), on its status line. */
  function bulkSays(text, state) {
    el.bulkResult.dataset.state = state;
    setText(el.bulkResult, text);
  }

  async function enqueueMany() {
    if (!ctx.ready) return;
    bulkSays(`Enqueueing ${count(BULK_ENQUEUE)} jobs…`, "running");
    const { result, at } = await ctx.callAt("enqueueMany", queue, BULK_ENQUEUE, el.payload.value);
    typed = false;
    await ctx.changed("roundtrip");
    let text;
    if (result.error && result.enqueued === undefined) {
      text = `Enqueue ${count(BULK_ENQUEUE)} failed: ${result.message || result.error}`;
    } else {
      const done = result.enqueued + result.duplicate;
      const range = result.error ? "" : `${result.first} … ${result.last}: `;
      const dupes = result.duplicate ? ` (${count(result.duplicate)} of them duplicates, already there)` : "";
      text = `${range}${measurement(done, "enqueue", result.ms)}${dupes}.`;
      if (result.error) text += ` Then the server refused: ${result.message}`;
    }
    logEnqueueMany(result);
    keep(["enqueueMany", at]);
    bulkSays(text, result.error ? "error" : "done");
    say(text);
  }

  /** Enqueue 1,000's line in the wire log. */
  function logEnqueueMany(result) {
    logCall(`enqueue ×${count(BULK_ENQUEUE)}`, result.error ? result.error : `${count(result.enqueued ?? 0)} enqueued`, null,
      "One @enqueue per job, EVALSHA each, not listed one by one.");
  }

  /** Claim all's line in the wire log: claimed is the sum over its calls, result the last call's answer. */
  function logClaimAll(lease, claimed, result) {
    logCall(`claim all, lease ${typeof lease === "number" ? `${lease} ms` : JSON.stringify(lease)}`,
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
    bulkSays("Claiming…", "running");
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
      bulkSays(`Claiming… ${count(claimed)} so far, in ${Math.round(ms)} ms of engine time.`, "running");
    }
    let text;
    if (result.error && claimed === 0) {
      text = `Claim all failed: ${result.message || result.error}`;
    } else if (claimed === 0 && result.paused) {
      text = "Nothing claimed: the queue is paused, so claim/3 answered :empty without running @claim.";
    } else if (claimed === 0) {
      text = "Nothing claimed: @claim found nothing pending.";
    } else {
      text = `${first} … ${last}: ${measurement(claimed, "claim", ms)}.`;
      if (result.error) text += ` Then the server refused: ${result.message}`;
      else if (result.paused) text += " Then the queue was paused.";
    }
    if (result.error && claimed === 0) await ctx.changed("roundtrip");
    logClaimAll(lease, claimed, result);
    keep(["claimAll", ...ats]);
    bulkSays(text, result.error ? "error" : "done");
    say(text);
  }

  async function setPaused(pause) {
    if (!ctx.ready) return;
    const result = await ctx.call(pause ? "pause" : "resume", queue);
    await ctx.changed("roundtrip");
    if (result.error) say(`${pause ? "Pause" : "Resume"} failed: ${result.message || result.error}`);
    else say(pause ? "Paused: claims now answer :empty and leave pending alone." : "Resumed: claims run @claim again.");
  }

  // ---- the clock --------------------------------------------------------------
  //
  // The clock's panel has its own status line, a live region, so what
  // Advance did (or why it did not) is shown and announced next to the
  // clock, never among the claim's results.

  /** The hint under the Advance field: what the typed amount means, as it is typed. */
  function showAdvanceHint() {
    const ms = wholeMs(el.advanceBy.value);
    setText(
      el.advanceHint,
      ms === null ? "A whole number of milliseconds, 0 or more." : `A whole number of milliseconds: that is ${duration(ms)}.`,
    );
  }

  /** Reports on the clock's status line; trouble also marks the field invalid. */
  function clockSays(text, trouble) {
    el.clockStatus.classList.toggle("is-error", trouble);
    toggleAttr(el.advanceBy, "aria-invalid", trouble);
    announce(el.clockStatus, text);
  }

  async function advance() {
    if (!ctx.ready) return;
    // The page checks the amount itself, so a learner reads why in their
    // own terms; the engine still judges what the page lets through.
    const typedMs = el.advanceBy.value.trim();
    const ms = wholeMs(typedMs);
    if (ms === null) {
      const what = typedMs === "" ? "the field is empty" : `${JSON.stringify(typedMs)} is not one`;
      clockSays(`Advance by a whole number of milliseconds, 0 or more: ${what}. The clock did not move.`, true);
      return;
    }
    const result = await ctx.call("advance", ms);
    if (result.error) {
      clockSays(`The clock did not move: the engine refused to advance it by ${ms} ms. It said: ${result.message || result.error}`, true);
      return;
    }
    await ctx.changed("roundtrip");
    clockSays(`The server clock moved ${duration(ms)} forward, to ${utc(result.now)}.`, false);
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
    showAdvanceHint();
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
    el.wire.replaceChildren();
    for (const out of [el.enqueueResult, el.claimResult]) {
      setText(out, "");
      delete out.dataset.verdict;
    }
    setText(el.claimExplain, "");
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
      showEnqueue(enq.result);
      shown.enqueue = saved.enqueue;
    }
    const cl = call(saved.claim, "claim");
    if (cl) {
      showClaim(cl.args[1], cl.result);
      shown.claim = saved.claim;
    }
  }

  // ---- drawing --------------------------------------------------------------

  /**
   * The slot line: the queue's keys all in one Redis Cluster slot through
   * the tag, and what the same keys without it would do. The slots are the
   * engine's (CLUSTER KEYSLOT's), from the snapshot.
   */
  function drawSlot(slots) {
    if (!slots || !Array.isArray(slots.keys) || slots.keys.length === 0 || !Array.isArray(slots.untagged)) return;
    const first = slots.keys[0].slot;
    const one = slots.keys.every((k) => k.slot === first);
    const code = (text) => h("code", { class: "key", text });
    const said = [
      one ? `All ${slots.keys.length} keys hash to slot ${first} through the ` : "The keys hash to slots ",
      one ? code(slots.tag) : slots.keys.map((k) => `${k.slot}`).join(", "),
      one ? " tag: " : ": ",
    ];
    slots.keys.forEach((k, i) => said.push(i === 0 ? "" : i === slots.keys.length - 1 ? " and " : ", ", code(k.key)));
    said.push(". ");
    const [a, b] = slots.untagged;
    if (a && b && a.slot !== b.slot) {
      said.push(
        "Without the tag, ",
        code(a.key),
        ` would hash to slot ${a.slot} and `,
        code(b.key),
        ` to slot ${b.slot}: on a Redis Cluster, a script that declares both is refused with CROSSSLOT.`,
      );
    }
    el.slot.dataset.slot = one ? String(first) : "";
    el.slot.replaceChildren(...said);
  }

  function draw(next, marked) {
    drawSlot(next.slots);
    drawQueue(el, marked ? snapshot : null, next);

    const clock = h(
      "span",
      { class: "clock-ms" },
      h("code", { text: String(next.now) }),
      " ms",
    );
    const time = h("time", { datetime: new Date(next.now).toISOString(), class: "clock-utc", text: utc(next.now) });
    el.clock.replaceChildren(clock, h("span", { class: "sep", "aria-hidden": "true", text: " · " }), time);

    const state = next.paused ? "paused" : "running";
    if (el.state.dataset.state !== state) el.state.dataset.state = state;
    setText(el.state, next.paused ? "Paused: claims answer :empty" : "Running: claims run @claim");

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
      showAdvanceHint();
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
      showAdvanceHint();
      replay(saved.shown, Array.isArray(replayed) ? replayed : []);
    },
  };
}
