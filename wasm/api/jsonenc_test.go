package api

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"echomq.dev/playground/wasm/emq"
	"echomq.dev/playground/wasm/resp"
)

// TestMarshalJSONMeansWhatEncodingJSONMeans: the bridge's encoder and
// encoding/json give texts that JSON.parse reads as the same value, for the
// kinds of values Call returns and for text a learner's keys can hold.
func TestMarshalJSONMeansWhatEncodingJSONMeans(t *testing.T) {
	for _, v := range []any{
		nil, "", "plain", "q\"uote\\ <tag> & \x00\x1f\n\r\t", "b\xff\x00q", "é 队列 \u2028\u2029", true, false,
		0, -7, int64(math.MaxInt64), 1.0, -3.0, 1.5, 1e21, 1e-7, 9007199254740993.0,
		Object{"verdict": "leased", "id": "JOB1", "attempts": int64(2), "wire": []Object{{"command": []string{"EVALSHA", "x"}, "reply": Object{"type": "nil", "value": nil}}}},
		[]any{"a", 1.0, nil, []any{}}, []string(nil), []string{}, []Object{}, Object{},
		struct{ A int }{3},
	} {
		got, err := MarshalJSON(v)
		if err != nil {
			t.Fatalf("%#v: %v", v, err)
		}
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var a, b any
		if err := json.Unmarshal(got, &a); err != nil {
			t.Fatalf("%#v: not JSON: %s (%v)", v, got, err)
		}
		json.Unmarshal(want, &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%#v:\n got %s\nwant %s", v, got, want)
		}
	}
	if _, err := MarshalJSON(math.NaN()); err == nil {
		t.Errorf("NaN was written as JSON")
	}
}

// TestOutcomeIsTheObjectItWas checks the round trip's result, written
// straight as text (outcome), byte for byte against encoding/json's text of
// the same object as a map, for every verdict and the reply kinds a wire
// holds: the page reads the same verdict, job and wire. Field, which Go
// callers read results with, finds each of its values.
func TestOutcomeIsTheObjectItWas(t *testing.T) {
	wire := []emq.Exchange{
		{Command: "EVALSHA", SHA: "abc", Reply: resp.Reply{Kind: resp.Error, Str: "NOSCRIPT No matching script"}},
		{Command: "EVAL", SHA: "abc", Reply: resp.Reply{Kind: resp.Array, Elems: []resp.Reply{{Kind: resp.Bulk, Str: "JOB-<1>"}, {Kind: resp.Int, Int: 2}}}},
	}
	// @claim's reply to a row without a payload field: a nil among bulks,
	// and an id that is not UTF-8 (which carries its bytes as base64).
	leased := resp.Reply{Kind: resp.Array, Elems: []resp.Reply{{Kind: resp.Bulk, Str: "JOB-\xff"}, {Kind: resp.Nil}, {Kind: resp.Int, Int: -9007199254740993}}}
	for _, o := range []emq.Outcome{
		{Verdict: emq.Enqueued, Wire: wire[:1]},
		{Verdict: emq.Duplicate, Wire: []emq.Exchange{{Command: "EVALSHA", SHA: "abc", Reply: resp.Reply{Kind: resp.Int}}}},
		{Verdict: "leased", Job: &emq.Job{ID: "JOB-\u00e9", Payload: "{\"a\":\"<b>\"}", Attempts: 3}, Wire: wire},
		{Verdict: "leased", Job: &emq.Job{ID: "JOB-\xff\u2028", Payload: "", Attempts: -9007199254740993}, Wire: []emq.Exchange{{Command: "EVALSHA", SHA: "abc", Reply: leased}}},
		{Verdict: "empty", Wire: []emq.Exchange{{Command: "EVALSHA", SHA: "abc", Reply: resp.Reply{Kind: resp.Array}}}},
		{Verdict: "empty"},
		{Verdict: "paused"},
		{Verdict: "resumed"},
	} {
		asMap := Object{"verdict": string(o.Verdict)}
		if o.Job != nil {
			asMap["id"], asMap["payload"], asMap["attempts"] = o.Job.ID, o.Job.Payload, o.Job.Attempts
		}
		if o.Wire != nil {
			var list []Object
			for _, x := range o.Wire {
				reply, _ := replyJSON(x.Reply)
				list = append(list, Object{"command": x.Command, "sha": x.SHA, "reply": json.RawMessage(reply)})
			}
			asMap["wire"] = list
		}
		want, _ := json.Marshal(asMap)
		got, err := MarshalJSON(outcomeJSON(o))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s:\n got %s (%v)\nwant %s", o.Verdict, got, err, want)
		}
		for key, want := range asMap {
			if key == "wire" {
				continue
			}
			if got := Field(outcomeJSON(o), key); got != want {
				t.Errorf("Field(%s) of %s = %v, want %v", key, o.Verdict, got, want)
			}
		}
		if got, _ := json.Marshal(Field(outcomeJSON(o), "wire")); o.Wire != nil && string(got) != string(must(json.Marshal(asMap["wire"]))) {
			t.Errorf("Field(wire) of %s = %s", o.Verdict, got)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestARefusalCarriesItsWire checks the error object of a refusal the
// server made after the handle sent its script: the wire is there, in
// the same form as a verdict's.
func TestARefusalCarriesItsWire(t *testing.T) {
	x := emq.Exchange{Command: "EVALSHA", SHA: "abc", Reply: resp.Reply{Kind: resp.Error, Str: "EMQLEASE lease must be 1 to 15 digits"}}
	got, err := MarshalJSON(errorObject(&emq.Refusal{Kind: "lease", Reply: x.Reply, Wire: []emq.Exchange{x}}))
	want := `{"error":"lease","message":"EMQLEASE lease must be 1 to 15 digits","wire":[{"command":"EVALSHA","reply":{"type":"error","value":"EMQLEASE lease must be 1 to 15 digits"},"sha":"abc"}]}`
	if err != nil || string(got) != want {
		t.Errorf("refusal:\n got %s (%v)\nwant %s", got, err, want)
	}
}
