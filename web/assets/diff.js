// Line diffs: what an edited script changed against the original, as the
// editor shows it. Myers' O((N+M)·D) algorithm over lines, after trimming
// the lines both texts share at their start and end, so a one-line edit of
// a long script costs next to nothing. A pure module: no DOM, so Node can
// test it (diff.test.mjs).

/** Past this many differences the middle is shown as removed, then added: a rewrite, not an edit. */
export const MAX_EDITS = 1000;

/** Splits text into lines; a final newline does not start an empty last line. */
export function splitLines(text) {
  const s = String(text);
  if (s === "") return [];
  return s.replace(/\r\n?/g, "\n").replace(/\n$/, "").split("\n");
}

/**
 * The line diff of two texts: one op per line, in order, each
 * {op: "same" | "del" | "add", text, old, new}, where old and new are the
 * 1-based line numbers in each text (null on the side a line is not in).
 */
export function diffLines(before, after) {
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;

  const ops = [];
  for (let i = 0; i < head; i++) ops.push(same(a[i], i, i));
  const middle = myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  for (const m of middle) {
    if (m.op === "same") ops.push(same(a[head + m.i], head + m.i, head + m.j));
    else if (m.op === "del") ops.push({ op: "del", text: a[head + m.i], old: head + m.i + 1, new: null });
    else ops.push({ op: "add", text: b[head + m.j], old: null, new: head + m.j + 1 });
  }
  for (let k = tail; k > 0; k--) ops.push(same(a[a.length - k], a.length - k, b.length - k));
  return ops;
}

function same(text, i, j) {
  return { op: "same", text, old: i + 1, new: j + 1 };
}

/**
 * Myers' greedy diff of two line arrays: the shortest edit script, as ops
 * with 0-based indexes into a (i) and b (j). Deletions come before
 * additions where both are possible, the way `diff -u` reads. Beyond
 * MAX_EDITS it gives up on finding a short script and returns every line
 * of a removed, then every line of b added.
 */
function myers(a, b) {
  const n = a.length;
  const m = b.length;
  if (n === 0 && m === 0) return [];
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace = [];
  for (let d = 0; d <= max; d++) {
    // Keep the frontier of this round: the path is walked back from it.
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a.length, b.length, d);
    }
  }
  return [
    ...a.map((_, i) => ({ op: "del", i })),
    ...b.map((_, j) => ({ op: "add", j })),
  ];
}

/** Walks the saved frontiers back from (n, m) to (0, 0), collecting the ops. */
function backtrack(trace, n, m, dEnd) {
  const out = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d > 0; d--) {
    const frontier = trace[d]; // v as it was at the start of round d
    const at = (k) => frontier[k + d + 1];
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      out.push({ op: "same", i: x, j: y });
    }
    if (down) out.push({ op: "add", j: prevY });
    else out.push({ op: "del", i: prevX });
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    out.push({ op: "same", i: x, j: y });
  }
  return out.reverse();
}

/** How many lines were added and removed. */
export function diffStats(ops) {
  let added = 0;
  let removed = 0;
  for (const o of ops) {
    if (o.op === "add") added++;
    else if (o.op === "del") removed++;
  }
  return { added, removed };
}

/**
 * Groups a diff into hunks: the changed lines with up to `context`
 * unchanged lines around them, as `diff -u` shows them. Lines far from any
 * change are left out, so a one-line edit of a long script stays short.
 */
export function hunks(ops, context = 2) {
  const keep = new Array(ops.length).fill(false);
  ops.forEach((o, i) => {
    if (o.op === "same") return;
    for (let j = Math.max(0, i - context); j <= Math.min(ops.length - 1, i + context); j++) keep[j] = true;
  });
  const out = [];
  let current = null;
  ops.forEach((o, i) => {
    if (!keep[i]) {
      current = null;
      return;
    }
    if (!current) {
      current = [];
      out.push(current);
    }
    current.push(o);
  });
  return out;
}

/** A sentence saying what changed, for the page and for a screen reader. */
export function describeDiff(ops) {
  const { added, removed } = diffStats(ops);
  if (added === 0 && removed === 0) return "No changes: the text is the original.";
  const lines = (n) => `${n} line${n === 1 ? "" : "s"}`;
  const parts = [];
  if (removed) parts.push(`${lines(removed)} removed`);
  if (added) parts.push(`${lines(added)} added`);
  return `${parts.join(", ")}.`;
}
