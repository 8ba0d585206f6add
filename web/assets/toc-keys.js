// The contents bar from the keyboard: one Tab stop, not one per part. The
// bar lists a dozen parts, and a keyboard learner on the way to the
// lesson's first control would otherwise press Tab through every one of
// them. So the bar is a roving tab stop: only one link is in the tab
// order (the part being read, or the first), the arrow keys, Home and End
// move along the bar, and Tab leaves it.

/** Makes nav#toc one tab stop with arrow-key movement, if the page has it. */
export function mountTocKeys(doc = document) {
  const nav = doc.getElementById("toc");
  if (!nav) return null;
  const links = [...nav.querySelectorAll("a[data-section]")];
  if (links.length === 0) return null;

  /** Puts link i alone in the tab order. */
  function rove(i) {
    links.forEach((a, j) => a.setAttribute("tabindex", j === i ? "0" : "-1"));
  }

  // The stop follows the part being read (toc.js's aria-current) while
  // the focus is elsewhere, so Tab lands on where the learner is.
  const follow = () => {
    if (nav.contains(doc.activeElement)) return;
    const at = links.findIndex((a) => a.getAttribute("aria-current") === "location");
    rove(at < 0 ? 0 : at);
  };
  new MutationObserver(follow).observe(nav, { subtree: true, attributeFilter: ["aria-current"] });
  follow();

  nav.addEventListener("keydown", (event) => {
    const i = links.indexOf(event.target);
    if (i < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
    const last = links.length - 1;
    const to = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1, Home: 0, End: last }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = Math.max(0, Math.min(last, to));
    rove(next);
    links[next].focus();
  });
  return { rove };
}
