// The script editor's render part: the line layer behind the text, the
// marks on it, the diff, the runs list, the problem panel and one step of
// a run, each from the values the mount file (editor.js) hands it: the
// elements, a run and its index, the history. Never calls the engine,
// never changes the editor's state; what it must remember between draws
// (the line rows, how to clear the marks) it returns.

import { h, setText } from "./dom.js";
import { formatArg, formatReply } from "./format.js";
import { hunks, describeDiff } from "./diff.js";
import { tableOrderNote } from "./tableorder.js";
import { replyLine } from "./wire.js";
import { markStep, showKeyspace, showPosition, showStepReadout } from "./traceview.js";
import { outcomeOf, problemHead } from "./editor-words.js";

// ---- the text and its line layer --------------------------------------------------

/**
 * Keeps the layer of line rows behind the text area as long as the text
 * (one row per line, the number in the gutter), so a line can be marked
 * as the running one or the one an error names. lineEls are the rows
 * drawn so far, from 1; returns the rows now.
 */
export function drawLines(el, lineEls) {
  const count = el.source.value.split("\n").length;
  if (lineEls.length - 1 !== count) {
    const rows = [];
    for (let n = 1; n <= count; n++) rows.push(h("span", { class: "line", "data-line": n }));
    el.lines.replaceChildren(...rows);
    lineEls = [null, ...rows];
  }
  el.lines.scrollTop = el.source.scrollTop;
  return lineEls;
}

/**
 * The note beside the text: what the engine noticed when it ran this very
 * text (run, the walk's run or null), an order or a pick Redis leaves
 * open, or before a run, the note on pairs and next when the text uses them.
 */
export function drawOrderNote(el, run) {
  if (!el.orderNote) return;
  const ran = run && run.source === el.source.value ? run : null;
  const note = ran && ran.note ? `${ran.note} (Noticed by the engine as the script ran.)` : tableOrderNote(el.source.value);
  if (el.orderNote.textContent !== note) setText(el.orderNote, note);
  el.orderNote.hidden = note === "";
}

/**
 * Marks step index's move and line of run, or the line an error names,
 * when run is of the text in the editor. Returns what clears the marks.
 */
export function drawMarks(el, lineEls, run, index) {
  if (!run || run.source !== el.source.value) return () => {};
  const step = index > 0 ? run.steps[index - 1] : null;
  const marks = [];
  if (step) marks.push(markStep(lineEls, run.moves, step));
  const p = run.problem;
  if (p && p.line >= 1 && p.line < lineEls.length) {
    const row = lineEls[p.line];
    row.classList.add("is-error");
    marks.push(() => row.classList.remove("is-error"));
  }
  reveal(el, lineEls, step ? step.line : p ? p.line : 0);
  return () => marks.forEach((clear) => clear());
}

/** Scrolls the text area so that line n shows, when it is out of view: the marked line must be seen. */
function reveal(el, lineEls, n) {
  if (n < 1 || n >= lineEls.length) return;
  const lh = lineEls[n].offsetHeight;
  if (!lh) return;
  const top = (n - 1) * lh;
  const view = el.source.clientHeight;
  if (top < el.source.scrollTop || top + 2 * lh > el.source.scrollTop + view) {
    el.source.scrollTop = Math.max(0, top - Math.floor(view / 3));
    el.lines.scrollTop = el.source.scrollTop;
  }
}

// ---- the diff and the runs ----------------------------------------------------------

/**
 * The diff against the original (ops, diff.js's diffLines), in hunks, with
 * every change said in words; against names the original, edited says
 * whether the text differs from it.
 */
export function drawDiff(el, ops, against, edited) {
  const summary = describeDiff(ops);
  setText(el.diffSummary, summary.startsWith("No changes") ? `No changes: this is ${against} as it was.` : `Against ${against}: ${summary}`);
  setText(el.editState, edited ? "edited" : "unchanged");
  el.editState.dataset.edited = String(edited);
  const items = [];
  hunks(ops, 2).forEach((hunk, i) => {
    if (i > 0) items.push(h("li", { class: "diff-gap", text: "⋯" }));
    for (const o of hunk) {
      const word = { del: "removed", add: "added", same: "" }[o.op];
      // A removed line is numbered as it was in the original, the others as they are now.
      const n = o.op === "del" ? `was line ${o.old}` : `line ${o.new}`;
      items.push(
        h(
          "li",
          { class: `diff-line is-${o.op}`, "data-op": o.op },
          h("span", { class: "diff-tag", text: word }),
          h("span", { class: "diff-n", text: n }),
          h("code", { class: "diff-text", text: o.text === "" ? " " : o.text }),
        ),
      );
    }
  });
  el.diff.replaceChildren(...items);
}

/** The runs list, newest first (editor-words.js's historyEntry). */
export function drawHistory(el, history) {
  el.runs.replaceChildren(
    ...history.map((r) => {
      const wrote = r.writes === 0 ? "wrote nothing" : `${r.writes} write${r.writes === 1 ? "" : "s"}`;
      return h(
        "li",
        { class: r.problem ? "run is-problem" : "run", value: r.n },
        h("span", { class: "run-n", text: `Run ${r.n}` }),
        ` · ${r.label} · ARGV ${r.argv.length ? r.argv.map(formatArg).join(" ") : "(none)"} → `,
        h("code", { text: replyLine(r.reply) }),
        ` · ${wrote}`,
      );
    }),
  );
}

// ---- a run ----------------------------------------------------------------------------

/** Shows what went wrong (Redis's message and the line), or hides the panel when p is null. */
export function drawProblem(el, p) {
  if (!p) {
    el.problem.hidden = true;
    setText(el.problem, "");
    return;
  }
  const where = p.line ? `Line ${p.line}` : "";
  const head = problemHead(p);
  el.problem.replaceChildren(
    ...(head ? [h("strong", { text: head }), " Redis said: ", h("code", { text: p.said || p.message })] : [p.message]),
  );
  el.problem.dataset.kind = p.kind;
  el.problem.dataset.line = where ? String(p.line) : "";
  el.problem.hidden = false;
}

/**
 * One step of the walk: the position, the command and reply, the outcome
 * and the keys. view is { run, index, last, running, problem, keys,
 * liveEntries, pending }: the walk's run (or null) at index of last, the
 * editor's problem, and before any run the KEYS in the field with the
 * engine's entries for them.
 */
export function drawStep(el, view) {
  const { run, index: i, problem } = view;
  const step = run && i > 0 ? run.steps[i - 1] : null;
  const stopped = !run && problem && problem.kind === "stopped";
  if (!run) {
    showPosition(el.position, view.running ? "Running the script…" : stopped ? "Stopped" : "Not run yet");
  } else if (!step) {
    showPosition(el.position, run.steps.length ? `Before the first step · run ${run.n}` : `Run ${run.n} · nothing to step through`);
  } else {
    const where = step.move > 0 ? `move ${step.move} · ${step.name} · line ${step.line}` : `line ${step.line}`;
    showPosition(el.position, `Step ${i} of ${view.last} · ${where} · run ${run.n}`);
  }
  showStepReadout(el.command, el.reply, step, "(no command in this move)");
  // A run with no step at all (a syntax error, a script that called
  // nothing) still has a reply: the script's own.
  if (run && run.steps.length === 0) setText(el.reply, formatReply(run.reply));
  if (stopped) setText(el.outcome, problem.message);
  else if (!run) setText(el.outcome, "Not run yet. Run or Step sends the script to the engine, which runs it for real on the page's keyspace.");
  else setText(el.outcome, outcomeOf(run, i, view.pending));

  if (run) {
    const prev = i === 0 ? null : i === 1 ? run.before : run.steps[i - 2].keyspace;
    showKeyspace(el.keyspace, run.shown, step ? step.keyspace : run.before, prev);
  } else {
    showKeyspace(el.keyspace, view.keys, view.liveEntries, null);
  }
}
