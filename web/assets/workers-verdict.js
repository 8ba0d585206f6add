// The two workers' words: what a worker holds, the verdict on a round and
// why an EXEC answered nil, from plain data (the view's mode, round and
// snapshot, and round.js's worker states). No DOM: workers-draw.js writes
// them.

import { both, PLANS, WORKERS } from "./round.js";

/** What a worker holds, in words; data-holds carries the id for tests. */
export function holdsText(mode, s) {
  switch (s.outcome) {
    case "idle":
      return "Holds nothing yet";
    case "reading":
      return mode === "optimistic" ? `Read ${s.read}; next it queues the claim` : `Read ${s.read}; next it removes it`;
    case "removed":
      return `Removed ${s.read} (ZREM said ${s.removed ? "1" : "0"}); next it writes the lease`;
    case "watching":
      return "Watching the pending set; next it reads the oldest id";
    case "queued":
      return `Queued the claim of ${s.read}; next it sends EXEC`;
    case "retrying":
      return `EXEC answered nil, nothing ran; starting again (attempt ${s.retries + 1})`;
    case "gave-up":
      return `EXEC answered nil ${s.retries} times; it gave up`;
    case "empty":
      return "Found the queue empty: holds nothing";
    case "failed":
      return `Its claim failed: ${s.error}`;
    default:
      return `Holds ${s.holds} · attempts ${s.token}`;
  }
}

/**
 * Why the EXEC of round[i] answered nil, as far as the round shows it: the
 * other worker's EXEC that wrote the pending set after this worker's last
 * WATCH, if there is one.
 */
export function abortNote(round, i) {
  const e = round[i];
  const culprit = writerSince(round, i);
  const why = culprit
    ? `${culprit.w}'s EXEC removed ${culprit.id} from the pending set after ${e.w}'s WATCH`
    : `the pending set was written after ${e.w}'s WATCH`;
  return `nil: ${why}, so none of ${e.w}'s queued commands ran. ${e.w} unwatches and starts again from WATCH.`;
}

/** The other worker's successful EXEC between round[i]'s worker's last WATCH and round[i], or null. */
function writerSince(round, i) {
  const w = round[i].w;
  let watched = -1;
  for (let j = i - 1; j >= 0; j--) {
    if (round[j].w === w && round[j].kind === "watch") {
      watched = j;
      break;
    }
  }
  for (let j = i - 1; j > watched; j--) {
    const x = round[j];
    if (x.w !== w && x.kind === "exec" && x.ok && x.id !== null) return x;
  }
  return null;
}

/** The worker who took the first step of the round, and the other one. */
function firstAndSecond(round) {
  const first = round.length ? round[0].w : "A";
  return [first, first === "A" ? "B" : "A"];
}

/** The verdict and its explanation, from both workers' states. */
export function judge({ mode, round, snapshot }, states) {
  const a = states.A;
  const b = states.B;
  const row = (id) => (snapshot && snapshot.rows ? snapshot.rows.find((r) => r.id === id) : null);
  if (round.length === 0) {
    const filled = snapshot && snapshot.pending && snapshot.pending.length > 0;
    return {
      kind: "idle",
      text: "No step yet.",
      explain: filled
        ? "Press A: next step or B: next step in any order you like, or play one of the two orders above."
        : "Fill the queue first, then give the workers their steps, or play one of the two orders above.",
    };
  }
  if (a.outcome === "holds" && b.outcome === "holds" && a.holds === b.holds) {
    const id = a.holds;
    const loser = [a, b].some((s) => s.removed === false) ? (a.removed === false ? "A" : "B") : null;
    const r = row(id);
    return {
      kind: "double",
      text: `Double claim: ${id} was handed to both A and B`,
      explain:
        `Both read ${id} with ZRANGE before either removed it. ` +
        (loser ? `${loser}'s ZREM answered 0, the job was already gone, but the client never looks at that reply. ` : "") +
        `So both leased it, and both will run it. The keyspace cannot even say so: the active set holds ${id} once` +
        (r ? `, and its row counts ${r.attempts} attempts.` : ".") +
        (a.token !== b.token
          ? ` Each worker did get its own attempts count, ${a.token} for A and ${b.token} for B: the fencing token turns the older one away when it reports back, but only after both have done the work.`
          : ""),
    };
  }
  if (a.outcome === "holds" && b.outcome === "holds") {
    const [first, second] = firstAndSecond(round);
    return {
      kind: "distinct",
      text: `No double claim: A holds ${a.holds}, B holds ${b.holds}.`,
      explain:
        mode === "atomic"
          ? `Each @claim ran as one script, and the server runs a script to its end before it hears another command. So ${second}'s ZPOPMIN saw the pending set after ${first}'s pop: no order of the two can give them the same job.`
          : mode === "optimistic"
            ? optimisticExplain(round, states)
            : `This time one worker read the pending set after the other's ZREM had removed its job. The gap is between a worker's ZRANGE and its ZREM: let the other worker read inside it.`,
    };
  }
  const nils = round.map((e, i) => [e, i]).filter(([e]) => e.kind === "exec" && e.ok && e.id === null);
  if (mode === "optimistic" && nils.length > 0) {
    const [last, i] = nils[nils.length - 1];
    const says = WORKERS.map((w) => `${w} ${summary(states[w])}`);
    return { kind: "retry", text: `${says.join("; ")}.`, explain: abortNote(round, i) + (states[last.w].over ? "" : ` Its claim takes ${PLANS.optimistic.length} steps again.`) };
  }
  if (mode === "split" && a.read !== null && a.read === b.read && !(a.over && b.over)) {
    return {
      kind: "warning",
      text: `A and B have both read ${a.read}.`,
      explain: `Whichever sends ZREM second gets 0 back, but this client does not check it: unless something stops them, both will lease ${a.read}.`,
    };
  }
  const says = WORKERS.map((w) => `${w} ${summary(states[w])}`);
  const over = WORKERS.filter((w) => states[w].over);
  return {
    kind: over.length === 2 ? "done" : "progress",
    text: `${says.join("; ")}.`,
    explain: over.length === 2 ? "" : `${both(WORKERS.filter((w) => !states[w].over))} ${over.length === 0 ? "have" : "has"} steps left to take.`,
  };
}

/** The optimistic round's outcome, when both workers hold a job. */
function optimisticExplain(round, states) {
  const nils = round.map((e, i) => [e, i]).filter(([e]) => e.kind === "exec" && e.ok && e.id === null);
  if (nils.length > 0) {
    const [e, i] = nils[0];
    const culprit = writerSince(round, i);
    return (
      `${e.w}'s EXEC answered nil` +
      (culprit ? `: ${culprit.w}'s EXEC had removed ${culprit.id} from the pending set after ${e.w}'s WATCH` : "") +
      `, so none of ${e.w}'s queued commands ran. ${e.w} unwatched, started again from WATCH, and claimed ${states[e.w].holds}.`
    );
  }
  const execs = round.filter((e) => e.kind === "exec");
  const [first, second] = execs.length === 2 ? [execs[0].w, execs[1].w] : firstAndSecond(round);
  return `Neither EXEC answered nil: ${second} sent its WATCH after ${first}'s EXEC had run, so it read the next id.`;
}

/** A worker's state in a few words, for the verdict line. */
function summary(s) {
  switch (s.outcome) {
    case "idle":
      return "has not started";
    case "reading":
      return `has read ${s.read}`;
    case "removed":
      return `has removed ${s.read}`;
    case "empty":
      return "found the queue empty";
    case "failed":
      return "failed to claim";
    case "watching":
      return "is watching the pending set";
    case "queued":
      return `has queued the claim of ${s.read}`;
    case "retrying":
      return "is starting again";
    case "gave-up":
      return "gave up";
    default:
      return `holds ${s.holds}`;
  }
}
