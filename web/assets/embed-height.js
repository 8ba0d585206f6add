// An embed page tells the page around it how tall its content is, so the
// iframe can fit it (static/embed.js, in the course page, listens). The
// message carries only a height and the widget's name, nothing a stranger
// could misuse, so it goes to any parent ("*").

/** The message type the parent listens for. */
export const RESIZE = "echomq:resize";

/**
 * Posts the document's height to the parent whenever it changes. Does
 * nothing outside a frame.
 */
export function reportHeight(widget) {
  if (window.parent === window) return;
  let last = -1;
  const post = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: RESIZE, widget, height }, "*");
  };
  new ResizeObserver(post).observe(document.documentElement);
  post();
}
