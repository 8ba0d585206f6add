// The embed options a course author puts in the iframe's URL.
import test from "node:test";
import assert from "node:assert/strict";
import { readOptions, optionsQuery, DEFAULTS, leaseOf } from "../options.js";

test("no options give the defaults", () => {
  assert.deepEqual(readOptions(""), { options: { ...DEFAULTS, ids: [] }, problems: [] });
});

test("good options are taken", () => {
  const { options, problems } = readOptions("?queue=emails&ids=JOB-1,%20JOB-2,,&lease=5000&theme=dark&heading=hide&keyspace=dive-1&budget=25000000");
  assert.deepEqual(problems, []);
  assert.deepEqual(options, { queue: "emails", ids: ["JOB-1", "JOB-2"], lease: "5000", theme: "dark", heading: "hide", keyspace: "dive-1", budget: "25000000" });
});

test("each bad option is dropped with its own reason; the good ones stay", () => {
  const { options, problems } = readOptions("?queue=a%7Bb%7D&ids=JOB-1&lease=1e3&theme=pink&heading=none&budget=1e9");
  assert.deepEqual(options, { queue: "q", ids: ["JOB-1"], lease: null, theme: "auto", heading: "show", keyspace: null, budget: null });
  assert.equal(problems.length, 5);
  assert.match(problems[0], /queue was ignored: .*\{ or \}/);
  assert.match(problems[1], /lease was ignored: .*whole number/);
  assert.match(problems[2], /theme was ignored/);
  assert.match(problems[3], /heading was ignored: the heading is show or hide/);
  assert.match(problems[4], /budget was ignored: .*whole number of units/);
});

test("limits: long queues, many or long ids, empty and zero values", () => {
  const many = Array.from({ length: 21 }, (_, i) => `JOB-${i}`).join(",");
  for (const [search, name] of [
    [`?queue=${"x".repeat(65)}`, "queue"],
    ["?queue=", "queue"],
    ["?queue=a%20b", "queue"],
    [`?ids=${many}`, "ids"],
    [`?ids=JOB-${"9".repeat(70)}`, "ids"],
    ["?lease=0", "lease"],
    ["?lease=-5", "lease"],
    [`?lease=${"9".repeat(16)}`, "lease"],
    ["?keyspace=", "keyspace"],
    ["?keyspace=a%20b", "keyspace"],
    [`?keyspace=${"k".repeat(65)}`, "keyspace"],
    ["?budget=0", "budget"],
    ["?budget=-1", "budget"],
    [`?budget=${"9".repeat(20)}`, "budget"],
  ]) {
    const { problems } = readOptions(search);
    assert.equal(problems.length, 1, search);
    assert.match(problems[0], new RegExp(`option ${name} was ignored`), search);
  }
});

test("a widget's lease: the address's, else the one its markup was rendered with, else 30 s", () => {
  const root = (lease) => ({ dataset: lease === undefined ? {} : { lease } });
  const withLease = readOptions("?lease=5000").options;
  const without = readOptions("").options;
  assert.equal(leaseOf(root("12000"), withLease), "5000");
  assert.equal(leaseOf(root("12000"), without), "12000");
  assert.equal(leaseOf(root(undefined), without), "30000");
  // Markup that names a lease Redis's claim would refuse falls back too.
  assert.equal(leaseOf(root("1e3"), without), "30000");
  assert.equal(leaseOf(root("12000")), "12000");
});

test("optionsQuery gives an embed the options back, defaults left out", () => {
  for (const search of ["", "?queue=emails&ids=JOB-1,JOB-2&lease=5000&theme=dark&keyspace=dive-1", "?theme=light", "?heading=hide", "?heading=show", "?queue=a%2Bb"]) {
    const { options } = readOptions(search);
    const { options: again, problems } = readOptions(optionsQuery(options));
    assert.deepEqual(problems, []);
    assert.deepEqual(again, options, search);
  }
  assert.equal(optionsQuery(readOptions("?lease=abc&theme=dark").options), "?theme=dark");
  assert.equal(optionsQuery(readOptions("?heading=hide").options), "?heading=hide");
  assert.equal(optionsQuery(readOptions("?heading=show").options), "", "show is the default");
});

test("the custom element's attributes are named as attributes", () => {
  const { problems } = readOptions("?lease=abc", "attribute");
  assert.match(problems[0], /^The attribute lease was ignored: /);
  const embed = readOptions("?lease=abc&ids=" + "JOB-1,".repeat(21), "embed").problems;
  assert.match(embed[0], /^This widget's ids setting could not be used \(at most 20 ids can be enqueued at start\), so the widget starts with its default ids instead\.$/);
  assert.match(embed[1], /^This widget's lease setting could not be used /);
  for (const p of embed) assert.doesNotMatch(p, /address/);
});
