// The two workers' round as data, with no page in it: the plans of the
// three ways to claim, the state machine that folds a round's entries into
// what each worker holds, and the check of a saved round (a permalink is
// hostile input). workers.js sends the commands and draws the result;
// test/round.test.mjs runs this part under Node.

/** The workers, as the page names them, and the ids of their panels. */
export const WORKERS = ["A", "B"];

/** The steps of one claim, by mode. */
export const PLANS = {
  split: ["read", "remove", "lease"],
  optimistic: ["watch", "read", "queue", "exec"],
  atomic: ["claim"],
};

/** How many times an optimistic worker tries its claim before it gives up. */
export const MAX_ATTEMPTS = 3;

// Limits for a saved round (a permalink is hostile input): a round has at
// most three steps per worker (four, up to MAX_ATTEMPTS times, when
// optimistic), a step sends at most six commands.
const MAX_ID = 200;
const MAX_LINE = 400;
const MAX_REPLY = 2000;
export const MAX_LINES = 6;

/** A Redis glob pattern that matches exactly the keys starting with prefix. */
export function globPrefix(prefix) {
  return prefix.replace(/[*?[\]\\]/g, "\\$&") + "*";
}

/** The first element of an array reply when it is a bulk string, else null. */
export function firstBulk(reply) {
  if (!reply || reply.type !== "array" || !Array.isArray(reply.value) || reply.value.length === 0) return null;
  const first = reply.value[0];
  return first && first.type === "bulk" ? String(first.value) : null;
}

/**
 * The order of a preset, perWorker steps each: "serial" is all of A's steps
 * and then all of B's; "turns" is one each, A first.
 */
export function schedule(pattern, perWorker) {
  if (pattern === "serial") return [...Array(perWorker).fill("A"), ...Array(perWorker).fill("B")];
  return Array.from({ length: perWorker * 2 }, (_, i) => WORKERS[i % 2]);
}

/** "A and B" for a list of worker names. */
export function both(names) {
  return names.length === 2 ? `${names[0]} and ${names[1]}` : names.join("");
}

// ---- the round as data ------------------------------------------------------
//
// A round is a list of entries, one per step a worker took, in the order the
// server heard them: {w, kind, id, token, ok, lines}. Everything the widget
// shows (what each worker holds, the verdict) is folded from that list, so a
// saved round re-renders without sending a command again.

/** A worker before its first step. */
export function freshWorker() {
  return {
    step: 0,
    read: null,
    holds: null,
    token: null,
    over: false,
    outcome: "idle",
    removed: null,
    error: null,
    watching: false,
    inMulti: false,
    retries: 0,
  };
}

/** The reply of a step's last command, as the timeline shows it. */
function lastReply(e) {
  return e.lines.length ? e.lines[e.lines.length - 1][1] : "";
}

/**
 * A step that either worked, leaving the worker at outcome with more steps
 * to take, or failed, which ends its claim with the reply as the error.
 */
function settle(s, e, outcome) {
  s.outcome = e.ok ? outcome : "failed";
  s.over = !e.ok;
  if (!e.ok) s.error = lastReply(e);
}

/** Applies one entry to a worker's state; returns the new state. */
export function applyEntry(state, e) {
  const s = { ...state, step: state.step + 1 };
  switch (e.kind) {
    case "watch":
      s.watching = e.ok;
      settle(s, e, "watching");
      break;
    case "read":
      s.read = e.ok ? e.id : null;
      s.outcome = !e.ok ? "failed" : e.id === null ? "empty" : "reading";
      s.over = !e.ok || e.id === null;
      if (e.id === null) s.watching = false; // an optimistic reader unwatches an empty queue
      if (!e.ok) s.error = lastReply(e);
      break;
    case "queue":
      s.inMulti = e.ok;
      settle(s, e, "queued");
      break;
    case "exec":
      s.inMulti = false;
      s.watching = false;
      if (!e.ok) {
        s.over = true;
        s.outcome = "failed";
        s.error = lastReply(e);
      } else if (e.id === null) {
        // EXEC answered nil: nothing ran. Start again from WATCH.
        s.retries += 1;
        s.step = 0;
        s.read = null;
        s.over = s.retries >= MAX_ATTEMPTS;
        s.outcome = s.over ? "gave-up" : "retrying";
      } else {
        s.over = true;
        s.outcome = "holds";
        s.holds = e.id;
        s.token = e.token;
      }
      break;
    case "remove":
      s.removed = e.ok;
      s.outcome = "removed";
      break;
    case "lease":
    case "claim":
      s.over = true;
      if (!e.ok) {
        s.outcome = "failed";
        s.error = lastReply(e);
      } else if (e.id === null) {
        s.outcome = "empty";
      } else {
        s.outcome = "holds";
        s.holds = e.id;
        s.token = e.token;
      }
      break;
  }
  return s;
}

/** Both workers' states after the round. */
export function foldRound(round) {
  const states = { A: freshWorker(), B: freshWorker() };
  for (const e of round) states[e.w] = applyEntry(states[e.w], e);
  return states;
}

/** The kind of the worker's next step in mode, or null when its claim is over. */
export function nextKind(mode, state) {
  if (state.over) return null;
  return PLANS[mode][state.step] ?? null;
}

// ---- validation of a saved round ------------------------------------------

const isText = (v, max) => typeof v === "string" && v.length <= max;

/** One saved line: [command, reply], both text of bounded length. */
function validLine(l) {
  return Array.isArray(l) && l.length === 2 && isText(l[0], MAX_LINE) && isText(l[1], MAX_REPLY);
}

/**
 * A saved round, checked entry by entry against the state machine: each
 * entry must be the step its worker could take next, name the id that
 * worker read, and carry only bounded text. Returns the clean round, or
 * null when anything is off (the widget then keeps its own state).
 */
export function validRound(mode, raw) {
  const attempts = mode === "optimistic" ? MAX_ATTEMPTS : 1;
  if (!Array.isArray(raw) || raw.length > PLANS[mode].length * WORKERS.length * attempts) return null;
  const states = { A: freshWorker(), B: freshWorker() };
  const out = [];
  for (const r of raw) {
    if (!r || typeof r !== "object" || !WORKERS.includes(r.w)) return null;
    const state = states[r.w];
    const kind = nextKind(mode, state);
    if (kind === null || r.kind !== kind) return null;
    const id = r.id === null ? null : isText(r.id, MAX_ID) && r.id !== "" ? r.id : undefined;
    if (id === undefined) return null;
    if (typeof r.ok !== "boolean") return null;
    if (!(r.token === null || (typeof r.token === "string" && /^-?\d{1,20}$/.test(r.token)))) return null;
    if (!Array.isArray(r.lines) || r.lines.length > MAX_LINES || !r.lines.every(validLine)) return null;
    // The remove, the lease and the queued claim act on the id the worker
    // read; EXEC names it, or null when it answered nil.
    if ((r.kind === "remove" || r.kind === "lease" || r.kind === "queue") && id !== state.read) return null;
    if (r.kind === "exec" && id !== null && id !== state.read) return null;
    const e = { w: r.w, kind: r.kind, id, token: r.token, ok: r.ok, lines: r.lines.map((l) => [l[0], l[1]]) };
    states[r.w] = applyEntry(state, e);
    out.push(e);
  }
  return out;
}

/**
 * The round trips one worker's entries cost a pipelining client. A
 * command whose reply the next one needs goes alone (WATCH, the read,
 * TIME before the deadline is worked out, the split claim's steps,
 * claim/3's pause check and its script, UNWATCH after a nil EXEC), but
 * the commands between MULTI and EXEC wait for nothing: a client such as
 * Redix or redis-py sends MULTI, the queued commands and EXEC in one write
 * and reads the replies together. So a "queue" step (TIME, then MULTI and
 * the writes) is two round trips, and the EXEC that follows it rides in
 * the second.
 */
export function roundTrips(entries) {
  let trips = 0;
  let prev = null;
  for (const e of entries) {
    const n = e.lines.length;
    if (e.kind === "queue") trips += Math.min(n, 2);
    else if (e.kind === "exec" && prev === "queue") trips += n - 1;
    else trips += n;
    prev = e.kind;
  }
  return trips;
}
