// The script editor's helpers (editing.js) under Node: the KEYS and ARGV
// fields read one value per line, as typed, and a run says what it wrote.
import { test } from "node:test";
import assert from "node:assert/strict";
import { bytesOf, MAX_ARG, parseList, refusal, sameList, writesOf, writesText } from "../editing.js";

test("a field holds one value per line, exactly as typed", () => {
  assert.deepEqual(parseList("emq:{q}:job:JOB-1\nemq:{q}:pending\n"), ["emq:{q}:job:JOB-1", "emq:{q}:pending"]);
  assert.deepEqual(parseList("a\r\n\r\n b \n\n\n"), ["a", "", " b "], "a blank line between values is an empty string; trailing ones are no values");
  assert.deepEqual(parseList(""), []);
});

test("sizes count UTF-8 bytes, as the engine's limit does", () => {
  assert.equal(bytesOf("é€"), 5);
});

test("what a run wrote, in order, in words", () => {
  const steps = [
    { command: ["EXISTS", "emq:{q}:job:JOB-1"], write: false, reply: { type: "int", value: "0" } },
    { command: ["hset", "emq:{q}:job:JOB-1", "state", "pending"], write: true, reply: { type: "int", value: "1" } },
    { command: null, write: false },
    { command: ["ZADD", "emq:{q}:pending", "0", "JOB-1"], write: true, reply: { type: "int", value: "1" } },
  ];
  const writes = writesOf(steps);
  assert.equal(writes.length, 2);
  assert.equal(writesText(writes), "HSET emq:{q}:job:JOB-1 (answered 1), ZADD emq:{q}:pending (answered 1)");
  assert.ok(sameList(["a", ""], ["a", ""]));
  assert.ok(!sameList(["a"], ["a", ""]));
});

test("the editor refuses what it will not send, and says why in the learner's units", () => {
  const limits = { maxSource: 1024, maxArgs: 2 };
  assert.equal(refusal("return 1", ["k"], ["v"], limits), "");
  assert.equal(refusal("x".repeat(1025), [], [], limits), "The script is 2 KiB; the editor runs scripts of at most 1 KiB.");
  assert.equal(refusal("", ["a", "b", "c"], [], limits), "There are 3 KEYS; at most 2 can be sent.");
  assert.equal(refusal("", [], ["a", "b", "c"], limits), "There are 3 ARGV values; at most 2 can be sent.");
  assert.equal(refusal("", ["x".repeat(MAX_ARG + 1)], [], limits), "One of the KEYS or ARGV values is longer than 1 MiB.");
});
