// Widget 1: step the four @enqueue moves.
//
// The first Step (or a jump to a move) runs @enqueue once, traced, for
// real: echomq.trace changes the keyspace exactly as EVAL would, and
// records every move with its line, command, reply and the keyspace after
// it. A snapshot taken just before is step 0. From then on Step, Back and
// the move buttons only index into that record; Reset discards it and gets
// ready for a new run. The keys, with focus in the widget outside a text
// field: → is Step, ← is Back, Home goes to step 0, and End to the last
// step, recording the run first when there is none (as Step does).

import { announce, byId, h, ownsArrows, setText, toggleAttr } from "./dom.js";
import { enqueueVerdictOfReply, formatCommand, formatReply, speakReply } from "./format.js";
import { markLines, renderCode } from "./code.js";
import {
  duplicateId,
  fillHash,
  fillPending,
  freshId,
  keysOf,
  malformedId,
  sameView,
  viewFromEntries,
  viewFromSnapshot,
  viewMarks,
} from "./keyspace.js";

export function mountStepper(root, ctx) {
  const queue = root.dataset.queue || "q";
  const payload = root.dataset.payload || "{}";
  const keys = keysOf(queue);

  const el = {
    presets: [...root.querySelectorAll('input[name="stepper-preset"]')],
    id: byId("stepper-id"),
    moves: [...root.querySelectorAll("li.move")],
    back: byId("stepper-back"),
    step: byId("stepper-step"),
    reset: byId("stepper-reset"),
    position: byId("stepper-position"),
    stale: byId("stepper-stale"),
    command: byId("stepper-command"),
    reply: byId("stepper-reply"),
    outcome: byId("stepper-outcome"),
    source: byId("stepper-source"),
    sha: byId("stepper-sha"),
    pending: byId("stepper-pending").tBodies[0],
    row: byId("stepper-row").tBodies[0],
    rowKey: byId("stepper-row-key"),
    live: byId("stepper-live"),
  };

  let script = null; // the @enqueue Script from the engine
  let lines = []; // its rendered lines, from 1
  let clearMarks = () => {};

  const state = {
    preset: "fresh", // "fresh" | "duplicate" | "nokind" | null for a typed id
    id: "",
    live: null, // the latest snapshot: step 0 before a run is recorded
    run: null, // { id, before, steps, reply, stale }
    index: 0, // 0 = before move 1; i = the i-th recorded step
  };

  const say = (text) => announce(el.live, text);
  const totalMoves = () => (script ? script.moves.length : el.moves.length);
  const moveOf = (n) => (script ? script.moves.find((m) => m.move === n) : null);

  // ---- choosing the id ----------------------------------------------------

  /** The id a preset stands for in this snapshot (null: none exists yet). */
  function presetId(preset, snap) {
    if (preset === "fresh") return freshId(snap);
    if (preset === "duplicate") return duplicateId(snap);
    if (preset === "nokind") return malformedId(snap);
    return state.id;
  }

  /**
   * Applies the chosen preset: picks its id from the keyspace. "A duplicate"
   * needs a row that exists; when there is none, one job is enqueued first
   * (through the handle, like any producer) so there is something to repeat.
   * Returns a sentence saying what happened, for the announcement.
   */
  function applyPreset() {
    if (!state.preset) return "";
    let note = "";
    let id = presetId(state.preset, state.live);
    if (state.preset === "duplicate" && id === null) {
      id = freshId(state.live);
      const r = ctx.call((e) => e.enqueue(queue, id, payload));
      if (r.verdict === "enqueued") {
        note = `No job existed yet, so ${id} was enqueued first. `;
        ctx.changed("stepper");
      } else {
        note = `Could not enqueue ${id} first: ${r.message || r.error}. `;
      }
    }
    state.id = id ?? "";
    el.id.value = state.id;
    return note;
  }

  function discardRun() {
    state.run = null;
    state.index = 0;
  }

  // ---- recording ----------------------------------------------------------

  /** Runs @enqueue traced with the chosen id; false if it could not. */
  function record() {
    const id = state.id;
    const before = ctx.snapshot(queue);
    if (!before) return false;
    const t = ctx.call((e) => e.trace("enqueue", [keys.job(id), keys.pending], [id, payload]));
    if (!t || t.error || !Array.isArray(t.steps)) {
      setText(el.outcome, `The trace failed: ${(t && t.message) || "no answer"}`);
      say(`The trace failed: ${(t && t.message) || "no answer"}`);
      return false;
    }
    state.run = {
      id,
      before: viewFromSnapshot(before, id),
      steps: t.steps.map((s) => ({ ...s, view: viewFromEntries(s.keyspace, keys, id) })),
      reply: t.reply,
      stale: false,
    };
    state.index = 0;
    ctx.changed("stepper");
    return true;
  }

  function ensureRun() {
    if (state.run) return true;
    if (state.id === "") {
      say("Choose an id first: the Job id field is empty.");
      el.id.focus();
      return false;
    }
    return record();
  }

  // ---- what a step says ---------------------------------------------------

  function reachedMoves(run) {
    return new Set(run.steps.map((s) => s.move).filter((m) => m > 0));
  }

  function skippedText(run) {
    const reached = reachedMoves(run);
    const skipped = (script ? script.moves : []).filter((m) => !reached.has(m.move)).map((m) => m.move);
    if (skipped.length === 0) return "";
    if (skipped.length === 1) return ` Move ${skipped[0]} never ran.`;
    return ` Moves ${skipped.slice(0, -1).join(", ")} and ${skipped[skipped.length - 1]} never ran.`;
  }

  /** The outcome line of step i (1-based) of the run. */
  function outcomeOf(run, i) {
    const step = run.steps[i - 1];
    const next = run.steps[i];
    if (next) {
      const where = next.move > 0 ? `move ${next.move} · ${next.name}` : `line ${next.line}`;
      if (!step.command) {
        return `${JSON.stringify(run.id)} starts with the bytes JOB, so the gate lets it through; the script goes on to ${where}.`;
      }
      return `${step.command[0]} answered ${speakReply(step.reply)}; the script goes on to ${where}.`;
    }
    const verdict = enqueueVerdictOfReply(run.reply);
    const changed = !sameView(run.before, step.view);
    let why = "";
    if (!step.command && run.reply.type === "error") {
      why = `${JSON.stringify(run.id)} does not start with the bytes JOB, so the gate refuses it. `;
    } else if (step.command && run.reply.type === "int" && run.reply.value === "0") {
      why = "The row already exists, so this id was admitted before. ";
    }
    return (
      `${why}The script returns ${speakReply(run.reply)}, and the handle's verdict is ${verdict}.` +
      skippedText(run) +
      (changed ? " The row and the pending entry were written together." : " Nothing was written.")
    );
  }

  /** The announcement of step i: what ran, what came back, and how it ended. */
  function speechOf(run, i) {
    if (i === 0) return `Before move 1: the keyspace as it was before the run of ${run.id}.`;
    const step = run.steps[i - 1];
    const head = step.move > 0 ? `Move ${step.move} of ${totalMoves()}, ${step.name}` : `Line ${step.line}`;
    const what = step.command
      ? `${formatCommand(step.command)} replied ${speakReply(step.reply)}.`
      : run.steps[i]
        ? "no command; the id passed the gate."
        : "no command; the id failed the gate.";
    const end = run.steps[i] ? "" : ` ${outcomeOf(run, i)}`;
    return `${head}: ${what}${end}`;
  }

  // ---- drawing ------------------------------------------------------------

  /** Puts text and nodes in the position line, only when its words change. */
  function showPosition(...parts) {
    const text = parts.map((p) => (typeof p === "string" ? p : p.textContent)).join("");
    if (el.position.textContent !== text) el.position.replaceChildren(...parts);
  }

  function render() {
    const run = state.run;
    const i = state.index;
    const step = run && i > 0 ? run.steps[i - 1] : null;
    const last = run ? run.steps.length : 0;
    const reached = run ? reachedMoves(run) : null;

    // The moves list: done, current, next, skipped, or not run yet.
    for (const li of el.moves) {
      const n = Number(li.dataset.move);
      let s = "idle";
      if (run) {
        if (!reached.has(n)) s = "skipped";
        else if (!step) s = "next";
        else if (n < step.move) s = "done";
        else if (n === step.move) s = "current";
        else s = "next";
      }
      if (li.dataset.state !== s) li.dataset.state = s;
      const status = li.querySelector(".move-status");
      setText(status, { idle: "", next: "to run", done: "done", current: "running", skipped: "skipped" }[s]);
      const button = li.querySelector("button");
      toggleAttr(button, "aria-current", s === "current", "step");
      toggleAttr(button, "aria-disabled", s === "skipped");
    }

    // Where we are.
    // The id is one unit: it moves to the next line whole rather than
    // breaking as "JOB-" and "1".
    const idUnit = (id) => h("span", { class: "id-unit", text: JSON.stringify(id) });
    if (!run) showPosition(`Before move 1 · not run yet · id `, idUnit(state.id));
    else if (!step) showPosition(`Before move 1 · run recorded for `, idUnit(run.id));
    else showPosition(`Move ${step.move} of ${totalMoves()} · ${step.name} · step ${i} of ${last}`);
    el.stale.hidden = !(run && run.stale);

    // The source: the move's lines, and the exact line.
    clearMarks();
    clearMarks = () => {};
    if (step && lines.length > 1) {
      const move = moveOf(step.move);
      clearMarks = markLines(lines, move ? move.first : step.line, move ? move.last : step.line, step.line);
    }

    // The readouts.
    if (!step) {
      setText(el.command, "—");
      setText(el.reply, "—");
      setText(
        el.outcome,
        run
          ? "The keyspace just before the run. Press Step to walk through the moves."
          : "Not run yet. Step runs @enqueue once, for real, on the shared keyspace, and records every move.",
      );
    } else {
      setText(el.command, step.command ? formatCommand(step.command) : "(no command: the gate only reads ARGV[1])");
      setText(el.reply, step.command ? formatReply(step.reply) : "(no reply)");
      setText(el.outcome, outcomeOf(run, i));
    }

    // The keyspace: after this step, marked against the step before.
    const id = run ? run.id : state.id;
    let view;
    let prev = null;
    if (!run) view = viewFromSnapshot(state.live, id);
    else if (!step) view = run.before;
    else {
      view = step.view;
      prev = i === 1 ? run.before : run.steps[i - 2].view;
    }
    const marks = viewMarks(prev, view);
    fillPending(el.pending, view.pending, marks.pending);
    fillHash(el.row, view.row, marks.row);
    setText(el.rowKey, keys.job(id));

    // The transport: Back and Step stay focusable at either end, but say so.
    toggleAttr(el.back, "aria-disabled", i === 0);
    toggleAttr(el.step, "aria-disabled", run !== null && i >= last);
  }

  // ---- actions ------------------------------------------------------------

  function goTo(i) {
    state.index = i;
    render();
    say(speechOf(state.run, i));
  }

  function step() {
    if (!ctx.engine) return;
    if (!state.run) {
      if (!ensureRun()) return render();
      return goTo(1);
    }
    if (state.index >= state.run.steps.length) {
      say(`That was the last move: the script has returned. ${outcomeOf(state.run, state.index)} Press Reset for a new run.`);
      return;
    }
    goTo(state.index + 1);
  }

  function back() {
    if (!ctx.engine) return;
    if (!state.run || state.index === 0) {
      say("Already before move 1.");
      return;
    }
    goTo(state.index - 1);
  }

  /** Home: back to before move 1, from anywhere. */
  function home() {
    if (!ctx.engine) return;
    if (!state.run) {
      say("Already before move 1: nothing has run yet. Step, or End, runs @enqueue.");
      return;
    }
    if (state.index === 0) {
      say("Already before move 1.");
      return;
    }
    goTo(0);
  }

  /** End: the last move, running @enqueue first when it has not run. */
  function end() {
    if (!ctx.engine) return;
    if (!state.run) {
      if (!ensureRun()) return render();
      return goTo(state.run.steps.length);
    }
    if (state.index >= state.run.steps.length) {
      say(`Already at the last move: the script has returned. ${outcomeOf(state.run, state.index)}`);
      return;
    }
    goTo(state.run.steps.length);
  }

  function reset() {
    if (!ctx.engine) return;
    discardRun();
    state.live = ctx.snapshot(queue) || state.live;
    const note = applyPreset();
    render();
    say(`${note}Reset: before move 1. Step runs @enqueue with ${JSON.stringify(state.id)}.`);
  }

  function jump(n) {
    if (!ctx.engine) return;
    if (!ensureRun()) return render();
    const i = state.run.steps.findIndex((s) => s.move === n);
    if (i < 0) {
      const lastStep = state.run.steps[state.run.steps.length - 1];
      state.index = state.run.steps.length;
      render();
      say(`Move ${n} never ran: the script returned at move ${lastStep ? lastStep.move : "?"}. ${outcomeOf(state.run, state.index)}`);
      return;
    }
    goTo(i + 1);
  }

  el.step.addEventListener("click", step);
  el.back.addEventListener("click", back);
  el.reset.addEventListener("click", reset);
  for (const li of el.moves) {
    const n = Number(li.dataset.move);
    li.querySelector("button").addEventListener("click", () => jump(n));
  }

  for (const radio of el.presets) {
    radio.addEventListener("change", () => {
      if (!radio.checked || !ctx.engine) return;
      state.preset = radio.value;
      discardRun();
      const note = applyPreset();
      render();
      say(`${note}${radio.labels[0].textContent}: ${JSON.stringify(state.id)}. Press Step to run @enqueue.`);
    });
  }

  el.id.addEventListener("input", () => {
    state.preset = null;
    for (const radio of el.presets) radio.checked = false;
    state.id = el.id.value;
    discardRun();
    render();
  });

  root.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || ownsArrows(event.target)) return;
    // The keys do what the transport does (TESTING.md lists them too).
    const actions = { ArrowRight: step, ArrowLeft: back, Home: home, End: end };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  });

  // ---- life cycle ---------------------------------------------------------

  return {
    root,
    queue,
    start(snapshot) {
      script = ctx.scripts.get("enqueue") || null;
      if (script) {
        lines = renderCode(el.source, script.source);
        setText(el.sha, `SHA1 ${script.sha.slice(0, 12)}…`);
        el.sha.title = script.sha;
      }
      // A reload may have restored another radio than the default.
      const checked = el.presets.find((r) => r.checked);
      state.preset = checked ? checked.value : null;
      if (!state.preset) state.id = el.id.value;
      state.live = snapshot;
      applyPreset();
      render();
    },
    update(snapshot, source) {
      state.live = snapshot;
      if (source === "stepper") return;
      if (state.run) {
        if (!state.run.stale) {
          state.run.stale = true;
          el.stale.hidden = false;
        }
        return;
      }
      if (state.preset && state.preset !== "duplicate") state.id = presetId(state.preset, snapshot);
      else if (state.preset === "duplicate") state.id = duplicateId(snapshot) ?? state.id;
      if (el.id.value !== state.id) el.id.value = state.id;
      render();
    },
  };
}
