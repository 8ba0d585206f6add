// Package api is the JavaScript API of the playground, in plain Go: every
// method of globalThis.echomq takes JSON-like arguments (string, float64,
// bool, nil, []any, map[string]any) and returns a value that marshals to
// the plain object the caller gets. The bridge (wasm/main_js.go and
// publish in web/assets/worker.js) only moves JSON text, which Module
// reads and writes; every check and every decision is here,
// where host tests can reach it.
//
// The contract is written down in wasm/echomq.d.ts; keep the two in step.
package api

import (
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"

	"echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/cli"
	"echomq.dev/playground/wasm/docs"
	"echomq.dev/playground/wasm/emq"
	"echomq.dev/playground/wasm/engine"
	"echomq.dev/playground/wasm/resp"
)

// Version names this build of the playground and the Redis it answers as.
const Version = "0.1.0 (Redis " + engine.RedisVersion + " replies)"

// Methods lists the functions of globalThis.echomq, in the order the
// contract documents them: the names of the methods table, which is what
// Playground.call runs. wasm/echomq.d.ts and web/assets/permalink.js name
// them again; methods_test.go fails when one of them has a method the
// others lack.
var Methods = served[:len(methods):len(methods)]

// Playground is one engine and the handles over it: what one page holds.
type Playground struct {
	engine  *engine.Engine
	jobs    *emq.Jobs
	console *engine.Client
	// highest is the highest JOB-n known to have a row, per queue: where
	// the next fresh id starts (see highestJob).
	highest map[string]*highest
	named   map[string]*engine.Client // exec's named connections
	params  params                    // the running call's (see call)
	lease   lease                     // the last claim's, with its text (see claim)
	options Options
}

// maxConnections bounds exec's named connections: a page names a few (one
// per worker of the two-workers view); a caller naming a new one per call
// would otherwise hold connections without end.
const maxConnections = 8

// connection is exec's connection called name, opened on first use. Each
// is a client of its own, with its own transaction and watched keys, so
// two workers can each WATCH and MULTI as two Redis clients would.
func (p *Playground) connection(name string) (*engine.Client, error) {
	if c := p.named[name]; c != nil {
		return c, nil
	}
	if name == "" || len(name) > 32 {
		return nil, argsf("exec(args, connection): connection must name a connection in 1 to 32 bytes, got %d", len(name))
	}
	if len(p.named) >= maxConnections {
		return nil, argsf("exec(args, connection): at most %d named connections, and %q would be one more", maxConnections, name)
	}
	if p.named == nil {
		p.named = map[string]*engine.Client{}
	}
	c := p.engine.NewClient()
	p.named[name] = c
	return c, nil
}

// engineReady is engine.Ready; a test swaps it for a check that fails.
var engineReady = engine.Ready

// Start reports whether a playground can run at all: nil, or why the
// engine refuses to (its Lua 5.1 hook did not install). The WebAssembly
// module asks it before anything else and publishes the reason for the
// page's failure panel, instead of serving scripts without their limits.
func Start() error {
	if err := engineReady(); err != nil {
		return fmt.Errorf("the engine refuses to start: %w", err)
	}
	return nil
}

// New returns a playground with a fresh engine. It is called once Start
// has said the engine can run, so it panics when it cannot (engine.MustNew)
// rather than make every caller handle an error it has been told of.
func New(opts ...Options) *Playground {
	p := &Playground{options: option(opts)}
	p.start()
	return p
}

// start gives the playground its engine. The handles, exec and the
// console each get a connection of their own, as separate clients of one
// Redis would: a learner's HELLO 3 at the console changes only the
// console's replies.
func (p *Playground) start() {
	// The page must answer in bounded time whatever machine it is on: a
	// script is also stopped at engine.LastResort, far past its work budget.
	e := engine.MustNewWith(engine.Options{LastResort: engine.LastResort})
	p.engine, p.jobs, p.console = e, emq.NewJobs(e.NewClient()), e.NewClient()
}

// Engine is the engine under the API, for tests and benchmarks.
func (p *Playground) Engine() *engine.Engine {
	if p.engine == nil {
		p.start()
	}
	return p.engine
}

// Object is what every call returns: a JSON object.
type Object = map[string]any

// argsError is a caller's mistake: wrong count or type of arguments.
type argsError struct{ msg string }

func (e *argsError) Error() string { return e.msg }

func argsf(format string, a ...any) error { return &argsError{fmt.Sprintf(format, a...)} }

// Call runs one method. It never panics: a wrong argument gives
// {error:"args"}, a bug gives {error:"internal"}, and the engine keeps
// serving either way.
func (p *Playground) Call(method string, args []any) (out any) {
	defer func() {
		if v := recover(); v != nil {
			out = Object{"error": "internal", "message": fmt.Sprintf("%s: %v", method, v)}
		}
	}()
	out, err := p.call(method, args)
	if err != nil {
		return p.errorObject(err)
	}
	return out
}

// errorObject is errorObject(err), with a refusal's wire as plain values
// under Options.Reference.
func (p *Playground) errorObject(err error) Object {
	o := errorObject(err)
	var refusal *emq.Refusal
	if p.options.Reference && errors.As(err, &refusal) && refusal.Wire != nil {
		o["wire"] = plainValue(plainWire(refusal.Wire))
	}
	return o
}

func errorObject(err error) Object {
	var ae *argsError
	var refusal *emq.Refusal
	var guard *emq.GuardError
	var deep tooDeep
	var long tooLong
	switch {
	case errors.As(err, &guard):
		// No wire: a call that fails the handle's guard sends nothing.
		return Object{"error": "guard", "function": guard.Function, "message": guard.Error(), "reason": guard.Reason}
	case errors.As(err, &ae):
		return Object{"error": "args", "message": ae.msg}
	case errors.As(err, &deep):
		return Object{"error": "depth", "message": deep.Error()}
	case errors.As(err, &long):
		return Object{"error": "size", "message": long.Error()}
	case errors.As(err, &refusal):
		o := Object{"error": refusal.Kind, "message": refusal.Reply.Str}
		if refusal.Wire != nil {
			w, _ := appendWire(nil, refusal.Wire) // the handles' replies are flat
			o["wire"] = replyValue(w)
		}
		return o
	}
	return Object{"error": "internal", "message": err.Error()}
}

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

// cli runs one line typed at the console's prompt, as redis-cli would:
// split into arguments, sent on the console's connection, and the reply
// formatted as redis-cli prints it. A line redis-cli would refuse to send
// comes back as {error:"syntax"} with redis-cli's words; a blank line
// sends nothing and prints nothing, as at redis-cli's prompt.
func (p *Playground) cli(line string) Object {
	args, err := cli.Split(line)
	if err != nil {
		return Object{"error": "syntax", "message": err.Error()}
	}
	if len(args) == 0 {
		return Object{"args": []string{}, "text": ""}
	}
	if isHelp(args) {
		return help(args[1:])
	}
	r, _ := p.console.Do(args...)
	// The depth is checked before the text is made: a deep reply of
	// two-element arrays would print as megabytes of indent.
	reply, err := p.replyJSON(r)
	if err != nil {
		return p.errorObject(err)
	}
	out := Object{"args": args, "reply": reply, "text": cli.Format(r)}
	note := joinNotes(stoppedNote(p.console.LastStop(), p.engine.ScriptWork()), undefinedNote(p.console.LastUndefined()))
	if ms := p.console.LastUnwaited(); ms > 0 {
		note = joinNotes(unwaitedNote(args[0], ms), note)
	}
	if note != "" {
		out["note"] = note
	}
	return out
}

// isHelp reports whether a console line's arguments are redis-cli's help,
// which it answers itself and sends nothing for.
func isHelp(args []string) bool { return ascii.EqualFold(args[0], "help") }

// help answers redis-cli's `help <command>` for the lesson's commands, as
// redis-cli does: on the client, sending nothing (so args is empty and no
// widget needs to look at the keyspace again). command names the card
// the page can open beside it.
func help(topic []string) Object {
	if len(topic) == 0 {
		return Object{"args": []string{}, "text": "To get help about a command the lesson uses, type \"help <command>\", for example \"help ZPOPMIN\".\n" +
			"The console knows: " + strings.Join(docs.Names(), ", ") + "."}
	}
	c, ok := docs.Lookup(strings.Join(topic, " "))
	if !ok {
		return Object{"args": []string{}, "text": "", "note": "The playground's help covers the commands the lesson uses: " + strings.Join(docs.Names(), ", ") + "."}
	}
	return Object{"args": []string{}, "text": docs.Help(c), "command": c.Name}
}

// stoppedNote tells a learner, in plain words, what the SCRIPT KILL error
// of a script the engine stopped means here, or "" when the engine stopped
// none (a script may return those words itself). The engine's runner says
// which budget stopped it, not how long the call took.
// (strconv, not fmt: package init runs on every page load.)
func stoppedNote(why engine.Stop, work uint64) string {
	var what string
	switch why {
	case engine.StoppedByWork:
		what = "once it had done " + inWords(work) + " steps of work (its budget, the same on every machine)"
	case engine.StoppedByClock:
		what = "after " + lastResortInWords() + ", the longest the page waits for a script on a machine too busy to reach its work budget"
	default:
		return ""
	}
	return "The playground stopped this script " + what + ", as Redis's SCRIPT KILL would. " +
		"Anything it wrote before then stays in the keyspace: nothing is rolled back. " +
		"(A real Redis refuses SCRIPT KILL once a script has written; only SHUTDOWN NOSAVE would stop it then.)"
}

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

// BuildInfo is Version with the miniredis and gopher-lua module versions
// this binary was built with, when Go recorded them.
func BuildInfo() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return Version
	}
	var deps []string
	for _, d := range info.Deps {
		switch d.Path {
		case "github.com/alicebob/miniredis/v2", "github.com/yuin/gopher-lua":
			deps = append(deps, d.Path[strings.LastIndex(strings.TrimSuffix(d.Path, "/v2"), "/")+1:]+" "+d.Version)
		}
	}
	if len(deps) == 0 {
		return Version
	}
	return Version + " · " + strings.Join(deps, ", ")
}

// --- results -------------------------------------------------------------

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

// snapshot is a queue as the page draws it: whole, or with a limit its
// lists' ends (emq.Jobs.Window), with the id "a fresh id" means.
func (p *Playground) snapshot(queue string, limit int) (Object, error) {
	s, err := p.jobs.Window(queue, limit)
	if err != nil {
		return nil, err
	}
	k, _ := emq.KeyspaceFor(queue) // Window has checked the name
	fresh, err := p.freshID(k, s)
	if err != nil {
		return nil, err
	}
	out := snapshotJSON(s)
	out["fresh"] = fresh
	out["counts"] = Object{"pending": s.Counts.Pending, "active": s.Counts.Active, "rows": s.Counts.Rows}
	gaps := Object{}
	for name, g := range map[string]emq.Gap{"pending": s.Gaps.Pending, "active": s.Gaps.Active, "rows": s.Gaps.Rows} {
		if g.Count > 0 {
			gaps[name] = Object{"at": g.At, "count": g.Count}
		}
	}
	out["gaps"] = gaps
	if s.RowsOfSets {
		out["rowsOfSets"] = true
	}
	out["slots"] = slotsJSON(queue)
	return out, nil
}

func snapshotJSON(s emq.Snapshot) Object {
	pending := make([]Object, len(s.Pending))
	for i, p := range s.Pending {
		pending[i] = Object{"id": p.ID, "score": p.Score}
	}
	active := make([]Object, len(s.Active))
	for i, a := range s.Active {
		active[i] = Object{"id": a.ID, "deadline": a.Deadline}
	}
	rows := make([]Object, len(s.Rows))
	for i, r := range s.Rows {
		rows[i] = Object{"id": r.ID, "state": r.State, "attempts": r.Attempts, "payload": r.Payload}
	}
	return Object{"now": s.Now, "paused": s.Paused, "pending": pending, "active": active, "rows": rows}
}

// slotsJSON is where a Redis Cluster would put the queue's keys, for the
// page's slot line: each key the handles and scripts touch, with the slot
// CLUSTER KEYSLOT answers for it, and the two keys @claim declares spelt
// without the tag, to show what the tag is for.
func slotsJSON(queue string) Object {
	k, err := emq.KeyspaceFor(queue)
	if err != nil {
		return nil
	}
	slot := func(keys ...string) []Object {
		out := make([]Object, len(keys))
		for i, key := range keys {
			out[i] = Object{"key": key, "slot": engine.KeySlot(key)}
		}
		return out
	}
	bare := "emq:" + queue + ":"
	return Object{
		"tag":      "{" + queue + "}",
		"keys":     slot(k.Job("…"), k.Pending(), k.Active(), k.Paused()),
		"untagged": slot(bare+"pending", bare+"active"),
	}
}

// --- arguments -----------------------------------------------------------

func arity(method, params string, args []any, min, max int) error {
	if len(args) >= min && len(args) <= max {
		return nil
	}
	want := fmt.Sprintf("%d arguments", min)
	switch {
	case min != max:
		want = fmt.Sprintf("%d to %d arguments", min, max)
	case min == 1:
		want = "1 argument"
	}
	return argsf("%s(%s) takes %s, got %d", method, params, want, len(args))
}

// params reads one call's arguments, each by its parameter's name, and
// keeps the first mistake: after it every read gives the zero value, so a
// method reads all it needs, then checks err once.
type params struct {
	names []string
	args  []any
	err   error
}

// read is one argument read by f, unless an earlier one was wrong.
func read[T any](a *params, i int, f func(v any, name string) (T, error)) T {
	var v T
	if a.err == nil {
		v, a.err = f(a.args[i], a.names[i])
	}
	return v
}

// given reports whether the optional argument i was passed, and not null.
func (a *params) given(i int) bool { return len(a.args) > i && a.args[i] != nil }

func (a *params) str(i int) string       { return read(a, i, text) }
func (a *params) strings(i int) []string { return read(a, i, stringList) }
func (a *params) count(i int) int        { return read(a, i, count) }
func (a *params) millis(i int) int64     { return read(a, i, millis) }

// lease reads claim's leaseMs, whose errors name it themselves.
func (a *params) lease(i int) lease {
	return read(a, i, func(v any, _ string) (lease, error) { return leaseArg(v) })
}

func str(args []any, i int, name string) (string, error) { return text(args[i], name) }

// text is the argument v, called name, that must be a string.
func text(v any, name string) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", argsf("%s must be a string, got %s", name, typeName(v))
	}
	return s, nil
}

func stringList(v any, name string) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, argsf("%s must be an array of strings, got %s", name, typeName(v))
	}
	out := make([]string, len(list))
	for j, v := range list {
		s, ok := v.(string)
		if !ok {
			return nil, argsf("%s[%d] must be a string, got %s", name, j, typeName(v))
		}
		out[j] = s
	}
	return out, nil
}

// lease is claim's lease as claim/3 receives it: an integer (ms), or, for
// a positive integer too big for Go's int64 (an Elixir integer has no
// such bound and passes the guard), its digits (text), which @claim then
// judges as a client that skips the guard would have it judged.
type lease struct {
	ms   int64
	text string
}

// claim runs claim/3 with a lease that passed the guard (leaseArg's, the
// one emq.Jobs.Claim would check again): as ARGV text, its digits. A
// worker claims with the same lease over and over, so the last lease's
// text is kept rather than formatted again.
func (p *Playground) claim(queue string, l lease) (emq.Outcome, error) {
	if l.text == "" && p.options.Reference {
		l.text = strconv.FormatInt(l.ms, 10)
	}
	if l.text == "" {
		if p.lease.ms != l.ms {
			p.lease = lease{l.ms, strconv.FormatInt(l.ms, 10)}
		}
		l.text = p.lease.text
	}
	return p.jobs.ClaimLease(queue, l.text)
}

// integerText reports whether s is a learner's integer as typed: digits,
// perhaps after a minus. A loop, not a regexp: a regexp compiled at package
// init would run Go's regexp compiler (and, in WebAssembly, have V8
// compile it first) on every page load.
func integerText(s string) bool {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}

// leaseArg reads the lease as the Elixir term a learner means: a whole
// number, or text of one (the round trip's field is text), is an integer;
// any other text or a fraction is not, and fails claim/3's is_integer
// guard. A value that is neither a number nor a string is a caller's
// mistake, not a learner's.
func leaseArg(v any) (lease, error) {
	switch v := v.(type) {
	case string:
		if !integerText(v) {
			return lease{}, leaseGuard()
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			if strings.HasPrefix(v, "-") {
				return lease{}, leaseGuard()
			}
			return lease{text: strings.TrimLeft(v, "0")}, nil
		}
		if n <= 0 {
			return lease{}, leaseGuard()
		}
		return lease{ms: n}, nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return lease{}, argsf("leaseMs must be a finite number of milliseconds, got %v", v)
		}
		if v != math.Trunc(v) || v <= 0 {
			return lease{}, leaseGuard()
		}
		if v >= 1<<63 {
			return lease{text: strconv.FormatFloat(v, 'f', -1, 64)}, nil
		}
		return lease{ms: int64(v)}, nil
	}
	return lease{}, argsf("leaseMs must be a number or a string, got %s", typeName(v))
}

// leaseGuard is claim/3's guard failing on the lease. It is made only
// when it fails: a claim that passes it, every claim of a round trip,
// makes nothing.
func leaseGuard() error {
	return &emq.GuardError{Function: emq.ClaimFunction, Reason: "the lease must be an integer greater than 0"}
}

// millis is a clock argument: whole milliseconds from 0 to maxClock.
func millis(v any, name string) (int64, error) {
	f, ok := v.(float64)
	if !ok {
		return 0, argsf("%s must be a number of milliseconds, got %s", name, typeName(v))
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) || f < 0 || f > maxClock {
		return 0, argsf("%s must be a whole number of milliseconds from 0 to %d, got %v", name, int64(maxClock), f)
	}
	return int64(f), nil
}

// typeName names a value the way a JavaScript caller thinks of it.
func typeName(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	case Foreign:
		return string(v)
	}
	return fmt.Sprintf("%T", v)
}

// Foreign stands for a JavaScript value with no JSON form (undefined, a
// function, a symbol, a bigint); the bridge passes its typeof.
type Foreign string
