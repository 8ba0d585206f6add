// Unit tests of diff.js, under Node's test runner. web/page/jsunit_node_test.go
// runs every web/assets/test/*.test.mjs, so `go test ./web/...` runs these too.
import { test } from "node:test";
import assert from "node:assert/strict";
import { describeDiff, diffLines, diffStats, hunks, MAX_EDITS, splitLines } from "../diff.js";

/** A diff written the way `diff -u` prints it: " same", "-removed", "+added". */
const unified = (ops) => ops.map((o) => ({ same: " ", del: "-", add: "+" })[o.op] + o.text);

/** Applies a diff's kept and added lines: must give back the new text's lines. */
const applied = (ops) => ops.filter((o) => o.op !== "del").map((o) => o.text);
const original = (ops) => ops.filter((o) => o.op !== "add").map((o) => o.text);

// An enqueue-like script, not the protocol's own text (lua/ holds the only copy).
const ENQUEUE = `if string.sub(ARGV[1], 1, 3) ~= 'JOB' then
  return redis.error_reply('EMQKIND')
end
-- @move 2 idempotency
if redis.call('EXISTS', KEYS[1]) > 0 then
  return 0
end
redis.call('HSET', KEYS[1], 'state', 'pending')
redis.call('ZADD', KEYS[2], 1, ARGV[1])
return 1
`;

test("split keeps lines and ignores one final newline", () => {
  const cases = [
    { desc: "empty", text: "", want: [] },
    { desc: "one line, no newline", text: "a", want: ["a"] },
    { desc: "one line with newline", text: "a\n", want: ["a"] },
    { desc: "a blank last line", text: "a\n\n", want: ["a", ""] },
    { desc: "CRLF", text: "a\r\nb\r\n", want: ["a", "b"] },
  ];
  for (const c of cases) assert.deepEqual(splitLines(c.text), c.want, c.desc);
});

test("the same text has no changes", () => {
  const ops = diffLines(ENQUEUE, ENQUEUE);
  assert.ok(ops.every((o) => o.op === "same"));
  assert.deepEqual(diffStats(ops), { added: 0, removed: 0 });
  assert.equal(describeDiff(ops), "No changes: the text is the original.");
  assert.deepEqual(hunks(ops), []);
});

test("removing the EXISTS check shows four removed lines with their old numbers", () => {
  const edited = ENQUEUE.replace(/-- @move 2 idempotency\n[\s\S]*?end\n/, "");
  const ops = diffLines(ENQUEUE, edited);
  const removed = ops.filter((o) => o.op === "del");
  assert.deepEqual(removed.map((o) => [o.old, o.text]), [
    [4, "-- @move 2 idempotency"],
    [5, "if redis.call('EXISTS', KEYS[1]) > 0 then"],
    [6, "  return 0"],
    [7, "end"],
  ]);
  assert.equal(describeDiff(ops), "4 lines removed.");
  // The line after the cut keeps its old number and gets its new one.
  const hset = ops.find((o) => o.text.startsWith("redis.call('HSET'"));
  assert.deepEqual([hset.old, hset.new], [8, 4]);
  assert.deepEqual(applied(ops), splitLines(edited));
  assert.deepEqual(original(ops), splitLines(ENQUEUE));
});

test("a changed line reads as removed, then added", () => {
  const ops = diffLines("a\nb\nc\n", "a\nB\nc\n");
  assert.deepEqual(unified(ops), [" a", "-b", "+B", " c"]);
  assert.equal(describeDiff(ops), "1 line removed, 1 line added.");
});

test("edge cases", () => {
  const cases = [
    { desc: "from nothing", a: "", b: "x\ny", want: ["+x", "+y"] },
    { desc: "to nothing", a: "x\ny", b: "", want: ["-x", "-y"] },
    { desc: "added at the end", a: "x", b: "x\ny", want: [" x", "+y"] },
    { desc: "added at the start", a: "y", b: "x\ny", want: ["+x", " y"] },
    { desc: "repeated lines", a: "end\nend\nend", b: "end\nx\nend", want: [" end", "-end", "+x", " end"] },
    { desc: "swap", a: "a\nb", b: "b\na", want: ["-a", " b", "+a"] },
  ];
  for (const c of cases) {
    const ops = diffLines(c.a, c.b);
    assert.deepEqual(unified(ops), c.want, c.desc);
    assert.deepEqual(applied(ops), splitLines(c.b), c.desc + ": applies");
  }
});

test("every diff applies: random edits of random texts", () => {
  let seed = 7;
  const rand = (n) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  for (let round = 0; round < 300; round++) {
    const a = Array.from({ length: rand(12) }, () => "abc"[rand(3)]);
    const b = a.slice();
    for (let e = rand(5); e > 0; e--) {
      const at = rand(b.length + 1);
      if (rand(2) && b.length) b.splice(Math.min(at, b.length - 1), 1);
      else b.splice(at, 0, "abcd"[rand(4)]);
    }
    const ops = diffLines(a.join("\n"), b.join("\n"));
    assert.deepEqual(applied(ops), b, `round ${round}: new side`);
    assert.deepEqual(original(ops), a, `round ${round}: old side`);
    // Myers finds a shortest script: never more edits than a naive replace.
    const { added, removed } = diffStats(ops);
    assert.ok(added + removed <= a.length + b.length);
  }
});

test("a rewrite past the edit limit falls back to remove-all, add-all, quickly", () => {
  const a = Array.from({ length: MAX_EDITS + 10 }, (_, i) => `old ${i}`).join("\n");
  const b = Array.from({ length: MAX_EDITS + 10 }, (_, i) => `new ${i}`).join("\n");
  const started = Date.now();
  const ops = diffLines(a, b);
  assert.ok(Date.now() - started < 2000, "the fallback is quick");
  assert.deepEqual(diffStats(ops), { added: MAX_EDITS + 10, removed: MAX_EDITS + 10 });
  assert.deepEqual(applied(ops), splitLines(b));
});

test("hunks keep two lines of context and drop the rest", () => {
  const a = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
  const b = a.slice();
  b[9] = "changed";
  const hs = hunks(diffLines(a.join("\n"), b.join("\n")));
  assert.equal(hs.length, 1);
  assert.deepEqual(unified(hs[0]), [" line 8", " line 9", "-line 10", "+changed", " line 11", " line 12"]);
  b[0] = "first";
  assert.equal(hunks(diffLines(a.join("\n"), b.join("\n"))).length, 2);
});
