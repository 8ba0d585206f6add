// Unit tests of tableorder.js, under Node's test runner (run by go test in web/page).
import { test } from "node:test";
import assert from "node:assert/strict";
import { tableOrderNote, usesTableOrder } from "../tableorder.js";

test("pairs and next calls are found; ipairs and look-alikes are not", () => {
  const found = ["for k, v in pairs(t) do end", "local k = next(t)", "for k in pairs (t) do end", 'return "a" .. next({})'];
  for (const src of found) assert.equal(usesTableOrder(src), true, src);
  // Another function, a method, a comment, a string: none is a call of pairs or next.
  const notFound = [
    "for i, v in ipairs(t) do end",
    "local x = mypairs(t)",
    "local x = t.pairs(t)",
    "-- for k in pairs(t) do end\nreturn 1",
    "--[[ next(t) ]] return 1",
    "return 'pairs(t)'",
    "return [[next(t)]]",
    "redis.call('HSET', KEYS[1], 'state', 'pending')",
  ];
  for (const src of notFound) assert.equal(usesTableOrder(src), false, src);
});

test("the note is empty for the lesson's kind of script and says what it is otherwise", () => {
  assert.equal(tableOrderNote("return redis.call('GET', KEYS[1])"), "");
  const note = tableOrderNote("for k in pairs(t) do end");
  assert.match(note, /pairs or next/);
  assert.match(note, /reading the script's text/);
});
