// Code blocks: the Lua scripts as the engine hands them over, one block
// per line with its number in data-line, lightly highlighted, and a way to
// mark the move and the exact line a step ran.

import { h } from "./dom.js";

const LUA_KEYWORDS = new Set([
  "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
  "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
]);
const LUA_BUILTINS = new Set(["redis", "KEYS", "ARGV", "string", "math", "table", "tonumber", "tostring", "type", "cjson"]);

/**
 * Splits one line of Lua into [class, text] tokens. A small scanner for
 * display: comments, strings, numbers, keywords and a few globals.
 */
export function tokenizeLua(line) {
  const out = [];
  const push = (cls, text) => {
    if (!text) return;
    const last = out[out.length - 1];
    if (last && last[0] === cls) last[1] += text;
    else out.push([cls, text]);
  };
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    if (ch === "-" && line[i + 1] === "-") {
      push("com", line.slice(i));
      break;
    }
    if (ch === "'" || ch === '"') {
      let j = i + 1;
      while (j < line.length && line[j] !== ch) j += line[j] === "\\" ? 2 : 1;
      j = Math.min(j + 1, line.length);
      push("str", line.slice(i, j));
      i = j;
      continue;
    }
    if (/[0-9]/.test(ch) && !/[\w]/.test(line[i - 1] || "")) {
      const m = /^(0x[0-9a-fA-F]+|[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?)/.exec(line.slice(i));
      push("num", m[0]);
      i += m[0].length;
      continue;
    }
    if (/[A-Za-z_]/.test(ch)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(line.slice(i));
      const word = m[0];
      push(LUA_KEYWORDS.has(word) ? "kw" : LUA_BUILTINS.has(word) ? "bi" : "", word);
      i += word.length;
      continue;
    }
    push("", ch);
    i++;
  }
  return out;
}

/**
 * Renders source into a <pre>'s <code> and returns the line elements,
 * indexed from 1 (lines[0] is unused).
 */
export function renderCode(pre, source) {
  const lines = [null];
  const code = h("code");
  const text = source.replace(/\n$/, "");
  text.split("\n").forEach((line, i) => {
    const el = h("span", { class: "line", "data-line": i + 1 });
    const src = h("span", { class: "src" });
    for (const [cls, t] of tokenizeLua(line)) {
      src.append(cls ? h("span", { class: `tok-${cls}`, text: t }) : document.createTextNode(t));
    }
    el.append(src);
    code.append(el);
    lines.push(el);
  });
  pre.replaceChildren(code);
  return lines;
}

/**
 * Marks lines first..last as the move being run and `line` as the exact
 * line; returns a function that clears exactly those marks.
 */
export function markLines(lines, first, last, line) {
  const touched = [];
  for (let n = first; n <= last && n < lines.length; n++) {
    if (n < 1) continue;
    lines[n].classList.add("in-move");
    touched.push(lines[n]);
  }
  if (line >= 1 && line < lines.length) {
    lines[line].classList.add("running");
    touched.push(lines[line]);
  }
  return () => {
    for (const el of touched) el.classList.remove("in-move", "running");
  };
}
