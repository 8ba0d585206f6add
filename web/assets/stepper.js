// Widget 1: step the four @enqueue moves.
//
// The first Step (or a jump to a move) runs @enqueue once, traced, for
// real: echomq.trace changes the keyspace exactly as EVAL would (and caches
// the script as EVAL does), and records every move with its line, command,
// reply and the keys it touched after it; its keys as they were before the
// run are step 0, and the handle's verdict comes with it. The engine also
// says, when asked, whether a key the stepper shows was written since. From then on Step, Back and
// the move buttons only index into that record; Reset discards it and gets
// ready for a new run. The keys, with focus in the widget outside a text
// field: → is Step, ← is Back, Home goes to step 0, and End to the last
// step, recording the run first when there is none (as Step does). The
// walk itself and the drawing of a step live in traceview.js, which the
// script editor shares, so both step alike.

import { announce, h, partsOf, setText } from "./dom.js";
import { enqueueVerdict, formatCommand, speakReply } from "./format.js";
import { renderCode } from "./code.js";
import {
  bindStepKeys,
  markStep,
  showMoves,
  showPosition,
  showStepReadout,
  showTransport,
  skippedText,
  stepHead,
  Walk,
  whereOf,
} from "./traceview.js";
import {
  duplicateId,
  fillHash,
  fillPending,
  freshId,
  keysOf,
  malformedId,
  queueTables,
  viewFromEntries,
  viewFromSnapshot,
  viewMarks,
} from "./keyspace.js";

/** @returns {import("./widget.js").Widget} */
export function mountStepper(root, ctx) {
  const queue = root.dataset.queue || "q";
  const payload = root.dataset.payload || "{}";
  const keys = keysOf(queue);

  const el = {
    presets: [...root.querySelectorAll('input[name="stepper-preset"]')],
    ...partsOf("stepper", ["id", "back", "step", "reset", "position", "stale", "command", "reply", "outcome", "source", "sha", "rowKey", "live"]),
    moves: [...root.querySelectorAll("li.move")],
    ...queueTables("stepper", ["pending", "row"]),
  };

  let script = null; // the @enqueue Script from the engine
  let lines = []; // its rendered lines, from 1
  let clearMarks = () => {};

  const state = {
    preset: "fresh", // "fresh" | "duplicate" | "nokind" | null for a typed id
    id: "",
    live: null, // the latest snapshot: step 0 before a run is recorded
  };

  const say = (text) => announce(el.live, text);
  const totalMoves = () => (script ? script.moves.length : el.moves.length);

  // The recorded run ({ id, before, steps, reply, verdict, stamps, stale }) and where in it:
  // index 0 is before move 1, i the i-th recorded step.
  const walk = new Walk({
    record: () => ensureRecord(),
    render: () => render(),
    speech: speechOf,
    say,
    words: {
      atStart: () => "Already before move 1.",
      atEnd: (w) => `That was the last move: the script has returned. ${outcomeOf(w.run, w.index)} Press Reset for a new run.`,
      homeBeforeRun: () => "Already before move 1: nothing has run yet. Step, or End, runs @enqueue.",
      endAtEnd: (w) => `Already at the last move: the script has returned. ${outcomeOf(w.run, w.index)}`,
    },
  });

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
  async function applyPreset() {
    if (!state.preset) return "";
    let note = "";
    let id = presetId(state.preset, state.live);
    if (state.preset === "duplicate" && id === null) {
      id = freshId(state.live);
      const r = await ctx.call("enqueue", queue, id, payload);
      if (r.verdict === "enqueued") {
        note = `No job existed yet, so ${id} was enqueued first. `;
        await ctx.changed("stepper");
      } else {
        note = `Could not enqueue ${id} first: ${r.message || r.error}. `;
      }
    }
    state.id = id ?? "";
    el.id.value = state.id;
    return note;
  }

  function discardRun() {
    walk.discard();
  }

  // ---- recording ----------------------------------------------------------

  /** Runs @enqueue traced with the chosen id; the run, or null if it could not. */
  async function record() {
    const id = state.id;
    const t = await ctx.call("trace", "enqueue", [keys.job(id), keys.pending], [id, payload]);
    if (!t || t.error || !Array.isArray(t.steps)) {
      setText(el.outcome, `The trace failed: ${(t && t.message) || "no answer"}`);
      say(`The trace failed: ${(t && t.message) || "no answer"}`);
      return null;
    }
    const run = runOf(id, t, false);
    // The walk holds the run before the other widgets hear of it, so that
    // the update it triggers knows this widget made the change.
    walk.load(run, 0);
    await ctx.changed("stepper");
    return run;
  }

  /** A recorded run from a trace's result: everything in it is the engine's. */
  function runOf(id, t, stale) {
    return {
      id,
      before: viewFromEntries(t.before, keys, id),
      steps: t.steps.map((s) => ({ ...s, view: viewFromEntries(s.keyspace, keys, id) })),
      reply: t.reply,
      verdict: t.verdict,
      stamps: t.stamps || {},
      stale,
    };
  }

  /** The walk's recorder: needs an id first. */
  async function ensureRecord() {
    if (state.id === "") {
      say("Choose an id first: the Job id field is empty.");
      el.id.focus();
      return null;
    }
    return record();
  }

  // ---- what a step says ---------------------------------------------------

  /** The outcome line of step i (1-based) of the run. */
  function outcomeOf(run, i) {
    const step = run.steps[i - 1];
    const next = run.steps[i];
    if (next) {
      const where = whereOf(next);
      if (!step.command) {
        return `${JSON.stringify(run.id)} starts with the bytes JOB, so the gate lets it through; the script goes on to ${where}.`;
      }
      return `${step.command[0]} answered ${speakReply(step.reply)}; the script goes on to ${where}.`;
    }
    const verdict = enqueueVerdict(run.verdict);
    const wrote = run.steps.some((s) => s.write && s.reply && s.reply.type !== "error");
    let why = "";
    if (!step.command && run.reply.type === "error") {
      why = `${JSON.stringify(run.id)} does not start with the bytes JOB, so the gate refuses it. `;
    } else if (step.command && run.reply.type === "int" && run.reply.value === "0") {
      why = "The row already exists, so this id was admitted before. ";
    }
    return (
      `${why}The script returns ${speakReply(run.reply)}, and the handle's verdict is ${verdict}.` +
      skippedText(script ? script.moves : [], run.steps) +
      (wrote ? " The row and the pending entry were written together." : " Nothing was written.")
    );
  }

  /** The announcement of step i: what ran, what came back, and how it ended. */
  function speechOf(run, i) {
    if (i === 0) return `Before move 1: the keyspace as it was before the run of ${run.id}.`;
    const step = run.steps[i - 1];
    const head = stepHead(step, totalMoves());
    const what = step.command
      ? `${formatCommand(step.command)} replied ${speakReply(step.reply)}.`
      : run.steps[i]
        ? "no command; the id passed the gate."
        : "no command; the id failed the gate.";
    const end = run.steps[i] ? "" : ` ${outcomeOf(run, i)}`;
    return `${head}: ${what}${end}`;
  }

  // ---- drawing ------------------------------------------------------------

  function render() {
    const run = walk.run;
    const i = walk.index;
    const step = run && i > 0 ? run.steps[i - 1] : null;
    const last = walk.last;

    // The moves list: done, current, next, skipped, or not run yet.
    showMoves(el.moves, run, step);

    // Where we are.
    // The id is one unit: it moves to the next line whole rather than
    // breaking as "JOB-" and "1".
    const idUnit = (id) => h("span", { class: "id-unit", text: JSON.stringify(id) });
    if (!run) showPosition(el.position, `Before move 1 · not run yet · id `, idUnit(state.id));
    else if (!step) showPosition(el.position, `Before move 1 · run recorded for `, idUnit(run.id));
    else showPosition(el.position, `Move ${step.move} of ${totalMoves()} · ${step.name} · step ${i} of ${last}`);
    el.stale.hidden = !(run && run.stale);

    // The source: the move's lines, and the exact line.
    clearMarks();
    clearMarks = markStep(lines, script ? script.moves : [], step);

    // The readouts.
    showStepReadout(el.command, el.reply, step, "(no command: the gate only reads ARGV[1])");
    if (!step) {
      setText(
        el.outcome,
        run
          ? "The keyspace just before the run. Press Step to walk through the moves."
          : "Not run yet. Step runs @enqueue once, for real, on the shared keyspace, and records every move.",
      );
    } else {
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
    fillPending(el.pending, view.pending, marks.pending, view.gap);
    fillHash(el.row, view.row, marks.row);
    setText(el.rowKey, keys.job(id));

    // The transport: Back and Step stay focusable at either end, but say so.
    showTransport(el.back, el.step, walk);
  }

  // ---- actions ------------------------------------------------------------

  // Each action needs the engine, or, for walking the default run, its
  // recording while the engine loads (recorded.js); the walk knows the rest
  // (traceview.js).
  const { step, back, home, end } = walk.controls(() => ctx.ready || ctx.recorded);

  async function reset() {
    if (!ctx.ready) return;
    discardRun();
    state.live = (await ctx.snapshot(queue)) || state.live;
    const note = await applyPreset();
    render();
    say(`${note}Reset: before move 1. Step runs @enqueue with ${JSON.stringify(state.id)}.`);
  }

  async function jump(n) {
    if (!ctx.ready) return;
    if (!(await walk.ensure())) return render();
    const i = walk.run.steps.findIndex((s) => s.move === n);
    if (i < 0) {
      const lastStep = walk.run.steps[walk.last - 1];
      walk.index = walk.last;
      render();
      say(`Move ${n} never ran: the script returned at move ${lastStep ? lastStep.move : "?"}. ${outcomeOf(walk.run, walk.index)}`);
      return;
    }
    walk.goTo(i + 1);
  }

  // Every action goes through one queue, so a quick second press waits for
  // the first one's engine calls instead of recording a second run.
  const act = ctx.serially((action) => action());
  el.step.addEventListener("click", () => act(step));
  el.back.addEventListener("click", () => act(back));
  el.reset.addEventListener("click", () => act(reset));
  for (const li of el.moves) {
    const n = Number(li.dataset.move);
    li.querySelector("button").addEventListener("click", () => act(() => jump(n)));
  }

  for (const radio of el.presets) {
    radio.addEventListener("change", () =>
      act(async () => {
        if (!radio.checked || !ctx.ready) return;
        state.preset = radio.value;
        discardRun();
        const note = await applyPreset();
        render();
        say(`${note}${radio.labels[0].textContent}: ${JSON.stringify(state.id)}. Press Step to run @enqueue.`);
      }),
    );
  }

  el.id.addEventListener("input", () => {
    state.preset = null;
    for (const radio of el.presets) radio.checked = false;
    state.id = el.id.value;
    discardRun();
    render();
  });

  // The keys do what the transport does (TESTING.md lists them too).
  bindStepKeys(root, act, { step, back, home, end });

  // ---- life cycle ---------------------------------------------------------

  return {
    root,
    queue,
    /** The controls that work on the recorded run, before the engine is ready. */
    recordedControls: [el.step, el.back],
    async start(snapshot) {
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
      await applyPreset();
      render();
    },
    /** The stepper's view for a permalink: the id, and where in the recorded run. */
    save() {
      return { preset: state.preset, id: state.id, run: walk.run ? walk.run.id : null, index: walk.index, stale: !!(walk.run && walk.run.stale) };
    },
    /**
     * Puts a saved view back. The recorded run is rebuilt from the link's
     * own replay: the last traced @enqueue of the saved id, with the
     * keyspace as it was just before it. Anything malformed is ignored.
     */
    restore(saved, replayed) {
      if (!saved || typeof saved !== "object") return;
      if (typeof saved.id === "string" && saved.id.length <= 1024) {
        state.id = saved.id;
        el.id.value = saved.id;
      }
      const preset = el.presets.find((r) => r.value === saved.preset);
      for (const radio of el.presets) radio.checked = radio === preset;
      state.preset = preset ? preset.value : null;
      discardRun();
      const runs = Array.isArray(replayed) ? replayed : [];
      const traced = runs.findLast(
        (r) => r.method === "trace" && r.args[0] === "enqueue" && Array.isArray(r.args[2]) && r.args[2][0] === saved.run,
      );
      if (typeof saved.run === "string" && traced && traced.result && Array.isArray(traced.result.steps)) {
        walk.load(runOf(saved.run, traced.result, saved.stale === true), saved.index);
      }
      render();
    },
    async update(snapshot, source) {
      state.live = snapshot;
      if (source === "stepper") return;
      if (walk.run) {
        // Stale only when a key the run shows was written since: the
        // engine knows, from the stamps it gave with the trace.
        if (!walk.run.stale) {
          const run = walk.run;
          const c = await ctx.call("changed", run.stamps);
          if (c && Array.isArray(c.changed) && c.changed.length > 0 && walk.run === run) {
            run.stale = true;
            el.stale.hidden = false;
          }
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
