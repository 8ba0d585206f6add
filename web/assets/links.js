// The page's side of permalinks (the format and its checks are in
// permalink.js): the "Copy link" buttons, and opening a link when the page
// starts.
//
// Opening replays the link's operations on the fresh engine, starts the
// widgets, then hands each widget its saved view. When the operations
// carry Lua that is not one of the lesson's scripts, nothing runs until
// the learner has read that Lua in the review panel and chosen to run it.
// Which Lua that is, the engine says (echomq.review): it reads each call
// as it will run it, after the console's escapes and its own reading of
// command names, so no spelling of EVAL hides from the review. And each
// call is replayed through echomq.replay, with the engine refusing every
// script but the lesson's and the ones the learner chose to run.

import { decode, encode, LIMITS } from "./permalink.js";
import { DECLINED, linkRefused, partlyRun, UNREVIEWED, viewLost } from "./link-words.js";
import { h } from "./dom.js";
import { courseLink, framed, handedLink } from "./embed-height.js";
import { failedToRun } from "./errors.js";

/**
 * Wires the permalink controls. Returns {open}, which opens the link in
 * the page's fragment (or the fragment it is given), if any, and says
 * whether it did, {land}, which scrolls to the widget of the link opened
 * while the page started (app.js calls it once the page is ready),
 * {pending}, and {stateFor}, the state a link to a widget holds.
 * reviewing() is called when the page starts waiting for the learner to
 * review a link.
 */
export function mountPermalinks({ ctx, widgets, startWidgets, notice, reviewing = () => {} }) {
  const review = document.getElementById("link-review");

  /** The state a link to this widget carries. */
  async function stateFor(widget) {
    const views = {};
    for (const [name, w] of widgets) {
      if (w.save) {
        const saved = w.save();
        if (saved !== undefined && saved !== null) views[name] = saved;
      }
    }
    const clock = await ctx.call("now");
    return { v: 1, widget, ops: ctx.journal.ops.slice(), views, now: clock.now };
  }

  async function copy(button) {
    const widget = button.dataset.permalink;
    const status = document.getElementById(`${widget}-link-status`);
    const output = document.getElementById(`${widget}-link`);
    const say = (text) => {
      if (status) status.textContent = text;
    };
    if (ctx.journal.ops.length > LIMITS.ops) {
      say(`Too much history for a link: ${ctx.journal.ops.length} operations (at most ${LIMITS.ops}). Open the page afresh (without a link in its address) and rebuild just the state you want to share.`);
      return;
    }
    const fragment = await encode(await stateFor(widget));
    if (fragment.length > LIMITS.fragment) {
      say(`This state is too big for a link (${Math.round(fragment.length / 1024)} KiB). Large payloads make long links: try smaller ones.`);
      return;
    }
    const { url, where } = await destination(fragment);
    if (output) {
      output.value = url;
      output.hidden = false;
    }
    try {
      await navigator.clipboard.writeText(url);
      say(`Link copied. ${where}`);
    } catch {
      if (output) output.select();
      say(`Copy the link from the field above. ${where}`);
    }
  }

  /**
   * Where a link to this state goes, and a sentence saying so. On a page
   * of its own the link is this page's address, which is also put in the
   * address bar. In a course page's frame the address bar is the course
   * page's, so the link is either the course page's own, reopening this
   * frame in this state (when the course page runs embed.js and answers),
   * or this widget's page alone, and the sentence says which.
   */
  async function destination(fragment) {
    if (!framed()) {
      history.replaceState(null, "", fragment);
      return { url: location.href, where: "It is also in the address bar." };
    }
    const course = await courseLink(fragment);
    if (course) return { url: course, where: "It opens the course page with this widget as it is now." };
    return {
      url: new URL(fragment, location.href).href,
      where: "It opens this widget on a page of its own, not inside the course page.",
    };
  }

  for (const button of document.querySelectorAll("button[data-permalink]")) {
    button.addEventListener("click", ctx.serially(() => copy(button)));
  }

  /**
   * Shows the link's Lua and waits for the learner's choice: true to run
   * it. The focus goes to "Start without it", so a key pressed by habit
   * (Enter) runs nothing; "Run it" only becomes usable once the Lua has
   * been on screen, which inside a course page's frame may take a scroll.
   */
  function askToRun(lua) {
    if (!review) return Promise.resolve(false);
    const list = document.getElementById("link-review-code");
    list.replaceChildren(
      ...lua.map((script) =>
        h("li", null, h("p", { class: "link-review-calls", text: callsOf(script) }), h("pre", { class: "code" }, h("code", { text: script.source }))),
      ),
    );
    review.hidden = false;
    reviewing();
    const run = document.getElementById("link-review-run");
    const skip = document.getElementById("link-review-skip");
    skip.disabled = false;
    skip.focus({ preventScroll: true });
    review.scrollIntoView({ block: "nearest" });
    const seen = whenOnScreen(list, () => {
      run.disabled = false;
    });
    return new Promise((resolve) => {
      const choose = (yes) => () => {
        seen.disconnect();
        review.hidden = true;
        run.disabled = true;
        skip.disabled = true;
        resolve(yes);
      };
      run.addEventListener("click", choose(true), { once: true });
      skip.addEventListener("click", choose(false), { once: true });
    });
  }

  /**
   * Calls then() once el is at least partly inside the viewport (the top
   * page's, for a frame), and at once where the browser cannot tell.
   */
  function whenOnScreen(el, then) {
    if (typeof IntersectionObserver !== "function") {
      then();
      return { disconnect() {} };
    }
    const watch = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        watch.disconnect();
        then();
      }
    });
    watch.observe(el);
    return watch;
  }

  /** Which calls of the link run or load a script, for the review panel: "Call 2 (EVAL), call 5 (EVALSHA)". */
  function callsOf(script) {
    const calls = script.ops.map((at, i) => `call ${at + 1} (${script.commands[i] === "trace" ? "a traced run" : script.commands[i]})`).join(", ");
    return calls.charAt(0).toUpperCase() + calls.slice(1) + ":";
  }

  /**
   * Runs the link's operations, keeping what trace() widgets need to
   * rebuild their runs. The engine runs no script but the lesson's and
   * those of allowed (SHA1s), whatever the calls are.
   */
  async function replay(ops, allowed) {
    const replayed = [];
    for (const op of ops) {
      const [method, ...args] = op;
      // A trace's result carries its keys before the run and after each step.
      const result = await ctx.replay(op, allowed);
      replayed.push({ method, args, result });
    }
    return replayed;
  }

  /**
   * The link to open: one the course page handed this frame (embed.js),
   * else the page's own fragment. One handed over after the page opened
   * its link reloads the frame with it.
   */
  let opened = false;
  function fragment() {
    const handed = handedLink((late) => {
      if (opened) location.replace(new URL(late, location.href).href);
    });
    return handed || location.hash;
  }

  /** True when there is a link to open, so the recorded run must not stand for the page. */
  function pending() {
    const f = fragment();
    return !!f && f !== "#";
  }

  /**
   * Opens a link: the one fragment() finds, or (for resume.js) one the
   * page saved earlier, which gets exactly the same checks.
   */
  async function open(given) {
    const wanted = given === undefined ? fragment() : given;
    opened = true;
    const link = await decode(wanted, [...widgets.keys()]);
    if (link.problem) notice(link.problem);
    if (!link.state) return false;
    const { state } = link;
    const found = await ctx.call("review", state.ops);
    if (!found || !Array.isArray(found.lua)) {
      // The engine's own words are for whoever debugs it, not the learner.
      console.warn("the link's operations could not be reviewed:", found && found.message ? found.message : "no answer", found);
      notice(linkRefused(UNREVIEWED));
      return false;
    }
    if (found.lua.length > 0 && !(await askToRun(found.lua))) {
      notice(DECLINED);
      return false;
    }
    const replayed = await replay(state.ops, found.lua.map((script) => script.sha));
    const failed = replayed.flatMap((r, i) => (failedToRun(r.result) ? [i] : []));
    if (failed.length > 0) {
      for (const i of failed) {
        const { result } = replayed[i];
        console.warn(`call ${i + 1} of the link (${state.ops[i][0]}) could not run:`, result.message || result.error, { op: state.ops[i], result });
      }
      notice(partlyRun(failed, state.ops));
    }
    // Each widget gets its view back as soon as it starts, before the next
    // one starts: none is drawn with the link's keys beside its defaults.
    await startWidgets(async (name, w) => {
      if (!Object.hasOwn(state.views, name) || !w.restore) return;
      try {
        await w.restore(state.views[name], replayed);
      } catch (err) {
        console.warn(`the ${name} view in the link could not be restored`, err);
        notice(viewLost(name));
      }
    });
    if (state.now !== undefined) {
      const clock = await ctx.call("now");
      if (clock.now !== state.now) notice("The server clock came out different from the link's: the link may be from another version of the playground.");
    }
    const section = document.getElementById(state.widget);
    if (section) {
      section.focus({ preventScroll: true });
      // While the page starts, the loader above the widgets still changes
      // size (it shrinks once the page is ready): app.js calls land() then.
      landing = section;
      if (ctx.ready) land();
    }
    return true;
  }

  /** The widget of the link opened last, until land() scrolls to it. */
  let landing = null;

  /** Scrolls to the widget of the link just opened, once the page around it stands still. */
  function land() {
    if (landing) landOn(landing);
    landing = null;
  }

  return { open, pending, stateFor, land };
}

/**
 * Scrolls the opened link's widget to the top of the screen. On a page of
 * its own that is the widget's section. In a course page's frame the
 * scroll moves the course page, and the frame's top holds first the
 * link's notices, if any, then the widget's heading: whichever comes
 * first goes to the top, so the reader lands on what the link says and
 * the widget's heading, not on the middle of the widget.
 *
 * A frame that is shorter than its content for a moment (the widget just
 * grew, and embed.js has not yet grown the frame) would take part of the
 * scroll itself, and lose it when it grows: the scroll waits until the
 * frame fits, or a second at most (a frame without embed.js may never).
 */
function landOn(section) {
  if (!framed()) {
    section.scrollIntoView({ block: "start" });
    return;
  }
  const fits = () => document.documentElement.scrollHeight <= innerHeight + 1;
  let done = false;
  const go = () => {
    if (done) return;
    done = true;
    removeEventListener("resize", grown);
    clearTimeout(timer);
    const notices = document.getElementById("notice");
    const head = section.querySelector(".widget-head") || section;
    (notices && !notices.hidden ? notices : head).scrollIntoView({ block: "start" });
  };
  const grown = () => {
    if (fits()) go();
  };
  const timer = setTimeout(go, 1000);
  addEventListener("resize", grown);
  grown();
}
