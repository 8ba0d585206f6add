// Package recording records, when the site is built, what the stepper's
// first run and the three verdicts' buttons ask of the engine and what the
// engine answers, so their embeds work on those runs while the real
// engine is still downloading.
//
// The recording is made natively by the same engine (wasm/api, over the
// same lua/ scripts) the page runs in WebAssembly, through the same calls
// with the same arguments: the page's default queue, id and payload. Each
// call is written with the keyspace-changing calls made before it, which
// is all its answer depends on, since the engine starts from nothing and
// its clock moves only when told. The page answers a call from the
// recording only when that history and the call match exactly; anything
// else waits for the live engine. When the live engine is ready, the page
// replays the same calls on it and checks the answers are the recorded
// ones, byte for byte (web/assets/recorded.js).
package recording

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"

	"echomq.dev/playground/wasm/api"
)

// Version is the format of a recording.
const Version = 1

// Recording is what the page embeds.
type Recording struct {
	V      int    `json:"v"`
	Widget string `json:"widget"`
	Queue  string `json:"queue"`
	Calls  []Call `json:"calls"`
}

// Call is one engine call: the writes before it (as the page's journal
// holds them), the call, and the engine's answer.
type Call struct {
	Before [][]any         `json:"before"`
	Method string          `json:"method"`
	Args   []any           `json:"args"`
	Result json.RawMessage `json:"result"`
}

// Stepper records the stepper's first run for queue, the fresh id JOB-1
// and payload: the scripts, the snapshot it starts from, the traced
// @enqueue, and the snapshot after it, as stepper.js asks for them.
func Stepper(queue, payload string) (Recording, error) {
	p := api.New()
	rec := Recording{V: Version, Widget: "stepper", Queue: queue}
	var writes [][]any
	call := func(method string, args ...any) error {
		out, err := json.Marshal(p.Call(method, args))
		if err != nil {
			return err
		}
		var probe map[string]any
		if json.Unmarshal(out, &probe) == nil && probe["error"] != nil {
			return fmt.Errorf("%s: the engine refused: %s", method, out)
		}
		rec.Calls = append(rec.Calls, Call{Before: append([][]any{}, writes...), Method: method, Args: args, Result: out})
		return nil
	}
	id := "JOB-1"
	prefix := "emq:{" + queue + "}:"
	trace := []any{"enqueue", []any{prefix + "job:" + id, prefix + "pending"}, []any{id, payload}}
	if err := call("snapshot", queue); err != nil {
		return rec, err
	}
	if err := call("trace", trace...); err != nil {
		return rec, err
	}
	writes = append(writes, append([]any{"trace"}, trace...))
	if err := call("snapshot", queue); err != nil {
		return rec, err
	}
	// The scripts are no call of the page's (the worker sends them with
	// "ready"), but the stepper needs @enqueue's source and moves.
	out, err := json.Marshal(p.Call("scripts", nil))
	if err != nil {
		return rec, err
	}
	rec.Calls = append(rec.Calls, Call{Before: [][]any{}, Method: "scripts", Args: []any{}, Result: out})
	return rec, nil
}

// Verdicts records the three verdicts' buttons for queue and payload:
// every sequence of up to three presses of "Enqueue a job" (the next
// fresh JOB-n), "Enqueue it again" (the id that sent last) and "Try a
// malformed id" (job-n), with the snapshot the widget takes after each,
// from the ids verdicts.js picks (keyspace.js: freshId, malformedId).
func Verdicts(queue, payload string) (Recording, error) {
	rec := Recording{V: Version, Widget: "verdicts", Queue: queue}
	seen := map[string]bool{}
	add := func(before [][]any, method string, args []any, out []byte) {
		key, _ := json.Marshal([]any{before, method, args})
		if seen[string(key)] {
			return
		}
		seen[string(key)] = true
		rec.Calls = append(rec.Calls, Call{Before: append([][]any{}, before...), Method: method, Args: args, Result: out})
	}
	// walk presses each button after the writes so far (a fresh engine
	// replays them) and goes on to depth 3.
	var walk func(writes [][]any, lastSent string, depth int) error
	walk = func(writes [][]any, lastSent string, depth int) error {
		p := api.New()
		for _, w := range writes {
			p.Call(w[0].(string), w[1:])
		}
		snap, err := json.Marshal(p.Call("snapshot", []any{queue}))
		if err != nil {
			return err
		}
		add(writes, "snapshot", []any{queue}, snap)
		if depth == 3 {
			return nil
		}
		n := highestN(snap)
		for _, press := range []struct {
			id   string
			sent bool // "it" for a later "again"
		}{{fmt.Sprintf("JOB-%d", n+1), true}, {lastSent, false}, {fmt.Sprintf("job-%d", n+1), false}} {
			if press.id == "" {
				continue // "again" before any send calls nothing
			}
			q := api.New()
			for _, w := range writes {
				q.Call(w[0].(string), w[1:])
			}
			args := []any{queue, press.id, payload}
			out, err := json.Marshal(q.Call("enqueue", args))
			if err != nil {
				return err
			}
			add(writes, "enqueue", args, out)
			next := lastSent
			if press.sent {
				next = press.id
			}
			if err := walk(append(append([][]any{}, writes...), append([]any{"enqueue"}, args...)), next, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(nil, "", 0); err != nil {
		return rec, err
	}
	out, err := json.Marshal(api.New().Call("scripts", nil))
	if err != nil {
		return rec, err
	}
	rec.Calls = append(rec.Calls, Call{Before: [][]any{}, Method: "scripts", Args: []any{}, Result: out})
	return rec, nil
}

// Page records the full page's lesson widgets on their one keyspace:
// every sequence of up to three actions among the stepper's run (once: its
// Reset waits for the engine) of the next fresh id, and the verdicts'
// three buttons, with the snapshot after each, as stepper.js and
// verdicts.js ask for them.
func Page(queue, stepperPayload, verdictsPayload string) (Recording, error) {
	rec := Recording{V: Version, Widget: "page", Queue: queue}
	seen := map[string]bool{}
	var walk func(writes [][]any, lastSent string, traced bool, depth int) error
	replayed := func(writes [][]any) *api.Playground {
		p := api.New()
		for _, w := range writes {
			p.Call(w[0].(string), w[1:])
		}
		return p
	}
	add := func(before [][]any, method string, args []any) ([]byte, error) {
		out, err := json.Marshal(replayed(before).Call(method, args))
		if err != nil {
			return nil, err
		}
		key, _ := json.Marshal([]any{before, method, args})
		if !seen[string(key)] {
			seen[string(key)] = true
			rec.Calls = append(rec.Calls, Call{Before: append([][]any{}, before...), Method: method, Args: args, Result: out})
		}
		return out, nil
	}
	walk = func(writes [][]any, lastSent string, traced bool, depth int) error {
		snap, err := add(writes, "snapshot", []any{queue})
		if err != nil || depth == 3 {
			return err
		}
		n := highestN(snap)
		type action struct {
			method string
			args   []any
			sent   string // the verdicts' "it" afterwards
			trace  bool
		}
		prefix := "emq:{" + queue + "}:"
		fresh := fmt.Sprintf("JOB-%d", n+1)
		var actions []action
		if !traced {
			actions = append(actions, action{method: "trace", args: []any{"enqueue", []any{prefix + "job:" + fresh, prefix + "pending"}, []any{fresh, stepperPayload}}, sent: lastSent, trace: true})
		}
		actions = append(actions, action{method: "enqueue", args: []any{queue, fresh, verdictsPayload}, sent: fresh})
		if lastSent != "" {
			actions = append(actions, action{method: "enqueue", args: []any{queue, lastSent, verdictsPayload}, sent: lastSent})
		}
		actions = append(actions, action{method: "enqueue", args: []any{queue, fmt.Sprintf("job-%d", n+1), verdictsPayload}, sent: lastSent})
		for _, a := range actions {
			if _, err := add(writes, a.method, a.args); err != nil {
				return err
			}
			next := append(append([][]any{}, writes...), append([]any{a.method}, a.args...))
			if err := walk(next, a.sent, traced || a.trace, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(nil, "", false, 0); err != nil {
		return rec, err
	}
	out, err := json.Marshal(api.New().Call("scripts", nil))
	if err != nil {
		return rec, err
	}
	rec.Calls = append(rec.Calls, Call{Before: [][]any{}, Method: "scripts", Args: []any{}, Result: out})
	return rec, nil
}

// highestN is the highest n of the JOB-n ids in a snapshot, as keyspace.js
// reads it, so the recording picks the ids the page will.
func highestN(snapshot []byte) int {
	var s struct {
		Rows    []struct{ ID string } `json:"rows"`
		Pending []struct{ ID string } `json:"pending"`
		Active  []struct{ ID string } `json:"active"`
	}
	json.Unmarshal(snapshot, &s)
	n := 0
	var ids []string
	for _, r := range s.Rows {
		ids = append(ids, r.ID)
	}
	for _, r := range s.Pending {
		ids = append(ids, r.ID)
	}
	for _, r := range s.Active {
		ids = append(ids, r.ID)
	}
	for _, id := range ids {
		if m := jobN.FindStringSubmatch(id); m != nil {
			if v, err := strconv.Atoi(m[1]); err == nil && v > n {
				n = v
			}
		}
	}
	return n
}

var jobN = regexp.MustCompile(`^JOB-(\d+)$`)

// JSON is the recording as the page embeds it, inside a
// <script type="application/json">: json.Marshal escapes <, > and &, so
// the text cannot end the element.
func (r Recording) JSON() (string, error) {
	b, err := json.Marshal(r)
	return string(b), err
}
