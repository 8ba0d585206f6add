// The JavaScript API of the EchoMQ Playground: globalThis.echomq.
//
// It exists once static/echomq.wasm has started (after `go.run(instance)`)
// and publish(go, instance) in web/assets/worker.js has made it over the
// module's exports, in the context that runs the module: on the
// playground's pages that is the engine's Web Worker (web/assets/worker.js),
// which the page calls by message (web/assets/engine.js); under Node it is
// the process's global (Node loads worker.js for publish alone).
// Every function returns a plain object and never throws. A caller's mistake
// (wrong number or type of arguments) comes back as ArgsError; a bug inside
// the module comes back as InternalError, and the module keeps serving.
//
// Values of any size cross both ways up to the playground's caps, and a
// call past one is refused with an error that names it:
// - a string, anywhere in a call's arguments, of at most 32 MiB in UTF-8
//   (the engine's string cap; Redis's is 512 MB): past it, ArgsError
//   "enqueue(queue, id, payload): payload is N bytes in UTF-8, more than the
//   32 MiB the playground allows a string ...; nothing was run";
// - a string that is valid UTF-16: a lone surrogate (half of a pair alone,
//   "JOB-\ud800") has no UTF-8 form, so the call is refused whole with an
//   ArgsError "... is not valid UTF-16: it has a lone surrogate, \ud800, at
//   index 4 ...; nothing was run" (it is never read as U+FFFD, which would
//   make two such ids one);
// - one call's arguments of at most 256 MiB as JSON: past it, ArgsError
//   "this call's arguments are N bytes as JSON, more than the 256 MiB ...";
// - objects and arrays nested at most 32 levels in an argument: deeper ones
//   are named "a value nested more than 32 levels deep" in the error;
// - a result of at most 256 MiB as JSON (SizeError) and a reply nested at
//   most 500 levels (DepthError): past either the command has run.
// Nothing was run, for every ArgsError: the keyspace is as it was.
//
// This file is the contract. The Go that implements it is wasm/api (the
// logic, api.Module the text it takes and gives), wasm/main_js.go and
// publish() in web/assets/worker.js (the bridge); wasm/echomq.test.mjs checks it
// under Node against the built module.

/** One Redis reply, as a client sees it: RESP2 kinds, and RESP3 ones after HELLO 3. */
export type Reply =
  | { type: "status"; value: string }
  | { type: "error"; value: string }
  /** The decimal digits of a 64-bit integer: exact beyond 2^53. */
  | { type: "int"; value: string }
  /**
   * A bulk string. JS strings cannot hold arbitrary bytes, so when the
   * bytes are not valid UTF-8, `value` has U+FFFD in their place and
   * `base64` has the exact bytes.
   */
  | { type: "bulk"; value: string; base64?: string }
  | { type: "nil"; value: null }
  | { type: "array"; value: Reply[] }
  // RESP3, after HELLO 3 on exec's or cli's connection (each has its own,
  // and the handles keep theirs on RESP2):
  | { type: "map"; value: { key: Reply; value: Reply }[] }
  | { type: "set"; value: Reply[] }
  /** As the server printed it: "1.5", "inf". */
  | { type: "double"; value: string }
  | { type: "bool"; value: boolean }
  | { type: "bignum"; value: string }
  | { type: "verbatim"; value: string; format: string; base64?: string };

/**
 * A reply with the note the engine adds where Redis leaves the answer open,
 * so that no engine can match it byte for byte: a hash table's order
 * (SMEMBERS of a set of strings, KEYS, SCAN, HGETALL of a big hash), a
 * random pick (SRANDMEMBER, SPOP, HRANDFIELD, ZRANDMEMBER, RANDOMKEY), a
 * script's walk of a table whose order Lua leaves to its internals. No
 * note: the reply is the one Redis 7.0 gives.
 */
export type Noted<T> = T & { note?: string };

export interface ArgsError { error: "args"; message: string }
export interface InternalError { error: "internal"; message: string }
/**
 * A reply nested deeper than the page can be handed (500 levels of arrays
 * and sets; a map counts as two). Redis would send it, and the command has
 * run: whatever it wrote stays. The message says so in plain words.
 */
export interface DepthError { error: "depth"; message: string }
/**
 * A result longer than the 256 MiB of JSON the module hands back in one
 * answer (a JS string holds at most 2^29-24 characters, and the page
 * copies each result once more). The command has run: whatever it wrote
 * stays. The message names the cap: "The result is N bytes of JSON, more
 * than the 256 MiB the playground hands the page in one answer. ..."
 */
export interface SizeError { error: "size"; message: string }

/** One command the connector sent to run a script: EVALSHA first, then EVAL on NOSCRIPT. */
export interface Exchange { command: "EVALSHA" | "EVAL"; sha: string; reply: Reply }

/** A refusal by the server, sorted by what the caller can do about it. */
/**
 * A call that failed the course's Elixir handle's guard: claim/3's
 * `is_integer(lease_ms) and lease_ms > 0`, enqueue/4's `is_binary`. Like
 * Elixir's FunctionClauseError, it happens before anything is sent: there
 * is no wire, and the keyspace and script cache are untouched.
 */
export interface GuardError {
  error: "guard";
  /** "EchoMQ.Jobs.claim/3" or "EchoMQ.Jobs.enqueue/4". */
  function: string;
  /** "** (FunctionClauseError) no function clause matching in EchoMQ.Jobs.claim/3" */
  message: string;
  /** Which part of the guard failed, in the page's words. */
  reason: string;
}

export interface Refusal {
  /** kind: the id is not JOB-namespaced. lease: the lease is not 1–15 digits.
   *  queue: the queue name is empty. server: any other error reply. */
  error: "kind" | "lease" | "queue" | "server";
  /** The server's error reply, e.g. "EMQKIND job id must be JOB-namespaced". */
  message: string;
  wire?: Exchange[];
}

/** One line typed at the console's prompt, run as redis-cli runs it. */
export interface CliResult {
  /** The arguments the line split into, as redis-cli splits them (bytes that are not UTF-8 read as U+FFFD). */
  args: string[];
  reply: Reply;
  /** What redis-cli 7.0 prints for the reply (`(integer) 1`, `1) "JOB-1"`), without the final newline. */
  text: string;
  /**
   * Set when the engine stopped a runaway script, answered a blocking
   * command's timeout without waiting it, or gave a reply Redis leaves open
   * (see Noted): what happened, in plain words.
   */
  note?: string;
}

/**
 * A `help <command>` line, answered on the client as redis-cli does: nothing
 * is sent. text is redis-cli's help for the command (syntax, summary,
 * since, group); command names its card. An unknown command prints nothing
 * and the note lists the commands the playground's help covers.
 */
export interface CliHelp { args: []; text: string; command?: string; note?: string }

/** A blank line: nothing is sent and nothing is printed, as at redis-cli's prompt. */
export interface CliBlank { args: []; text: "" }

/** A line redis-cli refuses to send (an unbalanced quote, or "a"b); nothing is sent. */
export interface CliSyntaxError { error: "syntax"; message: "Invalid argument(s)" }

export interface Script {
  name: string;    // "claim", "enqueue"
  sha: string;     // lower-case hex SHA1, what EVALSHA takes
  source: string;  // the exact text in lua/
  moves: { move: number; name: string; first: number; last: number }[];
}

/**
 * One key as a traced step shows it. Exactly one value field is set, by
 * type. Bounded like a snapshot: a value of more than 50 fields, members
 * or items comes as its first 25 and last 25 (a set sorted, a hash in
 * HGETALL's order), with the rest in gap.
 */
export interface Entry {
  key: string;
  type: "string" | "hash" | "zset" | "list" | "set" | "stream";
  string?: string;
  fields?: { field: string; value: string }[];
  members?: { member: string; score: string }[];
  items?: string[];
  /** Milliseconds until the key expires, or -1. */
  ttl: number;
  /** How many fields, members or items it holds in all (1 for a string). */
  count: number;
  gap?: Gap;
}

/** Why a traced script did not return (an error it returned with redis.error_reply is a reply, not a problem). */
export interface Problem {
  /** syntax: it did not compile and nothing ran; runtime: it raised an error; killed: the work or memory budget (or the page's last resort) stopped it. */
  kind: "syntax" | "runtime" | "killed";
  /** The error's first word: ERR, WRONGTYPE, EMQKIND… */
  code: string;
  /** The error without Redis's "script: <sha>, on @user_script:N." suffix. */
  message: string;
  /** A compile error's own words after its position; "" otherwise. */
  detail: string;
  /** The script line Redis names. */
  line: number;
}

export interface Trace {
  reply: Reply;
  /**
   * The keys the run touched, in the order a page shows them: KEYS as
   * given, then every other key a command named that existed before or
   * after it, by name (at most 64).
   */
  keys: string[];
  /** Those of keys that existed just before the run: step 0. */
  before: Entry[];
  steps: Step[];
  /** The script's `-- @move N name` markers. */
  moves: Script["moves"];
  problem: Problem | null;
  /** A stamp of each of keys after the run; changed(stamps) says which were written since. */
  stamps: Record<string, string>;
  /** Set when the reply is one Redis leaves open (see Noted). */
  note?: string;
  /** For enqueue's and claim's own source: what echomq.enqueue or echomq.claim would answer for this reply (without wire). */
  verdict:
    | { verdict: "enqueued" | "duplicate" | "empty" }
    | { verdict: "leased"; id: string; payload: string; attempts: number }
    | Refusal
    | null;
}

export interface Step {
  /** The move's number from its `-- @move N name` marker; 0 outside any move. */
  move: number;
  name: string;
  /** The line of the redis.call, or the first line run in a move that called nothing. */
  line: number;
  /** The command and its arguments; null for a move that called nothing (the @enqueue gate). */
  command: string[] | null;
  reply: Reply | null;
  /** The command ran and is one Redis counts as a write (what a flags=no-writes script is refused). */
  write: boolean;
  /** The trace's keys after this step (those that exist), bounded. */
  keyspace: Entry[];
}

/** What a bounded snapshot left out of one list: `count` members, which belong between list[at - 1] and list[at]. */
export interface Gap { at: number; count: number }

export interface Snapshot {
  now: number;
  paused: boolean;
  /** In claim order. Scores are printed as Redis 7 prints them. */
  pending: { id: string; score: string }[];
  /** By deadline, Unix ms. */
  active: { id: string; deadline: number }[];
  /** Sorted by id (byte order). Fields are the stored text. */
  rows: { id: string; state: string; attempts: string; payload: string }[];
  /** How many each list has in all: ZCARD of the two sets, and the keys under emq:{q}:job:. */
  counts: { pending: number; active: number; rows: number };
  /**
   * Set for each list a bounded snapshot (snapshot(queue, limit)) cut: a
   * sorted set of more than 2 × limit members comes as its first limit and
   * its last limit, with the rest here.
   */
  gaps: { pending?: Gap; active?: Gap; rows?: Gap };
  /**
   * Set when a bounded snapshot found more than 1,000 keys in the database
   * and so did not list the rows with KEYS: `rows` are then the rows of the
   * ids that `pending` and `active` show, and counts.rows counts one row
   * per id in either set (what @enqueue and @claim keep).
   */
  rowsOfSets?: true;
  /**
   * Where a Redis Cluster would put the queue's keys: the slot CLUSTER
   * KEYSLOT answers for the row ("emq:{q}:job:…"), pending, active and
   * paused keys, all through the tag; and for pending and active spelt
   * without it ("emq:q:pending"), which land in slots of their own.
   */
  slots: { tag: string; keys: { key: string; slot: number }[]; untagged: { key: string; slot: number }[] };
  /** The next id the page mints: JOB-n, one past the highest JOB-n with a row or in the lists shown. */
  fresh: string;
}

/** What enqueueMany did. ms is the time its @enqueue calls took inside the engine, to the µs. */
export interface EnqueueMany {
  first: string;
  last: string;
  enqueued: number;
  duplicate: number;
  ms: number;
}

/** What claimMany did. ms is the time its claims took inside the engine, to the µs. */
export interface ClaimMany {
  claimed: number;
  /** The first and last id leased; absent when none was. */
  first?: string;
  last?: string;
  /** It stopped because a claim answered empty (nothing pending, or paused). */
  empty: boolean;
  /** That empty answer came from the pause flag: @claim did not run. */
  paused: boolean;
  ms: number;
}

/** One script a permalink's calls would run or load (see review). */
export interface LinkScript {
  /** Lower-case hex SHA1 of source: what replay's allowed takes. */
  sha: string;
  /** The exact text that would run. */
  source: string;
  /** How each call names it, as the engine reads it: "EVAL", "EVALSHA_RO", "SCRIPT LOAD", or "trace". */
  commands: string[];
  /** Those calls' places in ops, from 0, in step with commands. */
  ops: number[];
}

export interface EchoMQ {
  /** This build, and the miniredis and gopher-lua versions inside it. */
  readonly version: string;
  /**
   * Set only when the engine refused to start (its Lua 5.1 hook into
   * gopher-lua did not install): why. Then version is the only other
   * property, and no method is published.
   */
  readonly failed?: string;

  scripts(): Script[] | ArgsError;

  /**
   * One Redis command, run as a client would: exec(["ZRANGE", "emq:{q}:pending", "0", "-1"]).
   * With a connection name (1 to 32 bytes, at most 8 names), it runs on that
   * connection, opened on first use: exec(["WATCH", "emq:{q}:pending"], "worker-A").
   * Each connection has its own MULTI, WATCH, protocol and database.
   */
  exec(args: string[], connection?: string): Noted<Reply> | DepthError | SizeError | ArgsError | InternalError;

  /**
   * One line typed at a redis-cli prompt: cli('ZADD emq:{q}:pending 0 "JOB-1"').
   * It runs on the console's own connection, so HELLO 3 here changes only
   * the console's replies. Quoting is redis-cli's: "double quotes" with
   * \n \r \t \b \a \\ \" and \xHH escapes, 'single quotes' with only \'.
   */
  cli(line: string): CliResult | CliHelp | CliBlank | CliSyntaxError | DepthError | SizeError | ArgsError | InternalError;

  /** id and payload that are not strings fail enqueue/4's is_binary guard. */
  enqueue(queue: string, id: string, payload: string):
    | { verdict: "enqueued" | "duplicate"; wire: Exchange[] }
    | Refusal | GuardError | ArgsError | InternalError;

  /**
   * Claims the oldest pending job, as claim/3 does. leaseMs is the Elixir
   * term a learner means: a whole number, or the text of one ("30000",
   * "-5"), is an integer; other text ("abc", "1e3") or a fraction is not.
   * The guard lets through only an integer greater than 0; anything else
   * is a GuardError and nothing is sent. (A positive integer past int64 is
   * sent as its digits, and @claim's own EMQLEASE check refuses it.)
   * A paused queue answers {verdict:"empty"} without running @claim.
   */
  claim(queue: string, leaseMs: number | string):
    | { verdict: "leased"; id: string; payload: string; attempts: number; wire: Exchange[] }
    | { verdict: "empty"; wire?: Exchange[] }
    | Refusal | GuardError | ArgsError | InternalError;

  /**
   * Enqueues count (1–10,000) jobs, each by its own @enqueue, with ids
   * numbered after the highest JOB-n (the snapshot's `fresh` first) and the
   * same payload. A refusal stops it and comes back with what was done.
   */
  enqueueMany(queue: string, count: number, payload: string):
    | EnqueueMany
    | (Refusal & { enqueued: number; duplicate: number; ms: number })
    | ArgsError | InternalError;

  /**
   * Claims up to max (1–10,000) jobs, each as claim() does, and stops early
   * at the first empty answer. A refusal of the first claim comes back as
   * claim()'s would (a lease that fails claim/3's guard is a GuardError, and
   * nothing is sent); a later one, with how many were claimed before it.
   */
  claimMany(queue: string, leaseMs: number | string, max: number):
    | ClaimMany
    | Refusal
    | GuardError
    | (Refusal & { claimed: number; ms: number })
    | ArgsError | InternalError;

  pause(queue: string): { verdict: "paused" } | Refusal | ArgsError | InternalError;
  resume(queue: string): { verdict: "resumed" } | Refusal | ArgsError | InternalError;

  /**
   * The queue as the page draws it. With no limit, every id and row; with a
   * limit (1–10,000), at most the first and last `limit` of each list, and
   * its cost does not grow with the queue: this is what the page asks for.
   */
  snapshot(queue: string, limit?: number): Snapshot | Refusal | SizeError | ArgsError | InternalError;

  /**
   * Runs a script traced, move by move. script is a name from scripts() or
   * Lua source text. keys and argv default to []. The keyspace and the
   * script cache change exactly as EVAL would change them, so a later
   * EVALSHA of the same text finds it.
   */
  trace(script: string, keys?: string[], argv?: string[]): Trace | DepthError | SizeError | ArgsError | InternalError;

  /**
   * Which keys of stamps (from a trace) were written since, as far as
   * their value shows: type, value or expiry deadline. PING, a read, a
   * write to another key or a write that leaves a key as it was are not.
   */
  changed(stamps: Record<string, string>): { changed: string[] } | ArgsError | InternalError;

  /** The keys given that exist, as a traced step shows them. */
  entries(keys: string[]): { entries: Entry[] } | SizeError | ArgsError | InternalError;

  /** The server clock, Unix ms. It starts at 1767225600000 (2026-01-01T00:00:00Z) and moves only when told. */
  now(): { now: number } | ArgsError;
  /** Whole milliseconds from 0 to 253402300799999. */
  setNow(ms: number): { now: number } | ArgsError;
  /** Moves the clock forward by a whole, non-negative number of ms; keys whose TTL ends expire. */
  advance(ms: number): { now: number } | ArgsError;

  /** Empty keyspace, empty script cache, clock back at its start. */
  reset(): { reset: true; now: number } | ArgsError;

  /**
   * The Lua a permalink's calls (ops, each [method, ...args] as the link
   * holds it) would run, or load for a later EVALSHA, other than the
   * lesson's own scripts: each script once, in the order the calls first
   * name it. Each call is read as it will run: a console line split as
   * redis-cli splits it (its \xHH escapes undone), a command's name read
   * as the engine reads it, EVAL's arguments checked as the runner checks
   * them, an EVALSHA matched with what the calls before it load (or the
   * engine holds). Nothing runs. A call with arguments the method does not
   * take is passed over: replayed, it fails with an ArgsError.
   */
  review(ops: unknown[]): { lua: LinkScript[] } | ArgsError | InternalError;

  /**
   * Runs op, one call of a permalink ([method, ...args]), as that method
   * would run it, with the engine refusing every script but the lesson's
   * and those whose SHA1 allowed holds (what review found and the learner
   * chose to run). A refused script runs none of its code; its command
   * answers the error "ERR the playground refused to run this script: …
   * (script <sha>)", queued in MULTI too. The result is the method's.
   */
  replay(op: unknown[], allowed: string[]): unknown;

  /**
   * One of the methods above, run in the named keyspace: a separate engine
   * inside this module, with its own keys, script cache, clock and
   * connections, made on first use. The methods above run in keyspace "".
   * Embeds on one course page share the module and call each in its own
   * keyspace. call("k", "enqueue", ["q", "JOB-1", "{}"]). At most 256
   * keyspaces; a name is at most 128 bytes.
   */
  call(keyspace: string, method: string, args: unknown[]): unknown;

  /** Forgets a keyspace and its engine; dropping "" empties it instead. */
  drop(keyspace: string): { dropped: boolean } | ArgsError;
}

declare global {
  // eslint-disable-next-line no-var
  var echomq: EchoMQ;
}
