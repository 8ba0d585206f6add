// The round trip's render part: writes the wire log, the readouts (the
// last enqueue and claim, the bulk and clock status lines), the slot line
// and the clock from the values the mount file (roundtrip.js) hands it: a
// call's result, a snapshot, a line of text. Never calls the engine,
// never keeps state of its own.

import { announce, h, setText, toggleAttr } from "./dom.js";
import { claimVerdict, enqueueVerdict, utc, wholeMs } from "./format.js";
import { cacheHit, cacheMiss, replyLine, sentParts } from "./wire.js";
import { advanceHintText } from "./roundtrip-words.js";

/** How many calls the wire log shows, newest first. */
export const WIRE_KEEP = 12;

// ---- the wire log -------------------------------------------------------------

/** One exchange: what the connector sent and what came back. scripts names the protocol's scripts (ctx.scripts). */
function exchange(x, scripts) {
  const sent = sentParts(x, scripts);
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

/** Puts one call at the top of the wire log: its exchanges, or note when it sent none. */
export function logCall(el, scripts, title, verdict, wire, note) {
  const item = h(
    "li",
    { class: "wire-call" },
    h("p", { class: "wire-title" }, h("span", { class: "wire-what", text: title }), " ", h("code", { class: "wire-verdict", text: verdict })),
    wire && wire.length ? h("ol", { class: "exchanges" }, ...wire.map((x) => exchange(x, scripts))) : h("p", { class: "wire-none", text: note }),
  );
  el.wire.prepend(item);
  while (el.wire.children.length > WIRE_KEEP) el.wire.lastElementChild.remove();
}

// ---- the readouts -------------------------------------------------------------

/** Marks a result as on its way, so an old verdict is never read as the new one. */
export function pending(out) {
  setText(out, "…");
  out.dataset.verdict = "pending";
}

/** The last enqueue's verdict. Returns it. */
export function drawEnqueue(el, result) {
  const verdict = enqueueVerdict(result);
  setText(el.enqueueResult, verdict);
  el.enqueueResult.dataset.verdict = result.verdict || result.error || "";
  return verdict;
}

/** The last claim's verdict and explain (roundtrip-words.js's claimReading). Returns both. */
export function drawClaim(el, result, explain) {
  const verdict = claimVerdict(result);
  setText(el.claimExplain, explain);
  setText(el.claimResult, verdict);
  el.claimResult.dataset.verdict = result.verdict || result.error || "";
  return { verdict, explain };
}

/** Empties the readouts: the wire log, the last enqueue and the last claim. */
export function clearReadouts(el) {
  el.wire.replaceChildren();
  for (const out of [el.enqueueResult, el.claimResult]) {
    setText(out, "");
    delete out.dataset.verdict;
  }
  setText(el.claimExplain, "");
}

/** Says what a bulk run did (or is doing), on its status line. */
export function bulkSays(el, text, state) {
  el.bulkResult.dataset.state = state;
  setText(el.bulkResult, text);
}

// ---- the clock ------------------------------------------------------------------
//
// The clock's panel has its own status line, a live region, so what
// Advance did (or why it did not) is shown and announced next to the
// clock, never among the claim's results.

/** The hint under the Advance field: what the typed amount means, as it is typed. */
export function drawAdvanceHint(el) {
  setText(el.advanceHint, advanceHintText(wholeMs(el.advanceBy.value)));
}

/** Reports on the clock's status line; trouble also marks the field invalid. */
export function clockSays(el, text, trouble) {
  el.clockStatus.classList.toggle("is-error", trouble);
  toggleAttr(el.advanceBy, "aria-invalid", trouble);
  announce(el.clockStatus, text);
}

// ---- the snapshot -----------------------------------------------------------------

/**
 * The slot line: the queue's keys all in one Redis Cluster slot through
 * the tag, and what the same keys without it would do. The slots are the
 * engine's (CLUSTER KEYSLOT's), from the snapshot.
 */
export function drawSlot(el, slots) {
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

/** The server clock (ms and UTC) and whether the queue is paused, from a snapshot. */
export function drawClock(el, next) {
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
}
