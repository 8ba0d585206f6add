package api

import (
	"encoding/json"
	"fmt"
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

// TestRequestReaderReadsWhatReadRequestReads checks the module's reader of
// requests, with what it keeps from one request to the next, against
// readRequest, which decodes each text afresh: the same method, the same
// arguments (a number's sign included) and the same error, request after
// request, whichever values follow which at each position.
func TestRequestReaderReadsWhatReadRequestReads(t *testing.T) {
	reqs := []string{
		`["enqueue",["q","JOB-1","{}"]]`,
		`["enqueue",["q","JOB-2","{}"]]`,
		`["claim",["q",30000]]`,
		`["claim",["q",30000]]`,
		`["claim",["q","30000"]]`,
		`["claim",["q",30000.5]]`,
		`["claim",["q",-0]]`,
		`["claim",["q",0]]`,
		`["claim",["q",""]]`,
		`["claim",["q",0]]`,
		`["claim",["q",1e3]]`,
		`["claim",["q",1000]]`,
		`["claim",["q",{"n":"NaN"}]]`,
		`["claim",["q",{"f":"undefined"}]]`,
		`["claim",["q",null]]`,
		`["claim",["q",true]]`,
		`["claim",[30000,"q"]]`,
		` [ "enqueue" , [ "q" , "JOB-\u00e9" , "caf\u00e9 \"x\" \\ <&>" ] ] `,
		` [ "enqueue" , [ "q" , "JOB-\u00e9" , "caf\u00e9 \"x\" \\ <&>" ] ] `,
		`["enqueue",["q","JOB-\u00e9","caf\u00e9 \"x\" \\ <&"]]`,
		`["enqueue",["q","JOB-é","payload\twith a tab"]]`,
		`["enqueue",["q","JOB-3","` + string(make([]byte, 2000)) + `"]]`,
		`["enqueue",["q\u0000","JOB-3","{}"]]`,
		`["enqueue",["q","JOB-3","{}","more","and more",7]]`,
		`["exec",[["SET","k","v"],"worker-1"]]`,
		`["exec",[["SET","k","v"],"worker-1"]]`,
		`["changed",[{"o":{"k":"0-0"}}]]`,
		`["call",["embed","claim",["q",30000]]]`,
		`["now",[]]`,
		`["now",[ ]]`,
		`["no\u0077",[]]`,
		`["nothing",[]]`,
		`["now\\",[]]`,
		`["now",[]] x`,
		`["now",[],1]`,
		`["now",[1,]]`,
		`["now",[1 2]]`,
		`["now",[`,
		`["now"`,
		`["`,
		`[`,
		``,
		`{}`,
		`[1,[]]`,
		`["now",{}]`,
		`["claim",["q",01]]`,
		`["claim",["q",1e999]]`,
		`["claim",["q","unterminated]]`,
	}
	var r requestReader
	for round := range 2 {
		for _, req := range reqs {
			method, args, err := r.read([]byte(req))
			wantMethod, wantArgs, wantErr := readRequest([]byte(req))
			if fmt.Sprint(err) != fmt.Sprint(wantErr) || method != wantMethod || !sameArgs(args, wantArgs) {
				t.Errorf("round %d, %q:\n got %q %#v %v\nwant %q %#v %v", round, req, method, args, err, wantMethod, wantArgs, wantErr)
			}
			r.done()
		}
	}
}

// sameArgs is reflect.DeepEqual, with numbers compared by their bits: a
// zero's sign told apart, and NaN the same as NaN.
func sameArgs(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		fa, okA := a[i].(float64)
		fb, okB := b[i].(float64)
		if okA != okB || okA && math.Float64bits(fa) != math.Float64bits(fb) {
			return false
		}
		if !okA && !reflect.DeepEqual(a[i], b[i]) {
			return false
		}
	}
	return true
}
