// The keyspace as the widgets draw it: key names, the ids the presets
// choose, views of the pending set and the rows, what changed between two
// views, and the HTML tables they are drawn into.

import { h, mark, partsOf } from "./dom.js";
import { relative } from "./format.js";

/** The keys of one queue; they mirror EchoMQ.Keyspace. */
export function keysOf(queue) {
  const prefix = `emq:{${queue}}:`;
  return {
    prefix,
    pending: prefix + "pending",
    active: prefix + "active",
    jobBase: prefix + "job:",
    job: (id) => prefix + "job:" + id,
  };
}

const JOB_N = /^JOB-(\d+)$/;

/**
 * The id JOB-n as the playground mints it, zero-padded to six digits (the
 * engine's api.IDDigits): the pending set orders ids by their bytes, and
 * the lesson's "byte order is mint order" holds only when JOB-10 does not
 * sort before JOB-9.
 */
export function mintedId(n) {
  return `JOB-${String(n).padStart(6, "0")}`;
}

/** The highest n of any JOB-n the snapshot knows (rows, pending, active). */
function highestN(snapshot) {
  let n = 0;
  const seen = [
    ...(snapshot?.rows || []).map((r) => r.id),
    ...(snapshot?.pending || []).map((p) => p.id),
    ...(snapshot?.active || []).map((a) => a.id),
  ];
  for (const id of seen) {
    const m = JOB_N.exec(id);
    if (m) n = Math.max(n, Number(m[1]));
  }
  return n;
}

/**
 * The next JOB-n that has no row: what "a fresh id" means. The engine
 * works it out (snapshot.fresh), since a bounded snapshot does not show
 * every id; a snapshot without it is read here.
 */
export function freshId(snapshot) {
  if (typeof snapshot?.fresh === "string") return snapshot.fresh;
  return mintedId(highestN(snapshot) + 1);
}

/** An id whose row exists, the newest JOB-n first; null when there is none. */
export function duplicateId(snapshot) {
  const rows = snapshot?.rows || [];
  if (rows.length === 0) return null;
  let best = null;
  let bestN = -1;
  for (const r of rows) {
    const m = JOB_N.exec(r.id);
    const n = m ? Number(m[1]) : -1;
    if (best === null || n > bestN) {
      best = r.id;
      bestN = n;
    }
  }
  return best;
}

/** An id the gate refuses: lower-case "job" is not the bytes JOB. */
export function malformedId(snapshot) {
  return freshId(snapshot).replace(/^JOB/, "job");
}

// The row's fields in the order @enqueue writes them (and Redis 7 keeps for
// a small hash); any other field after them, by name.
const FIELD_ORDER = ["state", "attempts", "payload"];

function orderFields(fields) {
  return [...fields].sort((a, b) => {
    const ia = FIELD_ORDER.indexOf(a.field);
    const ib = FIELD_ORDER.indexOf(b.field);
    if (ia !== ib) return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
    return a.field < b.field ? -1 : a.field > b.field ? 1 : 0;
  });
}

/**
 * A view of one job's keys: the pending set's members and the row's fields
 * (null when the row does not exist). From a Snapshot.
 */
export function viewFromSnapshot(snapshot, id) {
  const row = (snapshot?.rows || []).find((r) => r.id === id);
  return {
    pending: (snapshot?.pending || []).map((p) => ({ member: p.id, score: p.score })),
    gap: snapshot?.gaps?.pending || null,
    row: row
      ? orderFields([
          { field: "state", value: row.state },
          { field: "attempts", value: row.attempts },
          { field: "payload", value: row.payload },
        ])
      : null,
  };
}

/**
 * The same view from a trace's entries (a step's, or the keys before the
 * run): bounded by the engine like a snapshot, so the pending set may come
 * with a gap ("… and 9,950 more").
 */
export function viewFromEntries(entries, keys, id) {
  const pending = (entries || []).find((e) => e.key === keys.pending);
  const row = (entries || []).find((e) => e.key === keys.job(id));
  return {
    pending: pending && pending.members ? pending.members.map((m) => ({ member: m.member, score: m.score })) : [],
    gap: pending && pending.gap ? pending.gap : null,
    row: row && row.fields ? orderFields(row.fields) : null,
  };
}

/** Marks for a view against the one before it: member or field → "new" | "changed". */
export function viewMarks(prev, next) {
  const pending = new Map();
  const row = new Map();
  if (!prev) return { pending, row };
  const before = new Map(prev.pending.map((p) => [p.member, p.score]));
  for (const p of next.pending) {
    if (!before.has(p.member)) pending.set(p.member, "new");
    else if (before.get(p.member) !== p.score) pending.set(p.member, "changed");
  }
  if (next.row) {
    const old = new Map((prev.row || []).map((f) => [f.field, f.value]));
    for (const f of next.row) {
      if (!old.has(f.field)) row.set(f.field, "new");
      else if (old.get(f.field) !== f.value) row.set(f.field, "changed");
    }
  }
  return { pending, row };
}

// The order of each list, as the engine sends it: pending by score, then
// member; active by deadline, then member; rows by id. Ids compare as
// Redis compares them, byte by byte (the same as code units for ASCII).
const byText = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const ORDER = {
  pending: (a, b) => Number(a.score) - Number(b.score) || byText(a.id, b.id),
  active: (a, b) => a.deadline - b.deadline || byText(a.id, b.id),
  rows: (a, b) => byText(a.id, b.id),
};

/**
 * Whether an entry missing from a bounded list may have been in its gap
 * all along: a bounded snapshot shows a list's ends, and an entry that
 * comes into view as the list moves (the next id after a claim) is not new.
 */
function hidden(list, gap, entry, cmp) {
  if (!gap || !gap.count) return false;
  return cmp(entry, list[gap.at - 1]) > 0 && cmp(entry, list[gap.at]) < 0;
}

/** Marks for a whole snapshot against the previous one the widget drew. */
export function snapshotMarks(prev, next) {
  const out = { pending: new Map(), active: new Map(), rows: new Map() };
  if (!prev) return out;
  const gaps = prev.gaps || {};
  const pend = new Map(prev.pending.map((p) => [p.id, p.score]));
  for (const p of next.pending) {
    if (!pend.has(p.id)) {
      if (!hidden(prev.pending, gaps.pending, p, ORDER.pending)) out.pending.set(p.id, "new");
    } else if (pend.get(p.id) !== p.score) out.pending.set(p.id, "changed");
  }
  const act = new Map(prev.active.map((a) => [a.id, a.deadline]));
  for (const a of next.active) {
    if (!act.has(a.id)) {
      if (!hidden(prev.active, gaps.active, a, ORDER.active)) out.active.set(a.id, "new");
    } else if (act.get(a.id) !== a.deadline) out.active.set(a.id, "changed");
  }
  const rows = new Map(prev.rows.map((r) => [r.id, r]));
  for (const r of next.rows) {
    const old = rows.get(r.id);
    // A row that comes into view from a gap, or (when only the rows of the
    // ids shown are read) along with its id, is not marked: it may be old.
    if (!old && (prev.rowsOfSets || hidden(prev.rows, gaps.rows, r, ORDER.rows))) continue;
    const fields = new Map();
    for (const f of ["state", "attempts", "payload"]) {
      if (!old) fields.set(f, "new");
      else if (old[f] !== r[f]) fields.set(f, "changed");
    }
    if (fields.size) out.rows.set(r.id, { row: old ? "changed" : "new", fields });
  }
  return out;
}

// ---- tables --------------------------------------------------------------

/**
 * Text with a line-break opportunity (<wbr>) after every comma, so that a
 * long JSON payload wraps between its members rather than mid-word. The
 * text itself is unchanged: copied or read out, it is what was stored.
 */
function breakable(text) {
  const out = [];
  for (const part of String(text).split(/(?<=,)/)) {
    if (out.length) out.push(h("wbr"));
    out.push(part);
  }
  return out;
}

/**
 * A cell: text, optionally code-styled, with a change mark. wrap marks a
 * cell of free text (a payload, a hash value) that may wrap; every other
 * cell holds a name or a number and stays on one line.
 */
function cell(tag, text, { code = false, markKind = null, scope = null, cls = null, wrap = false } = {}) {
  const content = code ? h("code", null, ...(wrap ? breakable(text) : [text])) : document.createTextNode(text);
  const classes = [cls, wrap ? "payload" : null].filter(Boolean).join(" ") || null;
  return h(tag, { scope, class: classes }, content, markKind ? " " : null, mark(markKind));
}

function emptyRow(colspan, text) {
  return h("tr", { class: "empty" }, h("td", { colspan, text }));
}

/** Replaces a table body's rows in one go. */
function fill(tbody, rows) {
  tbody.replaceChildren(...rows);
}

/** What an empty set or a missing hash says in its table. */
const NO_KEY = "(empty: the key does not exist)";

/**
 * Fills a table body with one row per item (rowOf draws it), and the line
 * for what a bounded snapshot left out (gap, with its note) where it
 * belongs. No items (null: no such key) and nothing left out is one row
 * saying empty.
 */
function fillTable(tbody, items, { colspan, empty, gap = null, note = null }, rowOf) {
  if (!items || (items.length === 0 && !(gap && gap.count))) {
    fill(tbody, [emptyRow(colspan, empty)]);
    return;
  }
  fill(tbody, withGap(items.map(rowOf), gap, colspan, note));
}

/**
 * Puts the line that stands for what a bounded snapshot left out ("… and
 * 99,950 more") where those members belong. note says more about them.
 */
function withGap(rows, gap, colspan, note) {
  if (!gap || !gap.count) return rows;
  const more = h(
    "tr",
    { class: "more", "data-more": String(gap.count) },
    h("td", { colspan }, h("span", { class: "more-count", text: `… and ${gap.count.toLocaleString("en-US")} more` }), note ? ` ${note}` : null),
  );
  return [...rows.slice(0, gap.at), more, ...rows.slice(gap.at)];
}

/** The pending set: member (the job id) and score, in claim order. */
export function fillPending(tbody, members, marks = new Map(), gap = null) {
  fillTable(tbody, members, { colspan: 2, empty: NO_KEY, gap }, (m) => {
    const kind = marks.get(m.member) || null;
    return h(
      "tr",
      { class: kind ? `is-${kind}` : null },
      cell("th", m.member, { code: true, markKind: kind, scope: "row" }),
      cell("td", m.score, { code: true, cls: "num" }),
    );
  });
}

/** One hash: field and value. */
export function fillHash(tbody, fields, marks = new Map()) {
  fillTable(tbody, fields, { colspan: 2, empty: NO_KEY }, (f) => {
    const kind = marks.get(f.field) || null;
    return h(
      "tr",
      { class: kind ? `is-${kind}` : null },
      cell("th", f.field, { code: true, scope: "row" }),
      cell("td", f.value, { code: true, markKind: kind, wrap: true }),
    );
  });
}

/**
 * Every row of the queue: id, state, attempts, payload. ofSets: the
 * engine read only the rows of the ids the sets show (a big keyspace).
 */
export function fillRows(tbody, rows, marks = new Map(), gap = null, ofSets = false) {
  const note = ofSets ? "(one row per id in pending or active; at this depth only the rows of the ids shown are read)" : null;
  fillTable(tbody, rows, { colspan: 4, empty: "(none: no job row exists)", gap, note }, (r) => {
    const m = marks.get(r.id);
    const f = (name) => (m && m.row === "changed" ? m.fields.get(name) || null : null);
    return h(
      "tr",
      { class: m ? `is-${m.row}` : null },
      cell("th", r.id, { code: true, markKind: m && m.row === "new" ? "new" : null, scope: "row" }),
      cell("td", r.state, { code: true, markKind: f("state") }),
      cell("td", r.attempts, { code: true, markKind: f("attempts"), cls: "num" }),
      cell("td", r.payload, { code: true, markKind: f("payload"), wrap: true }),
    );
  });
}

/** The active set: member, deadline score in ms, and the lease in words. */
export function fillActive(tbody, active, now, marks = new Map(), gap = null) {
  fillTable(tbody, active, { colspan: 3, empty: NO_KEY, gap }, (a) => {
    const kind = marks.get(a.id) || null;
    const expired = a.deadline <= now;
    return h(
      "tr",
      { class: [kind ? `is-${kind}` : "", expired ? "is-expired" : ""].join(" ").trim() || null },
      cell("th", a.id, { code: true, markKind: kind, scope: "row" }),
      cell("td", String(a.deadline), { code: true, cls: "num" }),
      h("td", { class: expired ? "lease expired" : "lease", text: relative(a.deadline, now) }),
    );
  });
}

/**
 * The bodies of a widget's keyspace tables, #<prefix>-pending and so on,
 * by name: the tables drawQueue (and the stepper's fillPending and
 * fillHash) fill.
 */
export function queueTables(prefix, names = ["pending", "active", "rows"]) {
  return Object.fromEntries(Object.entries(partsOf(prefix, names)).map(([name, table]) => [name, table.tBodies[0]]));
}

/**
 * Draws a queue's snapshot into a widget's tables: whichever of pending,
 * active and rows the widget has. What changed since prev is marked; a
 * null prev (a first drawing) marks nothing.
 */
export function drawQueue(tables, prev, next) {
  const marks = snapshotMarks(prev, next);
  const gaps = next.gaps || {};
  if (tables.pending) {
    fillPending(
      tables.pending,
      next.pending.map((p) => ({ member: p.id, score: p.score })),
      marks.pending,
      gaps.pending,
    );
  }
  if (tables.active) fillActive(tables.active, next.active, next.now, marks.active, gaps.active);
  if (tables.rows) fillRows(tables.rows, next.rows, marks.rows, gaps.rows, Boolean(next.rowsOfSets));
}
