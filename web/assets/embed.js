// EchoMQ Playground: the course page's half of an embed. The build bundles
// this module (with options.js) into static/embed.js, one classic script
// that also runs as a module; include it once in a page that holds
// playground embeds, either as iframes
//
//   <iframe src="/echomq/embed/stepper.html" title="Step the @enqueue moves" data-echomq></iframe>
//   <script src="/echomq/embed.js" defer></script>
//
// or as the custom element it defines
//
//   <script type="module" src="/echomq/embed.js"></script>
//   <echomq-embed widget="stepper" queue="emails" lease="5000"></echomq-embed>
//
// (with the playground's static/ directory copied to /echomq/ on the
// course's own site, which a strict Content-Security-Policy requires).
// Loaded twice, it runs once.
//
// It makes every iframe marked data-echomq full-width and borderless, and
// sets its height to the height its page reports (embed-height.js), so the
// widget is never cut off and never leaves a gap. It needs no inline script
// or style, so it works under a strict Content-Security-Policy.
//
// It also gives an embed's "Copy link" a link to this course page: the
// address with #echomq.<frame>.<the embed's permalink>, where <frame> is
// the iframe's id (or its element's) or its place among the embeds (1, 2,
// ...). Opening that address hands the permalink to that frame as soon as
// it first reports its height (it opens the link when its engine is
// ready), so the reader lands on the course page with the widget as it
// was. Messages count only from an embed frame at its own origin, and
// answers go to that origin only.
//
// Where the browser has no SharedWorker, the embeds cannot share an engine
// by themselves: each would download and start its own. This page then
// owns one worker for all of them, and hands each embed that asks
// ("echomq:engine") a MessagePort to it ("echomq:port"), on which the
// embed talks to the engine as it would to a shared worker.

import { readOptions, optionsQuery } from "./options.js";

/* global __ECHOMQ_WIDGETS__, __ECHOMQ_TITLES__, __ECHOMQ_SANDBOX__, __ECHOMQ_ALLOW__, __ECHOMQ_HEIGHTS__ */
// Put in by the build from web/page (web/bundle's Embed), so the widgets,
// their titles and the frame's sandbox are written down once.
const WIDGETS = __ECHOMQ_WIDGETS__;
const TITLES = __ECHOMQ_TITLES__;
const SANDBOX = __ECHOMQ_SANDBOX__;
const ALLOW = __ECHOMQ_ALLOW__;
const HEIGHTS = __ECHOMQ_HEIGHTS__;

const PREFIX = "#echomq.";
const ONCE = Symbol.for("echomq.embed");

/** Where this script was loaded from: the embeds' pages are in embed/ beside it. */
function scriptURL() {
  const current = document.currentScript;
  if (current && current.src) return current.src;
  // As a module there is no currentScript: the script element that named it.
  for (const s of document.scripts) {
    if (/(^|\/)embed\.js([?#]|$)/.test(s.src)) return s.src;
  }
  return new URL("embed.js", document.baseURI).href;
}

const frames = () => document.querySelectorAll("iframe[data-echomq]");

function style(frame) {
  frame.style.width = "100%";
  frame.style.border = "0";
  frame.style.display = "block";
}

/**
 * Reserves a frame's height before its widget reports one, from the
 * widget's measured heights at 720 and 360 px wide (page.EmbedHeights),
 * read for the frame's width: the page does not jump when the widget
 * arrives, and the embed judges whether it is near the reader from where
 * it will stay. A frame with a height of its own (an attribute, a style,
 * a reported one) keeps it.
 */
function reserve(frame) {
  if (frame.dataset.echomqSized || frame.hasAttribute("height") || frame.style.height) return;
  const m = /embed\/([a-z]+)\.html/.exec(frame.getAttribute("src") || "");
  const h = m && HEIGHTS[m[1]];
  if (!h) return;
  // Between the two widths, and a little past them, a widget's height
  // goes about as one over the width (its text wraps).
  const k = Math.max(-0.5, Math.min(1.5, 720 / Math.max(1, frame.clientWidth || 720) - 1));
  frame.style.height = Math.round(h[0] + (h[1] - h[0]) * k) + "px";
}

function originOf(frame) {
  try {
    return new URL(frame.getAttribute("src") || "", document.baseURI).origin;
  } catch {
    return "";
  }
}

/** The frame's name in a course link: its (element's) id when it has a plain one, else its place. */
function keyOf(frame, index) {
  const id = frame.dataset.echomqKey || frame.id;
  return /^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : String(index + 1);
}

/** The embed frame a message came from, if any. */
function senderOf(event) {
  const all = frames();
  for (let i = 0; i < all.length; i++) {
    if (all[i].contentWindow === event.source) return { frame: all[i], index: i, own: event.origin === originOf(all[i]) };
  }
  return null;
}

/** The course link in the address, {key, fragment}, until its frame has it. */
function openingLink() {
  const hash = location.hash;
  if (hash.indexOf(PREFIX) !== 0) return null;
  const rest = hash.slice(PREFIX.length);
  const dot = rest.indexOf(".");
  if (dot <= 0) return null;
  return { key: rest.slice(0, dot), fragment: "#" + rest.slice(dot + 1) };
}

// ---- the engine this page owns where SharedWorker is missing -------------------

let engine = null;

/**
 * Hands the embed a port to this page's one engine worker, starting it on
 * the first request. Only a worker of this page's own origin can be
 * started here, and only one an embed of that origin names.
 */
function givePort(event, data) {
  let url;
  try {
    url = new URL(String(data.workerUrl), event.origin);
  } catch {
    url = null;
  }
  if (!url || url.origin !== event.origin || url.origin !== location.origin || !/\.js$/.test(url.pathname) || typeof Worker !== "function") {
    event.source.postMessage({ type: "echomq:port", refused: true }, event.origin);
    return;
  }
  if (!engine) {
    try {
      engine = new Worker(url.href);
      // The worker's own messages (its page is this one) say nothing the
      // embeds do not hear on their ports.
      engine.onmessage = () => {};
      engine.onerror = (e) => e.preventDefault();
    } catch {
      event.source.postMessage({ type: "echomq:port", refused: true }, event.origin);
      return;
    }
  }
  const channel = new MessageChannel();
  engine.postMessage({ type: "connect" }, [channel.port1]);
  event.source.postMessage({ type: "echomq:port" }, event.origin, [channel.port2]);
}

// ---- the custom element ---------------------------------------------------------

/** The attributes that are the embed's options (options.js checks them). */
const OPTIONS = ["queue", "ids", "lease", "theme", "heading", "keyspace"];

/**
 * <echomq-embed widget="stepper" queue=... ids=... lease=... theme=...
 * heading=... keyspace=...>: the same sandboxed, auto-height iframe the README's
 * snippet makes, with the options as attributes. An unknown widget, or an
 * option that does not pass, gets a visible notice in place, worded as
 * the embed words its own; a bad option is left out and the widget starts
 * with its default.
 */
function defineElement(base) {
  if (typeof customElements === "undefined" || customElements.get("echomq-embed")) return;
  class EchomqEmbed extends HTMLElement {
    connectedCallback() {
      if (this.built) return;
      this.built = true;
      this.style.display = "block";
      const widget = this.getAttribute("widget") || "";
      if (!WIDGETS.includes(widget)) {
        this.notice(`The widget ${JSON.stringify(widget)} does not exist, so nothing is shown here: the widgets are ${WIDGETS.join(", ")}.`);
        return;
      }
      const params = new URLSearchParams();
      for (const name of OPTIONS) if (this.hasAttribute(name)) params.set(name, this.getAttribute(name));
      const { options, problems } = readOptions(params.toString(), "attribute");
      for (const p of problems) this.notice(p);
      const frame = document.createElement("iframe");
      frame.src = new URL(`embed/${widget}.html${optionsQuery(options)}`, base).href;
      frame.title = this.getAttribute("title") || TITLES[widget] || widget;
      frame.loading = "lazy";
      frame.setAttribute("sandbox", SANDBOX);
      frame.setAttribute("allow", ALLOW);
      frame.dataset.echomq = "";
      if (this.id) frame.dataset.echomqKey = this.id;
      style(frame);
      this.append(frame);
      reserve(frame); // until the widget reports its own
    }

    notice(text) {
      const p = document.createElement("p");
      p.setAttribute("role", "status");
      p.className = "echomq-notice";
      p.textContent = text;
      p.style.border = "1px solid #b45309";
      p.style.borderRadius = "4px";
      p.style.padding = "0.5em 0.75em";
      p.style.margin = "0 0 0.5em";
      this.append(p);
    }
  }
  customElements.define("echomq-embed", EchomqEmbed);
}

// ---- wiring ------------------------------------------------------------------

function install() {
  const base = new URL(".", scriptURL()).href;
  let opening = openingLink();
  window.addEventListener("message", (event) => {
    const data = event.data;
    if (!data || typeof data.type !== "string") return;
    const from = senderOf(event);
    if (!from) return;
    if (data.type === "echomq:resize") {
      // A height is harmless, so any embed frame may send one (a sandboxed
      // frame's origin is "null"); only the frame it came from is resized.
      if (typeof data.height !== "number" || !(data.height > 0 && data.height < 100000)) return;
      style(from.frame);
      from.frame.dataset.echomqSized = "";
      from.frame.style.height = Math.ceil(data.height) + "px";
      // Tells the embed that this page can make course links (see above),
      // and hands it the permalink the address names for it, once.
      if (!from.own) return;
      event.source.postMessage({ type: "echomq:course" }, event.origin);
      if (opening && opening.key === keyOf(from.frame, from.index)) {
        event.source.postMessage({ type: "echomq:open", fragment: opening.fragment }, event.origin);
        opening = null;
        from.frame.scrollIntoView({ block: "start" });
      }
      return;
    }
    if (!from.own) return;
    if (data.type === "echomq:link") {
      if (typeof data.fragment !== "string" || data.fragment.charAt(0) !== "#" || data.fragment.length > 300000) return;
      const url = location.href.split("#")[0] + PREFIX + keyOf(from.frame, from.index) + "." + data.fragment.slice(1);
      event.source.postMessage({ type: "echomq:course-link", id: data.id, url }, event.origin);
      return;
    }
    if (data.type === "echomq:engine") givePort(event, data);
  });
  defineElement(base);
  const ready = () => {
    for (const f of frames()) {
      style(f);
      reserve(f);
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
}

if (!window[ONCE]) {
  window[ONCE] = true;
  install();
}
