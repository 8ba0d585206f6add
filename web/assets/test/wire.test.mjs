// The wire's words under Node (wire.js, errors.js): one line per reply and
// per exchange of the connector, the same in the round trip's wire log,
// the two workers' timeline and the editor's runs; and one table of the
// errors a result can carry.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cacheHit, cacheMiss, replyLine, sentLine, sentParts } from "../wire.js";
import { errorCode, failedToRun, refusedByServer, serverAnswered, ERROR_KINDS } from "../errors.js";

const claim = { name: "claim", sha: "0123456789abcdef0123456789abcdef01234567", source: "return 'é'" };
const scripts = new Map([["claim", claim]]);
const bulk = (value) => ({ type: "bulk", value });
const int = (value) => ({ type: "int", value });

test("a reply on one line keeps redis-cli's numbering, nested arrays included", () => {
  assert.equal(replyLine(int("1")), "(integer) 1");
  assert.equal(replyLine({ type: "array", value: [bulk("JOB-1"), bulk("{}"), int("1")] }), '1) "JOB-1"  2) "{}"  3) (integer) 1');
  assert.equal(
    replyLine({ type: "array", value: [int("1"), { type: "array", value: [int("2"), bulk("a")] }] }),
    "1) (integer) 1  2) 1) (integer) 2  2) \"a\"",
  );
  assert.equal(replyLine({ type: "array", value: [] }), "(empty array)");
  assert.ok(!replyLine({ type: "array", value: Array.from({ length: 12 }, (_, i) => int(String(i))) }).includes("\n"));
});

test("EVALSHA shows the SHA1 cut to 12 digits; EVAL names the script and its size in bytes", () => {
  assert.equal(sentLine({ command: "EVALSHA", sha: claim.sha }, scripts), "EVALSHA 0123456789ab…");
  // é is two bytes of UTF-8: the size is what went over the wire.
  assert.deepEqual(sentParts({ command: "EVAL", sha: claim.sha }, scripts), { command: "EVAL ", elided: "‹the @claim source, 11 bytes›" });
  assert.equal(sentLine({ command: "EVAL", sha: "ffff" }, scripts), "EVAL ‹the script's source, ? bytes›");
  // A plain list of scripts (echomq.scripts()) serves as well as the page's Map.
  assert.equal(sentLine({ command: "EVAL", sha: claim.sha }, [claim]), "EVAL ‹the @claim source, 11 bytes›");
});

test("NOSCRIPT is a cache miss, a working EVALSHA a hit, and nothing else is either", () => {
  const noscript = { command: "EVALSHA", sha: claim.sha, reply: { type: "error", value: "NOSCRIPT No matching script. Please use EVAL." } };
  const evalOK = { command: "EVAL", sha: claim.sha, reply: int("1") };
  const shaOK = { command: "EVALSHA", sha: claim.sha, reply: int("1") };
  const shaErr = { command: "EVALSHA", sha: claim.sha, reply: { type: "error", value: "EMQLEASE lease must be a positive integer" } };
  assert.deepEqual([noscript, evalOK, shaOK, shaErr].map(cacheMiss), [true, false, false, false]);
  assert.deepEqual([noscript, evalOK, shaOK, shaErr].map(cacheHit), [false, false, true, false]);
});

test("an error reply's code is its first word", () => {
  assert.equal(errorCode({ type: "error", value: "WRONGTYPE Operation against a key holding the wrong kind of value" }), "WRONGTYPE");
  assert.equal(errorCode({ type: "error", value: "ERR unknown command 'FOO'" }), "ERR");
  assert.equal(errorCode({ type: "error", value: "BUSY" }), "BUSY");
  assert.equal(errorCode(bulk("NOSCRIPT")), "");
  assert.equal(errorCode(null), "");
});

test("the error table sorts a result by who answered", () => {
  for (const kind of ["kind", "lease", "queue", "server"]) {
    assert.ok(refusedByServer({ error: kind, message: "x" }), kind);
    assert.ok(serverAnswered({ error: kind, message: "x" }), kind);
    assert.ok(!failedToRun({ error: kind }), kind);
  }
  assert.ok(serverAnswered({ verdict: "enqueued" }));
  for (const kind of ["guard", "args", "internal", "js", "syntax", "depth", "no such kind"]) {
    assert.ok(!refusedByServer({ error: kind }), kind);
    assert.ok(!serverAnswered({ error: kind }), kind);
  }
  // A replayed call whose answer the same input gives again is no failure of the link.
  assert.deepEqual(["syntax", "depth", "guard", "args", "internal", "js", "no such kind"].map((error) => failedToRun({ error })), [false, false, true, true, true, true, true]);
  assert.ok(!failedToRun({ type: "int", value: "1" }));
  assert.ok(!failedToRun(null));
  assert.ok(Object.isFrozen(ERROR_KINDS));
});
