// What the page tells a learner about a link it could not open whole, in
// the learner's terms. Every such notice says what was refused and that
// nothing else changed; the engine's or the browser's own words (an
// "incorrect header check", a FunctionClauseError) never reach it: the
// caller puts those in the console, for whoever made the link. DOM-free,
// so Node tests read the sentences (web/assets/test/link-words.test.mjs).

/**
 * The notice of a link that is not opened at all: why (a clause in plain
 * words, never an exception's message), then that none of it ran and
 * that the page is as it would be without the link.
 */
export function linkRefused(why) {
  return `This link could not be opened: ${why}. Nothing in it was run, and nothing else changed: the playground starts from its default state instead.`;
}

/** Why a link is refused when the engine cannot say which Lua it would run. */
export const UNREVIEWED = "the playground could not check which Lua its operations would run";

/** The notice of a link whose Lua the learner chose not to run. */
export const DECLINED = "The link's operations were not run, as you chose, and nothing else changed: the playground starts from its default state.";

/**
 * One recorded operation as the learner met it on the page: the control
 * or the command it came from ("a claim", "the console's SET"), never the
 * engine's method name.
 */
export function describeOp(op) {
  const [method, ...args] = Array.isArray(op) ? op : [];
  const first = (v) => (typeof v === "string" ? v.trim().split(/\s+/, 1)[0].toUpperCase() : "");
  switch (method) {
    case "enqueue":
      return `enqueueing ${typeof args[1] === "string" ? args[1] : "a job"}`;
    case "claim":
      return "a claim";
    case "enqueueMany":
      return "a bulk enqueue";
    case "claimMany":
      return "a Claim all";
    case "pause":
      return "pausing the queue";
    case "resume":
      return "resuming the queue";
    case "exec": {
      const cmd = Array.isArray(args[0]) ? first(args[0][0]) : "";
      return cmd ? `the command ${cmd}` : "a command";
    }
    case "cli": {
      const cmd = first(args[0]);
      return cmd ? `the console's ${cmd}` : "a console line";
    }
    case "trace":
      return "a traced run of a script";
    case "setNow":
      return "setting the clock";
    case "advance":
      return "advancing the clock";
    default:
      return "an operation";
  }
}

/**
 * The notice of a link some of whose operations failed on replay
 * (failed: their indexes in ops, in order): how many, which came first,
 * by its place and what it was, and that the others ran and nothing else
 * changed.
 */
export function partlyRun(failed, ops) {
  const first = failed[0];
  const which = `call ${first + 1} (${describeOp(ops[first])})`;
  const after = "so the page may differ from the one the link was copied from";
  if (failed.length === ops.length) {
    const what = ops.length === 1 ? `The link's one operation, ${which}, could not run here` : `None of the link's ${ops.length} operations could run here, starting with ${which}`;
    return `${what}, ${after}. Nothing else changed.`;
  }
  const what =
    failed.length === 1
      ? `One of the link's ${ops.length} operations, ${which}, could not run here`
      : `${failed.length} of the link's ${ops.length} operations could not run here, starting with ${which}`;
  return `${what}, ${after}. The others ran, and nothing else changed.`;
}

/** The notice of a widget's view that could not be put back from a link. */
export function viewLost(widget) {
  return `Part of the link, the ${widget} widget's view, could not be restored, so that widget starts from its own default view. The rest of the link opened, and nothing else changed.`;
}
