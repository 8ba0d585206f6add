// How the page words the engine's measurements.
import test from "node:test";
import assert from "node:assert/strict";
import { count, measurement, tookMs } from "../format.js";

test("a bulk measurement names the count, the time and the rate, with units", () => {
  assert.equal(measurement(1000, "claim", 84), "1,000 claims in 84 ms: 11,900 a second");
  assert.equal(measurement(1000, "enqueue", 123.4), "1,000 enqueues in 123 ms: 8,100 a second");
  assert.equal(measurement(1, "claim", 0.25), "1 claim in 0.3 ms: 4,000 a second");
  assert.equal(measurement(100000, "claim", 12345), "100,000 claims in 12.3 s: 8,100 a second");
  assert.equal(measurement(5, "claim", 0), "5 claims in under 0.1 ms");
});

test("counts and times are grouped and rounded as the page shows them", () => {
  assert.equal(count(99950), "99,950");
  assert.equal(tookMs(8.44), "8.4 ms");
  assert.equal(tookMs(9999.6), "10,000 ms");
});
