// The "two workers" widget: worker A and worker B claim from one queue, and
// the learner decides the order in which the server hears their commands.
//
// Three ways to claim. Atomic: one call of @claim, a single script, so a
// worker's claim is one step and nothing can come between its pop and its
// lease. Non-atomic ("split"): the client a newcomer writes first, three
// steps sent as separate commands: ZRANGE to read the oldest id, ZREM to
// remove it (the reply is never checked), then the lease written with the
// commands @claim uses. Between two steps of one worker, the other may run:
// when both read before either removes, both lease the same job.
// Optimistic: the client Redis's own transactions allow. WATCH the pending
// set, read the oldest id, queue @claim's four writes between MULTI and
// EXEC; when a write to the pending set came after the WATCH, EXEC answers
// nil and none of them runs, and the worker unwatches and starts again.
// Each optimistic worker talks on a connection of its own (exec's
// connection argument), since WATCH and MULTI belong to a connection.
//
// Every command goes to the shared engine (ctx.call), so the replies, the
// keys and the clock are the engine's; the widget only keeps the round it
// played (the timeline) and what each worker believes it holds.

import { announce, byId, partsOf } from "./dom.js";
import { formatCommand } from "./format.js";
import { drawQueue, keysOf, queueTables } from "./keyspace.js";
import { leaseOf } from "./options.js";
import { drawRound } from "./workers-draw.js";
import {
  firstBulk,
  foldRound,
  globPrefix,
  MAX_ATTEMPTS,
  MAX_LINES,
  nextKind,
  PLANS,
  schedule,
  validRound,
  WORKERS,
} from "./round.js";
import { replyLine, sentLine } from "./wire.js";

/** The connection each optimistic worker sends on. */
const CONNECTION = { A: "worker-A", B: "worker-B" };

// ---- the widget ---------------------------------------------------------------

/** @returns {import("./widget.js").Widget} */
export function mountWorkers(root, ctx) {
  // data-own-queue, not data-queue: the page points every data-queue at the
  // lesson's queue (?queue=), and this widget must stay off that one.
  const queue = root.dataset.ownQueue || "race";
  const keys = keysOf(queue);
  const lease = leaseOf(root, ctx.options);
  const jobs = (root.dataset.jobs || "JOB-1 JOB-2 JOB-3").split(/\s+/).filter(Boolean);
  const payload = root.dataset.payload ?? "";

  const el = {
    modes: [...root.querySelectorAll("input[name=workers-mode]")],
    ...partsOf("workers", ["fill", "verdict", "explain", "cost", "timeline", "live"]),
    serial: byId("workers-play-serial"),
    turns: byId("workers-play-turns"),
    ...queueTables("workers"),
    panels: Object.fromEntries(
      WORKERS.map((w) => {
        const id = w.toLowerCase();
        const panel = byId(`workers-${id}-panel`);
        return [w, { panel, holds: byId(`workers-${id}-holds`), step: byId(`workers-${id}-step`), plans: [...panel.querySelectorAll("ol.plan")] }];
      }),
    ),
  };

  let mode = "split";
  let round = [];
  let snapshot = null;
  const say = (text) => announce(el.live, text);

  // ---- talking to the engine ------------------------------------------------

  /**
   * One command, as a worker's client sends it, on the worker's own
   * connection when it has one; the line for the timeline too.
   */
  async function send(args, connection) {
    const reply = connection ? await ctx.call("exec", args, connection) : await ctx.call("exec", args);
    if (!reply || typeof reply !== "object" || typeof reply.type !== "string") {
      const message = reply && reply.message ? reply.message : "no reply";
      return { reply: { type: "error", value: message }, line: [formatCommand(args), `(page error) ${message}`] };
    }
    return { reply, line: [formatCommand(args), replyLine(reply)] };
  }

  /**
   * Split step 1, optimistic step 2: ZRANGE reads the oldest pending id and
   * leaves it there. An optimistic worker that finds nothing unwatches.
   */
  async function stepRead(w) {
    const connection = mode === "optimistic" ? CONNECTION[w] : undefined;
    const { reply, line } = await send(["ZRANGE", keys.pending, "0", "0"], connection);
    const id = firstBulk(reply);
    const lines = [line];
    if (connection && reply.type !== "error" && id === null) lines.push((await send(["UNWATCH"], connection)).line);
    return { w, kind: "read", id, token: null, ok: reply.type !== "error", lines };
  }

  /** Optimistic step 1: WATCH the pending set, on the worker's connection. */
  async function stepWatch(w) {
    const { reply, line } = await send(["WATCH", keys.pending], CONNECTION[w]);
    return { w, kind: "watch", id: null, token: null, ok: reply.type === "status", lines: [line] };
  }

  /**
   * Optimistic step 3: read the server clock for the deadline, then queue
   * @claim's four writes after MULTI. Each answers QUEUED: nothing has run.
   */
  async function stepQueue(w, id) {
    const c = CONNECTION[w];
    const lines = [];
    const fail = () => ({ w, kind: "queue", id, token: null, ok: false, lines });
    const time = await send(["TIME"], c);
    lines.push(time.line);
    const parts = time.reply.type === "array" ? time.reply.value.map((r) => Number(r && r.value)) : [];
    if (parts.length !== 2 || !parts.every(Number.isSafeInteger)) return fail();
    const deadline = parts[0] * 1000 + Math.floor(parts[1] / 1000) + Number(lease);
    const row = keys.job(id);
    for (const args of [
      ["MULTI"],
      ["ZREM", keys.pending, id],
      ["HINCRBY", row, "attempts", "1"],
      ["HSET", row, "state", "active"],
      ["ZADD", keys.active, String(deadline), id],
    ]) {
      const sent = await send(args, c);
      lines.push(sent.line);
      if (sent.reply.type === "error") return fail();
    }
    return { w, kind: "queue", id, token: null, ok: true, lines };
  }

  /**
   * Optimistic step 4: EXEC. An array is the four replies: the claim went
   * through, and HINCRBY's reply is the attempts count. Nil: a watched key
   * was written after WATCH, nothing ran, and the worker unwatches.
   */
  async function stepExec(w, id) {
    const c = CONNECTION[w];
    const { reply, line } = await send(["EXEC"], c);
    const lines = [line];
    if (reply.type === "nil") {
      lines.push((await send(["UNWATCH"], c)).line);
      return { w, kind: "exec", id: null, token: null, ok: true, lines };
    }
    const ok = reply.type === "array" && reply.value.length === 4 && reply.value.every((r) => r && r.type !== "error");
    const token = ok && reply.value[1].type === "int" ? String(reply.value[1].value) : null;
    return { w, kind: "exec", id: ok ? id : null, token, ok: ok && token !== null, lines };
  }

  /** Split step 2: ZREM removes it. The naive client does not look at the reply. */
  async function stepRemove(w, id) {
    const { reply, line } = await send(["ZREM", keys.pending, id]);
    return { w, kind: "remove", id, token: null, ok: reply.type === "int" && reply.value === "1", lines: [line] };
  }

  /**
   * Split step 3: the lease, with @claim's own commands in @claim's order:
   * count the attempt, mark the row, read the server clock, file the id in
   * the active set at now + lease. A client has to ask for TIME and then
   * send ZADD, which is one more gap a script does not have.
   */
  async function stepLease(w, id) {
    const lines = [];
    const row = keys.job(id);
    const attempts = await send(["HINCRBY", row, "attempts", "1"]);
    lines.push(attempts.line);
    if (attempts.reply.type === "error") return { w, kind: "lease", id, token: null, ok: false, lines };
    const marked = await send(["HSET", row, "state", "active"]);
    lines.push(marked.line);
    if (marked.reply.type === "error") return { w, kind: "lease", id, token: null, ok: false, lines };
    const time = await send(["TIME"]);
    lines.push(time.line);
    const parts = time.reply.type === "array" ? time.reply.value.map((r) => Number(r && r.value)) : [];
    if (parts.length !== 2 || !parts.every(Number.isSafeInteger)) return { w, kind: "lease", id, token: null, ok: false, lines };
    // As claim.lua computes it: seconds * 1000 + whole ms of the µs + lease.
    const deadline = parts[0] * 1000 + Math.floor(parts[1] / 1000) + Number(lease);
    const filed = await send(["ZADD", keys.active, String(deadline), id]);
    lines.push(filed.line);
    return { w, kind: "lease", id, token: String(attempts.reply.value), ok: filed.reply.type !== "error", lines };
  }

  /** The words of one exchange of the connector, as the wire shows it. */
  function exchangeLine(x) {
    return [`${sentLine(x, ctx.scripts)} 2 ${formatCommand([keys.pending, keys.active, keys.jobBase, lease])}`, replyLine(x.reply)];
  }

  /** Atomic: one call of claim/3, which runs @claim through the connector. */
  async function stepClaim(w) {
    const result = await ctx.call("claim", queue, lease);
    const wire = Array.isArray(result && result.wire) ? result.wire : [];
    const lines = wire.slice(-(MAX_LINES - 1)).map(exchangeLine);
    // claim/3 reads the pause flag before it sends the script: a script
    // on the wire means the flag was not set. It is a round trip too.
    if (lines.length > 0) lines.unshift([`EXISTS ${keys.prefix}paused`, "(integer) 0"]);
    if (result && result.verdict === "leased") {
      return { w, kind: "claim", id: String(result.id), token: String(result.attempts), ok: true, lines };
    }
    if (result && result.verdict === "empty") {
      // claim/3 checks the pause flag before it sends the script.
      if (lines.length === 0) lines.push([`EXISTS ${keys.prefix}paused`, "(integer) 1"]);
      return { w, kind: "claim", id: null, token: null, ok: true, lines };
    }
    const message = (result && (result.message || result.error)) || "no result";
    if (lines.length === 0) lines.push(["claim/3", `(error) ${message}`]);
    return { w, kind: "claim", id: null, token: null, ok: false, lines };
  }

  /** Runs worker w's next step, if it has one; returns the entry or null. */
  async function takeStep(w) {
    const state = foldRound(round)[w];
    const kind = nextKind(mode, state);
    if (kind === null) return null;
    let entry;
    if (kind === "read") entry = await stepRead(w);
    else if (kind === "remove") entry = await stepRemove(w, state.read);
    else if (kind === "lease") entry = await stepLease(w, state.read);
    else if (kind === "watch") entry = await stepWatch(w);
    else if (kind === "queue") entry = await stepQueue(w, state.read);
    else if (kind === "exec") entry = await stepExec(w, state.read);
    else entry = await stepClaim(w);
    round.push(entry);
    return entry;
  }

  /**
   * Empties the widget's queue and enqueues its jobs afresh: every key under
   * emq:{race}: goes (rows, both sets, a pause flag), so each round starts
   * from the same state and plays the same way.
   */
  async function fillQueue() {
    // An optimistic worker left half-way holds a MULTI or a WATCH on its
    // connection: end it, or its next round's WATCH would be refused.
    const states = foldRound(round);
    for (const w of WORKERS) {
      if (states[w].inMulti) await send(["DISCARD"], CONNECTION[w]);
      else if (states[w].watching) await send(["UNWATCH"], CONNECTION[w]);
    }
    const found = await ctx.call("exec", ["KEYS", globPrefix(keys.prefix)]);
    const old = found && found.type === "array" ? found.value.map((r) => String(r.value)) : [];
    // In batches: a permalink takes at most 64 arguments per command.
    for (let i = 0; i < old.length; i += 50) await ctx.call("exec", ["DEL", ...old.slice(i, i + 50)]);
    for (const id of jobs) await ctx.call("enqueue", queue, id, payload);
    round = [];
  }

  // ---- actions ----------------------------------------------------------------

  /** What one step did, in a sentence for the live region. */
  function spoken(e) {
    const reply = e.lines.length ? e.lines[e.lines.length - 1][1] : "";
    switch (e.kind) {
      case "read":
        return e.id === null ? `${e.w} read the pending set: it is empty.` : `${e.w} read ${e.id} with ZRANGE.`;
      case "remove":
        return `${e.w} sent ZREM for ${e.id}: ${reply}${e.ok ? "." : ", which it ignores."}`;
      case "watch":
        return `${e.w} sent WATCH: ${reply}.`;
      case "queue":
        return e.ok ? `${e.w} queued the claim of ${e.id}: QUEUED, nothing has run yet.` : `${e.w}'s claim: ${reply}.`;
      case "exec":
        if (e.ok && e.id === null) return `${e.w}'s EXEC answered nil: none of its queued commands ran. It unwatched.`;
        return e.ok ? `${e.w} holds ${e.id}, attempts ${e.token}.` : `${e.w}'s claim: ${reply}.`;
      default:
        return e.ok && e.id !== null ? `${e.w} holds ${e.id}, attempts ${e.token}.` : `${e.w}'s claim: ${reply}.`;
    }
  }

  /** A step button (or key): worker w's next step, then every widget redraws. */
  async function step(w) {
    if (!ctx.ready) return;
    const entry = await takeStep(w);
    if (entry === null) {
      say(`${w} has finished its claim. Fill the queue to start a new round.`);
      return;
    }
    await ctx.changed("workers");
    drawRound(el, { mode, round, snapshot });
    say(`${spoken(entry)} ${el.verdict.textContent}`);
  }

  /** "Fill the queue": a new round on a queue holding the widget's jobs again. */
  async function fill() {
    if (!ctx.ready) return;
    await fillQueue();
    await ctx.changed("workers");
    drawRound(el, { mode, round, snapshot });
    say(`The ${queue} queue holds ${jobs.join(", ")} again, and both workers hold nothing.`);
  }

  /**
   * A preset: fill the queue, then give the workers their steps in the
   * order the pattern names, skipping a worker whose claim is over, until
   * both are done.
   */
  async function play(pattern, name) {
    if (!ctx.ready) return;
    await fillQueue();
    for (const w of schedule(pattern, PLANS[mode].length)) await takeStep(w);
    // An optimistic worker whose EXEC answered nil has more steps to take:
    // keep to the pattern's order until both are done.
    for (let guard = 0; guard < PLANS[mode].length * WORKERS.length * MAX_ATTEMPTS; guard++) {
      const left = WORKERS.filter((w) => nextKind(mode, foldRound(round)[w]) !== null);
      if (left.length === 0) break;
      await takeStep(left[0]);
      if (pattern === "turns" && left.length === 2) await takeStep(left[1]);
    }
    await ctx.changed("workers");
    drawRound(el, { mode, round, snapshot });
    say(`${name}: ${el.verdict.textContent}`);
  }

  /** A new mode starts a new round, so the two modes are compared from the same queue. */
  async function switchMode(next) {
    if (!ctx.ready || !Object.hasOwn(PLANS, next) || next === mode) return;
    mode = next;
    await fill();
  }

  // One queue for every action of the widget, not one per handler: a mode
  // switch refills the queue, and a step clicked meanwhile must wait for it,
  // or the refill would wipe the step it raced with.
  const queued = ctx.serially((action) => action());
  const later = (action) => () => queued(action);
  const steps = { A: later(() => step("A")), B: later(() => step("B")) };
  el.panels.A.step.addEventListener("click", steps.A);
  el.panels.B.step.addEventListener("click", steps.B);
  el.fill.addEventListener("click", later(fill));
  el.serial.addEventListener("click", later(() => play("serial", "A, then B")));
  el.turns.addEventListener("click", later(() => play("turns", "Taking turns")));
  for (const r of el.modes) {
    r.addEventListener("change", () => {
      if (r.checked) queued(() => switchMode(r.value));
    });
  }

  // A and B as keys, anywhere in the widget but a text field.
  root.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    const t = event.target;
    if (t instanceof Element && (t.isContentEditable || t.closest("input[type=text], textarea, select"))) return;
    const w = event.key.toUpperCase();
    if (!(w in steps) || event.key.length !== 1) return;
    event.preventDefault();
    if (el.panels[w].step.disabled) return;
    steps[w]();
  });

  /** The keyspace tables of the race queue, with what changed marked. */
  function drawKeys(next, marked) {
    drawQueue(el, marked ? snapshot : null, next);
    snapshot = next;
  }

  /** Draws the keyspace tables from a snapshot (when there is one), then the round. */
  function redraw(snap, marked) {
    if (snap) drawKeys(snap, marked);
    drawRound(el, { mode, round, snapshot });
  }

  /** Applies a saved view state; false when it does not validate. */
  function apply(saved) {
    if (!saved || typeof saved !== "object" || Array.isArray(saved)) return false;
    if (typeof saved.mode !== "string" || !Object.hasOwn(PLANS, saved.mode)) return false;
    const clean = validRound(saved.mode, saved.round ?? []);
    if (clean === null) return false;
    mode = saved.mode;
    round = clean;
    return true;
  }

  return {
    root,
    queue,
    start: (snap) => redraw(snap, false),
    update: (snap) => redraw(snap, true),
    /** The mode and the round played so far: enough to redraw it, no keyspace. */
    save() {
      return { mode, round: round.map((e) => ({ w: e.w, kind: e.kind, id: e.id, token: e.token, ok: e.ok, lines: e.lines })) };
    },
    /**
     * The page has replayed its journal, which holds every command this
     * widget sent, so the keyspace already is what the round left; only the
     * view is redrawn, from the saved round and a fresh snapshot.
     */
    async restore(saved) {
      if (!apply(saved)) return;
      redraw(await ctx.snapshot(queue), false);
    },
  };
}
