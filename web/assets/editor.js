// The script editor: change a copy of enqueue.lua or claim.lua (or write a
// script from nothing), choose its KEYS and ARGV, and run it or step
// through it on the shared keyspace.
//
// A run is echomq.trace with the text in the editor: the engine runs it as
// EVAL would (same budget, same writes, nothing rolled back on an error)
// and records every step, which traceview.js then walks exactly as the
// lesson's stepper walks @enqueue. What the learner changed is shown as a
// line diff against the original (diff.js); an error shows Redis's own
// message and marks the line it names. The text is only ever sent to the
// engine as data: the page never runs it itself.

import { announce, byId, partsOf, setText } from "./dom.js";
import { bytesOf, MAX_ARG, parseList, refusal } from "./editing.js";
import { keysOf, freshId } from "./keyspace.js";
import { leaseOf } from "./options.js";
import { diffLines } from "./diff.js";
import { runningText, stopButton } from "./stop.js";
import { bindStepKeys, showPosition, showTransport, Walk } from "./traceview.js";
import { drawDiff, drawHistory, drawLines, drawOrderNote, drawProblem, drawStep, drawMarks } from "./editor-draw.js";
import { runOfTrace, FILES, finalText, HISTORY, historyEntry, runLabel, speechOf, STARTER } from "./editor-words.js";

// ---- the widget ------------------------------------------------------------------

/** @returns {import("./widget.js").Widget} */
export function mountEditor(root, ctx) {
  const queue = root.dataset.queue || "q";
  const payload = root.dataset.payload || "{}";
  const maxSource = (Number(root.dataset.maxSourceKib) || 64) * 1024;
  const maxArgs = Number(root.dataset.maxArgs) || 64;
  const keys = keysOf(queue);

  const el = {
    bases: [...root.querySelectorAll('input[name="editor-base"]')],
    ...partsOf("editor", [
      "file", "code", "lines", "source", "problem", "orderNote", "keys", "argv", "run", "back", "step",
      "reset", "position", "command", "reply", "outcome", "diffSummary", "diff", "keyspace", "runs", "live",
    ]),
    editState: byId("editor-state"),
  };
  // Stop sits after Step, shown only while a run waits (stop.js).
  const stop = stopButton(ctx, el.step, "editor-stop");

  const state = {
    base: "enqueue",
    drafts: new Map(), // base → the text the learner left there
    live: null, // the latest snapshot of the queue
    argsTouched: false, // KEYS/ARGV typed or run with: no longer refilled from the keyspace
    running: false,
    problem: null, // the engine's problem of the run shown, or a limit the editor refused
    liveEntries: [], // the KEYS in the field as the engine has them now, before any run
    history: [], // runs so far, newest first: {n, label, keys, argv, reply, writes}
    runCount: 0,
  };
  let lineEls = [null]; // the line layer's rows, from 1
  let clearMarks = () => {};

  const say = (text) => announce(el.live, text);
  const original = (base) => (base === "new" ? STARTER : ctx.scripts.get(base)?.source ?? "");
  const edited = () => el.source.value !== original(state.base);

  const walk = new Walk({
    record: () => record(),
    render: () => render(),
    speech: (run, i) => speechOf(run, i, keys.pending),
    say,
    words: {
      atStart: () => "Already before the first step.",
      atEnd: (w) => `That was the last step: the script has returned. ${finalText(w.run, keys.pending)} Run runs it again.`,
      homeBeforeRun: () => "Nothing has run yet. Step, End or Run runs the script.",
      endAtEnd: (w) => `Already at the last step. ${finalText(w.run, keys.pending)}`,
    },
  });

  // ---- the text and its line layer ------------------------------------------------

  /** Redraws the line layer behind the text, and the note beside it (editor-draw.js). */
  function syncLines() {
    lineEls = drawLines(el, lineEls);
    showOrderNote();
  }

  function showOrderNote() {
    drawOrderNote(el, walk.run);
  }

  /** Marks the current step's move and line, or the line an error names. */
  function markCode() {
    clearMarks();
    clearMarks = drawMarks(el, lineEls, walk.run, walk.index);
  }

  /** The diff against the original, in hunks, with every change said in words. */
  function renderDiff() {
    const against = state.base === "new" ? "the starter script" : FILES[state.base];
    drawDiff(el, diffLines(original(state.base), el.source.value), against, edited());
  }

  /** Puts a text in the editor (a base, a draft, a link's) and redraws what depends on it. */
  function setSource(text) {
    el.source.value = text;
    el.source.scrollTop = 0;
    syncLines();
    renderDiff();
  }

  /** Inserts text at the caret as typing would, so undo still works where the browser allows it. */
  function insertAtCaret(text) {
    el.source.focus();
    if (!document.execCommand || !document.execCommand("insertText", false, text)) {
      el.source.setRangeText(text, el.source.selectionStart, el.source.selectionEnd, "end");
      el.source.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }

  // ---- KEYS and ARGV --------------------------------------------------------------

  /** The KEYS and ARGV a base expects, from the keyspace as it is now. */
  function defaultArgs(base) {
    if (base === "enqueue") {
      const id = freshId(state.live);
      return { keys: [keys.job(id), keys.pending], argv: [id, payload] };
    }
    if (base === "claim") return { keys: [keys.pending, keys.active], argv: [keys.jobBase, leaseOf(root, ctx.options)] };
    return { keys: [keys.pending], argv: [] };
  }

  function setArgs({ keys: k, argv }) {
    el.keys.value = k.join("\n");
    el.argv.value = argv.join("\n");
  }

  // ---- recording a run --------------------------------------------------------------

  /**
   * Runs the editor's text once, traced, with its KEYS and ARGV. Returns
   * the run, or null when it was refused or the engine did not answer.
   */
  async function record() {
    const source = el.source.value;
    const k = parseList(el.keys.value);
    const argv = parseList(el.argv.value);
    const refused = refusal(source, k, argv, { maxSource, maxArgs });
    if (refused) {
      showProblem({ kind: "limit", line: 0, message: refused });
      say(refused);
      return null;
    }
    state.argsTouched = true;
    state.running = true;
    showProblem(null);
    root.dataset.running = "true";
    showPosition(el.position, "Running the script…");
    setText(el.outcome, runningText(ctx.canStop()));
    say("Running the script.");

    stop.arm();
    const t = await ctx.call("trace", source, k, argv);
    stop.disarm();
    state.running = false;
    delete root.dataset.running;
    if (t && t.error === "stopped") {
      // Stop: nothing of this run stays (stop.js); the page rebuilds the
      // keyspace and redraws every widget once it has.
      const why = String(t.message);
      showProblem({ kind: "stopped", line: 0, message: why });
      setText(el.outcome, why);
      say(why);
      return null;
    }
    if (t && t.error === "depth") {
      // The script ran (its writes stay), but its reply cannot be shown.
      const why = String(t.message);
      showProblem({ kind: "engine", line: 0, message: why });
      setText(el.outcome, why);
      say(why);
      await ctx.changed("editor");
      return null;
    }
    if (!t || t.error || !Array.isArray(t.steps)) {
      const why = (t && t.message) || "no answer";
      showProblem({ kind: "engine", line: 0, message: `The engine could not run it: ${why}` });
      setText(el.outcome, `The engine could not run it: ${why}`);
      say(`The engine could not run it: ${why}`);
      return null;
    }
    const run = buildRun({ source, keys: k, argv, result: t, label: labelOf(source, state.base) });
    remember(run);
    walk.load(run, 0);
    showOrderNote();
    await ctx.changed("editor");
    return run;
  }

  /** A run from a trace's result (editor-words.js), numbered after the runs before it. */
  function buildRun(fields) {
    state.runCount += 1;
    return runOfTrace(fields, state.runCount, state.history);
  }

  function labelOf(source, base) {
    return runLabel(source, base, original, ctx.scripts);
  }

  /** Adds a run to the history the page lists. */
  function remember(run) {
    state.history.unshift(historyEntry(run));
    state.history.length = Math.min(state.history.length, HISTORY);
    drawHistory(el, state.history);
  }

  // ---- drawing ------------------------------------------------------------------

  /** Shows what went wrong (Redis's message and the line), or hides the panel. */
  function showProblem(p) {
    state.problem = p;
    drawProblem(el, p);
  }

  function render() {
    const run = walk.run;
    drawStep(el, {
      run,
      index: walk.index,
      last: walk.last,
      running: state.running,
      problem: state.problem,
      keys: parseList(el.keys.value),
      liveEntries: state.liveEntries,
      pending: keys.pending,
    });
    if (run && run.problem) showProblem(run.problem);
    else if (state.problem && state.problem.kind !== "limit" && state.problem.kind !== "engine" && state.problem.kind !== "stopped") showProblem(null);
    markCode();
    showTransport(el.back, el.step, walk);
  }

  /** Reads the KEYS in the field from the engine, for the tables before any run. */
  async function readLive() {
    const r = await ctx.call("entries", parseList(el.keys.value).slice(0, maxArgs));
    state.liveEntries = r && Array.isArray(r.entries) ? r.entries : [];
  }

  // ---- actions ------------------------------------------------------------------

  async function runOnce() {
    if (!ctx.ready) return;
    walk.discard();
    if (!(await walk.end())) render();
  }

  const { step, back, home, end } = walk.controls(() => ctx.ready);

  function resetToOriginal() {
    if (!ctx.ready) return;
    const was = edited();
    state.drafts.delete(state.base);
    walk.discard();
    showProblem(null);
    setSource(original(state.base));
    render();
    const name = state.base === "new" ? "the starter script" : FILES[state.base];
    say(was ? `Back to ${name} as it was. KEYS and ARGV are as you left them.` : `This is already ${name} as it was.`);
  }

  function chooseBase(base) {
    if (!ctx.ready || base === state.base) return;
    state.drafts.set(state.base, el.source.value);
    state.base = base;
    setText(el.file, FILES[base]);
    walk.discard();
    showProblem(null);
    setSource(state.drafts.get(base) ?? original(base));
    setArgs(defaultArgs(base));
    state.argsTouched = false;
    render();
    say(`${FILES[base]} is in the editor${edited() ? ", with your earlier changes" : ""}. KEYS and ARGV are filled in for it.`);
  }

  const act = ctx.serially((action) => action());
  el.run.addEventListener("click", () => act(runOnce));
  el.step.addEventListener("click", () => act(step));
  el.back.addEventListener("click", () => act(back));
  el.reset.addEventListener("click", () => act(resetToOriginal));
  for (const radio of el.bases) {
    radio.addEventListener("change", () => act(() => radio.checked && chooseBase(radio.value)));
  }
  bindStepKeys(root, act, { step, back, home, end });

  // Editing the text, the keys or the arguments starts over: the recorded
  // run no longer describes what Step would run.
  el.source.addEventListener("input", () => {
    syncLines();
    renderDiff();
    if (walk.run || state.problem) {
      walk.discard();
      showProblem(null);
      render();
    }
  });
  el.source.addEventListener("scroll", () => {
    el.lines.scrollTop = el.source.scrollTop;
  });
  for (const field of [el.keys, el.argv]) {
    field.addEventListener("input", () => {
      state.argsTouched = true;
      if (walk.run) walk.discard();
      render();
      if (field === el.keys) act(async () => !walk.run && (await readLive(), render()));
    });
  }

  // Tab indents, since code is indented; Esc then Tab leaves the text area
  // (Shift+Tab always does), so the keyboard is never trapped.
  let escaped = false;
  el.source.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      escaped = true;
      return;
    }
    const plainTab = event.key === "Tab" && !event.shiftKey && !event.ctrlKey && !event.altKey && !event.metaKey;
    if (plainTab && !escaped) {
      event.preventDefault();
      insertAtCaret("  ");
    }
    escaped = false;
  });

  // ---- life cycle ---------------------------------------------------------------

  /** Validates a saved list: strings only, at most maxArgs of them, each within the cap. */
  const validList = (v) => Array.isArray(v) && v.length <= maxArgs && v.every((s) => typeof s === "string" && s.length <= MAX_ARG);

  return {
    root,
    queue,
    async start(snapshot) {
      state.live = snapshot;
      const checked = el.bases.find((r) => r.checked);
      state.base = checked && FILES[checked.value] ? checked.value : "enqueue";
      setText(el.file, FILES[state.base]);
      setSource(original(state.base));
      setArgs(defaultArgs(state.base));
      await readLive();
      render();
    },
    async update(snapshot) {
      state.live = snapshot;
      if (!state.argsTouched && !state.running) setArgs(defaultArgs(state.base));
      if (!walk.run && !state.running) {
        await readLive();
        render();
      }
    },
    /** The editor's view for a permalink: the base, the text when edited, the arguments, the step. */
    save() {
      const out = { base: state.base, keys: parseList(el.keys.value), argv: parseList(el.argv.value), step: walk.run ? walk.index : null };
      if (edited()) out.source = el.source.value;
      return out;
    },
    /**
     * Puts a saved view back, checking every field (a link is untrusted).
     * The run is rebuilt from the link's own replay: the last traced run of
     * exactly this text, with the keyspace as it was just before it. The
     * runs list is rebuilt from every traced run of Lua text in the replay.
     */
    restore(saved, replayed) {
      if (!saved || typeof saved !== "object" || Array.isArray(saved)) return;
      const base = typeof saved.base === "string" && Object.hasOwn(FILES, saved.base) ? saved.base : state.base;
      state.base = base;
      for (const radio of el.bases) radio.checked = radio.value === base;
      setText(el.file, FILES[base]);
      const source = typeof saved.source === "string" && bytesOf(saved.source) <= maxSource ? saved.source : original(base);
      setSource(source);
      if (validList(saved.keys) && validList(saved.argv)) {
        setArgs({ keys: saved.keys, argv: saved.argv });
        state.argsTouched = true;
      }
      walk.discard();
      showProblem(null);

      const traces = (Array.isArray(replayed) ? replayed : []).filter(
        (r) =>
          r &&
          r.method === "trace" &&
          Array.isArray(r.args) &&
          typeof r.args[0] === "string" &&
          !ctx.scripts.has(r.args[0]) &&
          r.result &&
          Array.isArray(r.result.steps),
      );
      state.history = [];
      state.runCount = 0;
      let match = null;
      for (const r of traces) {
        const run = buildRun({
          source: r.args[0],
          keys: validList(r.args[1]) ? r.args[1] : [],
          argv: validList(r.args[2]) ? r.args[2] : [],
          result: r.result,
          label: labelOf(r.args[0], r.args[0] === source ? base : null),
        });
        remember(run);
        if (r.args[0] === source) match = run;
      }
      if (match && saved.step !== null && saved.step !== undefined) walk.load(match, saved.step);
      render();
    },
  };
}
