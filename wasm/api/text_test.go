package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// sample is a request of each served method whose arguments are all
// well formed, in the wire form the bridge writes.
var sample = map[string]string{
	"scripts":     `[]`,
	"exec":        `[["SET","k","v"],"worker-A"]`,
	"cli":         `["SET k v"]`,
	"enqueue":     `["q","JOB-1","{}"]`,
	"claim":       `["q",1000]`,
	"enqueueMany": `["q",2,"{}"]`,
	"claimMany":   `["q",1000,2]`,
	"pause":       `["q"]`,
	"resume":      `["q"]`,
	"snapshot":    `["q",25]`,
	"trace":       `["enqueue",["emq:{q}:job:JOB-1","emq:{q}:pending"],["JOB-1","{}"]]`,
	"changed":     `[{"o":{"k":"0-0"}}]`,
	"entries":     `[["k"]]`,
	"now":         `[]`,
	"setNow":      `[1800000000000]`,
	"advance":     `[1]`,
	"reset":       `[]`,
	"call":        `["embed","enqueue",["q","JOB-1","{}"]]`,
	"drop":        `["embed"]`,
	"review":      `[[["cli","SET k v"],["exec",["SET","k","v"]]]]`,
	"replay":      `[["exec",["SET","k","v"]],["a94a8fe5ccb19ba61c4c0873d391e987982fbbd3"]]`,
}

// state is what a call could change, as one text: the keys and values of
// both keyspaces the samples touch, their clocks and script caches.
func state(t *testing.T, m *Module) string {
	t.Helper()
	var b strings.Builder
	for _, ks := range []string{"", "embed"} {
		for _, req := range []string{
			`["exec",[["EVAL","local out = {} for _, k in ipairs(redis.call('KEYS', '*')) do out[#out+1] = k out[#out+1] = redis.call('DUMP', k) end return out","0"]]]`,
			`["now",[]]`,
			`["exec",[["SCRIPT","EXISTS","3ee395c7ac45646cb1899f12935e2c226a23d72c"]]]`,
		} {
			if ks != "" {
				var v []any
				json.Unmarshal([]byte(req), &v)
				args, _ := json.Marshal(v[1])
				req = fmt.Sprintf(`["call",[%q,%q,%s]]`, ks, v[0], args)
			}
			b.Write(m.Serve(nil, []byte(req)))
		}
	}
	return b.String()
}

// badText is each way a string can be refused, as the bridge writes it
// into a request's JSON, and the words of its error.
var badText = []struct {
	desc, json, want string
}{
	{"a lone high surrogate", `"JOB-\ud800"`, `is not valid UTF-16: it has a lone surrogate, \ud800, at index 4`},
	{"a lone low surrogate", `"JOB-\udfff"`, `is not valid UTF-16: it has a lone surrogate, \udfff, at index 4`},
	{"a high surrogate before another character", `"\ud83d\u0041"`, `is not valid UTF-16: it has a lone surrogate, \ud83d, at index 0`},
	{"a pair's halves the wrong way round", `"\ude00\ud83d"`, `is not valid UTF-16: it has a lone surrogate, \ude00, at index 0`},
	{"a lone surrogate after a pair", `"\ud83d\ude00\u00e9\ud800"`, `is not valid UTF-16: it has a lone surrogate, \ud800, at index 3`},
	{"a byte that is not UTF-8 (no JS string has one)", "\"ab\xffc\"", `is not valid UTF-8: byte 0xff at byte 2 is not UTF-8`},
}

// withBad is the arguments args with the string of argument j (or the
// first string inside it) replaced by bad, and what the error calls that
// place: "payload", "args[0]", `stamps["k"]`, or "a key of stamps" when
// key is set and the place is an object's key.
func withBad(t *testing.T, args string, names []string, j int, bad string, key bool) (string, string, bool) {
	t.Helper()
	var list []json.RawMessage
	if err := json.Unmarshal([]byte(args), &list); err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("argument %d", j+1)
	if j < len(names) {
		name = names[j]
	}
	if j == len(list) { // one argument more than the sample has
		list = append(list, json.RawMessage(`"x"`))
	}
	raw := string(list[j])
	switch {
	case strings.HasPrefix(raw, `[`):
		var inner []json.RawMessage
		json.Unmarshal(list[j], &inner)
		inner[0] = json.RawMessage(bad)
		b, _ := json.Marshal(inner)
		raw, name = string(b), name+"[0]"
	case strings.HasPrefix(raw, `{"o":`) && key:
		raw, name = `{"o":{`+bad+`:"0-0"}}`, "a key of "+name
	case strings.HasPrefix(raw, `{"o":`):
		raw, name = `{"o":{"k":`+bad+`}}`, name+`["k"]`
	case key:
		return "", "", false
	default:
		raw = bad
	}
	list[j] = json.RawMessage(raw)
	var b strings.Builder
	b.WriteByte('[')
	for i, a := range list {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(a)
	}
	b.WriteByte(']')
	return b.String(), name, true
}

// TestTextThatIsNotValidIsRefusedWhole checks that a string a JS caller's
// text cannot become (a lone surrogate, which JSON.stringify writes as an
// escape), in any argument of any method, at any depth and as an object's
// key, is refused with an ArgsError that names the argument and says
// why, and that nothing ran: read as U+FFFD, JOB-\ud800 and JOB-\udfff
// were one id, and the second's payload was dropped as a duplicate.
func TestTextThatIsNotValidIsRefusedWhole(t *testing.T) {
	m := NewModule()
	serve(t, m, `["enqueue",["q","JOB-0","{}"]]`)
	serve(t, m, `["call",["embed","enqueue",["q","JOB-0","{}"]]]`)
	before := state(t, m)
	tested := 0
	for _, method := range served {
		args := sample[method]
		if args == "" {
			t.Fatalf("no sample request of %s", method)
		}
		sig, names := signature(method)
		for j := 0; j <= len(names); j++ {
			for _, key := range []bool{false, true} {
				for _, tc := range badText {
					req, name, ok := withBad(t, args, names, j, tc.json, key)
					if !ok {
						continue
					}
					req = fmt.Sprintf(`[%q,%s]`, method, req)
					// Through call, an argument inside args is named as
					// the method called names it.
					wantSig, wantName := sig, name
					if method == "call" && j == 2 {
						wantSig, wantName = "enqueue(queue, id, payload)", "queue"
					}
					want := wantSig + ": " + wantName + " " + tc.want
					got := serve(t, m, req)
					if msg, _ := got["message"].(string); got["error"] != "args" || !strings.HasPrefix(msg, want) || !strings.HasSuffix(msg, "; nothing was run") {
						t.Errorf("%s, %s:\n got %v\nwant {error: args, message: %q...; nothing was run}", req, tc.desc, got, want)
					}
					tested++
				}
			}
		}
	}
	if after := state(t, m); after != before {
		t.Errorf("the refused calls changed the keyspaces:\nbefore %s\n after %s", before, after)
	}
	if tested < 200 {
		t.Errorf("only %d requests tested", tested)
	}
}

// TestLoneSurrogatesNoLongerMergeIds is the finding itself: two ids that
// differ only in a lone surrogate are both refused, and a whole pair
// (an emoji) is an id of its own.
func TestLoneSurrogatesNoLongerMergeIds(t *testing.T) {
	m := NewModule()
	for _, tc := range []struct {
		desc, req, want string
	}{
		{"a lone high surrogate", `["enqueue",["q","JOB-\ud800","first"]]`, "args"},
		{"a lone low surrogate", `["enqueue",["q","JOB-\udfff","second"]]`, "args"},
		{"a whole pair", `["enqueue",["q","JOB-\ud83d\ude00","third"]]`, "enqueued"},
		{"U+FFFD itself", `["enqueue",["q","JOB-\ufffd","fourth"]]`, "enqueued"},
	} {
		got := serve(t, m, tc.req)
		if got["error"] != tc.want && got["verdict"] != tc.want {
			t.Errorf("%s: %v, want %s", tc.desc, got, tc.want)
		}
	}
	got := serve(t, m, `["snapshot",["q"]]`)
	var ids []string
	for _, r := range got["rows"].([]any) {
		ids = append(ids, r.(map[string]any)["id"].(string)+"="+r.(map[string]any)["payload"].(string))
	}
	if want := []string{"JOB-\uFFFD=fourth", "JOB-\U0001F600=third"}; fmt.Sprint(ids) != fmt.Sprint(want) {
		t.Errorf("rows %q, want %q", ids, want)
	}
}

// TestStringsPastTheCapAreRefused checks the string cap, MaxStringBytes,
// anywhere in a call's arguments: at the cap a string runs, one byte past
// it the call is refused with an error that names the cap, and nothing
// ran.
func TestStringsPastTheCapAreRefused(t *testing.T) {
	m := NewModule()
	at := strings.Repeat("x", MaxStringBytes)
	before := state(t, m)
	for _, tc := range []struct{ desc, req, want string }{
		{"enqueue's payload", `["enqueue",["q","JOB-1","` + at + `y"]]`, "enqueue(queue, id, payload): payload is 33554433 bytes in UTF-8, more than the 32 MiB the playground allows a string (Redis allows 512 MB); nothing was run"},
		{"escaped, as JSON.stringify writes a payload of JSON", `["enqueue",["q","JOB-1","\"` + at + `"]]`, "enqueue(queue, id, payload): payload is 33554433 bytes"},
		{"an exec argument", `["exec",[["SET","k","` + at + `y"]]]`, "exec(args, connection): args[2] is 33554433 bytes"},
		{"a key of changed's stamps", `["changed",[{"o":{"` + at + `y":"0-0"}}]]`, "changed(stamps): a key of stamps is 33554433 bytes"},
		{"inside call", `["call",["embed","trace",["return 1",[],["` + at + `y"]]]]`, "trace(script, keys, argv): argv[0] is 33554433 bytes"},
	} {
		got := serve(t, m, tc.req)
		if msg, _ := got["message"].(string); got["error"] != "args" || !strings.HasPrefix(msg, tc.want) {
			t.Errorf("%s: got %.300v\nwant {error: args, message: %q...}", tc.desc, got, tc.want)
		}
	}
	if after := state(t, m); after != before {
		t.Errorf("the refused calls changed the keyspaces:\nbefore %.500s\n after %.500s", before, after)
	}
	if got := serve(t, m, `["exec",[["SET","k","`+at+`"]]]`); got["value"] != "OK" {
		t.Errorf("SET of a string at the cap: %.300v", got)
	}
}

// TestRequestsAndResultsPastTheirCaps checks the module's caps on one
// call: room for a request past MaxRequestBytes is refused (the bridge
// writes nothing) and the call answers an ArgsError naming the cap; a
// result past MaxResultBytes is a SizeError naming its cap, and the
// command ran.
func TestRequestsAndResultsPastTheirCaps(t *testing.T) {
	m := NewModule()
	if b := m.Request(MaxRequestBytes + 1); b != nil {
		t.Fatalf("Request(%d) made room", MaxRequestBytes+1)
	}
	var got map[string]any
	if err := json.Unmarshal(m.Answer(MaxRequestBytes+1), &got); err != nil {
		t.Fatal(err)
	}
	if want := "this call's arguments are 268435457 bytes as JSON, more than the 256 MiB the playground takes in one call (and a string may be at most 32 MiB); nothing was run"; got["error"] != "args" || got["message"] != want {
		t.Errorf("a request past the cap: %v, want {error: args, message: %q}", got, want)
	}
	// The next request is served as ever.
	req := `["exec",[["SET","big","` + strings.Repeat("x", MaxStringBytes) + `"]]]`
	copy(m.Request(len(req)), req)
	if err := json.Unmarshal(m.Answer(len(req)), &got); err != nil || got["value"] != "OK" {
		t.Fatalf("SET after the refused request: %v %v", got, err)
	}
	keys := make([]string, 9)
	for i := range keys {
		keys[i] = "big"
	}
	req = `["exec",[["MGET","` + strings.Join(keys, `","`) + `"]]]`
	copy(m.Request(len(req)), req)
	got = nil
	json.Unmarshal(m.Answer(len(req)), &got)
	if msg, _ := got["message"].(string); got["error"] != "size" || !strings.HasPrefix(msg, "The result is 301990157 bytes of JSON, more than the 256 MiB the playground hands the page in one answer. The command ran") {
		t.Errorf("a result past the cap: %.300v", got)
	}
	if got := serve(t, m, `["exec",[["STRLEN","big"]]]`); got["value"] != "33554432" {
		t.Errorf("after the refused result: %v", got)
	}
}
