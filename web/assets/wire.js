// What the connector sent and what came back, in the words every widget
// uses: the round trip's wire log, the two workers' timeline and the
// editor's runs list all write a reply on one line, and an exchange of the
// connector (EVALSHA, or EVAL after NOSCRIPT), the same way.

import { errorCode } from "./errors.js";
import { formatReply } from "./format.js";

/** A reply on one line: redis-cli's text, an array's items after each other, numbering kept. */
export function replyLine(reply) {
  return formatReply(reply).replace(/\n\s*/g, "  ");
}

/** The script a SHA1 names among the engine's scripts (a Map or a list of {name, sha, source}), or null. */
function scriptOf(scripts, sha) {
  for (const s of scripts.values()) if (s.sha === sha) return s;
  return null;
}

/**
 * What an exchange sent: {command}, and for EVAL the script's source in
 * words, elided ("‹the @claim source, 1234 bytes›"), which the round trip
 * sets apart. The SHA1 is cut to 12 hex digits, as the page shows it.
 */
export function sentParts(x, scripts) {
  if (x.command !== "EVAL") return { command: `${x.command} ${String(x.sha).slice(0, 12)}…`, elided: "" };
  const s = scriptOf(scripts, x.sha);
  const size = s ? new TextEncoder().encode(s.source).length : "?";
  return { command: "EVAL ", elided: `‹the ${s ? `@${s.name}` : "script's"} source, ${size} bytes›` };
}

/** sentParts as one line of text. */
export function sentLine(x, scripts) {
  const p = sentParts(x, scripts);
  return p.command + p.elided;
}

/** The server did not have the script: EVALSHA's NOSCRIPT, on which the connector sends EVAL. */
export function cacheMiss(x) {
  return errorCode(x.reply) === "NOSCRIPT";
}

/** EVALSHA found the script the server had cached. */
export function cacheHit(x) {
  return x.command === "EVALSHA" && !!x.reply && x.reply.type !== "error";
}
