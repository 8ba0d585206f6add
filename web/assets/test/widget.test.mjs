// The Widget contract (widget.js) under Node: what a mount function returns
// is checked once, at mount time, so a part the page never calls, or a
// missing one it always calls, is a loud bug and not a silent no-op.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkWidget, WIDGET_PARTS } from "../widget.js";

const root = { querySelectorAll: () => [] };

test("a widget with every part passes, and so does one with only root and start", () => {
  const full = { root, queue: "q", start() {}, update() {}, save() {}, restore() {}, recordedControls: [] };
  assert.equal(checkWidget("stepper", full), full);
  assert.equal(checkWidget("console", { root, start() {} }).root, root);
  assert.deepEqual(Object.keys(full), WIDGET_PARTS);
});

test("a part the page never calls is refused by name", () => {
  assert.throws(() => checkWidget("roundtrip", { root, start() {}, refresh() {} }), /the roundtrip widget has a part "refresh" that the page never uses/);
});

test("what the page always calls must be there, and be of the right type", () => {
  assert.throws(() => checkWidget("beats", { start() {} }), /has no root element/);
  assert.throws(() => checkWidget("beats", { root }), /has no start\(\)/);
  assert.throws(() => checkWidget("beats", { root, start() {}, save: "x" }), /save that is not a function/);
  assert.throws(() => checkWidget("beats", { root, start() {}, queue: 3 }), /queue that is not a name/);
  assert.throws(() => checkWidget("beats", null), /is not an object/);
});
