// The lesson's table of contents: as the learner scrolls, the link of the
// part being read carries aria-current="location" (and its style), so the
// contents say where in the course they are.
//
// "Being read" is the last part whose top has passed a line a little
// below the top of the window (under the sticky contents bar): the part
// the eye is in, even when several are on screen. An IntersectionObserver
// says when a part crosses that line, so nothing runs while the page is
// still.

import { mountTocKeys } from "./toc-keys.js";

/** Wires the contents in nav#toc, if the page has one (embeds do not). */
export function mountToc(doc = document) {
  mountTocKeys(doc);
  const nav = doc.getElementById("toc");
  if (!nav || typeof IntersectionObserver !== "function") return null;
  const links = [...nav.querySelectorAll("a[data-section]")];
  const parts = links.map((a) => doc.getElementById(a.dataset.section)).filter(Boolean);
  if (parts.length === 0) return null;
  const linkOf = new Map(parts.map((p) => [p, links.find((a) => a.dataset.section === p.id)]));
  let current = null;

  /** The reading line, in px from the top of the window. */
  const line = () => nav.getBoundingClientRect().bottom + 48;

  function mark() {
    const y = line();
    let reading = parts[0];
    for (const p of parts) {
      if (p.getBoundingClientRect().top <= y) reading = p;
      else break;
    }
    // At the very bottom, the last part is being read even when it is too
    // short to reach the line.
    const root = doc.scrollingElement || doc.documentElement;
    if (root.scrollTop + root.clientHeight >= root.scrollHeight - 2) reading = parts[parts.length - 1];
    const link = linkOf.get(reading);
    if (link === current) return;
    if (current) current.removeAttribute("aria-current");
    link.setAttribute("aria-current", "location");
    current = link;
    // Keep the marked link in the bar's view without scrolling the page.
    const bar = nav.querySelector("ol");
    if (bar && bar.scrollWidth > bar.clientWidth) {
      const l = link.offsetLeft - bar.offsetLeft;
      if (l < bar.scrollLeft || l + link.offsetWidth > bar.scrollLeft + bar.clientWidth) bar.scrollLeft = Math.max(0, l - 16);
    }
  }

  let frame = 0;
  const soon = () => {
    if (!frame) frame = requestAnimationFrame(() => {
      frame = 0;
      mark();
    });
  };
  // A thin band at the reading line: a part's edge crossing it is the only
  // moment the answer can change. The band is re-made if the bar's height
  // changes (it wraps on narrow screens).
  let observer = null;
  function observe() {
    if (observer) observer.disconnect();
    const top = Math.round(line());
    observer = new IntersectionObserver(soon, { rootMargin: `-${top}px 0px -${Math.max(0, innerHeight - top - 1)}px 0px`, threshold: [0, 1] });
    for (const p of parts) observer.observe(p);
  }
  observe();
  addEventListener("resize", () => {
    observe();
    soon();
  });
  // The last part can be too short to cross the line: the page's end is
  // watched too.
  const end = doc.querySelector("footer.colophon");
  if (end) new IntersectionObserver(soon).observe(end);
  mark();
  return { mark };
}
