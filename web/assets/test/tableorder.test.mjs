// Unit tests of tableorder.js, under Node's test runner (run by go test in web/page).
import { test } from "node:test";
import assert from "node:assert/strict";
import { tableOrderNote, usesTableOrder } from "../tableorder.js";

test("pairs and next calls are found; ipairs and look-alikes are not", () => {
  const cases = [
    { src: "for k, v in pairs(t) do end", want: true },
    { src: "local k = next(t)", want: true },
    { src: "for k in pairs (t) do end", want: true },
    { src: "for i, v in ipairs(t) do end", want: false },
    { src: "local x = mypairs(t)", want: false },
    { src: "local x = t.pairs(t)", want: false },
    { src: "-- for k in pairs(t) do end\nreturn 1", want: false },
    { src: "--[[ next(t) ]] return 1", want: false },
    { src: "return 'pairs(t)'", want: false },
    { src: 'return "a" .. next({})', want: true },
    { src: "return [[next(t)]]", want: false },
    { src: "redis.call('HSET', KEYS[1], 'state', 'pending')", want: false },
  ];
  for (const c of cases) assert.equal(usesTableOrder(c.src), c.want, c.src);
});

test("the note is empty for the lesson's kind of script and says what it is otherwise", () => {
  assert.equal(tableOrderNote("return redis.call('GET', KEYS[1])"), "");
  const note = tableOrderNote("for k in pairs(t) do end");
  assert.match(note, /pairs or next/);
  assert.match(note, /reading the script's text/);
});
