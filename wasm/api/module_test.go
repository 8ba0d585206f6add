package api

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

// serve runs one request through Module.Serve, as the bridge sends it,
// and returns the result as the JS caller gets it.
func serve(t *testing.T, m *Module, req string) map[string]any {
	t.Helper()
	return object(t, req, m.Serve(nil, []byte(req)))
}

// TestModuleServesTheJSAPI checks the requests the bridge writes: a method
// of the default keyspace, call and drop, each answered as the JS API
// documents.
func TestModuleServesTheJSAPI(t *testing.T) {
	m := NewModule()
	if got := serve(t, m, `["enqueue",["q","JOB-1","{}"]]`); got["verdict"] != "enqueued" {
		t.Fatalf("enqueue: %v", got)
	}
	if got := serve(t, m, `["claim",["q",30000]]`); got["verdict"] != "leased" || got["id"] != "JOB-1" {
		t.Fatalf("claim: %v", got)
	}
	if got := serve(t, m, `["call",["embed-1","enqueue",["q","JOB-9","{}"]]]`); got["verdict"] != "enqueued" {
		t.Fatalf("call: %v", got)
	}
	if got := serve(t, m, `["drop",["embed-1"]]`); got["dropped"] != true {
		t.Fatalf("drop: %v", got)
	}
	var hello struct {
		Version string
		Methods []string
		Failed  *string
	}
	if err := json.Unmarshal(m.Hello(), &hello); err != nil || !strings.Contains(hello.Version, "Redis") || hello.Failed != nil {
		t.Fatalf("Hello = %s (%v)", m.Hello(), err)
	}
	if want := append(slices.Clone(Methods), keyspaceMethods...); !slices.Equal(hello.Methods, want) {
		t.Errorf("Hello names %q; want Methods, then call and drop: %q", hello.Methods, want)
	}
}

// TestModuleReadsWhatJSONCannotCarry checks the wire form of fromWire: a
// caller's undefined, function, symbol, bigint or NaN still gets the
// error that names it, and a caller's object that looks like a wrapper is
// still an object.
func TestModuleReadsWhatJSONCannotCarry(t *testing.T) {
	m := NewModule()
	for _, tc := range []struct{ req, want string }{
		{`["claim",["q",{"f":"undefined"}]]`, "leaseMs must be a number or a string, got undefined"},
		{`["claim",["q",{"f":"function"}]]`, "got function"},
		{`["exec",[[{"f":"symbol"}]]]`, "args[0] must be a string, got symbol"},
		{`["snapshot",[{"f":"a bigint"}]]`, "queue must be a string, got a bigint"},
		{`["claim",["q",{"n":"NaN"}]]`, "leaseMs must be a finite number of milliseconds, got NaN"},
		{`["advance",[{"n":"Infinity"}]]`, "got +Inf"},
		{`["changed",[{"o":{"k":{"n":"-Infinity"}}}]]`, `stamps["k"] must be a string, got a number`},
		{`["changed",[{"o":{"k":{"o":{"f":"x"}}}}]]`, `stamps["k"] must be a string, got an object`},
		{`["changed",[{"o":{"k":{"f":"a value nested more than 32 levels deep"}}}]]`, `got a value nested more than 32 levels deep`},
		{`["enqueue",[{"o":{}},"JOB-1","{}"]]`, "queue must be a string, got an object"},
	} {
		got := serve(t, m, tc.req)
		if got["error"] != "args" || !strings.Contains(got["message"].(string), tc.want) {
			t.Errorf("%s: got %v, want {error: args} with %q", tc.req, got, tc.want)
		}
	}
	// {"o": ...} is how every object comes: a stamps object is read as one.
	if got := serve(t, m, `["changed",[{"o":{"k":"0-0"}}]]`); got["error"] != nil {
		t.Errorf("changed with a stamps object: %v", got)
	}
}

// TestModuleRefusesWhatItCannotRead checks that a broken request, or a
// call to an engine that refused to start, is {error:"internal"} and never
// a panic that would end the Go program.
func TestModuleRefusesWhatItCannotRead(t *testing.T) {
	m := NewModule()
	for _, req := range []string{``, `{}`, `["now"]`, `[1,[]]`, `["now",{}]`, `["now",[`} {
		if got := serve(t, m, req); got["error"] != "internal" {
			t.Errorf("%q: got %v, want {error: internal}", req, got)
		}
	}
	if got := serve(t, m, `["now",[]]`); got["now"] == nil {
		t.Errorf("after the broken requests, now: %v", got)
	}

	defer func(orig func() error) { engineReady = orig }(engineReady)
	engineReady = func() error { return errors.New("no hook") }
	refused := NewModule()
	var hello map[string]any
	if err := json.Unmarshal(refused.Hello(), &hello); err != nil || hello["methods"] != nil ||
		!strings.Contains(hello["failed"].(string), "the engine refuses to start: no hook") {
		t.Fatalf("Hello of a refused engine = %s; want failed with the reason and no methods", refused.Hello())
	}
	if got := serve(t, refused, `["now",[]]`); got["error"] != "internal" {
		t.Errorf("a call to a refused engine: %v", got)
	}
}
