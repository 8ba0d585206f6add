package page

import (
	"encoding/json"
	"net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFormatting runs the module's pure helpers (format.js, keyspace.js)
// under Node: what the learner reads as a reply, a verdict or a time.
// Without node it is skipped (nodeOrSkip).
func TestFormatting(t *testing.T) {
	node := nodeOrSkip(t)
	tests := []struct {
		desc string
		expr string // a JS expression over the imported helpers
		want string
	}{
		{"plain argument", `formatArg("emq:{q}:job:JOB-1")`, `emq:{q}:job:JOB-1`},
		{"quoted argument", `formatArg('{"task":"x"}')`, `"{\"task\":\"x\"}"`},
		{"empty argument", `formatArg("")`, `""`},
		{"argument with a space", `formatArg("a b")`, `"a b"`},
		{"control byte", `formatArg("a\u0001")`, `"a\x01"`},
		{"command", `formatCommand(["ZADD", "emq:{q}:pending", "0", "JOB-1"])`, `ZADD emq:{q}:pending 0 JOB-1`},
		{"integer reply", `formatReply({type: "int", value: "1"})`, `(integer) 1`},
		{"error reply", `formatReply({type: "error", value: "EMQKIND x"})`, `(error) EMQKIND x`},
		{"nil reply", `formatReply({type: "nil", value: null})`, `(nil)`},
		{"empty array", `formatReply({type: "array", value: []})`, `(empty array)`},
		{
			"array reply", `formatReply({type: "array", value: [{type: "bulk", value: "JOB-1"}, {type: "int", value: "1"}]})`,
			"1) \"JOB-1\"\n2) (integer) 1",
		},
		{"spoken array", `speakReply({type: "array", value: [{type: "bulk", value: "a"}, {type: "int", value: "2"}]})`, `["a", 2]`},
		{
			"nested arrays", `formatReply({type: "array", value: [{type: "int", value: "1"}, {type: "array", value: [{type: "int", value: "2"}, {type: "array", value: [{type: "bulk", value: "a"}]}]}, {type: "array", value: []}]})`,
			"1) (integer) 1\n2) 1) (integer) 2\n   2) 1) \"a\"\n3) (empty array)",
		},
		{"spoken nested arrays", `speakReply({type: "array", value: [{type: "array", value: [{type: "int", value: "2"}, {type: "array", value: []}]}, {type: "nil"}]})`, `[[2, an empty array], nil]`},
		// Deeper than any reply the engine hands over: the helpers keep
		// their own stack, so depth alone cannot make them throw.
		{"10,000 arrays deep", `(() => { let r = {type: "array", value: []}; for (let i = 0; i < 10000; i++) r = {type: "array", value: [r]}; return formatReply(r).length + " " + speakReply(r).length })()`, "30013 20014"},
		{"elixir string", `exString('say "#{hi}"\n')`, `"say \"\#{hi}\"\n"`},
		{"enqueued", `enqueueVerdict({verdict: "enqueued"})`, `{:ok, :enqueued}`},
		{"duplicate", `enqueueVerdict({verdict: "duplicate"})`, `{:ok, :duplicate}`},
		{"kind", `enqueueVerdict({error: "kind", message: "EMQKIND x"})`, `{:error, :kind}`},
		{"server error", `enqueueVerdict({error: "server", message: "ERR x"})`, `{:error, {:server, "ERR x"}}`},
		{"leased", `claimVerdict({verdict: "leased", id: "JOB-1", payload: "{\"a\":1}", attempts: 2})`, `{:ok, {"JOB-1", "{\"a\":1}", 2}}`},
		{"empty", `claimVerdict({verdict: "empty"})`, `:empty`},
		{"lease error", `claimVerdict({error: "lease", message: "EMQLEASE x"})`, `{:error, {:server, "EMQLEASE x"}}`},
		{"utc", `utc(1767225600000)`, `2026-01-01 00:00:00.000 UTC`},
		{"in the future", `relative(1767225630000, 1767225600000)`, `in 30 s`},
		{"expired", `relative(1767225597000, 1767225600000)`, `expired 3 s ago`},
		{"now", `relative(5, 5)`, `expires now`},
		{"milliseconds", `duration(250)`, `250 ms`},
		{"minutes", `duration(125000)`, `2 min 5 s`},
		{"hours", `duration(3 * 3600000 + 60000)`, `3 h 1 min`},
		{"days", `duration(49 * 3600000)`, `2 d 1 h`},
		{"digits are a number", `typeof numberOrText(" 30000 ")`, `number`},
		{"other text stays text", `numberOrText("3e4")`, `3e4`},
		{"whole ms", `wholeMs(" 31000 ")`, `31000`},
		{"zero ms", `wholeMs("0")`, `0`},
		{"negative ms", `String(wholeMs("-5"))`, `null`},
		{"fractional ms", `String(wholeMs("1.5"))`, `null`},
		{"exponent ms", `String(wholeMs("3e4"))`, `null`},
		{"words for ms", `String(wholeMs("soon"))`, `null`},
		{"no ms", `String(wholeMs(""))`, `null`},
		{"too many ms to be exact", `String(wholeMs("9007199254740993"))`, `null`},
		{"fresh id", `freshId({rows: [{id: "JOB-2"}, {id: "x"}], pending: [{id: "JOB-9"}], active: []})`, `JOB-000010`},
		{"fresh id, empty", `freshId({rows: [], pending: [], active: []})`, `JOB-000001`},
		{"duplicate id", `duplicateId({rows: [{id: "JOB-10"}, {id: "JOB-9"}, {id: "zz"}]})`, `JOB-10`},
		{"no duplicate", `String(duplicateId({rows: []}))`, `null`},
		{"malformed id", `malformedId({rows: [{id: "JOB-3"}], pending: [], active: []})`, `job-000004`},
		{
			"row fields in write order", `viewFromEntries([{key: "emq:{q}:job:J", type: "hash", fields: [{field: "attempts", value: "0"}, {field: "payload", value: "p"}, {field: "state", value: "pending"}]}], keysOf("q"), "J").row.map((f) => f.field).join(",")`,
			`state,attempts,payload`,
		},
		{
			"marks", `JSON.stringify([...viewMarks({pending: [], row: null}, {pending: [{member: "J", score: "0"}], row: [{field: "state", value: "x"}]}).row])`,
			`[["state","new"]]`,
		},
		{"lua tokens", `JSON.stringify(tokenizeLua("if x == 'a--b' then -- c"))`, `[["kw","if"],[""," x == "],["str","'a--b'"],[""," "],["kw","then"],[""," "],["com","-- c"]]`},
	}
	dir, err := filepath.Abs(assetsDir)
	if err != nil {
		t.Fatal(err)
	}
	fileURL := func(name string) string {
		return (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(dir, name))}).String()
	}
	var exprs []string
	for _, tc := range tests {
		exprs = append(exprs, "() => "+tc.expr)
	}
	script := `import * as f from "` + fileURL("format.js") + `";
import * as k from "` + fileURL("keyspace.js") + `";
import * as c from "` + fileURL("code.js") + `";
Object.assign(globalThis, f, k, c);
const out = [` + strings.Join(exprs, ",\n") + `].map((fn) => { try { return String(fn()); } catch (e) { return "THROWS " + e.message; } });
process.stdout.write(JSON.stringify(out));`
	cmd := exec.Command(node, "--input-type=module", "-e", script)
	raw, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("node: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	var got []string
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("node printed %q: %v", raw, err)
	}
	for i, tc := range tests {
		if got[i] != tc.want {
			t.Errorf("%s: %s = %q, want %q", tc.desc, tc.expr, got[i], tc.want)
		}
	}
}
