// The two workers' render part: writes the widget's panels, timeline,
// verdict and cost from the view the mount file (workers.js) keeps, a
// plain { mode, round, snapshot }. Never calls the engine, never changes
// the view.

import { h, setText, toggleAttr } from "./dom.js";
import { applyEntry, foldRound, freshWorker, PLANS, WORKERS } from "./round.js";
import { costItems } from "./workers-cost.js";
import { abortNote, holdsText, judge } from "./workers-verdict.js";

/** What each step is called in the timeline. */
const STEP_WORDS = {
  read: "read the oldest id",
  remove: "remove it",
  lease: "write the lease",
  claim: "run @claim",
  watch: "watch the pending set",
  queue: "queue the four writes",
  exec: "send EXEC",
};

/** Draws the whole round of view into el: the modes, both panels, the timeline, the verdict and the cost. */
export function drawRound(el, view) {
  const { mode, round } = view;
  const states = foldRound(round);
  for (const r of el.modes) r.checked = r.value === mode;
  // Two workers holding one job: each panel shows it as the failure it is.
  const clash = states.A.holds !== null && states.A.holds === states.B.holds;
  for (const w of WORKERS) drawWorker(el, mode, w, states[w], clash);
  drawTimeline(el, view);
  const v = judge(view, states);
  el.verdict.dataset.verdict = v.kind;
  setText(el.verdict, v.text);
  setText(el.explain, v.explain);
  // What the round cost each worker, beside @claim (workers-cost.js).
  el.cost.dataset.mode = mode;
  el.cost.replaceChildren(...costItems(round, states, mode));
}

function drawWorker(el, mode, w, s, clash) {
  const p = el.panels[w];
  const other = w === "A" ? "B" : "A";
  setText(p.holds, holdsText(mode, s) + (clash ? ` · and so does ${other}` : ""));
  p.holds.dataset.holds = s.holds ?? "";
  p.holds.dataset.outcome = s.outcome;
  toggleAttr(p.holds, "data-clash", clash);
  p.panel.dataset.outcome = s.outcome;
  for (const plan of p.plans) {
    plan.hidden = plan.dataset.mode !== mode;
    for (const li of plan.querySelectorAll("li.plan-step")) {
      const n = Number(li.dataset.step);
      const state = plan.dataset.mode !== mode ? "idle" : n <= s.step ? "done" : n === s.step + 1 && !s.over ? "next" : "idle";
      if (li.dataset.state !== state) li.dataset.state = state;
    }
  }
  // A finished worker's button stays focusable and says why it does nothing.
  toggleAttr(p.step, "aria-disabled", s.over);
}

/** The timeline: one item per step, each with its commands and replies. */
function drawTimeline(el, { mode, round }) {
  const perWorker = PLANS[mode].length;
  const states = { A: freshWorker(), B: freshWorker() };
  el.timeline.replaceChildren(
    ...round.map((e, i) => {
      const before = states[e.w];
      states[e.w] = applyEntry(before, e);
      const ignored = e.kind === "remove" && !e.ok;
      const aborted = e.kind === "exec" && e.ok && e.id === null;
      const attempt = before.retries > 0 ? ` · attempt ${before.retries + 1}` : "";
      return h(
        "li",
        {
          class: `tl-step${ignored ? " is-ignored" : ""}${aborted ? " is-retry" : ""}`,
          "data-worker": e.w,
          "data-kind": e.kind,
          "data-aborted": aborted ? "" : null,
        },
        h(
          "p",
          { class: "tl-title" },
          h("span", { class: "tl-n", text: `${i + 1}.` }),
          " ",
          h("span", { class: "tl-worker", text: e.w }),
          " ",
          h("span", { class: "tl-what", text: `step ${before.step + 1} of ${perWorker} · ${STEP_WORDS[e.kind]}${attempt}` }),
        ),
        h(
          "ol",
          { class: "tl-lines" },
          ...e.lines.map(([cmd, reply]) =>
            h(
              "li",
              { class: "tl-line" },
              h("code", { class: "sent", text: cmd }),
              h("span", { class: "arrow", "aria-hidden": "true", text: " → " }),
              h("span", { class: "visually-hidden", text: " replied " }),
              h("code", { class: "got", text: reply }),
            ),
          ),
        ),
        ignored ? h("p", { class: "tl-note", text: `0: ${e.id} was already gone, someone else removed it. This client does not check, and goes on.` }) : null,
        aborted ? h("p", { class: "tl-note", text: abortNote(round, i) }) : null,
      );
    }),
  );
}
