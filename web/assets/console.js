// The console widget: a redis-cli prompt on the keyspace every widget
// shares.
//
// A typed line goes to the engine as it is (echomq.cli), which splits it as
// redis-cli splits it, runs it on the console's own connection and formats
// the reply as redis-cli prints it; this module only shows that text. Like
// redis-cli it keeps a history for ↑ and ↓, and treats `clear` as its own
// command, never sent. Everything shown is untrusted text and only reaches
// the page through textContent.

import { h } from "./dom.js";
import { runningText, stopButton } from "./stop.js";

/** A permalink keeps this much: enough to tell the story, small enough for a URL. */
const SAVED_LINES = 20;
const SAVED_ENTRIES = 20;
const SAVED_TEXT = 2000; // characters of one saved reply
const SAVED_NOTE = 1000;
/** The longest line the console keeps in its history or a link. */
const LINE_MAX = 4096;
/** The screen keeps this many entries, and shows this much of one reply. */
const SHOWN_ENTRIES = 200;
const SHOWN_TEXT = 64 * 1024;

/** What an entry can be; a saved entry of any other kind is dropped. */
const KINDS = new Set(["reply", "error", "syntax", "failure"]);

/** C's isspace: what redis-cli skips between arguments. A line of only these sends nothing. */
const BLANK = /^[ \t\n\v\f\r]*$/;

/**
 * redis-cli's own `clear`: one word, any case. (redis-cli decides after
 * splitting, so it also takes a quoted "clear"; the console keeps to the
 * plain word.)
 */
const CLEAR = /^[ \t\n\v\f\r]*clear[ \t\n\v\f\r]*$/i;

/**
 * The lines a learner ran, for ↑ and ↓. Walking up from the line being
 * typed keeps it as a draft, which walking back down past the newest line
 * restores, as redis-cli's prompt does.
 */
class History {
  constructor(max) {
    this.max = max;
    this.lines = [];
    this.rewind();
  }

  /** Adds a line, unless it repeats the one before, and goes back to the draft. */
  add(line) {
    if (line.length <= LINE_MAX && this.lines[this.lines.length - 1] !== line) {
      this.lines.push(line);
      if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max);
    }
    this.rewind();
  }

  rewind() {
    this.at = this.lines.length;
    this.draft = "";
  }

  /** The line before the one shown, or null at the oldest. current is what the field holds. */
  up(current) {
    if (this.at === 0) return null;
    if (this.at === this.lines.length) this.draft = current;
    this.at--;
    return this.lines[this.at];
  }

  /** The line after the one shown (the draft after the newest), or null when already there. */
  down() {
    if (this.at >= this.lines.length) return null;
    this.at++;
    return this.at === this.lines.length ? this.draft : this.lines[this.at];
  }
}

/** text, cut to max characters with a note saying how much was left out. */
function capped(text, max) {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… (${text.length - max} more characters not shown)`;
}

/** What an echomq.cli result shows: its kind, its text and any note. */
function describe(result) {
  if (!result || typeof result !== "object") return { kind: "failure", text: "The engine gave no answer." };
  if (result.error === "syntax") return { kind: "syntax", text: String(result.message) };
  // The line ran; only its reply is too deep to show. The message says so.
  if (result.error === "depth") return { kind: "failure", text: String(result.message) };
  // Stop ended the line (stop.js): the message says what became of the keyspace.
  if (result.error === "stopped") return { kind: "failure", text: String(result.message) };
  if (result.error) return { kind: "failure", text: `The console could not run this line: ${result.message || result.error}.` };
  const kind = result.reply && result.reply.type === "error" ? "error" : "reply";
  return { kind, text: String(result.text ?? ""), note: typeof result.note === "string" ? result.note : undefined };
}

/** A saved entry, checked field by field; null when it is not one the console could have made. */
function entryFrom(v) {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return null;
  const { line, text, kind, note } = v;
  if (typeof line !== "string" || line.length > LINE_MAX) return null;
  if (typeof text !== "string" || text.length > SAVED_TEXT + 64) return null;
  if (typeof kind !== "string" || !KINDS.has(kind)) return null;
  if (note !== undefined && (typeof note !== "string" || note.length > SAVED_NOTE)) return null;
  return { line, text, kind, note };
}

/** Saved history lines, checked; null when the field is not a list of lines. */
function linesFrom(v) {
  if (!Array.isArray(v) || v.length > SAVED_LINES) return null;
  if (!v.every((l) => typeof l === "string" && l.length <= LINE_MAX && !BLANK.test(l))) return null;
  return v;
}

/** @returns {import("./widget.js").Widget} */
export function mountConsole(section, ctx) {
  const ui = {
    log: section.querySelector("#console-log"),
    form: section.querySelector("#console-form"),
    input: section.querySelector("#console-input"),
    clear: section.querySelector("#console-clear"),
  };
  // Stop sits after Clear, shown only while a line waits (stop.js).
  const stop = stopButton(ctx, ui.clear, "console-stop");
  const prompt = section.dataset.prompt || "redis>";
  const max = Number(section.dataset.historyMax);
  const history = new History(Number.isSafeInteger(max) && max > 0 ? max : 100);
  /** What the screen shows, oldest first: {line, text, kind, note, el}. */
  let entries = [];

  /** Puts one entry at the bottom of the screen and returns it. */
  function show(entry) {
    const out = h("pre", { class: "console-out" });
    const note = h("p", { class: "console-note" });
    const el = h(
      "li",
      { class: "console-entry" },
      h("p", { class: "console-line" }, h("span", { class: "console-ps", "aria-hidden": "true", text: prompt }), " ", h("code", { class: "console-cmd", text: entry.line })),
      out,
      note,
    );
    const shown = { ...entry, el, out, noteEl: note };
    fill(shown, entry);
    ui.log.append(el);
    entries.push(shown);
    if (entries.length > SHOWN_ENTRIES) {
      for (const old of entries.splice(0, entries.length - SHOWN_ENTRIES)) old.el.remove();
    }
    ui.log.scrollTop = ui.log.scrollHeight;
    return shown;
  }

  /** Writes an entry's outcome into its element. */
  function fill(shown, { kind, text, note }) {
    Object.assign(shown, { kind, text, note });
    shown.el.dataset.kind = kind;
    shown.out.textContent = capped(text, SHOWN_TEXT);
    shown.out.hidden = text === "";
    shown.noteEl.textContent = note || "";
    shown.noteEl.hidden = !note;
    ui.log.scrollTop = ui.log.scrollHeight;
  }

  function clearScreen() {
    ui.log.replaceChildren();
    entries = [];
  }

  /** Runs one line, one at a time: a line typed during a slow script waits its turn. */
  const run = ctx.serially(async (line) => {
    history.add(line);
    if (CLEAR.test(line)) return clearScreen();
    const shown = show({ line, kind: "running", text: "" });
    // A line still running after a moment says what will end it.
    stop.arm((canStop) => {
      if (shown.kind !== "running") return;
      shown.noteEl.textContent = runningText(canStop);
      shown.noteEl.hidden = false;
    });
    const result = await ctx.call("cli", line);
    stop.disarm();
    fill(shown, describe(result));
    // Only a line that reached the server can have changed the keyspace.
    if (result && Array.isArray(result.args) && result.args.length > 0) await ctx.changed("console");
  });

  ui.form.addEventListener("submit", (event) => {
    event.preventDefault();
    const line = ui.input.value;
    ui.input.value = "";
    ui.input.focus();
    if (BLANK.test(line)) {
      history.rewind();
      return;
    }
    run(line);
  });

  ui.input.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return;
    let line = null;
    if (event.key === "ArrowUp") line = history.up(ui.input.value);
    else if (event.key === "ArrowDown") line = history.down();
    else return;
    event.preventDefault();
    if (line === null) return;
    ui.input.value = line;
    ui.input.setSelectionRange(line.length, line.length);
  });

  // The lede's Load button types its FUNCTION LOAD line for the learner,
  // who sees it in the transcript and can recall it with the arrow keys.
  const library = section.querySelector("#console-library");
  if (library) {
    library.addEventListener("click", () => {
      run(library.dataset.line);
      ui.input.focus();
    });
  }

  ui.clear.addEventListener("click", () => {
    clearScreen();
    ui.input.focus();
  });

  return {
    root: section,
    start() {},

    /** The last lines and entries, capped; nothing when the console was never used. */
    save() {
      const transcript = entries
        .filter((e) => KINDS.has(e.kind) && e.line.length <= LINE_MAX)
        .slice(-SAVED_ENTRIES)
        .map((e) => {
          const saved = { line: e.line, text: capped(e.text, SAVED_TEXT), kind: e.kind };
          if (e.note) saved.note = e.note.slice(0, SAVED_NOTE);
          return saved;
        });
      const lines = history.lines.slice(-SAVED_LINES);
      if (transcript.length === 0 && lines.length === 0) return null;
      return { history: lines, transcript };
    },

    /**
     * Shows a saved screen and history. The link's operations have already
     * rebuilt the keyspace, so nothing is run: a saved entry is only text.
     * A field that does not check out is ignored, and so is any entry.
     */
    restore(saved) {
      if (saved === null || typeof saved !== "object" || Array.isArray(saved)) return;
      const lines = linesFrom(saved.history);
      if (lines) {
        history.lines = lines.slice();
        history.rewind();
      }
      if (Array.isArray(saved.transcript) && saved.transcript.length <= SAVED_ENTRIES) {
        clearScreen();
        for (const e of saved.transcript.map(entryFrom)) if (e) show(e);
      }
    },
  };
}
