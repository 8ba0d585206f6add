// Widget 3: run @enqueue through the handle and read the three verdicts.
//
// "Enqueue a job" sends the id in the field (a fresh JOB-n unless the
// learner typed one), "Enqueue it again" repeats the last id admitted, and
// "Try a malformed id" sends one the gate refuses. Each result shows the
// handle's verdict and the script's raw reply; the tables show the keys.

import { announce, byId, setText } from "./dom.js";
import { enqueueVerdict, exString, formatReply } from "./format.js";
import { duplicateId, fillPending, fillRows, freshId, malformedId, snapshotMarks } from "./keyspace.js";

export function mountVerdicts(root, ctx) {
  const queue = root.dataset.queue || "q";
  const payload = root.dataset.payload || "{}";
  const el = {
    id: byId("verdicts-id"),
    enqueue: byId("enqueue"),
    again: byId("verdicts-again"),
    malformed: byId("verdicts-malformed"),
    call: byId("verdicts-call"),
    verdict: byId("verdict"),
    reply: byId("verdicts-reply"),
    explain: byId("verdicts-explain"),
    pending: byId("verdicts-pending").tBodies[0],
    rows: byId("verdicts-rows").tBodies[0],
    live: byId("verdicts-live"),
  };

  let snapshot = null; // the last one drawn
  let typed = false; // the learner typed the id: do not replace it
  let lastAdmitted = null; // the last id this widget enqueued

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

  function run(id, what, note = "") {
    if (!ctx.engine) return;
    const result = ctx.call((e) => e.enqueue(queue, id, payload));
    const verdict = enqueueVerdict(result);
    const wire = Array.isArray(result.wire) ? result.wire : [];
    const raw = wire.length ? wire[wire.length - 1].reply : null;
    setText(el.call, `Jobs.enqueue(conn, ${exString(queue)}, ${exString(id)}, ${exString(payload)})`);
    setText(el.verdict, verdict);
    el.verdict.dataset.verdict = result.verdict || result.error || "";
    setText(el.reply, raw ? formatReply(raw) : "(no script ran)");
    setText(el.explain, note + (explanations[verdict] || `The handle passed the server's answer through: ${result.message || result.error}.`));
    if (result.verdict === "enqueued") lastAdmitted = id;
    typed = false;
    ctx.changed("verdicts");
    announce(el.live, `${what} ${id}: ${verdict}. ${raw ? `The script replied ${formatReply(raw)}.` : ""}`);
  }

  el.enqueue.addEventListener("click", () => {
    const id = el.id.value.trim() === "" ? freshId(snapshot) : el.id.value;
    run(id, "Enqueue");
  });
  el.again.addEventListener("click", () => {
    const id = lastAdmitted ?? duplicateId(snapshot);
    if (id === null) {
      const first = el.id.value.trim() === "" ? freshId(snapshot) : el.id.value;
      run(first, "Enqueue", "No job had been enqueued yet, so this was its first time. Press it again to repeat it. ");
      return;
    }
    run(id, "Enqueue again");
  });
  el.malformed.addEventListener("click", () => run(malformedId(snapshot), "Enqueue the malformed id"));
  el.id.addEventListener("input", () => {
    typed = el.id.value !== "";
  });

  function draw(next, marked) {
    const marks = marked ? snapshotMarks(snapshot, next) : snapshotMarks(null, next);
    fillPending(
      el.pending,
      next.pending.map((p) => ({ member: p.id, score: p.score })),
      marks.pending,
    );
    fillRows(el.rows, next.rows, marks.rows);
    snapshot = next;
    suggest();
  }

  return {
    root,
    queue,
    start(snap) {
      if (snap) draw(snap, false);
    },
    update(snap) {
      draw(snap, true);
    },
  };
}
