// Formatting: replies and commands as redis-cli prints them, verdicts as
// the Elixir handle returns them, and the server clock in words.

import { refusedByServer } from "./errors.js";

const PRINTABLE = /^[\x21-\x7e\u00a0-\uffff]+$/u;

/** One command argument as redis-cli would echo it: quoted when it has to be. */
export function formatArg(arg) {
  const s = String(arg);
  if (s !== "" && PRINTABLE.test(s) && !/["'\\]/.test(s)) return s;
  return quote(s);
}

/** A double-quoted string with redis-cli's escapes. */
export function quote(s) {
  let out = '"';
  for (const ch of String(s)) {
    const c = ch.codePointAt(0);
    if (ch === '"' || ch === "\\") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || c === 0x7f) out += "\\x" + c.toString(16).padStart(2, "0");
    else out += ch;
  }
  return out + '"';
}

/** A command and its arguments, on one line. */
export function formatCommand(args) {
  return args.map(formatArg).join(" ");
}

/**
 * A reply as redis-cli prints it; arrays take one line per element.
 *
 * Nested arrays are walked with a stack of our own, not by recursion, as
 * the engine walks them: a script's reply can nest hundreds of arrays deep.
 */
export function formatReply(reply, indent = "") {
  const out = [];
  // Each open array: its items, the next one to print, its labels' width,
  // and the indent of its lines after the first.
  const open = [];
  const put = (r, at) => {
    if (r && typeof r === "object" && r.type === "array" && (r.value || []).length > 0) {
      open.push({ items: r.value, next: 0, width: String(r.value.length).length, indent: at });
    } else {
      out.push(scalar(r, "printed"));
    }
  };
  put(reply, indent);
  while (open.length > 0) {
    const top = open[open.length - 1];
    if (top.next === top.items.length) {
      open.pop();
      continue;
    }
    const i = top.next++;
    const label = `${String(i + 1).padStart(top.width)}) `;
    out.push((i === 0 ? "" : "\n" + top.indent) + label);
    put(top.items[i], top.indent + " ".repeat(label.length));
  }
  return out.join("");
}

/**
 * A reply that is not a non-empty array, by type: as redis-cli prints it,
 * and in words for an announcement. Other types (RESP3's) show as JSON.
 */
const SCALARS = {
  int: { printed: (v) => `(integer) ${v}`, spoken: (v) => String(v) },
  bulk: { printed: quote, spoken: quote },
  nil: { printed: () => "(nil)", spoken: () => "nil" },
  status: { printed: String, spoken: String },
  error: { printed: (v) => `(error) ${v}`, spoken: (v) => `the error ${v}` },
  array: { printed: () => "(empty array)", spoken: () => "an empty array" },
};

/** A reply that is not a non-empty array, printed or spoken; "(no reply)" / "nothing" for none. */
function scalar(reply, how) {
  if (!reply || typeof reply !== "object") return how === "spoken" ? "nothing" : "(no reply)";
  const words = Object.hasOwn(SCALARS, reply.type) ? SCALARS[reply.type] : null;
  return words ? words[how](reply.value) : JSON.stringify(reply);
}

/** A reply in a few words, for announcements and one-line summaries. */
export function speakReply(reply) {
  const out = [];
  const open = []; // each open array: its items and the next one to speak
  const put = (r) => {
    if (r && typeof r === "object" && r.type === "array" && (r.value || []).length > 0) {
      out.push("[");
      open.push({ items: r.value, next: 0 });
    } else {
      out.push(scalar(r, "spoken"));
    }
  };
  put(reply);
  while (open.length > 0) {
    const top = open[open.length - 1];
    if (top.next === top.items.length) {
      out.push("]");
      open.pop();
      continue;
    }
    if (top.next > 0) out.push(", ");
    put(top.items[top.next++]);
  }
  return out.join("");
}

/** A string as Elixir's inspect/1 prints it. */
export function exString(s) {
  let out = '"';
  const str = String(s);
  for (let i = 0; i < str.length; i++) {
    const ch = str[i];
    const c = ch.charCodeAt(0);
    if (ch === '"' || ch === "\\") out += "\\" + ch;
    else if (ch === "#" && str[i + 1] === "{") out += "\\#";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (c < 0x20 || c === 0x7f) out += "\\x" + c.toString(16).toUpperCase().padStart(2, "0");
    else out += ch;
  }
  return out + '"';
}

/**
 * What EchoMQ.Jobs.enqueue/4 returns for a result of echomq.enqueue: the
 * handle's three verdicts, or the server error it passes through.
 */
export function enqueueVerdict(result) {
  if (!result) return "(no result)";
  if (result.verdict === "enqueued") return "{:ok, :enqueued}";
  if (result.verdict === "duplicate") return "{:ok, :duplicate}";
  if (result.error === "kind") return "{:error, :kind}";
  return refusal(result);
}

/**
 * What either handle returns for a result that is neither a verdict nor
 * enqueue's :kind: the guard's raise, the server's refusal passed through,
 * or the page's own trouble.
 */
function refusal(result) {
  // The handle's guard failed: Elixir raises, nothing is sent.
  if (result.error === "guard") return result.message;
  if (refusedByServer(result)) return `{:error, {:server, ${exString(result.message)}}}`;
  return `page error: ${result.message || result.error}`;
}

/** What EchoMQ.Jobs.claim/3 returns for a result of echomq.claim. */
export function claimVerdict(result) {
  if (!result) return "(no result)";
  if (result.verdict === "leased") {
    return `{:ok, {${exString(result.id)}, ${exString(result.payload)}, ${result.attempts}}}`;
  }
  if (result.verdict === "empty") return ":empty";
  return refusal(result);
}

/** Unix ms as a UTC date and time, to the millisecond. */
export function utc(ms) {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return "(not a time)";
  return d.toISOString().replace("T", " ").replace("Z", " UTC");
}

/** A span of milliseconds in the largest units that keep it readable. */
export function duration(ms) {
  const abs = Math.abs(ms);
  if (abs < 1000) return `${abs} ms`;
  const s = abs / 1000;
  if (s < 120) return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
  const totalS = Math.floor(s);
  if (totalS < 7200) {
    const m = Math.floor(totalS / 60);
    const rest = totalS % 60;
    return rest ? `${m} min ${rest} s` : `${m} min`;
  }
  const totalM = Math.floor(totalS / 60);
  if (totalM < 48 * 60) {
    const hr = Math.floor(totalM / 60);
    const rest = totalM % 60;
    return rest ? `${hr} h ${rest} min` : `${hr} h`;
  }
  const days = Math.floor(totalM / (24 * 60));
  const rest = Math.floor((totalM % (24 * 60)) / 60);
  return rest ? `${days} d ${rest} h` : `${days} d`;
}

/** A lease deadline relative to the server clock. */
export function relative(deadline, now) {
  const left = deadline - now;
  if (left > 0) return `in ${duration(left)}`;
  if (left === 0) return "expires now";
  return `expired ${duration(left)} ago`;
}

/** Digits as a number when they are one exactly; anything else as typed. */
export function numberOrText(typed) {
  const t = String(typed).trim();
  return /^\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? Number(t) : t;
}

/**
 * What the learner typed as a whole number of milliseconds, 0 or more:
 * digits only (spaces around them are ignored), small enough to be exact.
 * null for anything else: a sign, a fraction, an exponent, words, nothing.
 */
export function wholeMs(typed) {
  const t = String(typed ?? "").trim();
  if (!/^\d+$/.test(t)) return null;
  const ms = Number(t);
  return Number.isSafeInteger(ms) ? ms : null;
}

/** The message of a result that is an error object, or "". */
export function errorMessage(result) {
  if (result && typeof result === "object" && typeof result.error === "string") {
    return result.message ? `${result.message}` : result.error;
  }
  return "";
}

/** A whole count with thousands separators, as the page writes them: 99,950. */
export function count(n) {
  return Number(n).toLocaleString("en-US");
}

/**
 * A time the engine measured, in milliseconds: to a tenth below 10 ms, in
 * whole ms below 10 s, then in seconds.
 */
export function tookMs(ms) {
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 10000) return `${count(Math.round(ms))} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * A bulk measurement with its unit, as a learner reads it: "1,000 claims in
 * 84 ms: 11,900 a second". The rate keeps three significant figures, as
 * much as one run can say.
 */
export function measurement(n, noun, ms) {
  const what = `${count(n)} ${noun}${n === 1 ? "" : "s"}`;
  if (!(ms > 0)) return `${what} in under 0.1 ms`;
  const rate = Number(((n * 1000) / ms).toPrecision(3));
  return `${what} in ${tookMs(ms)}: ${count(rate)} a second`;
}
