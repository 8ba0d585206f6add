// Package api is the JavaScript API of the playground, in plain Go: every
// method of globalThis.echomq takes JSON-like arguments (string, float64,
// bool, nil, []any, map[string]any) and returns a value that marshals to
// the plain object the caller gets. The bridge (wasm/main_js.go and
// publish in web/assets/worker-bridge.js) only moves JSON text, which Module
// reads and writes; every check and every decision is here,
// where host tests can reach it.
//
// The contract is written down in wasm/echomq.d.ts; keep the two in step.
package api

import (
	"errors"
	"fmt"

	"echomq.dev/playground/wasm/emq"
	"echomq.dev/playground/wasm/engine"
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
