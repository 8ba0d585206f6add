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
	"strings"

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

// SnapshotEnds is the bound the page asks its snapshots with (app.js,
// SNAPSHOT_ENDS): each list's first and last 25 members. The recorded
// calls must be the page's to the byte.
const SnapshotEnds = 25

// Stepper records the stepper's first run for queue, of the fresh id and
// payload: the snapshot it starts from, the snapshot it takes before the
// run, the traced @enqueue, and the snapshot after, as stepper.js asks.
func Stepper(queue, payload string) (Recording, error) {
	w := newWalker("stepper", queue)
	err := w.walk(nil, "", false, nil, 0, 1, payload, "")
	return w.done(err)
}

// Verdicts records the three verdicts' buttons for queue and payload:
// every sequence of up to three presses of "Enqueue a job" (the fresh
// id), "Enqueue it again" (the id that sent last) and "Try a malformed id",
// with the snapshot the widget takes after each.
func Verdicts(queue, payload string) (Recording, error) {
	w := newWalker("verdicts", queue)
	err := w.walk(nil, "", true, nil, 0, 3, "", payload)
	return w.done(err)
}

// Page records the full page's lesson widgets on their one keyspace:
// every sequence of up to three actions among the stepper's run (once:
// its Reset waits for the engine) and the verdicts' three buttons.
func Page(queue, stepperPayload, verdictsPayload string) (Recording, error) {
	w := newWalker("page", queue)
	err := w.walk(nil, "", false, nil, 0, 3, stepperPayload, verdictsPayload)
	return w.done(err)
}

// reads are the calls that only read, which the page's journal leaves
// out (permalink.js, READS), so a recorded call's before holds no reads.
var reads = map[string]bool{"snapshot": true, "changed": true}

// call is one engine call of the page.
type call struct {
	method string
	args   []any
}

// walker records the calls of every path of actions. Each call runs on a
// fresh engine after the whole path before it, reads included, exactly
// as the page's engine will have run them.
type walker struct {
	rec  Recording
	seen map[string]bool
}

func newWalker(widget, queue string) *walker {
	return &walker{rec: Recording{V: Version, Widget: widget, Queue: queue}, seen: map[string]bool{}}
}

// run records next after path and returns its answer.
func (w *walker) run(path []call, next call) ([]byte, error) {
	p := api.New()
	before := [][]any{}
	for _, c := range path {
		p.Call(c.method, c.args)
		if !reads[c.method] {
			before = append(before, append([]any{c.method}, c.args...))
		}
	}
	out, err := api.MarshalJSON(p.Call(next.method, next.args))
	if err != nil {
		return nil, err
	}
	key, _ := json.Marshal([]any{before, next.method, next.args})
	if !w.seen[string(key)] {
		w.seen[string(key)] = true
		w.rec.Calls = append(w.rec.Calls, Call{Before: before, Method: next.method, Args: next.args, Result: out})
	}
	return out, nil
}

// walk takes the snapshot the widgets draw after path, then each action
// the recorded widgets offer, to depth: the stepper's run when
// stepperPayload is set and it has not run, the verdicts' buttons when
// verdictsPayload is set. lastSent is the verdicts' "it".
func (w *walker) walk(path []call, lastSent string, traced bool, stamps map[string]any, depth, max int, stepperPayload, verdictsPayload string) error {
	queue := w.rec.Queue
	snapshot := call{"snapshot", []any{queue, float64(SnapshotEnds)}}
	snap, err := w.run(path, snapshot)
	if err != nil {
		return err
	}
	path = append(path[:len(path):len(path)], snapshot)
	if stamps != nil {
		// The stepper has a run to show and asks, with each change the
		// verdicts make, whether a key of its run was written (stepper.js,
		// update); once one was, the run is stale and it asks no more.
		ask := call{"changed", []any{stamps}}
		out, err := w.run(path, ask)
		if err != nil {
			return err
		}
		path = append(path[:len(path):len(path)], ask)
		var c struct {
			Changed []string `json:"changed"`
		}
		if json.Unmarshal(out, &c) == nil && len(c.Changed) > 0 {
			stamps = nil
		}
	}
	if depth == max {
		return nil
	}
	fresh := freshID(snap)
	type action struct {
		calls []call
		sent  string
	}
	var actions []action
	if stepperPayload != "" && !traced {
		prefix := "emq:{" + queue + "}:"
		trace := call{"trace", []any{"enqueue", []any{prefix + "job:" + fresh, prefix + "pending"}, []any{fresh, stepperPayload}}}
		actions = append(actions, action{calls: []call{snapshot, trace}, sent: lastSent})
	}
	if verdictsPayload != "" {
		enqueue := func(id string) call { return call{"enqueue", []any{queue, id, verdictsPayload}} }
		actions = append(actions, action{calls: []call{enqueue(fresh)}, sent: fresh})
		if lastSent != "" {
			actions = append(actions, action{calls: []call{enqueue(lastSent)}, sent: lastSent})
		}
		actions = append(actions, action{calls: []call{enqueue("job" + strings.TrimPrefix(fresh, "JOB"))}, sent: lastSent})
	}
	for _, a := range actions {
		next := path
		var out []byte
		for _, c := range a.calls {
			if out, err = w.run(next, c); err != nil {
				return err
			}
			next = append(next[:len(next):len(next)], c)
		}
		nextStamps := stamps
		isTrace := a.calls[len(a.calls)-1].method == "trace"
		if isTrace && stepperPayload != "" && verdictsPayload != "" {
			// The stepper now holds a run; the stamps it came with are
			// what it asks about after the verdicts' writes.
			var t struct {
				Stamps map[string]any `json:"stamps"`
			}
			if json.Unmarshal(out, &t) == nil && t.Stamps != nil {
				nextStamps = t.Stamps
			}
		}
		if err := w.walk(next, a.sent, traced || isTrace, nextStamps, depth+1, max, stepperPayload, verdictsPayload); err != nil {
			return err
		}
	}
	return nil
}

// done adds the scripts, which the worker sends with "ready" rather than
// as a call, and which the stepper needs for @enqueue's source and moves.
func (w *walker) done(err error) (Recording, error) {
	if err != nil {
		return w.rec, err
	}
	out, err := api.MarshalJSON(api.New().Call("scripts", nil))
	if err != nil {
		return w.rec, err
	}
	w.rec.Calls = append(w.rec.Calls, Call{Before: [][]any{}, Method: "scripts", Args: []any{}, Result: out})
	return w.rec, nil
}

// freshID is the id "a fresh id" means after a snapshot: the engine's own
// answer (snapshot.fresh), as keyspace.js reads it.
func freshID(snapshot []byte) string {
	var s struct {
		Fresh string `json:"fresh"`
	}
	if json.Unmarshal(snapshot, &s) == nil && s.Fresh != "" {
		return s.Fresh
	}
	return "JOB-000001"
}

// JSON is the recording as the page embeds it, inside a
// <script type="application/json">: json.Marshal escapes <, > and &, so
// the text cannot end the element.
func (r Recording) JSON() (string, error) {
	b, err := json.Marshal(r)
	return string(b), err
}
