// The script editor's words and runs: what a run is made of (from the
// engine's trace), what each of its steps and its end say, and how a run
// is named in the history. Plain data in, plain data out, no DOM:
// editor-draw.js and editor.js put them on the page.

import { formatCommand, formatReply, speakReply } from "./format.js";
import { sameList, writesOf, writesText } from "./editing.js";
import { stepHead, whereOf } from "./traceview.js";

/** The text a new script starts from. */
export const STARTER = `-- A script of your own. KEYS and ARGV are the lists beside the editor.
-- It runs on the page's keyspace, as EVAL would. To begin with, it lists
-- the pending ids with their scores:
return redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
`;

/** The file each base stands for, as the editor's title names it. */
export const FILES = { enqueue: "enqueue.lua", claim: "claim.lua", new: "untitled.lua" };

/** How many runs the history keeps, newest first. */
export const HISTORY = 12;

/**
 * A run from a trace's result, the n-th of the page; history is the runs
 * so far, newest first, for the one this repeats. The engine gives
 * everything a view of it needs: the keys it touched (KEYS first) as they
 * were before and after each step, the script's moves, and why it failed.
 */
export function runOfTrace({ source, keys: k, argv, result, label }, n, history) {
  const run = {
    n,
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
  run.repeatOf = history.find((r) => sameList(r.keys, k) && sameList(r.argv, argv)) || null;
  return run;
}

/** A run as the history keeps it: its number, name, arguments, reply and how many writes. */
export function historyEntry(run) {
  return {
    n: run.n,
    label: run.label,
    keys: run.keys,
    argv: run.argv,
    reply: run.reply,
    problem: run.problem,
    writes: run.writes.length,
  };
}

/**
 * What the history calls a run of source, edited from base (or null when
 * not known): original(name) is a base's text, scripts the lesson's
 * scripts by name (ctx.scripts).
 */
export function runLabel(source, base, original, scripts) {
  for (const name of ["enqueue", "claim"]) if (source === original(name)) return FILES[name];
  if (base === "new") return source === STARTER ? "the starter script" : "a new script";
  return base && scripts.has(base) ? `${FILES[base]}, edited` : "an edited script";
}

/**
 * How a run ended, in words: the reply, what it wrote, and what a repeat
 * shows. pending is the queue's pending set, the key a duplicate enqueue
 * writes twice.
 */
export function finalText(run, pending) {
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
    if (run.label.startsWith("enqueue.lua,") || (run.keys.includes(pending) && run.writes.some((s) => s.command[1] === pending))) {
      text +=
        " So the duplicate was written twice: the row was written over and the id was added to the pending set again, and" +
        " a client cannot tell this repeat from a new job. The original enqueue.lua answers 0 here and writes nothing: its EXISTS check is what makes enqueue idempotent.";
    }
  }
  return text;
}

/** The outcome line at step i of a run. */
export function outcomeOf(run, i, pending) {
  if (i === 0 && run.steps.length > 0) return "The keyspace just before the run. Step walks through what the script did.";
  const step = run.steps[i - 1];
  const next = run.steps[i];
  if (step && next) {
    const what = step.command ? `${String(step.command[0]).toUpperCase()} answered ${speakReply(step.reply)}` : "No command ran in this move";
    return `${what}; the script goes on to ${whereOf(next)}.`;
  }
  return finalText(run, pending);
}

/** What step i of a run says to a screen reader. */
export function speechOf(run, i, pending) {
  if (i === 0) {
    return run.steps.length ? `Before the first step of run ${run.n}.` : `Run ${run.n}: nothing to step through. ${finalText(run, pending)}`;
  }
  const step = run.steps[i - 1];
  const what = step.command ? `${formatCommand(step.command)} replied ${speakReply(step.reply)}.` : "no command.";
  const end = run.steps[i] ? "" : ` ${finalText(run, pending)}`;
  return `${stepHead(step, run.moves.length)}: ${what}${end}`;
}

/** The bold head of the problem panel for an error the engine reported, or undefined for a plain message. */
export function problemHead(p) {
  return {
    syntax: `Syntax error on line ${p.line}, marked in the script.`,
    runtime: `Runtime error on line ${p.line}, marked in the script.`,
    killed: `Stopped on line ${p.line}: still running past its budget, so the playground stopped it, as Redis's SCRIPT KILL would. What it wrote before that stays (a script is never rolled back).`,
  }[p.kind];
}
