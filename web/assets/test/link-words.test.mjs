// The notices of a link the page could not open whole, under Node: each
// names what was refused and says that nothing else changed, in the
// learner's terms; none carries the engine's or the browser's words.
import test from "node:test";
import assert from "node:assert/strict";
import { DECLINED, describeOp, linkRefused, partlyRun, UNREVIEWED, viewLost } from "../link-words.js";
import { decode, LIMITS, PREFIX } from "../permalink.js";

const widgets = ["stepper", "beats", "verdicts", "roundtrip", "editor", "console", "workers"];

/** Words that belong to an engine or a browser, not to a learner. */
const RAW = /Error|exception|header check|DOMException|undefined|null|\[object|FunctionClause|\*\*|enqueueMany|claimMany|setNow|\bexec\b|\bcli\b/;

function wantLearnersWords(sentence) {
  assert.doesNotMatch(sentence, RAW, sentence);
  assert.match(sentence, /nothing else changed/i, sentence);
}

test("a refused link says why, that none of it ran, and that nothing else changed", () => {
  const s = linkRefused("it is longer than 256 KiB");
  assert.match(s, /^This link could not be opened: it is longer than 256 KiB\. /);
  assert.match(s, /Nothing in it was run/);
  assert.match(s, /default state/);
  wantLearnersWords(s);
  wantLearnersWords(linkRefused(UNREVIEWED));
  assert.match(linkRefused(UNREVIEWED), /could not check which Lua/);
  wantLearnersWords(DECLINED);
});

test("every damaged, cut short, too big or hostile link is refused in those words", async () => {
  const notDeflate = PREFIX + Buffer.from(new Uint8Array(64).fill(255)).toString("base64url");
  const bomb = new Uint8Array(LIMITS.json + 1024).fill(32); // spaces: JSON, but past the cap once unpacked
  const packed = await new Response(new Blob([bomb]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer();
  const tooBig = PREFIX + Buffer.from(packed).toString("base64url");
  const cases = [
    "#stepper",
    tooBig,
    PREFIX + "!!!!",
    PREFIX + "%%%not-base64",
    notDeflate,
    PREFIX + "A".repeat(LIMITS.fragment),
  ];
  const warn = console.warn;
  const warned = [];
  console.warn = (...args) => warned.push(args);
  try {
    for (const fragment of cases) {
      const got = await decode(fragment, widgets);
      assert.equal(got.state, undefined, fragment.slice(0, 30));
      wantLearnersWords(got.problem);
      assert.match(got.problem, /^This link could not be opened: /);
      if (fragment === tooBig) assert.match(got.problem, /unpacks to more than 2048 KiB/);
    }
  } finally {
    console.warn = warn;
  }
  // The browser's own reason went to the console, for whoever made the link.
  assert.ok(warned.some((args) => args.some((a) => a instanceof Error)), "the exception is in the console");
});

test("each operation is named as the learner met it", () => {
  assert.equal(describeOp(["enqueue", "q", "JOB-9", "{}"]), "enqueueing JOB-9");
  assert.equal(describeOp(["claim", "q", "abc"]), "a claim");
  assert.equal(describeOp(["enqueueMany", "q", 1000, "{}"]), "a bulk enqueue");
  assert.equal(describeOp(["claimMany", "q", 30000, 1000]), "a Claim all");
  assert.equal(describeOp(["exec", ["zadd", "k", "1", "m"]]), "the command ZADD");
  assert.equal(describeOp(["exec", ["SET", "a", "1"], "worker-a"]), "the command SET");
  assert.equal(describeOp(["cli", "  hset h f v"]), "the console's HSET");
  assert.equal(describeOp(["cli", ""]), "a console line");
  assert.equal(describeOp(["trace", "enqueue", [], []]), "a traced run of a script");
  assert.equal(describeOp(["advance", 5000]), "advancing the clock");
  assert.equal(describeOp(["setNow", 1]), "setting the clock");
  assert.equal(describeOp(["pause", "q"]), "pausing the queue");
  assert.equal(describeOp(["resume", "q"]), "resuming the queue");
  assert.equal(describeOp(["mystery"]), "an operation");
  assert.equal(describeOp(null), "an operation");
});

test("a partly run link says how many failed, which came first, and that the others ran", () => {
  const ops = [
    ["enqueue", "q", "JOB-9", "{}"],
    ["claim", "q", "abc"],
    ["advance", 5000],
    ["cli", "SET a 1"],
  ];
  const one = partlyRun([1], ops);
  assert.equal(
    one,
    "One of the link's 4 operations, call 2 (a claim), could not run here, so the page may differ from the one the link was copied from. The others ran, and nothing else changed.",
  );
  wantLearnersWords(one);
  const two = partlyRun([1, 3], ops);
  assert.match(two, /^2 of the link's 4 operations could not run here, starting with call 2 \(a claim\), /);
  assert.match(two, /The others ran, and nothing else changed\.$/);
  wantLearnersWords(two);
  const all = partlyRun([0, 1], ops.slice(0, 2));
  assert.match(all, /^None of the link's 2 operations could run here, starting with call 1 \(enqueueing JOB-9\)/);
  assert.doesNotMatch(all, /others ran/);
  wantLearnersWords(all);
  const single = partlyRun([0], [["claim", "q", "abc"]]);
  assert.match(single, /^The link's one operation, call 1 \(a claim\), could not run here/);
  wantLearnersWords(single);
});

test("a view that could not be restored is named, and the rest of the link stands", () => {
  const s = viewLost("stepper");
  assert.match(s, /the stepper widget's view, could not be restored/);
  assert.match(s, /The rest of the link opened/);
  wantLearnersWords(s);
});
