// DOM helpers. Everything the engine says (ids, payloads, replies) is
// untrusted text: it only ever reaches the page through textContent and
// createTextNode, never through an HTML parser.

/** The element with this id; a missing one is a bug in the page. */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`page is missing #${id}`);
  return el;
}

/**
 * A widget's elements by name, each the one with the id prefix-name, the
 * name's capitals written as dashes: partsOf("verdicts", ["againHint"])
 * is {againHint: #verdicts-again-hint}. A missing one is a bug in the page.
 */
export function partsOf(prefix, names) {
  return Object.fromEntries(names.map((name) => [name, byId(`${prefix}-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`)]));
}

/**
 * Creates an element. props: class, text, and any attribute (data-*,
 * aria-*, scope...); children are nodes or strings (as text).
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  if (props) {
    for (const [key, value] of Object.entries(props)) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") el.className = value;
      else if (key === "text") el.textContent = value;
      else el.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    el.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return el;
}

/** Sets text only when it changed, so unchanged nodes cause no layout work. */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** Sets or removes a boolean-ish attribute. */
export function toggleAttr(el, name, on, value = "true") {
  if (on) {
    if (el.getAttribute(name) !== value) el.setAttribute(name, value);
  } else if (el.hasAttribute(name)) {
    el.removeAttribute(name);
  }
}

/**
 * A "new" or "changed" mark: visible as a pill, and read out as a word,
 * so the change is not carried by colour alone.
 */
export function mark(kind) {
  if (!kind) return null;
  return h("span", { class: `badge badge-${kind}`, text: kind });
}

/**
 * Announces text in a widget's polite live region. The same text twice in a
 * row is still announced: the region is emptied first.
 */
export function announce(region, text) {
  if (region.textContent === text) region.textContent = "";
  region.textContent = text;
}

/**
 * True when a key press belongs to the focused element itself: a text
 * field, a radio group's arrows, or a code block that scrolls sideways.
 */
export function ownsArrows(target) {
  if (!(target instanceof Element)) return false;
  if (target.isContentEditable) return true;
  if (target.closest("input, textarea, select") !== null) return true;
  const pre = target.closest("pre");
  return pre !== null && pre.scrollWidth > pre.clientWidth;
}
