package api

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"unicode/utf8"

	"echomq.dev/playground/wasm/resp"
)

// MaxReplyDepth is how deeply a reply's aggregates may nest for the JS API
// to hand it over; a map counts twice, since each of its pairs is an
// object of its own in the JSON. Redis 7.0 sends a script's reply nested up
// to 7995 tables deep, and the engine builds it. But a page cannot take
// it: the engine runs in a Web Worker, and the browser's copy of a message
// from the worker to the page recurses through the objects it copies.
// Chromium's worker throws "Maximum call stack size exceeded" at about 925
// arrays deep (measured with a worker posting nested replies to its page);
// 500 leaves room for the objects around the reply and for smaller stacks.
// Past it the caller gets a DepthError, which says so, instead of a throw.
const MaxReplyDepth = 500

// tooDeep is a reply nested deeper than MaxReplyDepth.
type tooDeep struct{}

func (tooDeep) Error() string {
	return fmt.Sprintf("The reply nests more than %d levels deep: Redis would send it, "+
		"but a browser cannot pass it from the engine to the page. The command ran, and anything it wrote stays. "+
		"Return a flatter reply to see it here.", MaxReplyDepth)
}

// resultCap is MaxResultBytes, as a variable only so that a test can hold
// appendReply's count of a reply past it to the text written whole.
var resultCap = MaxResultBytes

// replyValue is a reply in the JS API's JSON form, written out already.
// json.Marshal takes it as it is (after checking it is well formed, which
// it does without recursion).
type replyValue []byte

func (v replyValue) MarshalJSON() ([]byte, error) { return v, nil }

// openJSON is an aggregate replyJSON is inside: the next element to write.
type openJSON struct {
	r    *resp.Reply
	next int
}

// replyJSON is a reply as the JS API shows it: {type, value}. An integer's
// value is a decimal string, so 64-bit integers survive JavaScript's
// doubles. A bulk string that is not valid UTF-8 cannot cross into a JS
// string intact, so it also carries its exact bytes as base64. A map is a
// list of {key, value} pairs. Keys are written in the order encoding/json
// sorts them.
//
// It keeps its own stack of the aggregates it is inside, rather than
// recursing (or handing nested maps to encoding/json, which recurses): in
// WebAssembly each Go call is a call on the browser's stack. A reply
// deeper than MaxReplyDepth is a tooDeep error.
func replyJSON(r resp.Reply) (replyValue, error) {
	return appendReply(make([]byte, 0, 64), &r)
}

// appendReply appends r to out as replyJSON writes it: the handles' wire
// is written this way straight into the module's result, with no reply
// text of its own made first.
//
// A reply whose JSON would pass MaxResultBytes is a tooLong error that
// says how long it is, found without holding it: once the next string
// would take the text past the cap, what is written so far is counted and
// dropped, and the rest is written over it. So the text never needs room
// for much more than the cap, where writing it whole (to refuse it after)
// took a second copy of a reply that was too large already, and in a
// module near wasm's 4 GiB that was the allocation Go died on.
func appendReply(out []byte, r *resp.Reply) ([]byte, error) {
	var room [4]openJSON // a flat reply's aggregates, without an allocation
	stack := room[:0]
	depth := 0 // of the open aggregates, a map counting twice
	start, dropped := len(out), 0
	out, stack, depth = appendReplyJSON(out, r, stack, depth)
	for len(stack) > 0 {
		if depth > MaxReplyDepth {
			return nil, tooDeep{}
		}
		top := &stack[len(stack)-1]
		a := top.r
		i := top.next
		if i >= len(a.Elems) || a.Kind == resp.Map && i%2 == 0 && i+1 >= len(a.Elems) {
			out = append(out, "]}"...)
			stack = stack[:len(stack)-1]
			depth -= depthOf(a)
			if len(stack) > 0 && stack[len(stack)-1].r.Kind == resp.Map && stack[len(stack)-1].next%2 == 0 {
				out = append(out, '}') // the pair this aggregate was the value of
			}
			continue
		}
		top.next++
		if i > 0 && (a.Kind != resp.Map || i%2 == 0) {
			out = append(out, ',')
		}
		if a.Kind == resp.Map {
			if i%2 == 0 {
				out = append(out, `{"key":`...)
			} else {
				out = append(out, `,"value":`...)
			}
		}
		if n := len(out) - start; n+len(a.Elems[i].Str) > resultCap {
			dropped += n
			out = out[:start]
		}
		before := len(stack)
		out, stack, depth = appendReplyJSON(out, &a.Elems[i], stack, depth)
		if a.Kind == resp.Map && i%2 == 1 && len(stack) == before {
			out = append(out, '}') // a pair whose value was written whole
		}
	}
	if n := dropped + len(out) - start; n > resultCap {
		return nil, tooLong(n)
	}
	return out, nil
}

func depthOf(r *resp.Reply) int {
	if r.Kind == resp.Map {
		return 2
	}
	return 1
}

// appendReplyJSON writes r, or for an array, set or map writes its opening
// and puts it on the stack for its elements to follow.
func appendReplyJSON(out []byte, r *resp.Reply, stack []openJSON, depth int) ([]byte, []openJSON, int) {
	switch r.Kind {
	case resp.Int:
		out = append(out, `{"type":"int","value":"`...)
		out = strconv.AppendInt(out, r.Int, 10)
		return append(out, `"}`...), stack, depth
	case resp.Nil:
		return append(out, `{"type":"nil","value":null}`...), stack, depth
	case resp.Bool:
		return append(out, `{"type":"bool","value":`+strconv.FormatBool(r.Int != 0)+`}`...), stack, depth
	case resp.Array, resp.Set, resp.Map:
		out = append(out, `{"type":"`...)
		out = append(out, r.Kind...)
		out = append(out, `","value":[`...)
		return out, append(stack, openJSON{r: r}), depth + depthOf(r)
	case resp.Bulk, resp.Verbatim:
		out = append(out, '{')
		if !utf8.ValidString(r.Str) {
			out = append(out, `"base64":"`...)
			out = base64.StdEncoding.AppendEncode(out, []byte(r.Str))
			out = append(out, `",`...)
		}
		if r.Kind == resp.Verbatim {
			out = append(out, `"format":`...)
			out = appendJSONString(out, r.Format)
			out = append(out, ',')
		}
		out = append(out, `"type":"`...)
		out = append(out, r.Kind...)
		out = append(out, `","value":`...)
		out = appendJSONString(out, r.Str)
		return append(out, '}'), stack, depth
	}
	// status, error, double and bignum carry their text.
	out = append(out, `{"type":`...)
	out = appendJSONString(out, string(r.Kind))
	out = append(out, `,"value":`...)
	out = appendJSONString(out, r.Str)
	return append(out, '}'), stack, depth
}
