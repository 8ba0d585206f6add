// The round trip's words: what a claim, a lease, a bulk run and the
// Advance field mean, said from the engine's replies and plain values
// only. No DOM: roundtrip-draw.js and roundtrip.js put them on the page,
// and a link's replay, which answers the same calls the same, says them
// again.

import { count, duration, measurement, relative, utc } from "./format.js";

/** A lease as the wire log's titles name it: "30000 ms", or the typed text quoted. */
export function leaseLabel(lease) {
  return typeof lease === "number" ? `${lease} ms` : JSON.stringify(lease);
}

/**
 * The last claim in words at server time now: the lease's expiry, and,
 * once it has passed, what becomes of the job: it stays in active until
 * something reclaims it, which a later dive of the course builds.
 */
export function leaseText(lease, now) {
  const token = `attempts is now ${lease.attempts}, the fencing token the worker shows when it reports back.`;
  if (lease.deadline === null) return `Leased ${lease.id}: it is in the active set. ${token}`;
  const head = `Leased ${lease.id} until ${lease.deadline} (${utc(lease.deadline)})`;
  if (lease.deadline > now) return `${head}: the lease ends ${relative(lease.deadline, now)} on the server clock. ${token}`;
  return (
    `${head}: that lease ${relative(lease.deadline, now)} on the server clock. ${token}` +
    ` An expired lease stays in active until something reclaims the job; nothing here does yet (a later dive of the course).`
  );
}

/**
 * What a claim's result means at the clock of snapshot (the one drawn
 * after it): held is the lease handed over ({id, attempts, deadline}, or
 * null when it leased nothing), explain the sentence under the verdict.
 */
export function claimReading(lease, result, snapshot) {
  let explain = "";
  let held = null;
  if (result.verdict === "leased") {
    const active = snapshot && snapshot.active.find((a) => a.id === result.id);
    held = { id: result.id, attempts: result.attempts, deadline: active ? active.deadline : null };
    explain = leaseText(held, snapshot ? snapshot.now : 0);
  } else if (result.verdict === "empty" && !result.wire) {
    explain = "The queue is paused, so claim/3 answered :empty without running @claim. Pending is untouched.";
  } else if (result.verdict === "empty") {
    explain = "@claim found nothing pending and replied with an empty array.";
  } else if (result.error === "guard") {
    explain = `claim/3's guard, when is_integer(lease_ms) and lease_ms > 0, matched no clause for the lease ${JSON.stringify(String(lease))}: the handle raised before sending anything, so no script ran and pending is untouched. @claim has its own check too (send it a bad lease from the editor or the console), because a client in another language may have no such guard.`;
  } else if (result.error === "lease") {
    explain = "@claim refused the lease before its first write, so no job was popped.";
  } else if (result.error) {
    explain = result.message || result.error;
  }
  return { held, explain };
}

/** What the wire log says under a claim that sent no script. One that was not refused found the queue paused. */
export function claimNote(result) {
  const paused = result.verdict === "empty" && !result.wire;
  return result.error === "guard"
    ? "Nothing was sent: claim/3's guard refused the lease."
    : paused
      ? "No script was sent: the queue is paused."
      : "No script was sent.";
}

/** What Enqueue n did, from echomq.enqueueMany's result. */
export function enqueueManyText(result, n) {
  if (result.error && result.enqueued === undefined) return `Enqueue ${count(n)} failed: ${result.message || result.error}`;
  const done = result.enqueued + result.duplicate;
  const range = result.error ? "" : `${result.first} … ${result.last}: `;
  const dupes = result.duplicate ? ` (${count(result.duplicate)} of them duplicates, already there)` : "";
  let text = `${range}${measurement(done, "enqueue", result.ms)}${dupes}.`;
  if (result.error) text += ` Then the server refused: ${result.message}`;
  return text;
}

/**
 * What Claim all did: claimed and ms summed over its calls, first and last
 * the ids it leased first and last, result the last call's answer.
 */
export function claimAllText(result, claimed, ms, first, last) {
  if (result.error && claimed === 0) return `Claim all failed: ${result.message || result.error}`;
  if (claimed === 0 && result.paused) return "Nothing claimed: the queue is paused, so claim/3 answered :empty without running @claim.";
  if (claimed === 0) return "Nothing claimed: @claim found nothing pending.";
  let text = `${first} … ${last}: ${measurement(claimed, "claim", ms)}.`;
  if (result.error) text += ` Then the server refused: ${result.message}`;
  else if (result.paused) text += " Then the queue was paused.";
  return text;
}

/** The hint under the Advance field for ms, the typed amount read as whole milliseconds (null: not one). */
export function advanceHintText(ms) {
  return ms === null ? "A whole number of milliseconds, 0 or more." : `A whole number of milliseconds: that is ${duration(ms)}.`;
}
