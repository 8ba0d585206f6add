package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"echomq.dev/playground/wasm/engine"
)

// Module is the playground as the WebAssembly module serves it to its JS
// half (the bridge in web/assets/worker-bridge.js): one JSON text in per call,
// one JSON text out. A call from JS through a //go:wasmexport function
// costs well under a microsecond, where a syscall/js function cost about
// 12 µs before it did anything (a goroutine woken and parked, and a
// js.Value with a finalizer per argument); passing text keeps the bridge
// to copying bytes, and every decision here, where host tests reach it.
type Module struct {
	keyspaces *Keyspaces
	requests  requestReader
	options   Options
	failed    error // why the engine refused to start (Start), or nil
	calls     int   // calls served, for the collector's turn (see Serve)
	wires     wires // the RESP server's connections (see Wire)

	// What Request and Answer hand the bridge: the request's buffer, which
	// JS writes in place, and the last result, which it reads in place.
	in, out []byte
	refused bool // Request refused the request it was asked room for
}

// Options are how a Module, Keyspaces or Playground is made. The zero
// value is the playground the page runs.
type Options struct {
	// Reference takes the plain path wherever package api has a shortcut,
	// so that a test can hold the shortcuts to the answers of the code they
	// replace (TestReferenceAnswersAsTheShortcuts):
	//   - each request is read afresh by readRequest, with no value reused
	//     from the last call (requestReader);
	//   - every result is built as a tree of plain values (no outcome, no
	//     reply written out as text first) and written by encoding/json,
	//     not by appendJSON;
	//   - a claim formats its lease's text each time (Playground.lease);
	//   - the next fresh id is found by listing the rows every time, never
	//     from the highest id seen before (highestJob).
	// The engine under it keeps its own shortcuts: their switch is the
	// engine's (engine's reference option), which a caller sets beside
	// this one.
	Reference bool
}

// option is the Options a constructor was given: none, or the first.
func option(opts []Options) Options {
	if len(opts) == 0 {
		return Options{}
	}
	return opts[0]
}

// NewModule returns the module's keyspaces, or, when the engine refuses to
// start, a module that says why and serves nothing. It sets the module's
// garbage collection policy first (see GCPercent and MemoryLimit).
func NewModule(opts ...Options) *Module {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(GCPercent)
	}
	if runtime.GOARCH == "wasm" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(MemoryLimit)
	}
	o := option(opts)
	if err := Start(); err != nil {
		return &Module{failed: err, options: o}
	}
	return &Module{keyspaces: NewKeyspaces(o), options: o}
}

// MemoryLimit is the module's soft limit on the Go program's memory
// (GOMEMLIMIT), set in WebAssembly only. Linear memory ends at 4 GiB, and
// the runtime dies ("out of memory") when it cannot grow it; under
// GCPercent alone a heap with 1.4 GiB live would not be collected before
// it asked for 4.2. With the limit, the collector runs as the total nears
// 3 GiB, so a learner's keyspace can hold well past 2 GiB (the bridge's
// test fills it to 2.1) and still leave room for a call's garbage.
const MemoryLimit = 3 << 30

// The caps of one call across the bridge. Each error that refuses a call
// for one of them names it.
const (
	// MaxStringBytes is the longest string (in UTF-8 bytes) a call may
	// pass, anywhere in its arguments: the engine's cap on one string
	// (engine.MaxStringBytes, 32 MiB), which Redis puts at 512 MB
	// (proto-max-bulk-len).
	MaxStringBytes = engine.MaxStringBytes
	// MaxRequestBytes is the longest request the bridge may write: one
	// call's [method, args] as JSON. A string at MaxStringBytes takes up
	// to six times its bytes in JSON (a control character is written
	// \u0001), so one always fits, whatever its characters.
	MaxRequestBytes = 256 << 20
	// MaxResultBytes is the longest result handed back, as JSON. A JS
	// string holds at most 2^29-24 characters in V8 (Node, Chromium), and
	// the page copies every result once more to pass it on.
	MaxResultBytes = 256 << 20
)

// keep is the largest buffer kept from one call to the next: a 1 MiB
// payload should not hold 1 MiB (twice) for the rest of the page's life.
const keep = 1 << 20

// Request makes room for a request of n bytes and returns the buffer the
// bridge writes it into, at least n bytes long; or nil, when n is past
// MaxRequestBytes (Answer then says so).
func (m *Module) Request(n int) []byte {
	m.refused = n > MaxRequestBytes || n < 0
	if m.refused {
		return nil
	}
	if n > cap(m.in) || cap(m.in) > keep {
		m.in = make([]byte, max(n, 256))
	}
	m.in = m.in[:n]
	return m.in[:cap(m.in)]
}

// Answer runs the request of n bytes the bridge wrote into Request's
// buffer and returns its result, which stays the module's until the next
// call.
func (m *Module) Answer(n int) []byte {
	if cap(m.out) > keep {
		m.out = nil
	}
	if m.refused || n > len(m.in) || n < 0 {
		m.refused = false
		m.out, _ = appendJSON(m.out[:0], errorObject(requestTooLong(n)))
		return m.out
	}
	m.out = m.Serve(m.out[:0], m.in[:n])
	return m.out
}

func requestTooLong(n int) error {
	return argsf("this call's arguments are %d bytes as JSON, more than the %d MiB the playground takes in one call (and a string may be at most %d MiB); nothing was run",
		n, MaxRequestBytes>>20, MaxStringBytes>>20)
}

// GCPercent is the module's GOGC: a collection starts once the heap has
// grown by twice what the last one left live, not once (Go's default of
// 100). In WebAssembly the collector has one thread, and it is the
// caller's: it marks by assists inside the very calls that allocate, with
// write barriers on until the cycle ends, and its work per byte allocated
// grows with what is live. With a 10,000-deep queue in the heap beside the
// depth-10 one (as bench/wasm_bench.mjs holds them), the JS-API
// enqueue+claim round trip at depth 10 went from 317 to 244 us (median,
// ~3,000 samples each, interleaved in one Node process under a load of
// ~12) and at depth 10,000 from 297 to 274 us; with only the depth-10
// queue, under the 4 MiB heap Go collects at anyway, it did not move (162
// vs 162 us). 400 gave no more than 200.
//
// The cost is memory: the heap may grow to three times what is live
// instead of two, and a module's linear memory never shrinks. At start it
// is 9.5 MiB either way; after 1,000 round trips it was 17.0 MiB against
// 16.5; with 100,000 jobs in the heap 122.5 MiB against 132.5 (when the
// last collection fell decides that more than the policy); after twelve
// scripts of 10,000 SETs each (FLUSHALL between) 27.0 and 51.3 MiB in two
// runs, against 21.5 and 22.0. A GOGC the host sets (go.env in
// wasm_exec.js) wins, for measuring.
const GCPercent = 200

// Hello is what the bridge publishes as globalThis.echomq before any call:
// the version and the names of the functions to make, in the contract's
// order (Methods, then call and drop); or, from an engine that refused to
// start, the version and the reason (failed), and no functions at all.
func (m *Module) Hello() []byte {
	hello := Object{"version": BuildInfo()}
	if m.failed != nil {
		hello["failed"] = m.failed.Error()
	} else {
		hello["methods"] = served
	}
	out, _ := MarshalJSON(hello)
	return out
}

// Serve runs one call and appends its result, as JSON, to out. req is the
// JSON array [method, args] the bridge wrote, with args in the wire form
// of fromWire. Like every call of the API it never panics: a request it
// cannot read is {error:"internal"}.
func (m *Module) Serve(out, req []byte) []byte {
	result := m.serve(req)
	b, err := m.write(out, result)
	if err == nil && len(b)-len(out) > MaxResultBytes {
		err = tooLong(len(b) - len(out))
	}
	if err != nil {
		b, _ = m.write(out, errorObject(err))
	}
	m.requests.done()
	if m.calls++; m.calls%CollectorTurn == 0 {
		runtime.Gosched()
	}
	return b
}

// CollectorTurn is how many calls Serve answers between two turns it gives
// Go's scheduler, so that the garbage collector's own worker gets to run.
//
// Called through exports, the Go program never reaches its scheduler: each
// call runs to its end on the export's goroutine and returns straight to
// JS, where the old syscall/js bridge went back to the event loop and ran
// whatever was waiting. So a collection that starts in one call is
// finished only by the marking each allocation is charged for, thousands
// of calls later, with the write barrier on all the while. In Node, a run
// of 20,000 round trips at depth 10 went in windows of 2,000 that
// alternated between ~90 and ~130 µs (median 119 µs), and with GOGC=off it
// held at ~88 µs. One turn every 16 calls gave a median of 94-96 µs in
// three runs, every call 103 µs (a turn costs a few µs in wasm), every 64
// 92-100 µs. Natively a turn is a fraction of a microsecond. A long script
// gets its turns from its budget (engine.budget.Done).
const CollectorTurn = 16

func (m *Module) serve(req []byte) (result any) {
	defer func() {
		if v := recover(); v != nil {
			result = Object{"error": "internal", "message": fmt.Sprintf("the bridge could not run the call: %v", v)}
		}
	}()
	if m.failed != nil {
		return Object{"error": "internal", "message": m.failed.Error()}
	}
	read := m.requests.read
	if m.options.Reference {
		read = readRequest
	}
	method, args, err := read(req)
	var ae *argsError
	if errors.As(err, &ae) {
		return errorObject(err)
	}
	if err != nil {
		return Object{"error": "internal", "message": "the bridge could not convert a value: " + err.Error()}
	}
	switch method {
	case "call":
		return m.keyspaces.Call(args)
	case "drop":
		return m.keyspaces.Drop(args)
	}
	return m.keyspaces.Default().Call(method, args)
}

// write appends result to out as JSON: by appendJSON, or under
// Options.Reference by encoding/json, from the plain tree of the result.
func (m *Module) write(out []byte, result any) ([]byte, error) {
	if !m.options.Reference {
		return appendJSON(out, result)
	}
	b, err := json.Marshal(result)
	return append(out, b...), err
}

// tooLong is a result past MaxResultBytes.
type tooLong int

func (n tooLong) Error() string {
	return fmt.Sprintf("The result is %d bytes of JSON, more than the %d MiB the playground hands the page in one answer. "+
		"The command ran, and anything it wrote stays.", int(n), MaxResultBytes>>20)
}

// readRequest reads [method, args] and turns args from their wire form
// into the JSON-like values Call takes.
func readRequest(req []byte) (string, []any, error) {
	d := jsonDecoder{b: req, request: true}
	v, err := d.whole()
	if te, ok := err.(*textError); ok {
		return "", nil, textArgsError(req, te)
	}
	if err != nil {
		return "", nil, err
	}
	raw, _ := v.([]any)
	if thrown, ok := bridgeFailed(raw); ok {
		return "", nil, thrown
	}
	if len(raw) != 2 {
		return "", nil, fmt.Errorf("a request is [method, args], got %d elements", len(raw))
	}
	method, ok := raw[0].(string)
	list, listOK := raw[1].([]any)
	if !ok || !listOK {
		return "", nil, fmt.Errorf("a request is [method, args], got [%s, %s]", typeName(raw[0]), typeName(raw[1]))
	}
	for i, v := range list {
		list[i] = fromWire(v)
	}
	return method, list, nil
}

// bridgeFailed reads the request the bridge sends when it could not write
// a call's arguments as JSON, [method, [], what JS threw], into the error
// the caller gets: arguments too long for one JS string (V8 throws
// "Invalid string length" past 2^29-24 characters) are past
// MaxRequestBytes, an ArgsError that names it; anything else (a getter
// that throws) is the caller's value failing inside the bridge.
func bridgeFailed(raw []any) (error, bool) {
	if len(raw) != 3 {
		return nil, false
	}
	thrown, ok := raw[2].(string)
	if !ok {
		return nil, false
	}
	if strings.Contains(thrown, "Invalid string length") {
		return argsf("this call's arguments are too long for one JS string (%s), more than the %d MiB the playground takes in one call (and a string may be at most %d MiB); nothing was run",
			thrown, MaxRequestBytes>>20, MaxStringBytes>>20), true
	}
	return errors.New(thrown), true
}

// textArgsError is the ArgsError for a string the reader refused (see
// textError), naming the argument it is in as the method's signature
// names it: enqueue(queue, id, payload): id is not valid UTF-16... For
// call(keyspace, method, args), an argument inside args is named as the
// method called names it.
func textArgsError(req []byte, te *textError) error {
	slices.Reverse(te.path)
	path := te.path
	// The request again, with U+FFFD where the refused text was, to read
	// the method's name (and call's method) from.
	v, _ := decodeJSON(req)
	raw, _ := v.([]any)
	j, ok := 0, len(path) >= 2 && path[0] == 1
	if ok {
		j, ok = path[1].(int)
	}
	if !ok || len(raw) != 2 {
		return argsf("the call's method name %s; nothing was run", te.problem)
	}
	method, _ := raw[0].(string)
	args, _ := raw[1].([]any)
	sig, names := signature(method)
	rest := path[2:]
	if method == "call" && j == 2 && len(rest) > 0 && len(args) > 1 {
		inner, _ := args[1].(string)
		if k, ok := rest[0].(int); ok && slices.Contains(Methods, inner) {
			sig, names = signature(inner)
			j, rest = k, rest[1:]
		}
	}
	name := fmt.Sprintf("argument %d", j+1)
	if j < len(names) {
		name = names[j]
	}
	for i := 0; i < len(rest); i++ {
		switch at := rest[i].(type) {
		case int:
			name += fmt.Sprintf("[%d]", at)
		case string:
			// A caller's object comes as {"o": {...}} (fromWire).
			if at == "o" {
				if i+1 == len(rest) {
					continue
				}
				if k, ok := rest[i+1].(string); ok {
					at = k
					i++
				}
			}
			name += fmt.Sprintf("[%q]", at)
		}
	}
	if te.key {
		name = "a key of " + name
	}
	return argsf("%s: %s %s; nothing was run", sig, name, te.problem)
}

// signature is a served method as its errors name it, and its
// parameters' names.
func signature(method string) (string, []string) {
	params := map[string]string{"call": "keyspace, method, args", "drop": "keyspace"}[method]
	for _, m := range methods {
		if m.name == method {
			params = m.params
		}
	}
	if params == "" {
		return method + "()", nil
	}
	return method + "(" + params + ")", strings.Split(params, ", ")
}

// fromWire turns one argument from the form the bridge sends it in back
// into the value the caller passed. JSON alone cannot carry every JS
// value a caller may pass by mistake, and each must still get its own
// clear error, so the bridge wraps what JSON would lose or blur:
//
//   - {"o": {...}}: a JS object (every one, so no object of the caller's
//     can be taken for a wrapper);
//   - {"f": "undefined"}: a value with no JSON form (undefined, a function,
//     a symbol, a bigint, or an object nested past 32 levels), named as
//     typeName names it: an api.Foreign;
//   - {"n": "NaN"}: a number JSON has no digits for (NaN, ±Infinity, -0).
//
// Strings, finite numbers, booleans, null and arrays are plain JSON.
func fromWire(v any) any {
	switch v := v.(type) {
	case []any:
		for i, x := range v {
			v[i] = fromWire(x)
		}
		return v
	case map[string]any:
		if len(v) != 1 {
			break
		}
		if o, ok := v["o"].(map[string]any); ok {
			for k, x := range o {
				o[k] = fromWire(x)
			}
			return o
		}
		if f, ok := v["f"].(string); ok {
			return Foreign(f)
		}
		if n, ok := v["n"].(string); ok {
			if f, err := strconv.ParseFloat(n, 64); err == nil {
				return f
			}
		}
	}
	return v
}
