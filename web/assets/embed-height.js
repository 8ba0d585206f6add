// An embed page's side of the conversation with the course page around it
// (static/embed.js, in the course page, is the other side).
//
// The embed tells the page around it how tall its content is, so the
// iframe can fit it. That message carries only a height and the widget's
// name, nothing a stranger could misuse, so it goes to any parent ("*").
//
// A course page that runs embed.js answers a height with "echomq:course",
// and from then on the embed knows the course page's origin; when the
// course page's address names this frame, "echomq:open" hands it a
// permalink to open. "Copy link" then asks it, at that origin only, for a link to the
// course page itself that reopens this frame in the state the link
// carries. Answers count only from the parent window at that origin.

/** The message types, shared with embed.js. */
export const RESIZE = "echomq:resize";
export const COURSE = "echomq:course";
export const LINK = "echomq:link";
export const COURSE_LINK = "echomq:course-link";
export const OPEN = "echomq:open";
export const ENGINE = "echomq:engine";
export const PORT = "echomq:port";

/**
 * The message an LMS listens for to size the frame itself (Canvas's and
 * Sakai's lti.frameResize): a JSON text, which both read.
 */
export function ltiFrameResize(height) {
  return JSON.stringify({ subject: "lti.frameResize", height });
}

/** How long "Copy link" waits for the course page's answer. */
const ANSWER_MS = 1000;

/** The course page's origin once it has said it runs embed.js, else null. */
let courseOrigin = null;
/** Who waits for the course page to say so (requestEnginePort). */
const onCourse = [];
/** Who waits for the course page's engine port, at most one. */
let onPort = null;
/** A permalink the course page's address handed this frame, and who waits for it. */
let handed = null;
let onHanded = null;
const waiting = new Map();
let nextId = 1;

/** True when the page is inside a frame. */
export function framed() {
  return window.parent !== window;
}

function listen() {
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent || event.source === window) return;
    const data = event.data;
    if (!data || typeof data.type !== "string") return;
    if (data.type === COURSE && courseOrigin === null && typeof event.origin === "string" && event.origin !== "null") {
      courseOrigin = event.origin;
      for (const f of onCourse.splice(0)) f();
      return;
    }
    if (data.type === PORT && event.origin === courseOrigin && onPort) {
      onPort(data.refused || !event.ports[0] ? null : event.ports[0]);
      return;
    }
    if (data.type === OPEN && event.origin === courseOrigin && typeof data.fragment === "string" && handed === null) {
      handed = data.fragment;
      if (onHanded) onHanded(handed);
      return;
    }
    if (data.type === COURSE_LINK && event.origin === courseOrigin) {
      const done = waiting.get(data.id);
      if (done && typeof data.url === "string" && /^https?:/i.test(data.url)) done(data.url);
    }
  });
}

/**
 * Posts the document's height to the parent whenever it changes. Does
 * nothing outside a frame.
 */
export function reportHeight(widget) {
  if (!framed()) return;
  listen();
  let last = -1;
  const post = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: RESIZE, widget, height }, "*");
    window.parent.postMessage(ltiFrameResize(height), "*");
  };
  new ResizeObserver(post).observe(document.documentElement);
  post();
}

/**
 * The permalink the course page handed this frame (its address named it),
 * or null; later ones go to then(fragment).
 */
export function handedLink(then) {
  onHanded = then;
  return handed;
}

/**
 * A link to the course page that reopens this frame with fragment (a
 * permalink, "#v1..."), or null when the course page does not run
 * embed.js or does not answer in time.
 */
export function courseLink(fragment) {
  if (!framed() || courseOrigin === null) return Promise.resolve(null);
  const id = nextId++;
  return new Promise((resolve) => {
    const finish = (url) => {
      waiting.delete(id);
      clearTimeout(timer);
      resolve(url);
    };
    const timer = setTimeout(() => finish(null), ANSWER_MS);
    waiting.set(id, finish);
    window.parent.postMessage({ type: LINK, id, fragment }, courseOrigin);
  });
}

/**
 * A MessagePort to the engine worker the course page owns (embed.js
 * starts one where SharedWorker is missing, and gives every embed a port
 * to it), or null when the course page does not run embed.js, is on
 * another origin, or refuses. workerUrl is the engine's worker, which the
 * course page starts.
 */
export function requestEnginePort(workerUrl) {
  if (!framed()) return Promise.resolve(null);
  return new Promise((resolve) => {
    let done = false;
    const finish = (port) => {
      if (done) return;
      done = true;
      onPort = null;
      clearTimeout(timer);
      resolve(port);
    };
    const timer = setTimeout(() => finish(null), 2 * ANSWER_MS);
    const ask = () => {
      if (done) return;
      onPort = finish;
      window.parent.postMessage({ type: ENGINE, workerUrl }, courseOrigin);
    };
    if (courseOrigin !== null) ask();
    else onCourse.push(ask);
  });
}
