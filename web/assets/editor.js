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

import { announce, byId, h, partsOf, setText } from "./dom.js";
import { formatArg, formatCommand, formatReply, speakReply } from "./format.js";
import { bytesOf, MAX_ARG, parseList, refusal, sameList, writesOf, writesText } from "./editing.js";
import { keysOf, freshId } from "./keyspace.js";
import { leaseOf } from "./options.js";
import { describeDiff, diffLines, hunks } from "./diff.js";
import { tableOrderNote } from "./tableorder.js";
import { replyLine } from "./wire.js";
import { runningText, stopButton } from "./stop.js";
import {
  bindStepKeys,
  markStep,
  showKeyspace,
  showPosition,
  showStepReadout,
  showTransport,
  stepHead,
  Walk,
  whereOf,
} from "./traceview.js";

/** The text a new script starts from. */
export const STARTER = `-- A script of your own. KEYS and ARGV are the lists beside the editor.
-- It runs on the page's keyspace, as EVAL would. To begin with, it lists
-- the pending ids with their scores:
return redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
`;

const FILES = { enqueue: "enqueue.lua", claim: "claim.lua", new: "untitled.lua" };

/** How many runs the history keeps, newest first. */
const HISTORY = 12;

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
    speech: speechOf,
    say,
    words: {
      atStart: () => "Already before the first step.",
      atEnd: (w) => `That was the last step: the script has returned. ${finalText(w.run)} Run runs it again.`,
      homeBeforeRun: () => "Nothing has run yet. Step, End or Run runs the script.",
      endAtEnd: (w) => `Already at the last step. ${finalText(w.run)}`,
    },
  });

  // ---- the text and its line layer ------------------------------------------------

  /**
   * Keeps the layer of line rows behind the text area as long as the text
   * (one row per line, the number in the gutter), so a line can be marked
   * as the running one or the one an error names.
   */
  function syncLines() {
    const count = el.source.value.split("\n").length;
    if (lineEls.length - 1 !== count) {
      const rows = [];
      for (let n = 1; n <= count; n++) rows.push(h("span", { class: "line", "data-line": n }));
      el.lines.replaceChildren(...rows);
      lineEls = [null, ...rows];
    }
    el.lines.scrollTop = el.source.scrollTop;
    showOrderNote();
  }

  /**
   * The note beside the text: what the engine noticed when it ran this very
   * text (an order or a pick Redis leaves open), or before a run, the note
   * on pairs and next when the text uses them.
   */
  function showOrderNote() {
    if (!el.orderNote) return;
    const ran = walk.run && walk.run.source === el.source.value ? walk.run : null;
    const note = ran && ran.note ? `${ran.note} (Noticed by the engine as the script ran.)` : tableOrderNote(el.source.value);
    if (el.orderNote.textContent !== note) setText(el.orderNote, note);
    el.orderNote.hidden = note === "";
  }

  /** Marks the current step's move and line, or the line an error names. */
  function markCode() {
    clearMarks();
    clearMarks = () => {};
    const run = walk.run;
    if (!run || run.source !== el.source.value) return;
    const step = walk.index > 0 ? run.steps[walk.index - 1] : null;
    const marks = [];
    if (step) marks.push(markStep(lineEls, run.moves, step));
    const p = run.problem;
    if (p && p.line >= 1 && p.line < lineEls.length) {
      const row = lineEls[p.line];
      row.classList.add("is-error");
      marks.push(() => row.classList.remove("is-error"));
    }
    clearMarks = () => marks.forEach((clear) => clear());
    reveal(step ? step.line : p ? p.line : 0);
  }

  /** Scrolls the text area so that line n shows, when it is out of view: the marked line must be seen. */
  function reveal(n) {
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

  /** The diff against the original, in hunks, with every change said in words. */
  function renderDiff() {
    const ops = diffLines(original(state.base), el.source.value);
    const against = state.base === "new" ? "the starter script" : FILES[state.base];
    const summary = describeDiff(ops);
    setText(el.diffSummary, summary.startsWith("No changes") ? `No changes: this is ${against} as it was.` : `Against ${against}: ${summary}`);
    setText(el.editState, edited() ? "edited" : "unchanged");
    el.editState.dataset.edited = String(edited());
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

  /**
   * A run from a trace's result. The engine gives everything a view of it
   * needs: the keys it touched (KEYS first) as they were before and after
   * each step, the script's moves, and why it failed.
   */
  function buildRun({ source, keys: k, argv, result, label }) {
    state.runCount += 1;
    const run = {
      n: state.runCount,
      label,
      source,
      keys: k,
      argv,
      before: Array.isArray(result.before) ? result.before : [],
      steps: result.steps.map((s) => ({ ...s, keyspace: Array.isArray(s.keyspace) ? s.keyspace : [] })),
      reply: result.reply,
      moves: Array.isArray(result.moves) ? result.moves : [],
      // "Redis said" quotes the error whole, suffix and all.
      problem: result.problem ? { ...result.problem, said: result.reply && result.reply.value } : null,
      shown: Array.isArray(result.keys) ? result.keys : [],
      // What the engine noticed the reply depends on that Redis leaves
      // open (a hash table's order, a random pick, a walk of a table).
      note: typeof result.note === "string" ? result.note : "",
    };
    run.writes = writesOf(run.steps);
    run.repeatOf = state.history.find((r) => sameList(r.keys, k) && sameList(r.argv, argv)) || null;
    return run;
  }

  function labelOf(source, base) {
    for (const name of ["enqueue", "claim"]) if (source === original(name)) return FILES[name];
    if (base === "new") return source === STARTER ? "the starter script" : "a new script";
    return base && ctx.scripts.has(base) ? `${FILES[base]}, edited` : "an edited script";
  }

  /** Adds a run to the history the page lists. */
  function remember(run) {
    state.history.unshift({
      n: run.n,
      label: run.label,
      keys: run.keys,
      argv: run.argv,
      reply: run.reply,
      problem: run.problem,
      writes: run.writes.length,
    });
    state.history.length = Math.min(state.history.length, HISTORY);
    renderHistory();
  }

  function renderHistory() {
    el.runs.replaceChildren(
      ...state.history.map((r) => {
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

  // ---- what a step says --------------------------------------------------------

  /** How a run ended, in words: the reply, what it wrote, and what a repeat shows. */
  function finalText(run) {
    const p = run.problem;
    const writes = run.writes;
    const wrote = writes.length ? ` It wrote: ${writesText(writes)}.` : " It wrote nothing.";
    if (p && p.kind === "syntax") return `Redis could not compile it (line ${p.line}: ${p.detail}), so nothing ran and nothing was written.`;
    // Said as it happened: with no writes there is nothing to keep; with some, Redis keeps them (no rollback).
    const kept = writes.length ? ` Before that it wrote: ${writesText(writes)}. Redis does not roll a script back, so those writes stay in the keyspace.` : " It had written nothing by then, so the keyspace is as it was before the run.";
    if (p && p.kind === "killed") return `The playground stopped it on line ${p.line} when it ran past its budget, the way Redis's SCRIPT KILL stops a busy script.${kept}`;
    if (p) return `It failed on line ${p.line}.${kept}`;
    let text = `The script returned ${speakReply(run.reply)}.${wrote}`;
    const again = run.repeatOf;
    if (again && writes.length > 0) {
      text += ` Run ${again.n} had the same KEYS and ARGV, and this run wrote again`;
      text += again.reply && formatReply(again.reply) === formatReply(run.reply) ? `, with the same reply, ${speakReply(run.reply)}, both times.` : ".";
      if (run.label.startsWith("enqueue.lua,") || (run.keys.includes(keys.pending) && run.writes.some((s) => s.command[1] === keys.pending))) {
        text +=
          " So the duplicate was written twice: the row was written over and the id was added to the pending set again, and" +
          " a client cannot tell this repeat from a new job. The original enqueue.lua answers 0 here and writes nothing: its EXISTS check is what makes enqueue idempotent.";
      }
    }
    return text;
  }

  /** The outcome line at step i of a run. */
  function outcomeOf(run, i) {
    if (i === 0 && run.steps.length > 0) return "The keyspace just before the run. Step walks through what the script did.";
    const step = run.steps[i - 1];
    const next = run.steps[i];
    if (step && next) {
      const what = step.command ? `${String(step.command[0]).toUpperCase()} answered ${speakReply(step.reply)}` : "No command ran in this move";
      return `${what}; the script goes on to ${whereOf(next)}.`;
    }
    return finalText(run);
  }

  function speechOf(run, i) {
    if (i === 0) {
      return run.steps.length ? `Before the first step of run ${run.n}.` : `Run ${run.n}: nothing to step through. ${finalText(run)}`;
    }
    const step = run.steps[i - 1];
    const what = step.command ? `${formatCommand(step.command)} replied ${speakReply(step.reply)}.` : "no command.";
    const end = run.steps[i] ? "" : ` ${finalText(run)}`;
    return `${stepHead(step, run.moves.length)}: ${what}${end}`;
  }

  // ---- drawing ------------------------------------------------------------------

  /** Shows what went wrong (Redis's message and the line), or hides the panel. */
  function showProblem(p) {
    state.problem = p;
    if (!p) {
      el.problem.hidden = true;
      setText(el.problem, "");
      return;
    }
    const where = p.line ? `Line ${p.line}` : "";
    const head = {
      syntax: `Syntax error on line ${p.line}, marked in the script.`,
      runtime: `Runtime error on line ${p.line}, marked in the script.`,
      killed: `Stopped on line ${p.line}: still running past its budget, so the playground stopped it, as Redis's SCRIPT KILL would. What it wrote before that stays (a script is never rolled back).`,
    }[p.kind];
    el.problem.replaceChildren(
      ...(head ? [h("strong", { text: head }), " Redis said: ", h("code", { text: p.said || p.message })] : [p.message]),
    );
    el.problem.dataset.kind = p.kind;
    el.problem.dataset.line = where ? String(p.line) : "";
    el.problem.hidden = false;
  }

  function render() {
    const run = walk.run;
    const i = walk.index;
    const step = run && i > 0 ? run.steps[i - 1] : null;
    const stopped = !run && state.problem && state.problem.kind === "stopped";
    if (!run) {
      showPosition(el.position, state.running ? "Running the script…" : stopped ? "Stopped" : "Not run yet");
    } else if (!step) {
      showPosition(el.position, run.steps.length ? `Before the first step · run ${run.n}` : `Run ${run.n} · nothing to step through`);
    } else {
      const where = step.move > 0 ? `move ${step.move} · ${step.name} · line ${step.line}` : `line ${step.line}`;
      showPosition(el.position, `Step ${i} of ${walk.last} · ${where} · run ${run.n}`);
    }
    showStepReadout(el.command, el.reply, step, "(no command in this move)");
    // A run with no step at all (a syntax error, a script that called
    // nothing) still has a reply: the script's own.
    if (run && run.steps.length === 0) setText(el.reply, formatReply(run.reply));
    if (stopped) setText(el.outcome, state.problem.message);
    else if (!run) setText(el.outcome, "Not run yet. Run or Step sends the script to the engine, which runs it for real on the page's keyspace.");
    else setText(el.outcome, outcomeOf(run, i));

    if (run) {
      const prev = i === 0 ? null : i === 1 ? run.before : run.steps[i - 2].keyspace;
      showKeyspace(el.keyspace, run.shown, step ? step.keyspace : run.before, prev);
    } else {
      showKeyspace(el.keyspace, parseList(el.keys.value), state.liveEntries, null);
    }
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
