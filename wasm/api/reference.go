package api

import (
	"encoding/base64"
	"strconv"
	"unicode/utf8"

	"echomq.dev/playground/wasm/emq"
	"echomq.dev/playground/wasm/resp"
)

// The plain paths of Options.Reference: each result the shortcuts write
// straight as JSON text (outcome.appendTo, appendReply, appendWire) built
// here as a tree of Objects and lists instead, in the most obvious way,
// for encoding/json to write. TestReferenceAnswersAsTheShortcuts holds
// the two to the same bytes.

// plainReply is r as replyJSON shows it, as plain values: {type, value},
// recursing into aggregates, with a map's pairs as {key, value} and a
// tooDeep error past MaxReplyDepth (a map counting twice).
func plainReply(r *resp.Reply, depth int) (Object, error) {
	switch r.Kind {
	case resp.Int:
		return Object{"type": "int", "value": strconv.FormatInt(r.Int, 10)}, nil
	case resp.Nil:
		return Object{"type": "nil", "value": nil}, nil
	case resp.Bool:
		return Object{"type": "bool", "value": r.Int != 0}, nil
	case resp.Array, resp.Set, resp.Map:
		if depth += depthOf(r); depth > MaxReplyDepth {
			return nil, tooDeep{}
		}
		value := []any{}
		step := 1
		if r.Kind == resp.Map {
			step = 2
		}
		for i := 0; i+step <= len(r.Elems); i += step {
			v, err := plainReply(&r.Elems[i], depth)
			if err != nil {
				return nil, err
			}
			if r.Kind != resp.Map {
				value = append(value, v)
				continue
			}
			w, err := plainReply(&r.Elems[i+1], depth)
			if err != nil {
				return nil, err
			}
			value = append(value, Object{"key": v, "value": w})
		}
		return Object{"type": string(r.Kind), "value": value}, nil
	case resp.Bulk, resp.Verbatim:
		o := Object{"type": string(r.Kind), "value": r.Str}
		if !utf8.ValidString(r.Str) {
			o["base64"] = base64.StdEncoding.EncodeToString([]byte(r.Str))
		}
		if r.Kind == resp.Verbatim {
			o["format"] = r.Format
		}
		return o, nil
	}
	return Object{"type": string(r.Kind), "value": r.Str}, nil
}

// plainWire is the commands a handle sent, as appendWire writes them.
func plainWire(w []emq.Exchange) ([]Object, error) {
	out := []Object{}
	for i := range w {
		reply, err := plainReply(&w[i].Reply, 0)
		if err != nil {
			return nil, err
		}
		out = append(out, Object{"command": w[i].Command, "reply": reply, "sha": w[i].SHA})
	}
	return out, nil
}

// plainOutcome is an outcome as outcome.appendTo writes it.
func plainOutcome(o emq.Outcome) any {
	out := Object{"verdict": string(o.Verdict)}
	if j := o.Job; j != nil {
		out["attempts"] = j.Attempts
		out["id"] = j.ID
		out["payload"] = j.Payload
	}
	if o.Wire != nil {
		out["wire"] = plainValue(plainWire(o.Wire))
	}
	return out
}

// plainValue is v, or when making it failed, a value whose writing fails
// with err: where a shortcut's error comes out when the result is written
// (appendJSON), the plain path's does too.
func plainValue[T any](v T, err error) any {
	if err != nil {
		return failing{err}
	}
	return v
}

type failing struct{ err error }

func (f failing) MarshalJSON() ([]byte, error) { return nil, f.err }
