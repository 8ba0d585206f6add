package api

import (
	"encoding/json"
	"strings"
	"testing"
)

// call runs a method and returns its result as the JS caller sees it:
// the JSON object, decoded.
func call(t *testing.T, p *Playground, method string, args ...any) map[string]any {
	t.Helper()
	out, err := json.Marshal(p.Call(method, args))
	if err != nil {
		t.Fatalf("%s: result does not marshal: %v", method, err)
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("%s: result is not an object: %s", method, out)
	}
	return m
}

func TestWrongArgumentsAreArgsErrors(t *testing.T) {
	p := New()
	for _, tc := range []struct {
		desc   string
		method string
		args   []any
		want   string // part of the message
	}{
		{"missing payload", "enqueue", []any{"q", "JOB-1"}, "enqueue(queue, id, payload) takes 3 arguments, got 2"},
		{"id not a string", "enqueue", []any{"q", 7.0, "{}"}, "id must be a string, got a number"},
		{"payload an object", "enqueue", []any{"q", "JOB-1", map[string]any{}}, "payload must be a string, got an object"},
		{"lease null", "claim", []any{"q", nil}, "leaseMs must be a number or a string, got null"},
		{"lease undefined", "claim", []any{"q", Foreign("undefined")}, "got undefined"},
		{"exec not an array", "exec", []any{"PING"}, "args must be an array of strings, got a string"},
		{"exec a number inside", "exec", []any{[]any{"SET", "k", 1.0}}, "args[2] must be a string, got a number"},
		{"exec empty", "exec", []any{[]any{}}, "empty array"},
		{"setNow fraction", "setNow", []any{1.5}, "whole number"},
		{"advance backwards", "advance", []any{-1.0}, "whole number"},
		{"no such method", "drop", nil, `no method "drop"`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got := call(t, p, tc.method, tc.args...)
			if got["error"] != "args" || !strings.Contains(got["message"].(string), tc.want) {
				t.Errorf("got %v, want {error: args} with %q", got, tc.want)
			}
		})
	}
}

func TestAPanicBecomesAnInternalError(t *testing.T) {
	broken := &Playground{} // no engine: every use of it panics
	got := call(t, broken, "now")
	if got["error"] != "internal" || !strings.HasPrefix(got["message"].(string), "now: ") {
		t.Fatalf("got %v", got)
	}
}

func TestLeaseNumbersAreWrittenInPlainDigits(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want string
	}{
		{30000.0, "30000"},
		{1e21, "1000000000000000000000"},
		{1.5, "1.5"},
		{"1e3", "1e3"},
	} {
		got, err := leaseArg(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("leaseArg(%v) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestRoundTripThroughTheAPI(t *testing.T) {
	p := New()
	if got := call(t, p, "enqueue", "q", "JOB-1", "{}"); got["verdict"] != "enqueued" {
		t.Fatalf("enqueue: %v", got)
	}
	got := call(t, p, "claim", "q", 30000.0)
	if got["verdict"] != "leased" || got["id"] != "JOB-1" || got["attempts"] != 1.0 {
		t.Fatalf("claim: %v", got)
	}
	snap := call(t, p, "snapshot", "q")
	active := snap["active"].([]any)
	if len(active) != 1 || active[0].(map[string]any)["deadline"] != float64(1767225630000) {
		t.Fatalf("snapshot: %v", snap)
	}
}

func TestBinaryBulkCarriesItsBytes(t *testing.T) {
	got := call(t, New(), "exec", []any{"EVAL", "return string.char(255, 0, 65)", "0"})
	if got["type"] != "bulk" || got["base64"] != "/wBB" {
		t.Fatalf("got %v", got)
	}
}
