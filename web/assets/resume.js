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
import { ownSaved } from "./resume-owner.js";

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
  // Asked at once, so that the answer is in by the time the page is ready.
  const owner = ownSaved(key);
  // Whether this tab saves: it owns the saved lesson and the page is ready.
  // Saving never waits on the offer: a learner who carries on without
  // answering it keeps what they do, and the offer keeps the older state in
  // memory for as long as it is on screen.
  let saving = false;
  // Set once the page is ready and offer() has run: from then on a change
  // is the learner's own, not the page starting up or a Resume replaying.
  let listening = false;
  // Whether the learner changed anything since the page opened.
  let dirty = false;
  // Told of the learner's first change while the offer waits.
  let carriedOn = null;
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
    if (listening && ctx.ready) {
      dirty = true;
      if (carriedOn) carriedOn();
      carriedOn = null;
    }
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

  async function offer(opened) {
    const mine = await owner.now;
    listening = true;
    if (!mine) return otherTab();
    const fragment = opened ? null : saved();
    saving = true;
    if (!fragment) {
      if (opened) soon();
      return;
    }
    const checked = await decode(fragment, [...widgets.keys()], new Set(ctx.scripts.keys()));
    if (!checked.state) {
      notice(DAMAGED_SAVE);
      storage.removeItem(key);
      return;
    }
    const p = offerPanel(ctx, {
      resume: async () => {
        carriedOn = null;
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
        soon();
      },
      fresh: () => {
        carriedOn = null;
        // What the learner did since the page opened is saved already, and
        // stays; with nothing done, the older state is forgotten.
        if (!dirty) storage.removeItem(key);
      },
    });
    if (dirty) p.carriedOn();
    else carriedOn = p.carriedOn;
  }

  // A second tab of a saved lesson: it saves nothing until the owner
  // closes, and says so, so that neither tab loses work without a word.
  function otherTab() {
    const box = tabPanel();
    owner.later(() => {
      saving = true;
      box.took(dirty);
      if (dirty) soon();
    });
  }

  return { offer };
}

const DAMAGED_SAVE = "Where you left off could not be restored: what this page saved is damaged. The playground starts from its default state instead.";

/**
 * A panel in the page where the learner is. A reloaded page comes back at
 * its scroll position, often thousands of pixels below the top, so the
 * panel goes before the part of the page at the top of the screen (under
 * the contents bar) and is scrolled into view there; at the top of the
 * page it goes in the loader. It sits in the flow, covering nothing.
 */
function shownHere(id, heading, text, ...actions) {
  const lede = h("p", { text });
  const box = h(
    "div",
    { id, class: "resume-offer", role: "region", "aria-labelledby": `${id}-heading` },
    h("h2", { id: `${id}-heading`, text: heading }),
    lede,
    h("p", { class: "resume-actions" }, ...actions.flatMap((a, i) => (i ? [" ", a] : [a]))),
  );
  const nav = document.getElementById("toc");
  const y = Math.min(innerHeight - 1, (nav ? nav.getBoundingClientRect().bottom : 0) + 8);
  const at = scrollY > 0 ? document.elementFromPoint(innerWidth / 2, y) : null;
  const part = at ? at.closest("main > *") : null;
  if (part) {
    part.before(box);
    box.scrollIntoView({ block: "start" });
  } else {
    (document.getElementById("loader") || document.body).append(box);
  }
  return { box, lede };
}

/** The offer to resume; carriedOn() rewords it once the learner has carried on without answering. */
function offerPanel(ctx, { resume, fresh }) {
  const resumeButton = h("button", { type: "button", class: "primary", text: "Resume where I left off" });
  const freshButton = h("button", { type: "button", text: "Start afresh" });
  const { box, lede } = shownHere(
    "resume-offer",
    "You have been here before",
    "This page kept where you left off: the keyspace, the clock and what you typed. Resume it, or start from the lesson's default state. Nothing has been restored yet.",
    resumeButton,
    freshButton,
  );
  resumeButton.addEventListener("click", ctx.serially(async () => {
    box.remove();
    await resume();
  }));
  freshButton.addEventListener("click", () => {
    box.remove();
    fresh();
  });
  return {
    carriedOn() {
      lede.textContent = "You carried on here, and the page now keeps what you did. Resume brings back where you left off last time instead, and replaces what you did here.";
      freshButton.textContent = "Keep what I did here";
    },
  };
}

/** The notice of a tab that does not own the saved lesson; took() says it owns it now. */
function tabPanel() {
  const ok = h("button", { type: "button", text: "OK" });
  const { box, lede } = shownHere(
    "resume-other-tab",
    "This lesson is open in another tab",
    "That tab keeps where you left off. What you do in this tab is not saved, so it cannot overwrite the other tab's work; close the other tab to have this one keep yours.",
    ok,
  );
  ok.addEventListener("click", () => box.remove());
  return {
    took(dirty) {
      const heading = "This tab keeps your work now";
      const text = dirty
        ? "The other tab has closed, so this tab now keeps where you left off: what you did here is saved in place of what that tab kept."
        : "The other tab has closed, so this tab now keeps where you left off, from your next change on.";
      if (!box.isConnected) {
        // Dismissed since: said again, where the learner is now.
        const again = h("button", { type: "button", text: "OK" });
        again.addEventListener("click", () => shownBox.remove());
        const shownBox = shownHere("resume-other-tab", heading, text, again).box;
        return;
      }
      lede.textContent = text;
      box.querySelector("h2").textContent = heading;
    },
  };
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
