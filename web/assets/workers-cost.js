// The two workers' cost view: what a round cost each worker, counted from
// its timeline, beside what @claim costs. Round trips are counted as a
// pipelining client sends them (round.js's roundTrips), and the view says
// so, so that the optimistic worker is not charged a round trip for every
// QUEUED reply.

import { h } from "./dom.js";
import { WORKERS, roundTrips } from "./round.js";

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** The list items of the cost view for the round so far, in mode. */
export function costItems(round, states, mode) {
  const items = [];
  if (round.length > 0) {
    for (const w of WORKERS) {
      const mine = round.filter((e) => e.w === w);
      const n = mine.reduce((k, e) => k + e.lines.length, 0);
      const trips = roundTrips(mine);
      const r = states[w].retries;
      items.push(
        h("li", {
          "data-worker": w,
          "data-commands": String(n),
          "data-round-trips": String(trips),
          "data-retries": String(r),
          text: `${w}: ${plural(n, "command", "commands")} in ${plural(trips, "round trip", "round trips")}${r > 0 ? `, ${plural(r, "retry", "retries")}` : ""}.`,
        }),
      );
    }
    if (mode === "optimistic") {
      items.push(
        h("li", {
          class: "cost-pipeline",
          text: "Round trips are counted as a pipelining client sends them: MULTI, the queued commands and EXEC go to the server together, in one round trip; WATCH and the read go alone, because what the worker queues depends on their replies.",
        }),
      );
    }
  }
  if (mode !== "atomic") {
    items.push(
      h("li", {
        class: "cost-claim",
        text: "@claim: one script per claim, sent as one EVALSHA (and EVAL only when the server answers NOSCRIPT), with no retry loop.",
      }),
    );
  }
  return items;
}
