// The method table: every function of globalThis.echomq, how a call finds
// its method and checks its count of arguments, and the methods small enough
// to live beside the table.

package api

import (
	"strings"
	"sync"

	"echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/emq"
)

// method is one function of globalThis.echomq: its parameters, as its
// arity errors name them and as its arguments' errors name each one, and
// what it runs once the count of arguments is right.
type method struct {
	name string
	// params names the parameters, comma-separated; the last ones from
	// index need on may be left out (or passed as null).
	params string
	need   int
	run    func(p *Playground, a *params) (any, error)
}

// methods is every function of globalThis.echomq, in the contract's order.
var methods = []method{
	{"scripts", "", 0, func(p *Playground, a *params) (any, error) { return p.scripts(), nil }},
	{"exec", "args, connection", 1, (*Playground).exec},
	{"cli", "line", 1, func(p *Playground, a *params) (any, error) {
		line := a.str(0)
		if a.err != nil {
			return nil, a.err
		}
		return p.cli(line), nil
	}},
	{"enqueue", "queue, id, payload", 3, (*Playground).enqueue},
	{"claim", "queue, leaseMs", 2, func(p *Playground, a *params) (any, error) {
		queue, lease := a.str(0), a.lease(1)
		if a.err != nil {
			return nil, a.err
		}
		o, err := p.claim(queue, lease)
		return p.outcomeJSON(o), err
	}},
	{"enqueueMany", "queue, count, payload", 3, func(p *Playground, a *params) (any, error) {
		queue, n, payload := a.str(0), a.count(1), a.str(2)
		if a.err != nil {
			return nil, a.err
		}
		return p.enqueueMany(queue, n, payload)
	}},
	{"claimMany", "queue, leaseMs, max", 3, func(p *Playground, a *params) (any, error) {
		queue, lease, n := a.str(0), a.lease(1), a.count(2)
		if a.err != nil {
			return nil, a.err
		}
		return p.claimMany(queue, lease, n)
	}},
	{"pause", "queue", 1, onQueue((*emq.Jobs).Pause)},
	{"resume", "queue", 1, onQueue((*emq.Jobs).Resume)},
	{"snapshot", "queue, limit", 1, func(p *Playground, a *params) (any, error) {
		queue, limit := a.str(0), 0
		if a.given(1) {
			limit = a.count(1)
		}
		if a.err != nil {
			return nil, a.err
		}
		return p.snapshot(queue, limit)
	}},
	{"trace", "script, keys, argv", 1, (*Playground).trace},
	{"changed", "stamps", 1, (*Playground).changed},
	{"entries", "keys", 1, func(p *Playground, a *params) (any, error) {
		keys := a.strings(0)
		if a.err != nil {
			return nil, a.err
		}
		return Object{"entries": p.engine.Entries(keys)}, nil
	}},
	{"now", "", 0, func(p *Playground, a *params) (any, error) { return Object{"now": p.engine.Now()}, nil }},
	{"setNow", "ms", 1, func(p *Playground, a *params) (any, error) {
		ms := a.millis(0)
		if a.err != nil {
			return nil, a.err
		}
		p.engine.SetNow(ms)
		return Object{"now": p.engine.Now()}, nil
	}},
	{"advance", "ms", 1, func(p *Playground, a *params) (any, error) {
		ms := a.millis(0)
		if a.err != nil {
			return nil, a.err
		}
		if p.engine.Now()+ms > maxClock {
			return nil, argsf("advance(ms): the clock would pass %d (the year 9999)", maxClock)
		}
		return Object{"now": p.engine.Advance(ms)}, nil
	}},
	{"reset", "", 0, func(p *Playground, a *params) (any, error) {
		p.engine.Reset()
		p.highest = nil
		return Object{"reset": true, "now": p.engine.Now()}, nil
	}},
	{"review", "ops", 1, (*Playground).review},
	{"replay", "op, allowed", 2, (*Playground).replay},
}

// served is every name a request may call, in Hello's order: the
// methods, then call and drop (see Module).
var served = servedNames()

func servedNames() []string {
	names := make([]string, len(methods), len(methods)+2)
	for i, m := range methods {
		names[i] = m.name
	}
	return append(names, "call", "drop")
}

// paramNames is each method's parameter names, split out of its params
// once, on the first call rather than at start-up: a page calls enqueue
// and claim thousands of times, and splitting on every call made garbage.
var paramNames = sync.OnceValue(func() [][]string {
	out := make([][]string, len(methods))
	for i, m := range methods {
		if m.params != "" {
			out[i] = strings.Split(m.params, ", ")
		}
	}
	return out
})

// engineFree are the methods that read no engine: a playground made
// without one (the default keyspace, see NewKeyspaces) answers them and
// makes its engine only for a method that needs it.
var engineFree = map[string]bool{"scripts": true}

// call runs the method called name: its count of arguments checked here,
// once for all, and each argument read by name by the method itself.
func (p *Playground) call(name string, args []any) (any, error) {
	for i, m := range methods {
		if m.name != name {
			continue
		}
		names := paramNames()[i]
		if err := arity(m.name, m.params, args, m.need, len(names)); err != nil {
			return nil, err
		}
		if p.engine == nil && !engineFree[name] {
			p.start()
		}
		// The playground's own params, not a new one per call: a call
		// never runs another on the same playground.
		a := &p.params
		*a = params{names: names, args: args}
		out, err := m.run(p, a)
		*a = params{} // nothing of the call kept alive
		return out, err
	}
	return nil, argsf("echomq has no method %q", name)
}

// onQueue is a method of one argument, a queue, that runs a handle's call
// on it: pause and resume.
func onQueue(run func(*emq.Jobs, string) (emq.Outcome, error)) func(*Playground, *params) (any, error) {
	return func(p *Playground, a *params) (any, error) {
		queue := a.str(0)
		if a.err != nil {
			return nil, a.err
		}
		o, err := run(p.jobs, queue)
		return p.outcomeJSON(o), err
	}
}

// exec sends one command, on the connection it names or on exec's own.
func (p *Playground) exec(a *params) (any, error) {
	cmd := a.strings(0)
	if a.err != nil {
		return nil, a.err
	}
	if len(cmd) == 0 {
		return nil, argsf("exec(args): args must name a command, got an empty array")
	}
	c := p.engine.Client
	if a.given(1) {
		name := a.str(1)
		if a.err != nil {
			return nil, a.err
		}
		var err error
		if c, err = p.connection(name); err != nil {
			return nil, err
		}
	}
	r, _ := c.Do(cmd...)
	reply, err := p.replyJSON(r)
	if err != nil {
		return nil, err
	}
	return withNote(reply, undefinedNote(c.LastUndefined())), nil
}

// enqueue runs enqueue/4 after its guard: is_binary(job_id) and
// is_binary(payload). Anything but a string is refused the way the Elixir
// handle refuses it, before a command is sent.
func (p *Playground) enqueue(a *params) (any, error) {
	queue := a.str(0)
	if a.err != nil {
		return nil, a.err
	}
	id, idOK := a.args[1].(string)
	payload, payloadOK := a.args[2].(string)
	if !idOK || !payloadOK {
		return nil, &emq.GuardError{Function: emq.EnqueueFunction, Reason: "the id and the payload must be binaries (strings)"}
	}
	o, err := p.jobs.Enqueue(queue, id, payload)
	if err == nil && o.Verdict == emq.Enqueued {
		p.minted(queue, id)
	}
	return p.outcomeJSON(o), err
}

// maxClock is the last millisecond of the year 9999: a clock beyond it
// cannot be shown as a date.
const maxClock = 253402300799999

func (p *Playground) scripts() []Object {
	all := lua.All()
	out := make([]Object, len(all))
	for i, s := range all {
		moves := make([]Object, len(s.Moves))
		for j, m := range s.Moves {
			moves[j] = Object{"move": m.N, "name": m.Name, "first": m.First, "last": m.Last}
		}
		out[i] = Object{"name": s.Name, "sha": s.SHA, "source": s.Source, "moves": moves}
	}
	return out
}

// changed names the keys of stamps (as a trace returned them) that were
// written since: what the stepper's "changed" notice asks.
func (p *Playground) changed(a *params) (any, error) {
	m, ok := a.args[0].(map[string]any)
	if !ok {
		return nil, argsf("stamps must be an object of key to stamp, as trace() returns, got %s", typeName(a.args[0]))
	}
	stamps := make(map[string]string, len(m))
	for k, v := range m {
		s, ok := v.(string)
		if !ok {
			return nil, argsf("stamps[%q] must be a string, got %s", k, typeName(v))
		}
		stamps[k] = s
	}
	return Object{"changed": p.engine.Changed(stamps)}, nil
}
