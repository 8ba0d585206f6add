// The stepper's method: one script run move by move, as JSON.

package api

import (
	"echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/emq"
)

func (p *Playground) trace(a *params) (any, error) {
	script := a.str(0)
	var keys, argv []string
	if a.given(1) {
		keys = a.strings(1)
	}
	if a.given(2) {
		argv = a.strings(2)
	}
	if a.err != nil {
		return nil, a.err
	}
	var err error
	src := traceSource(script)
	t := p.engine.Trace(src, keys, argv)
	steps := make([]Object, len(t.Steps))
	for i, s := range t.Steps {
		step := Object{"move": s.Move, "name": s.Name, "line": s.Line, "command": nil, "reply": nil, "write": s.Write, "keyspace": s.Keyspace}
		if s.Command != nil {
			step["command"] = s.Command
		}
		if s.Reply != nil {
			if step["reply"], err = p.replyJSON(*s.Reply); err != nil {
				return nil, err
			}
		}
		steps[i] = step
	}
	moves := make([]Object, len(t.Moves))
	for i, m := range t.Moves {
		moves[i] = Object{"move": m.N, "name": m.Name, "first": m.First, "last": m.Last}
	}
	reply, err := p.replyJSON(t.Reply)
	if err != nil {
		return nil, err
	}
	touched := t.Keys
	if touched == nil {
		touched = []string{} // the contract's string[], not null: a trace of no keys
	}
	out := Object{"reply": reply, "keys": touched, "before": t.Before, "steps": steps, "moves": moves,
		"problem": nil, "stamps": t.Stamps, "verdict": nil}
	if t.Problem != nil {
		out["problem"] = t.Problem
	}
	if note := undefinedNote(t.Undefined); note != "" {
		out["note"] = note
	}
	// The run of one of the course's scripts gets the handle's verdict on
	// its reply, as echomq.enqueue and echomq.claim would give it.
	switch src {
	case lua.Enqueue().Source:
		out["verdict"] = p.verdictJSON(emq.EnqueueVerdict(t.Reply, nil))
	case lua.Claim().Source:
		out["verdict"] = p.verdictJSON(emq.ClaimVerdict(t.Reply, nil))
	}
	return out, nil
}

// traceSource is the Lua trace(script) runs: the lesson's script of that
// name, or script itself as source text.
func traceSource(script string) string {
	if s, ok := lua.Get(script); ok {
		return s.Source
	}
	return script
}

// verdictJSON is an outcome, or the refusal, as enqueue and claim return them.
func (p *Playground) verdictJSON(o emq.Outcome, err error) any {
	if err != nil {
		return p.errorObject(err)
	}
	return p.outcomeJSON(o)
}
