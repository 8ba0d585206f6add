package api

import (
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestDecodeJSONReadsWhatEncodingJSONReads checks the bridge's decoder
// against encoding/json on the texts JSON.stringify writes and on broken
// ones: the same values, and an error wherever encoding/json has one. A
// call's arguments are read by it, so a string it got wrong would reach
// the keyspace wrong.
func TestDecodeJSONReadsWhatEncodingJSONReads(t *testing.T) {
	texts := []string{
		`["enqueue",["q","JOB-1","{\"to\":\"a@b\"}"]]`,
		`["claim",["q",30000]]`, `[1.5,-0,0,-12e3,1E-7,123456789012345678901234567890]`,
		`[null,true,false,[],{},[[[]]]]`, ` { "a" : [ 1 , "x" ] , "b":{"o":{}} } `,
		`"\u00e9\u2028 tab\t quote\" slash\/ back\\ \b\f\n\r"`,
		`"\ud83d\ude00 pair"`, `"\ud83d lone high"`, `"\ude00 lone low"`, `"\ud83d\u0041 high then A"`,
		`"héllo ✓ 😀"`, "\"bad \xff byte\"", `"\uD83D\uDE00 upper hex"`,
		`{"dup":1,"dup":2}`,
		// broken
		``, `[`, `[1,]`, `[1 2]`, `{"a" 1}`, `{1:2}`, `"open`, `"\x"`, `"\u12"`, "\"ctl \x01\"",
		`01`, `1.`, `.5`, `-`, `1e`, `+1`, `nul`, `truex`, `[1]x`, `1e400`, `NaN`, `Infinity`,
	}
	for _, text := range texts {
		var want any
		wantErr := json.Unmarshal([]byte(text), &want)
		got, err := decodeJSON([]byte(text))
		if (err != nil) != (wantErr != nil) {
			t.Errorf("%q: error %v, encoding/json's %v", text, err, wantErr)
			continue
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%q: read %#v, encoding/json reads %#v", text, got, want)
		}
	}
	if _, err := decodeJSON([]byte(strings.Repeat("[", 5000) + strings.Repeat("]", 5000))); err == nil {
		t.Error("5,000 nested arrays were read; want an error past the depth bound")
	}
	if v, _ := decodeJSON([]byte(`-0`)); !math.Signbit(v.(float64)) {
		t.Error("-0 read without its sign")
	}
}
