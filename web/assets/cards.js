// Command cards, opened in place. The page carries a card for every
// command the lesson's scripts send (cards.templ; the examples on them
// were run on the engine at build time). Wherever such a command shows up
// as text the learner reads (the stepper's command readout, the round
// trip's wire log, the workers' log, the console's transcript), its name
// becomes a button that opens the card right there, below the line.
//
// The button is a disclosure: Enter or Space opens the card and moves the
// focus into it; Escape or the card's Close button closes it and puts the
// focus back on the button. One card is open at a time. The console's
// `help <command>` opens its card at once, with the focus left at the
// prompt.
//
// The widgets write their text with textContent and know nothing of this
// module: a MutationObserver sees each new line and upgrades it.

import { h } from "./dom.js";

/** Where commands appear, and which elements there hold one. */
const PLACES = [
  { root: "stepper", sel: "#stepper-command" },
  { root: "roundtrip", sel: "code.sent" },
  { root: "workers", sel: "code.sent" },
  { root: "console", sel: ".console-cmd" },
];

/**
 * The command a line names, and where its name is: "HSET k f v" names
 * HSET at 0; "SCRIPT LOAD ..." names SCRIPT LOAD; the console's "help
 * zadd" and "COMMAND DOCS zadd" name ZADD at the word after.
 */
export function commandIn(text, known) {
  const m = /^(\s*)(help\s+|COMMAND\s+DOCS\s+)?(\S+)(\s+(\S+))?/i.exec(text);
  if (!m) return null;
  const start = m[1].length + (m[2] ? m[2].length : 0);
  const first = m[3].replace("|", " ").toUpperCase();
  const two = m[5] ? `${m[3]} ${m[5]}`.toUpperCase() : "";
  if (two && known.has(two)) return { name: two, start, end: start + m[3].length + m[4].length };
  if (m[3].includes("|") && known.has(first)) return { name: first, start, end: start + m[3].length };
  if (known.has(first)) return { name: first, start, end: start + m[3].length };
  return null;
}

export function mountCards(doc = document) {
  const cards = new Map([...doc.querySelectorAll("article.card[data-command]")].map((c) => [c.dataset.command, c]));
  if (cards.size === 0) return null;
  const known = new Set(cards.keys());
  let open = null; // {button, panel}

  function close(refocus) {
    if (!open) return;
    const { button, panel } = open;
    open = null;
    button.setAttribute("aria-expanded", "false");
    panel.remove();
    if (refocus && button.isConnected) button.focus();
  }

  /** The card's copy for the panel: the same content, with ids of its own. */
  function copyOf(name) {
    const card = cards.get(name).cloneNode(true);
    for (const el of [card, ...card.querySelectorAll("[id]")]) el.id = `pop-${el.id}`;
    if (card.hasAttribute("aria-labelledby")) card.setAttribute("aria-labelledby", `pop-${card.getAttribute("aria-labelledby")}`);
    return card;
  }

  /** Opens button's card below its line; focus moves into it unless told not to. */
  function show(button, { focus = true } = {}) {
    const name = button.dataset.card;
    if (open && open.button === button) return close(true);
    close(false);
    const card = copyOf(name);
    const heading = card.querySelector(".card-name");
    const closer = h("button", { type: "button", class: "card-close", text: "Close" });
    const panel = h("div", { class: "card-pop", role: "dialog", "aria-modal": "false", "aria-labelledby": heading ? heading.id : null, tabindex: "-1" }, closer, card);
    panel.id = "card-pop";
    closer.addEventListener("click", () => close(true));
    panel.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        event.stopPropagation();
        close(true);
      }
    });
    // In place: inside the line's list item, or right after its block.
    const item = button.closest("li");
    const block = button.closest("dl, p");
    if (item) item.append(panel);
    else if (block) block.after(panel);
    else button.after(panel);
    button.setAttribute("aria-expanded", "true");
    button.setAttribute("aria-controls", "card-pop");
    open = { button, panel };
    if (focus) {
      panel.focus({ preventScroll: true });
      panel.scrollIntoView({ block: "nearest" });
    }
  }

  /** Turns the command's name in el into the card's button, once. */
  function upgrade(el) {
    if (el.querySelector("button.cmd-card")) return;
    const text = el.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) return;
    const found = commandIn(text.data, known);
    if (!found) return;
    const word = found.start > 0 ? text.splitText(found.start) : text;
    word.splitText(found.end - found.start);
    const button = h("button", { type: "button", class: "cmd-card", "aria-expanded": "false", "data-card": found.name, title: `The ${found.name} card` });
    word.replaceWith(button);
    button.append(word);
    button.addEventListener("click", () => show(button));
    // The console's `help <command>` shows the card with redis-cli's help,
    // and leaves the focus at the prompt for the next line.
    if (el.matches(".console-cmd") && /^\s*help\s/i.test(el.textContent)) show(button, { focus: false });
  }

  for (const place of PLACES) {
    const root = doc.getElementById(place.root);
    if (!root) continue;
    const scan = () => {
      for (const el of root.querySelectorAll(place.sel)) upgrade(el);
      // A card whose line went away (a log that trimmed it) is closed.
      if (open && !open.button.isConnected) close(false);
    };
    new MutationObserver(scan).observe(root, { childList: true, subtree: true, characterData: true });
    scan();
  }
  return { close };
}
