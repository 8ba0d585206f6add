package api

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The methods of globalThis.echomq are written in three places: the
// methods table, from which Methods (which Module.Hello names for the bridge to publish) and
// Playground.call are made, the EchoMQ interface of wasm/echomq.d.ts that
// documents them, and web/assets/permalink.js, which records and replays
// the ones that can change the keyspace and leaves the others out on
// purpose. These tests read the last two as text and compare each with
// Methods, so that a method added to one of them and not the others fails
// here, not on a learner's page.

// keyspaceMethods are the two methods of EchoMQ that Module.Hello names
// besides Methods: they pick a keyspace, then run one of Methods in it.
var keyspaceMethods = []string{"call", "drop"}

// TestCallRunsEveryMethod checks that the methods table names each method
// once, and that call runs each one: a wrong argument is an args error
// about the method, never "has no method", and a name outside the table
// is one.
func TestCallRunsEveryMethod(t *testing.T) {
	p := New()
	for i, m := range Methods {
		if slices.Contains(Methods[:i], m) {
			t.Errorf("the methods table names %q twice", m)
		}
		out, _ := p.Call(m, []any{struct{}{}, struct{}{}, struct{}{}, struct{}{}}).(Object)
		if msg, _ := out["message"].(string); out["error"] != "args" || !strings.HasPrefix(msg, m+"(") {
			t.Errorf("Methods lists %q, but call answers %v", m, out)
		}
	}
	out, _ := p.Call("snapshots", nil).(Object)
	if msg, _ := out["message"].(string); msg != `echomq has no method "snapshots"` {
		t.Errorf(`call("snapshots") answers %v; want echomq has no method "snapshots"`, out)
	}
}

// TestContractListsEveryMethod compares the methods of echomq.d.ts's EchoMQ
// interface, in order, with Methods and the two keyspace methods.
func TestContractListsEveryMethod(t *testing.T) {
	src, err := os.ReadFile("../echomq.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	body := block(t, string(src), "export interface EchoMQ {\n", "\n}\n")
	var documented []string
	for _, m := range regexp.MustCompile(`(?m)^  (\w+)\(`).FindAllStringSubmatch(body, -1) {
		documented = append(documented, m[1])
	}
	want := append(slices.Clone(Methods), keyspaceMethods...)
	if !slices.Equal(documented, want) {
		wantSameSet(t, "echomq.d.ts's EchoMQ", documented, "Methods, call and drop", want)
		t.Errorf("echomq.d.ts's EchoMQ lists %q; want Methods in the same order, then call and drop: %q", documented, want)
	}
}

// TestPermalinkKnowsEveryMethod compares permalink.js's two lists, the
// methods a link records (METHODS) and the ones it never records (READS),
// plus reset, which empties the journal, with Methods: every method is in
// exactly one.
func TestPermalinkKnowsEveryMethod(t *testing.T) {
	src, err := os.ReadFile("../../web/assets/permalink.js")
	if err != nil {
		t.Fatal(err)
	}
	js := string(src)
	var recorded []string
	for _, m := range regexp.MustCompile(`(?m)^  (\w+): \(a\) =>`).FindAllStringSubmatch(block(t, js, "const METHODS = {\n", "\n};\n"), -1) {
		recorded = append(recorded, m[1])
	}
	reads := block(t, js, "const READS = new Set([", "]);")
	var read []string
	for _, m := range regexp.MustCompile(`"(\w+)"`).FindAllStringSubmatch(reads, -1) {
		read = append(read, m[1])
	}
	if !strings.Contains(js, `if (method === "reset") {`) {
		t.Error(`permalink.js's Journal no longer treats "reset" on its own`)
	}
	for _, m := range recorded {
		if slices.Contains(read, m) {
			t.Errorf("permalink.js both records %q (METHODS) and never records it (READS)", m)
		}
	}
	all := append(append(recorded, read...), "reset")
	wantSameSet(t, "permalink.js's METHODS, READS and reset", all, "Methods", Methods)
}

// block is the text of src between the first start and the end after it.
func block(t *testing.T, src, start, end string) string {
	t.Helper()
	_, after, ok := strings.Cut(src, start)
	if !ok {
		t.Fatalf("no %q", start)
	}
	body, _, ok := strings.Cut(after, end)
	if !ok {
		t.Fatalf("no %q after %q", end, start)
	}
	return body
}

// wantSameSet reports the names one list has and the other lacks.
func wantSameSet(t *testing.T, gotName string, got []string, wantName string, want []string) {
	t.Helper()
	for _, g := range got {
		if !slices.Contains(want, g) {
			t.Errorf("%s has %q, which %s lacks", gotName, g, wantName)
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("%s lacks %q, which %s has", gotName, w, wantName)
		}
	}
}
