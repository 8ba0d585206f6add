// Widget 3: run @enqueue through the handle and read the three verdicts.
//
// "Enqueue a job" sends the id in the field (a fresh JOB-n unless the
// learner typed one), "Enqueue it again" sends the id "Enqueue a job" sent
// last (until there is one it says "Enqueue a job first" and does nothing),
// and "Try a malformed id" sends one the gate refuses. Each result shows the
// handle's verdict and the script's raw reply; the tables show the keys.

import { announce, byId, h, partsOf, setText, toggleAttr } from "./dom.js";
import { enqueueVerdict, exString, formatReply } from "./format.js";
import { drawQueue, freshId, malformedId, queueTables } from "./keyspace.js";
import { serverAnswered } from "./errors.js";

/** @returns {import("./widget.js").Widget} */
export function mountVerdicts(root, ctx) {
  const queue = root.dataset.queue || "q";
  const payload = root.dataset.payload || "{}";
  const el = {
    ...partsOf("verdicts", ["id", "again", "againHint", "malformed", "call", "reply", "explain", "live"]),
    enqueue: byId("enqueue"),
    verdict: byId("verdict"),
    ...queueTables("verdicts", ["pending", "rows"]),
  };

  let snapshot = null; // the last one drawn
  let typed = false; // the learner typed the id: do not replace it
  // The id "Enqueue a job" last sent and the server answered: the "it" of
  // "Enqueue it again". Another widget's jobs never count, and neither does
  // the malformed id.
  let lastSent = null;

  // The page's own words for "Enqueue it again" before there is an "it".
  const needsJob = [...el.againHint.childNodes].map((n) => n.cloneNode(true));

  /** "Enqueue it again" says what it will send, or that it needs a job first. */
  function showAgain() {
    toggleAttr(el.again, "aria-disabled", lastSent === null);
    if (lastSent === null) {
      el.againHint.replaceChildren(...needsJob.map((n) => n.cloneNode(true)));
      return;
    }
    el.againHint.replaceChildren("Sends ", h("code", { text: lastSent }), " once more: the id ", h("strong", { text: "Enqueue a job" }), " sent last.");
  }

  function suggest() {
    if (!typed && snapshot) {
      const id = freshId(snapshot);
      if (el.id.value !== id) el.id.value = id;
    }
  }

  const explanations = {
    "{:ok, :enqueued}": "Admitted. @enqueue wrote the row and the pending entry, and replied 1.",
    "{:ok, :duplicate}": "Seen before. The row already existed, so @enqueue wrote nothing and replied 0.",
    "{:error, :kind}": "Refused at the gate. The id does not start with the bytes JOB, so @enqueue replied EMQKIND before it touched any key.",
  };

  // The buttons work on the recorded verdicts while the engine loads
  // (recorded.js); a press the recording does not hold waits for the engine.
  const usable = () => ctx.ready || ctx.recorded;

  // The journal places of the calls behind what is shown (see ctx.callAt):
  // the latest verdict's, and that of the enqueue "it" is, for a link to
  // draw both again from its replay.
  let shown = { last: null, sent: null };

  /**
   * Shows one enqueue's call, the script's raw reply and the handle's
   * verdict, from the call's arguments and the engine's reply alone.
   * Returns the verdict and the raw reply.
   */
  function show(id, p, result) {
    const verdict = enqueueVerdict(result);
    const wire = Array.isArray(result.wire) ? result.wire : [];
    const raw = wire.length ? wire[wire.length - 1].reply : null;
    setText(el.call, `Jobs.enqueue(conn, ${exString(queue)}, ${exString(id)}, ${exString(p)})`);
    setText(el.reply, raw ? formatReply(raw) : "(no script ran)");
    setText(el.explain, explanations[verdict] || `The handle passed the server's answer through: ${result.message || result.error}.`);
    setText(el.verdict, verdict);
    el.verdict.dataset.verdict = result.verdict || result.error || "";
    return { verdict, raw };
  }

  async function run(id, what) {
    if (!usable()) return null;
    setText(el.verdict, "…");
    el.verdict.dataset.verdict = "pending";
    const { result, at } = await ctx.callAt("enqueue", queue, id, payload);
    typed = false;
    await ctx.changed("verdicts");
    const { verdict, raw } = show(id, payload, result);
    shown.last = at;
    announce(el.live, `${what} ${id}: ${verdict}. ${raw ? `The script replied ${formatReply(raw)}.` : ""}`);
    return { result, at };
  }

  el.enqueue.addEventListener(
    "click",
    ctx.serially(async () => {
      const id = el.id.value.trim() === "" ? freshId(snapshot) : el.id.value;
      const ran = await run(id, "Enqueue");
      if (ran && serverAnswered(ran.result)) {
        lastSent = id;
        shown.sent = ran.at;
        showAgain();
      }
    }),
  );
  el.again.addEventListener("click", ctx.serially(async () => {
    if (!usable()) return;
    if (lastSent === null) {
      announce(el.live, "Enqueue a job first. Enqueue it again sends the id that Enqueue a job sent last, and it has sent none yet.");
      return;
    }
    await run(lastSent, "Enqueue again");
  }));
  el.malformed.addEventListener("click", ctx.serially(() => run(malformedId(snapshot), "Enqueue the malformed id")));
  el.id.addEventListener("input", () => {
    typed = el.id.value !== "";
  });

  function draw(next, marked) {
    drawQueue(el, marked ? snapshot : null, next);
    snapshot = next;
    suggest();
  }

  return {
    root,
    queue,
    /** The controls that work on the recorded verdicts, before the engine is ready. */
    recordedControls: [el.enqueue, el.again, el.malformed],
    /** Starts on a keyspace (a fresh one, or a link's): nothing of an earlier one is shown or sent again. */
    start(snap) {
      lastSent = null;
      shown = { last: null, sent: null };
      if (snap) draw(snap, false);
      showAgain();
    },
    update(snap) {
      draw(snap, true);
    },
    /** Where in the journal the latest verdict's call and "it" are, for a permalink. */
    save() {
      return { ...shown };
    },
    /**
     * Draws the latest verdict again from the link's replay, and brings
     * back what "Enqueue it again" sends. A place that is not a replayed
     * enqueue on this queue is ignored.
     */
    restore(saved, replayed) {
      if (!saved || typeof saved !== "object" || !Array.isArray(replayed)) return;
      const call = (at) => {
        const r = Number.isSafeInteger(at) ? replayed[at] : undefined;
        return r && r.method === "enqueue" && r.args[0] === queue && r.result && typeof r.result === "object" ? r : null;
      };
      const last = call(saved.last);
      if (last) {
        show(last.args[1], last.args[2], last.result);
        shown.last = saved.last;
      }
      const sent = call(saved.sent);
      if (sent && serverAnswered(sent.result)) {
        lastSent = sent.args[1];
        shown.sent = saved.sent;
        showAgain();
      }
    },
  };
}
