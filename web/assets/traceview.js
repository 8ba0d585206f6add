// Walking a recorded trace: what the lesson's stepper and the script editor
// share, so stepping through an edited script feels exactly like stepping
// through the lesson.
//
// A run is recorded once (echomq.trace, which really runs the script) and
// then only indexed into: step 0 is the keys it touched just before the
// run (the trace's before), step i those keys after the i-th thing the
// script did. The engine gives all of it; nothing here rebuilds it. Walk holds that index
// and the transport's rules (Step, Back, Home, End, and what they say at
// either end); the functions below draw one step: its move and line in the
// code, its command and reply, the moves list, and every key it touched.

import { h, setText, toggleAttr, ownsArrows, mark } from "./dom.js";
import { formatCommand, formatReply } from "./format.js";
import { markLines } from "./code.js";
import { fillHash, fillPending } from "./keyspace.js";

// ---- the walk ---------------------------------------------------------------

/**
 * The position in a recorded run and the transport's rules. A widget gives
 * it the things that differ between widgets: how to record a run, how to
 * draw it and say a step, and what to say at either end. Moving to step i
 * draws the widget, then announces speech(run, i).
 *
 *   record(): Promise<run|null>   run = {steps: [...], ...}; null when it could not
 *   render()                       draw the widget at the walk's position
 *   speech(run, i): string         what step i of run says
 *   say(text)                      announce text
 *   words: { atStart(walk), atEnd(walk), homeBeforeRun(walk), endAtEnd(walk) }
 */
export class Walk {
  constructor({ record, render, speech, say, words }) {
    this.record = record;
    this.render = render;
    this.speech = speech;
    this.say = say;
    this.words = words;
    this.run = null;
    this.index = 0;
  }

  get last() {
    return this.run ? this.run.steps.length : 0;
  }

  /** Forgets the run: the next Step records a new one. */
  discard() {
    this.run = null;
    this.index = 0;
  }

  /** Takes a run recorded elsewhere (a permalink's replay) at step index. */
  load(run, index) {
    this.run = run;
    const i = Number(index);
    this.index = Number.isSafeInteger(i) && i >= 0 && i <= run.steps.length ? i : 0;
  }

  goTo(i) {
    this.index = i;
    this.render();
    this.say(this.speech(this.run, i));
  }

  /** Records a run when there is none; false when that failed. */
  async ensure() {
    if (this.run) return true;
    const run = await this.record();
    if (!run) return false;
    this.run = run;
    this.index = 0;
    return true;
  }

  /** Step (→): one step on; the first one records the run. False if it could not record. */
  async step() {
    if (!this.run) {
      if (!(await this.ensure())) return false;
      this.goTo(Math.min(1, this.last));
      return true;
    }
    if (this.index >= this.last) {
      this.say(this.words.atEnd(this));
      return true;
    }
    this.goTo(this.index + 1);
    return true;
  }

  /** Back (←): one step back; at the start it only says so. */
  back() {
    if (!this.run || this.index === 0) {
      this.say(this.words.atStart(this));
      return;
    }
    this.goTo(this.index - 1);
  }

  /** Home: back to step 0 from anywhere. */
  home() {
    if (!this.run) {
      this.say(this.words.homeBeforeRun(this));
      return;
    }
    if (this.index === 0) {
      this.say(this.words.atStart(this));
      return;
    }
    this.goTo(0);
  }

  /**
   * The transport as a widget binds it (buttons and keys): step, back, home
   * and end, each doing nothing unless usable(), and each redrawing when
   * it could not record a run (the widget then shows why).
   */
  controls(usable) {
    return {
      step: async () => usable() && !(await this.step()) && this.render(),
      back: () => usable() && this.back(),
      home: () => usable() && this.home(),
      end: async () => usable() && !(await this.end()) && this.render(),
    };
  }

  /** End: the last step, recording the run first when there is none. */
  async end() {
    if (!this.run) {
      if (!(await this.ensure())) return false;
      this.goTo(this.last);
      return true;
    }
    if (this.index >= this.last) {
      this.say(this.words.endAtEnd(this));
      return true;
    }
    this.goTo(this.last);
    return true;
  }
}

/**
 * The keys of a walk, with focus in root but not in a text field: → Step,
 * ← Back, Home, End. act queues the action behind the widget's others.
 */
export function bindStepKeys(root, act, actions) {
  root.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || ownsArrows(event.target)) return;
    const keys = { ArrowRight: actions.step, ArrowLeft: actions.back, Home: actions.home, End: actions.end };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    act(action);
  });
}

/**
 * Back and Step stay focusable at either end of a run but say they would
 * do nothing (aria-disabled), so a keyboard user does not lose their place.
 */
export function showTransport(back, step, walk) {
  toggleAttr(back, "aria-disabled", walk.index === 0);
  toggleAttr(step, "aria-disabled", walk.run !== null && walk.index >= walk.last);
}

// ---- what a step says ---------------------------------------------------------

/** The moves (by number) a run's steps reached. */
export function reachedMoves(steps) {
  return new Set(steps.map((s) => s.move).filter((m) => m > 0));
}

/** " Move 3 never ran." (or "Moves 3 and 4 never ran."), or "" when every move ran. */
export function skippedText(moves, steps) {
  const reached = reachedMoves(steps);
  const skipped = moves.filter((m) => !reached.has(m.move)).map((m) => m.move);
  if (skipped.length === 0) return "";
  if (skipped.length === 1) return ` Move ${skipped[0]} never ran.`;
  return ` Moves ${skipped.slice(0, -1).join(", ")} and ${skipped[skipped.length - 1]} never ran.`;
}

/** Where a step is, for "the script goes on to …": a move, or a bare line. */
export function whereOf(step) {
  return step.move > 0 ? `move ${step.move} · ${step.name}` : `line ${step.line}`;
}

/** The head of a step's announcement: "Move 3 of 4, row", or "Line 12". */
export function stepHead(step, totalMoves) {
  return step.move > 0 ? `Move ${step.move} of ${totalMoves}, ${step.name}` : `Line ${step.line}`;
}

/** The command and reply readouts of a step; none is what a step without a command says. */
export function showStepReadout(commandEl, replyEl, step, none) {
  if (!step) {
    setText(commandEl, "—");
    setText(replyEl, "—");
    return;
  }
  setText(commandEl, step.command ? formatCommand(step.command) : none);
  setText(replyEl, step.command ? formatReply(step.reply) : "(no reply)");
}

/** Puts text and nodes in a position line, only when its words change (a screen reader rereads it). */
export function showPosition(el, ...parts) {
  const text = parts.map((p) => (typeof p === "string" ? p : p.textContent)).join("");
  if (el.textContent !== text) el.replaceChildren(...parts);
}

/**
 * Marks a step in rendered code lines (code.js): the lines of its move,
 * and the exact line it ran. Returns the function that clears the marks.
 */
export function markStep(lines, moves, step) {
  if (!step || lines.length <= 1) return () => {};
  const move = step.move > 0 ? moves.find((m) => m.move === step.move) : null;
  return markLines(lines, move ? move.first : step.line, move ? move.last : step.line, step.line);
}

const MOVE_STATUS = { idle: "", next: "to run", done: "done", current: "running", skipped: "skipped" };

/**
 * Draws a list of moves (li.move[data-move] with a .move-status and a
 * button) for the current step: done, running, next, skipped, or idle
 * before any run.
 */
export function showMoves(items, run, step) {
  const reached = run ? reachedMoves(run.steps) : null;
  for (const li of items) {
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
    setText(li.querySelector(".move-status"), MOVE_STATUS[s]);
    const button = li.querySelector("button");
    toggleAttr(button, "aria-current", s === "current", "step");
    toggleAttr(button, "aria-disabled", s === "skipped");
  }
}

// ---- the keys of a step ------------------------------------------------------------

/** The value of a keyspace entry as one comparable string. */
function valueOf(entry) {
  if (!entry) return null;
  return JSON.stringify([entry.type, entry.string, entry.fields, entry.members, entry.items]);
}

/**
 * How one key changed from one keyspace to the next: "new" (it appeared),
 * "changed", "removed", or null; and, inside a hash, set or sorted set,
 * which fields or members are new or changed.
 */
export function entryMarks(prev, next) {
  const inner = new Map();
  const pairs = (e) => {
    if (e.fields) return e.fields.map((f) => [f.field, f.value]);
    if (e.members) return e.members.map((m) => [m.member, m.score]);
    return null;
  };
  if (!prev && next) {
    // A key that appeared: everything in it is new, as in the lesson's tables.
    for (const [k] of pairs(next) || []) inner.set(k, "new");
    return { key: "new", inner };
  }
  if (prev && !next) return { key: "removed", inner };
  if (!prev || !next) return { key: null, inner };
  if (prev.type !== next.type) return { key: "changed", inner };
  const before = pairs(prev);
  const after = pairs(next);
  if (before && after) {
    const old = new Map(before);
    for (const [k, v] of after) {
      if (!old.has(k)) inner.set(k, "new");
      else if (old.get(k) !== v) inner.set(k, "changed");
    }
  }
  return { key: valueOf(prev) === valueOf(next) ? null : "changed", inner };
}

const TYPE_NOTES = {
  string: "string",
  hash: "hash",
  zset: "sorted set",
  list: "list",
  set: "set",
  stream: "stream",
};

/** The header cells of a key's table, by type. */
function headsOf(entry) {
  if (!entry) return ["Field", "Value"];
  if (entry.type === "hash") return ["Field", "Value"];
  if (entry.type === "zset") return ["Member", "Score"];
  if (entry.type === "list") return ["Index", "Item"];
  if (entry.type === "set") return ["Member", "—"];
  return ["Type", "Value"];
}

/** One key as a table like the lesson's: a caption with the key name, and its value as rows. */
function keyTable(key, entry, marks) {
  const body = h("tbody");
  if (!entry) {
    fillHash(body, null);
  } else if (entry.type === "hash") {
    fillHash(body, entry.fields, marks.inner);
  } else if (entry.type === "zset") {
    fillPending(body, entry.members, marks.inner);
  } else if (entry.type === "list") {
    fillHash(body, entry.items.map((v, i) => ({ field: String(i), value: v })));
  } else if (entry.type === "set") {
    fillHash(body, entry.items.map((v) => ({ field: v, value: "" })));
  } else if (entry.type === "string") {
    fillHash(body, [{ field: "string", value: entry.string }]);
  } else {
    fillHash(body, [{ field: entry.type, value: "(not shown)" }]);
  }
  const [c1, c2] = headsOf(entry);
  const note = entry ? TYPE_NOTES[entry.type] || entry.type : "does not exist";
  const ttl = entry && entry.ttl >= 0 ? `, expires in ${entry.ttl} ms` : "";
  const caption = h(
    "caption",
    null,
    h("code", { class: "key", text: key }),
    " ",
    h("span", { class: "caption-note", text: `${note}${ttl}` }),
    marks.key ? " " : null,
    mark(marks.key),
  );
  const head = h("thead", null, h("tr", null, h("th", { scope: "col", text: c1 }), h("th", { scope: "col", text: c2 })));
  return h("div", { class: "table-wrap" }, h("table", { class: "kv", "data-key": key }, caption, head, body));
}

/**
 * Draws the keys of one step into container, one table per key, in the
 * order of `keys`, marked against the keyspace of the step before (prev;
 * null draws no marks). A key missing from the step is drawn empty, so a
 * key the script deleted still shows where it was.
 */
export function showKeyspace(container, keys, entries, prev) {
  const now = new Map((entries || []).map((e) => [e.key, e]));
  const before = prev ? new Map(prev.map((e) => [e.key, e])) : null;
  const tables = keys.map((key) => {
    const entry = now.get(key) || null;
    const marks = before ? entryMarks(before.get(key) || null, entry) : { key: null, inner: new Map() };
    return keyTable(key, entry, marks);
  });
  if (tables.length === 0) tables.push(h("p", { class: "hint", text: "No key to show: the script named none and changed none." }));
  container.replaceChildren(...tables);
}
