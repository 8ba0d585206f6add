package api

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"echomq.dev/playground/wasm/resp"
)

// objectJSON is the JS API's form of a reply built as nested maps, the way
// replyJSON built it before it wrote JSON itself; encoding/json marshals it.
// The two must agree on every reply.
func objectJSON(r resp.Reply) map[string]any {
	switch r.Kind {
	case resp.Int:
		return map[string]any{"type": "int", "value": strconv.FormatInt(r.Int, 10)}
	case resp.Nil:
		return map[string]any{"type": "nil", "value": nil}
	case resp.Array, resp.Set:
		elems := make([]map[string]any, len(r.Elems))
		for i, e := range r.Elems {
			elems[i] = objectJSON(e)
		}
		return map[string]any{"type": string(r.Kind), "value": elems}
	case resp.Bulk, resp.Verbatim:
		o := map[string]any{"type": string(r.Kind), "value": r.Str}
		if r.Kind == resp.Verbatim {
			o["format"] = r.Format
		}
		if !utf8.ValidString(r.Str) {
			o["base64"] = base64.StdEncoding.EncodeToString([]byte(r.Str))
		}
		return o
	case resp.Map:
		pairs := make([]map[string]any, 0, len(r.Elems)/2)
		for i := 0; i+1 < len(r.Elems); i += 2 {
			pairs = append(pairs, map[string]any{"key": objectJSON(r.Elems[i]), "value": objectJSON(r.Elems[i+1])})
		}
		return map[string]any{"type": "map", "value": pairs}
	case resp.Bool:
		return map[string]any{"type": "bool", "value": r.Int != 0}
	}
	return map[string]any{"type": string(r.Kind), "value": r.Str}
}

func TestReplyJSONIsWhatEncodingJSONWrites(t *testing.T) {
	text := "a\"b\\c\n\r\t\x01<tag>&\u2028\u2029é€\xff\xfe end"
	all := []resp.Reply{
		resp.IntReply(-9223372036854775808), resp.NilReply(), resp.BulkReply(text), resp.StatusReply(text),
		resp.ErrorReply("ERR " + text), resp.BulkReply(""),
		{Kind: resp.Double, Str: "1.5"}, {Kind: resp.BigNumber, Str: "12345678901234567890"},
		{Kind: resp.Bool, Int: 1}, {Kind: resp.Bool}, {Kind: resp.Verbatim, Format: "txt", Str: text},
		resp.ArrayReply(), {Kind: resp.Set}, {Kind: resp.Map},
	}
	nested := resp.ArrayReply(all...)
	m := resp.Reply{Kind: resp.Map, Elems: []resp.Reply{
		resp.BulkReply("k"), nested, nested, resp.IntReply(1), {Kind: resp.Map, Elems: []resp.Reply{resp.BulkReply("x"), {Kind: resp.Set, Elems: all}}}, resp.ArrayReply(nested, nested),
		resp.BulkReply("a lone key is dropped"),
	}}
	all = append(all, nested, m, resp.ArrayReply(m, nested, m))
	for _, r := range all {
		want, err := json.Marshal(objectJSON(r))
		if err != nil {
			t.Fatal(err)
		}
		v, err := replyJSON(r)
		if err != nil {
			t.Fatalf("%s: %v", r, err)
		}
		got, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s: not JSON: %v\n%s", r, err, v)
		}
		if string(got) != string(want) {
			t.Errorf("%s:\n got %s\nwant %s", r, got, want)
		}
	}
}

// nestedScript returns a table nested n deep, the last one empty.
func nestedScript(n int) string {
	return fmt.Sprintf("local t={} for i=1,%d do t={t} end return t", n)
}

func TestDeepRepliesAreADepthErrorAndTheEngineServesOn(t *testing.T) {
	p := New()
	// At the limit the reply comes whole.
	got := call(t, p, "exec", []any{"EVAL", nestedScript(MaxReplyDepth - 1), "0"})
	depth := 0
	for got["type"] == "array" {
		depth++
		elems := got["value"].([]any)
		if len(elems) == 0 {
			break
		}
		got = elems[0].(map[string]any)
	}
	if depth != MaxReplyDepth {
		t.Fatalf("a reply %d deep came back %d deep", MaxReplyDepth, depth)
	}
	// 10,000 is past Redis's own 7,995, and cheap enough to build well
	// inside the budget on a busy machine under -race.
	for _, n := range []int{MaxReplyDepth, 5000, 10000} {
		for _, method := range []string{"exec", "cli", "trace"} {
			var args []any
			switch method {
			case "exec":
				args = []any{[]any{"EVAL", nestedScript(n), "0"}}
			case "cli":
				args = []any{fmt.Sprintf("EVAL %q 0", nestedScript(n))}
			case "trace":
				args = []any{nestedScript(n)}
			}
			got := call(t, p, method, args...)
			if got["error"] != "depth" || !strings.Contains(fmt.Sprint(got["message"]), fmt.Sprintf("more than %d levels deep", MaxReplyDepth)) {
				t.Errorf("%s of a reply %d deep: %.200v", method, n+1, got)
			}
		}
	}
	// A map counts twice: each of its pairs is an object in the JSON. The
	// console's connection takes RESP3 maps after HELLO 3.
	call(t, p, "cli", "HELLO 3")
	maps := fmt.Sprintf("redis.setresp(3) local t={} local c=t for i=1,%d do local n={} c.map={x=n} c=n end return t", MaxReplyDepth/2)
	if got := call(t, p, "cli", fmt.Sprintf("EVAL %q 0", maps)); got["error"] != "depth" {
		t.Errorf("maps %d deep: %.200v", MaxReplyDepth/2+1, got)
	}
	maps = fmt.Sprintf("redis.setresp(3) local t={} local c=t for i=1,%d do local n={} c.map={x=n} c=n end return t", MaxReplyDepth/2-1)
	if got := call(t, p, "cli", fmt.Sprintf("EVAL %q 0", maps)); got["error"] != nil {
		t.Errorf("maps %d deep: %.200v", MaxReplyDepth/2, got)
	}
	if got := call(t, p, "exec", []any{"PING"}); !reflect.DeepEqual(got, map[string]any{"type": "status", "value": "PONG"}) {
		t.Fatalf("after the deep replies, PING = %v", got)
	}
}
