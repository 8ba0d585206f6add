package api

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
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
