// The kinds of error the page meets, in one table: the `error` of a result
// of the engine's API (wasm/echomq.d.ts), and the code of an error reply.
// Every widget that sorts an error asks here, so a new kind is added once.

/**
 * result.error → who gave it, and whether replaying the call gives the same
 * answer (a permalink's replay counts only the others as failures).
 *
 *   by "server": the server's refusal, as the handle sorts it (emq.Refusal);
 *     the handle passes it through as {:error, {:server, message}}.
 *   by "handle": the Elixir handle's guard refused before sending anything.
 *   by "console": redis-cli could not split the line.
 *   by "engine" / "page": the playground itself, not Redis.
 */
export const ERROR_KINDS = Object.freeze({
  kind: { by: "server", replays: true }, // @enqueue's EMQKIND: the id is not JOB-namespaced
  lease: { by: "server", replays: true }, // @claim's EMQLEASE: the lease is not 1 to 15 digits
  queue: { by: "server", replays: true }, // the queue name is empty
  server: { by: "server", replays: true }, // any other error reply
  guard: { by: "handle", replays: false },
  syntax: { by: "console", replays: true },
  depth: { by: "engine", replays: true }, // the command ran; its reply nests too deep to hand over
  args: { by: "page", replays: false },
  internal: { by: "engine", replays: false },
  js: { by: "page", replays: false }, // the engine is not running
});

/** The entry of a result's error, or null when the result is not an error. */
function kindOf(result) {
  if (!result || typeof result !== "object" || typeof result.error !== "string") return null;
  return Object.hasOwn(ERROR_KINDS, result.error) ? ERROR_KINDS[result.error] : { by: "page", replays: false };
}

/** True when the server refused the call: the handle's {:error, {:server, ...}}. */
export function refusedByServer(result) {
  const k = kindOf(result);
  return k !== null && k.by === "server";
}

/** True when the server answered: a verdict, or a refusal of its own. */
export function serverAnswered(result) {
  return !!result && (!!result.verdict || refusedByServer(result));
}

/** True when a call failed in a way that replaying its input would not reproduce. */
export function failedToRun(result) {
  const k = kindOf(result);
  return k !== null && !k.replays;
}

/**
 * The code of an error reply, the first word of its text as Redis sends
 * it: "NOSCRIPT", "WRONGTYPE", "ERR", "BUSY"... "" for any other reply.
 */
export function errorCode(reply) {
  if (!reply || reply.type !== "error") return "";
  return String(reply.value).split(" ", 1)[0];
}
