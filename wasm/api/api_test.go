package api

import (
	"echomq.dev/playground/lua"
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
	return object(t, method, out)
}

// object is the JSON object text out of a call, decoded.
func object(t *testing.T, what string, out []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("%s: result is not an object: %s", what, out)
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
		{"queue not a string", "enqueue", []any{7.0, "JOB-1", "{}"}, "queue must be a string, got a number"},
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
	broken := New()
	broken.jobs = nil // no handles: every use of them panics
	got := call(t, broken, "enqueue", "q", "JOB-1", "{}")
	if got["error"] != "internal" || !strings.HasPrefix(got["message"].(string), "enqueue: ") {
		t.Fatalf("got %v", got)
	}
}

// TestHandleGuardsRefuseBeforeTheWire: claim/3's guard (is_integer and >
// 0) and enqueue/4's (is_binary) refuse as the Elixir handle does, with a
// FunctionClauseError and no command sent: the keyspace and the script
// cache are exactly as before.
func TestHandleGuardsRefuseBeforeTheWire(t *testing.T) {
	for _, tc := range []struct {
		desc   string
		method string
		args   []any
		fn     string
	}{
		{"lease text", "claim", []any{"q", "abc"}, "EchoMQ.Jobs.claim/3"},
		{"lease zero", "claim", []any{"q", "0"}, "EchoMQ.Jobs.claim/3"},
		{"lease negative text", "claim", []any{"q", "-5"}, "EchoMQ.Jobs.claim/3"},
		{"lease negative number", "claim", []any{"q", -5.0}, "EchoMQ.Jobs.claim/3"},
		{"lease a fraction", "claim", []any{"q", 1.5}, "EchoMQ.Jobs.claim/3"},
		{"lease in e-notation", "claim", []any{"q", "1e3"}, "EchoMQ.Jobs.claim/3"},
		{"lease with a plus", "claim", []any{"q", "+5"}, "EchoMQ.Jobs.claim/3"},
		{"lease empty", "claim", []any{"q", ""}, "EchoMQ.Jobs.claim/3"},
		{"lease a lone minus", "claim", []any{"q", "-"}, "EchoMQ.Jobs.claim/3"},
		{"lease with a space", "claim", []any{"q", "5 "}, "EchoMQ.Jobs.claim/3"},
		{"id not a binary", "enqueue", []any{"q", 7.0, "{}"}, "EchoMQ.Jobs.enqueue/4"},
		{"payload not a binary", "enqueue", []any{"q", "JOB-1", map[string]any{}}, "EchoMQ.Jobs.enqueue/4"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			p := New()
			if got := call(t, p, "enqueue", "q", "JOB-0", "{}"); got["verdict"] != "enqueued" {
				t.Fatalf("enqueue: %v", got)
			}
			got := call(t, p, tc.method, tc.args...)
			want := "** (FunctionClauseError) no function clause matching in " + tc.fn
			if got["error"] != "guard" || got["message"] != want || got["function"] != tc.fn {
				t.Errorf("got %v, want {error: guard, message: %q}", got, want)
			}
			if _, ok := got["wire"]; ok {
				t.Errorf("a refused call carries a wire %v: something was sent", got["wire"])
			}
			// JOB-0 is still pending, and @claim was never loaded.
			if snap := call(t, p, "snapshot", "q"); len(snap["pending"].([]any)) != 1 || len(snap["active"].([]any)) != 0 {
				t.Errorf("the keyspace changed: %v", snap)
			}
			if r := call(t, p, "cli", "SCRIPT EXISTS "+lua.Claim().SHA); r["text"] != "1) (integer) 0" {
				t.Errorf("SCRIPT EXISTS of @claim = %v: the script reached the server", r["text"])
			}
		})
	}
}

// TestLeasesThatPassTheGuard: a positive integer, as a number or as typed
// digits, claims; one past int64 passes the guard (an Elixir integer is
// unbounded) and meets @claim's own check, as its digits.
func TestLeasesThatPassTheGuard(t *testing.T) {
	for _, tc := range []struct {
		in   any
		want lease
	}{
		{30000.0, lease{ms: 30000}},
		{"30000", lease{ms: 30000}},
		{"05", lease{ms: 5}},
		{"99999999999999999999", lease{text: "99999999999999999999"}},
		{1e21, lease{text: "1000000000000000000000"}},
	} {
		got, err := leaseArg(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("leaseArg(%v) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	p := New()
	call(t, p, "enqueue", "q", "JOB-1", "{}")
	got := call(t, p, "claim", "q", "99999999999999999999")
	if got["error"] != "lease" || !strings.HasPrefix(got["message"].(string), "EMQLEASE") {
		t.Errorf("a huge lease: got %v, want @claim's EMQLEASE", got)
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
