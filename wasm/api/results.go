// Result JSON: a handle's outcome and its wire, written straight into the
// module's result text.

package api

import (
	"strconv"

	"echomq.dev/playground/wasm/emq"
	"echomq.dev/playground/wasm/resp"
)

// outcome is what enqueue and claim return (and pause, resume, and a
// trace's verdict): the handle's Outcome, which appendJSON writes as the
// object the contract names, straight into the module's result. Every
// round trip makes two; building them as trees of fields and reply texts
// first, to be walked and copied after, was three dozen allocations per
// round trip, and in WebAssembly each costs more than writing its text.
type outcome emq.Outcome

func outcomeJSON(o emq.Outcome) *outcome { return (*outcome)(&o) }

// outcomeJSON is outcomeJSON(o), or under Options.Reference the same
// object as a tree of plain values (plainOutcome).
func (p *Playground) outcomeJSON(o emq.Outcome) any {
	if p.options.Reference {
		return plainOutcome(o)
	}
	return outcomeJSON(o)
}

// replyJSON is replyJSON(r), or under Options.Reference the same reply as
// a tree of plain values (plainReply).
func (p *Playground) replyJSON(r resp.Reply) (any, error) {
	if p.options.Reference {
		return plainReply(&r, 0)
	}
	return replyJSON(r)
}

// appendTo writes o with its keys in the order encoding/json sorts them:
// attempts, id, payload (a leased job's), verdict, wire.
func (o *outcome) appendTo(b []byte) ([]byte, error) {
	b = append(b, '{')
	if j := o.Job; j != nil {
		b = strconv.AppendInt(append(b, `"attempts":`...), j.Attempts, 10)
		b = appendField(b, `,"id":`, j.ID)
		b = appendField(b, `,"payload":`, j.Payload)
		b = append(b, ',')
	}
	b = appendField(b, `"verdict":`, string(o.Verdict))
	var err error
	if o.Wire != nil {
		b, err = appendWire(append(b, `,"wire":`...), o.Wire)
	}
	return append(b, '}'), err
}

// field is the value of o's key as the JSON would hold it, for Field.
func (o *outcome) field(key string) any {
	j := o.Job
	switch {
	case key == "verdict":
		return string(o.Verdict)
	case key == "wire" && o.Wire != nil:
		w, _ := appendWire(nil, o.Wire)
		return replyValue(w)
	case j == nil:
	case key == "attempts":
		return j.Attempts
	case key == "id":
		return j.ID
	case key == "payload":
		return j.Payload
	}
	return nil
}

// MarshalJSON writes o as appendJSON does, for encoding/json's callers.
func (o *outcome) MarshalJSON() ([]byte, error) { return o.appendTo(nil) }

// appendWire writes the commands a handle sent as the page's wire panel
// reads them: [{command, reply, sha}], each reply in replyJSON's form.
func appendWire(b []byte, w []emq.Exchange) ([]byte, error) {
	var err error
	sep := byte('[')
	for i := range w {
		b = append(b, sep)
		sep = ','
		b = appendField(b, `{"command":`, w[i].Command)
		if b, err = appendReply(append(b, `,"reply":`...), &w[i].Reply); err != nil {
			return nil, err
		}
		b = append(appendField(b, `,"sha":`, w[i].SHA), '}')
	}
	if sep == '[' {
		b = append(b, sep)
	}
	return append(b, ']'), nil
}

// appendField writes a key (with what comes before it) and a string.
func appendField(b []byte, key, s string) []byte {
	return appendJSONString(append(b, key...), s)
}
