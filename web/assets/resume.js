// Where the learner left off. The full page and the offline lesson keep,
// in localStorage, the state a permalink would hold (links.js builds it,
// permalink.js encodes and checks it), saved after every change. When the
// page opens again with no link in its address, it offers to resume or to
// start afresh. Nothing is restored until the learner says so, and embeds
// neither save nor offer: an embed is one widget inside someone's course,
// not a lesson of its own.
//
// A saved state is as untrusted as a link: it goes through the same
// decode() checks, a damaged one gets the same kind of notice as a damaged
// link and is dropped, and one that carries Lua goes through the same
// review before anything runs.

import { decode, encode } from "./permalink.js";
import { h } from "./dom.js";

/** How long after a change the page waits before saving, in ms. */
const SAVE_DELAY = 400;

/** The storage key of one page: two copies of the lesson keep apart. */
export function storageKey(loc = location) {
  return `echomq:resume:v1:${loc.protocol}${loc.pathname}`;
}

/**
 * Wires saving and the offer. Returns {offer}, which start() calls once
 * the engine is ready; opened says whether a link was opened (then the
 * link wins and nothing is offered).
 */
export function mountResume({ ctx, links, widgets, notice, hold = () => () => {}, storage = safeStorage() }) {
  if (document.body.classList.contains("embed") || !storage) return { offer() {} };
  const key = storageKey();
  // While the offer waits for an answer, the saved state is kept as it
  // was: saving the fresh page over it would make "Resume" a lie.
  let saving = false;
  let timer = 0;
  // The widget the learner worked in last: the saved state is a link to
  // it, so Resume brings the learner back to it, with the focus there.
  let widget = [...widgets.keys()][0];
  const touched = (name) => {
    if (widgets.has(name)) widget = name;
  };

  async function save() {
    timer = 0;
    if (!saving || !ctx.ready) return;
    try {
      const fragment = await encode(await links.stateFor(widget));
      storage.setItem(key, JSON.stringify({ v: 1, fragment }));
    } catch (err) {
      // A full or refused storage only costs the learner the offer.
      console.warn("the page could not save where you left off", err);
    }
  }

  function soon() {
    if (!saving) return;
    clearTimeout(timer);
    timer = setTimeout(save, SAVE_DELAY);
  }

  // Every change of the keyspace comes through ctx.changed(); the fields a
  // learner types into are view state, saved as they are typed.
  const changed = ctx.changed;
  ctx.changed = async (...args) => {
    touched(args[0]);
    await changed(...args);
    soon();
  };
  const typed = (event) => {
    const section = event.target instanceof Element ? event.target.closest("section.widget[id]") : null;
    if (section) touched(section.id);
    soon();
  };
  document.addEventListener("input", typed);
  document.addEventListener("change", typed);

  /** The saved fragment, or null when there is none or it is not ours. */
  function saved() {
    const raw = storage.getItem(key);
    if (raw === null) return null;
    try {
      const v = JSON.parse(raw);
      if (v && v.v === 1 && typeof v.fragment === "string") return v.fragment;
    } catch {
      // fall through: damaged
    }
    return "#damaged";
  }

  function panel(onResume, onFresh) {
    const resume = h("button", { type: "button", class: "primary", text: "Resume where I left off" });
    const fresh = h("button", { type: "button", text: "Start afresh" });
    const box = h(
      "div",
      { id: "resume-offer", class: "resume-offer", role: "region", "aria-labelledby": "resume-offer-heading" },
      h("h2", { id: "resume-offer-heading", text: "You have been here before" }),
      h("p", { text: "This page kept where you left off: the keyspace, the clock and what you typed. Resume it, or start from the lesson's default state. Nothing has been restored yet." }),
      h("p", { class: "resume-actions" }, resume, " ", fresh),
    );
    resume.addEventListener("click", ctx.serially(async () => {
      box.remove();
      await onResume();
    }));
    fresh.addEventListener("click", () => {
      box.remove();
      onFresh();
    });
    const loader = document.getElementById("loader");
    (loader || document.body).append(box);
    return box;
  }

  async function offer(opened) {
    const fragment = opened ? null : saved();
    if (!fragment) {
      saving = true;
      if (opened) soon();
      return;
    }
    const checked = await decode(fragment, [...widgets.keys()], new Set(ctx.scripts.keys()));
    if (!checked.state) {
      const why = checked.problem ? checked.problem.replace(/^This link could not be opened/, "Where you left off could not be restored") : "Where you left off could not be restored: it is damaged. The playground starts from its default state instead.";
      notice(why);
      storage.removeItem(key);
      saving = true;
      return;
    }
    panel(
      async () => {
        // Held still until every widget is back: a click in between would
        // act on a half-restored page, or slip between the replayed calls.
        const letGo = hold("Restoring where you left off…");
        let ok = false;
        try {
          await ctx.call("reset");
          ok = await links.open(fragment);
        } finally {
          letGo();
        }
        if (!ok) notice("Where you left off could not be restored. The playground starts from its default state instead.");
        else touched(checked.state.widget);
        saving = true;
        soon();
      },
      () => {
        storage.removeItem(key);
        saving = true;
      },
    );
  }

  return { offer };
}

/** localStorage, or null where the browser refuses it (file: in some, private modes). */
function safeStorage() {
  try {
    const s = globalThis.localStorage;
    const probe = "echomq:probe";
    s.setItem(probe, "1");
    s.removeItem(probe);
    return s;
  } catch {
    return null;
  }
}
