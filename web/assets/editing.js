// The script editor's helpers that need no page: how the KEYS and ARGV
// fields read, what a run wrote and how that is said. editor.js draws;
// test/editing.test.mjs runs these under Node.

import { speakReply } from "./format.js";

/** One argument: the permalink's cap for one string. */
export const MAX_ARG = 1024 * 1024;

/** The UTF-8 size of a text, which is what the limit counts. */
export function bytesOf(text) {
  return new TextEncoder().encode(text).length;
}

/**
 * The values of a KEYS or ARGV field: one per line, exactly as typed.
 * Blank lines at the end are dropped (a final Enter is not an argument);
 * a blank line between two values is an empty string.
 */
export function parseList(text) {
  const lines = String(text).replace(/\r\n?/g, "\n").split("\n");
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** The write commands a run sent, in order, as the engine classes them. */
export function writesOf(steps) {
  return steps.filter((s) => s.command && s.write === true);
}

/** "HSET emq:{q}:job:JOB-1 (answered 0), ZADD emq:{q}:pending (answered 0)". */
export function writesText(writes) {
  return writes.map((s) => `${String(s.command[0]).toUpperCase()} ${s.command[1] ?? ""}`.trim() + ` (answered ${speakReply(s.reply)})`).join(", ");
}

export const sameList = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * A reason the editor will not send this run, or "": the limits are the
 * section's (data-max-source-kib, data-max-args), in the learner's units.
 */
export function refusal(source, k, argv, { maxSource, maxArgs }) {
  const size = bytesOf(source);
  if (size > maxSource) return `The script is ${Math.ceil(size / 1024)} KiB; the editor runs scripts of at most ${maxSource / 1024} KiB.`;
  if (k.length > maxArgs) return `There are ${k.length} KEYS; at most ${maxArgs} can be sent.`;
  if (argv.length > maxArgs) return `There are ${argv.length} ARGV values; at most ${maxArgs} can be sent.`;
  if ([...k, ...argv].some((v) => v.length > MAX_ARG)) return "One of the KEYS or ARGV values is longer than 1 MiB.";
  return "";
}
