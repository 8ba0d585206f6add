// The page's URL options, for a course author's embed:
//
//   ?queue=emails&ids=JOB-1,JOB-2&lease=5000&theme=dark
//
//   queue  the queue every widget works on (default "q"): 1–64 bytes of
//          printable ASCII without "{" or "}", which would break the
//          queue's hash tag (emq:{queue}:...)
//   ids    job ids enqueued when the page starts, comma-separated, at most
//          20 of at most 64 characters each; the engine judges them like
//          any id (one without the JOB prefix is refused, and says so)
//   lease  the lease every claim starts with (the round trip, the editor,
//          the two workers): 1–15 digits of ms
//          (none: each control keeps the lease its page was rendered with)
//   theme  light, dark or auto (default: the reader's system setting)
//   heading  for embeds: show (the default) or hide, which leaves out the
//          widget's own kicker, heading and lede, for a course page that
//          puts its own heading above the frame; the heading is still read
//          out, and the widget's controls all stay
//   keyspace  for embeds: a name (1–64 letters, digits, - or _) that
//          embeds of one course page give to share one keyspace; without
//          it each embed has a keyspace of its own
//   budget the work a script may do before the engine stops it, in the
//          engine's units (1–19 digits; default: engine.WorkBudget, about
//          what a real Redis does in 5 s). Smaller stops a runaway sooner:
//          the browser tests use it, and so may a course whose readers have
//          slow machines. It is the engine's ECHOMQ_WORK_BUDGET.
//
// An option that does not pass is dropped with a sentence saying why, and
// the page goes on with the default: a typo in an embed never blanks it.

export const DEFAULTS = Object.freeze({ queue: "q", ids: Object.freeze([]), lease: null, theme: "auto", heading: "show", keyspace: null, budget: null });

const QUEUE = /^[\x21-\x7a\x7c\x7e]{1,64}$/; // printable ASCII minus space, "{" and "}"
const LEASE = /^[1-9][0-9]{0,14}$/;
const THEMES = ["light", "dark", "auto"];
const HEADINGS = ["show", "hide"];
const KEYSPACE = /^[A-Za-z0-9_-]{1,64}$/;
const BUDGET = /^[1-9][0-9]{0,18}$/;
const MAX_IDS = 20;
const MAX_ID = 64;

/**
 * Reads the options from a query string (location.search). Returns the
 * options, defaults filled in, and the problems found, as sentences.
 * noun names where the options came from in those sentences: "address
 * option" for an embed's URL, "attribute" for the custom element's
 * (embed.js), which checks them with this same function; "embed" for an
 * embed page inside a course, whose reader has no address to fix.
 */
export function readOptions(search, noun = "address option") {
  const params = new URLSearchParams(search || "");
  const options = { ...DEFAULTS, ids: [] };
  const problems = [];
  // An embed's reader did not write its address and has none to fix: the
  // notice says what the widget does instead, in the course's terms.
  const bad = (name, why) =>
    problems.push(noun === "embed" ? `This widget's ${name} setting could not be used (${why}), so the widget starts with its default ${name} instead.` : `The ${noun} ${name} was ignored: ${why}.`);

  if (params.has("queue")) {
    const q = params.get("queue");
    if (QUEUE.test(q)) options.queue = q;
    else bad("queue", "a queue name is 1–64 printable ASCII characters, without spaces, { or }");
  }
  if (params.has("ids")) {
    const ids = params
      .get("ids")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "");
    if (ids.length > MAX_IDS) bad("ids", `at most ${MAX_IDS} ids can be enqueued at start`);
    else if (ids.some((id) => id.length > MAX_ID)) bad("ids", `an id enqueued at start is at most ${MAX_ID} characters`);
    else options.ids = ids;
  }
  if (params.has("lease")) {
    const l = params.get("lease");
    if (LEASE.test(l)) options.lease = l;
    else bad("lease", "a lease is a whole number of milliseconds, 1 to 15 digits, like 30000");
  }
  if (params.has("theme")) {
    const t = params.get("theme");
    if (THEMES.includes(t)) options.theme = t;
    else bad("theme", "the theme is light, dark or auto");
  }
  if (params.has("heading")) {
    const v = params.get("heading");
    if (HEADINGS.includes(v)) options.heading = v;
    else bad("heading", "the heading is show or hide");
  }
  if (params.has("keyspace")) {
    const k = params.get("keyspace");
    if (KEYSPACE.test(k)) options.keyspace = k;
    else bad("keyspace", "a keyspace's name is 1–64 letters, digits, - or _");
  }
  if (params.has("budget")) {
    const b = params.get("budget");
    if (BUDGET.test(b)) options.budget = b;
    else bad("budget", "a work budget is a whole number of units, 1 to 19 digits, like 25000000");
  }
  return { options, problems };
}

/**
 * The query string that gives an embed these options ("" for the
 * defaults, else "?queue=...&lease=..."): every option that is not its
 * default, in a fixed order. readOptions of it gives the options back.
 */
export function optionsQuery(options) {
  const params = new URLSearchParams();
  if (options.queue !== DEFAULTS.queue) params.set("queue", options.queue);
  if (options.ids.length > 0) params.set("ids", options.ids.join(","));
  if (options.lease !== null) params.set("lease", options.lease);
  if (options.theme !== DEFAULTS.theme) params.set("theme", options.theme);
  if (options.heading !== undefined && options.heading !== DEFAULTS.heading) params.set("heading", options.heading);
  if (options.keyspace !== null) params.set("keyspace", options.keyspace);
  if (options.budget !== null && options.budget !== undefined) params.set("budget", options.budget);
  const q = params.toString();
  return q === "" ? "" : `?${q}`;
}

/** The lease a page is rendered with when its markup names none. */
const RENDERED_LEASE = "30000";

/**
 * The lease a widget asks for: the address's ?lease when it gave one, else
 * the data-lease its markup was rendered with, else 30 s.
 *
 * @param {HTMLElement} root  the widget, whose data-lease is read
 * @param {{lease: string|null}} [options]  readOptions' options
 */
export function leaseOf(root, options) {
  if (options && options.lease !== null && options.lease !== undefined) return options.lease;
  const rendered = root.dataset.lease || "";
  return LEASE.test(rendered) ? rendered : RENDERED_LEASE;
}
