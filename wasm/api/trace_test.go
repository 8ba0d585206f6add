package api

import (
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	"echomq.dev/playground/lua"
)

// TestTraceOfEnqueueCarriesWhatTheStepperShows: the keyspace before, the
// moves, the stamps of the keys it shows, and the handle's verdict, so the
// page rebuilds none of them.
func TestTraceOfEnqueueCarriesWhatTheStepperShows(t *testing.T) {
	p := New()
	call(t, p, "enqueue", "q", "JOB-1", "{}")
	keys := []any{"emq:{q}:job:JOB-2", "emq:{q}:pending"}
	got := call(t, p, "trace", "enqueue", keys, []any{"JOB-2", "{}"})
	if !reflect.DeepEqual(got["keys"], keys) {
		t.Errorf("keys %v", got["keys"])
	}
	before := got["before"].([]any)
	if len(before) != 1 || before[0].(map[string]any)["key"] != "emq:{q}:pending" || before[0].(map[string]any)["count"] != 1.0 {
		t.Errorf("before %v", before)
	}
	moves := got["moves"].([]any)
	if len(moves) != 4 || moves[0].(map[string]any)["name"] != "gate" || moves[0].(map[string]any)["first"] != float64(lua.Enqueue().Moves[0].First) {
		t.Errorf("moves %v", moves)
	}
	if got["problem"] != nil {
		t.Errorf("problem %v", got["problem"])
	}
	if v := got["verdict"].(map[string]any); v["verdict"] != "enqueued" {
		t.Errorf("verdict %v", v)
	}
	stamps := got["stamps"].(map[string]any)
	if len(stamps) != 2 {
		t.Fatalf("stamps %v", stamps)
	}
	if c := call(t, p, "changed", stamps); len(c["changed"].([]any)) != 0 {
		t.Errorf("nothing written, changed %v", c)
	}
	call(t, p, "cli", "PING")
	call(t, p, "enqueue", "race", "JOB-1", "{}")
	if c := call(t, p, "changed", stamps); len(c["changed"].([]any)) != 0 {
		t.Errorf("other keys written, changed %v", c)
	}
	call(t, p, "enqueue", "q", "JOB-3", "{}")
	if c := call(t, p, "changed", stamps); !reflect.DeepEqual(c["changed"], []any{"emq:{q}:pending"}) {
		t.Errorf("pending written, changed %v", c)
	}

	// A refused id: the handle's {:error, :kind}, and no problem (the
	// script returned its error).
	got = call(t, p, "trace", "enqueue", []any{"emq:{q}:job:job-9", "emq:{q}:pending"}, []any{"job-9", "{}"})
	if v := got["verdict"].(map[string]any); v["error"] != "kind" || got["problem"] != nil {
		t.Errorf("verdict %v problem %v", v, got["problem"])
	}
	// An error raised on a line: {kind, code, message, line}.
	got = call(t, p, "trace", "\nreturn redis.call('INCR', KEYS[1])", []any{"emq:{q}:pending"}, nil)
	pr := got["problem"].(map[string]any)
	if pr["kind"] != "runtime" || pr["code"] != "WRONGTYPE" || pr["line"] != 2.0 || got["verdict"] != nil {
		t.Errorf("problem %v verdict %v", pr, got["verdict"])
	}
	// The editor draws the KEYS it will run with from the same entries.
	e := call(t, p, "entries", []any{"emq:{q}:pending", "nothing"})["entries"].([]any)
	if len(e) != 1 || e[0].(map[string]any)["count"] != 3.0 {
		t.Errorf("entries %v", e)
	}
	if got := call(t, p, "changed", "x"); got["error"] != "args" {
		t.Errorf("changed(\"x\") = %v", got)
	}
}

// TestTraceAtDepthIsBounded: at 10,000 jobs a traced enqueue's answer
// holds the two keys it touches, bounded, not the whole keyspace.
func TestTraceAtDepthIsBounded(t *testing.T) {
	p := New()
	for range 10 {
		call(t, p, "enqueueMany", "q", 1000.0, "{}")
	}
	out := p.Call("trace", []any{"enqueue", []any{"emq:{q}:job:JOB-10001", "emq:{q}:pending"}, []any{"JOB-10001", "{}"}})
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	// Four steps of two keys, each of at most 50 members: a few kilobytes
	// whatever the depth (it was 8 MB here).
	if len(b) > 64<<10 {
		t.Errorf("the trace is %d bytes of JSON", len(b))
	}
}

// go test ./wasm/api -run '^$' -bench TraceAtDepth
func BenchmarkTraceAtDepth(b *testing.B) {
	p := New()
	for range 10 {
		p.Call("enqueueMany", []any{"q", 1000.0, "{}"})
	}
	var n, i int
	for b.Loop() {
		// A fresh id each time: all four moves, as the stepper's fresh preset.
		i++
		id := "JOB-" + strconv.Itoa(20000+i)
		out, _ := json.Marshal(p.Call("trace", []any{"enqueue", []any{"emq:{q}:job:" + id, "emq:{q}:pending"}, []any{id, "{}"}}))
		n = len(out)
	}
	b.ReportMetric(float64(n), "json-bytes")
}

// TestTraceOfNoKeysAnswersArrays checks the shape the contract gives a
// trace that touches no key: keys is an empty array, not null (the
// hostile callers' test found null).
func TestTraceOfNoKeysAnswersArrays(t *testing.T) {
	m := NewModule()
	for _, req := range []string{`["trace",[" "]]`, `["trace",["return 1",[],[]]]`} {
		got := serve(t, m, req)
		for _, field := range []string{"keys", "before", "steps", "moves"} {
			if _, ok := got[field].([]any); !ok {
				t.Errorf("%s: %s is %#v, want an array", req, field, got[field])
			}
		}
	}
}
