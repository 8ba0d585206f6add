package api

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
)

// Module is the playground as the WebAssembly module serves it to its JS
// half (the bridge in web/assets/worker.js): one JSON text in per call,
// one JSON text out. A call from JS through a //go:wasmexport function
// costs well under a microsecond, where a syscall/js function cost about
// 12 µs before it did anything (a goroutine woken and parked, and a
// js.Value with a finalizer per argument); passing text keeps the bridge
// to copying bytes, and every decision here, where host tests reach it.
type Module struct {
	keyspaces *Keyspaces
	requests  requestReader
	failed    error // why the engine refused to start (Start), or nil
	calls     int   // calls served, for the collector's turn (see Serve)
	wires     wires // the RESP server's connections (see Wire)
}

// NewModule returns the module's keyspaces, or, when the engine refuses to
// start, a module that says why and serves nothing. It sets the module's
// garbage collection policy first (see GCPercent).
func NewModule() *Module {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(GCPercent)
	}
	if err := Start(); err != nil {
		return &Module{failed: err}
	}
	return &Module{keyspaces: NewKeyspaces()}
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
	b, err := appendJSON(out, result)
	if err != nil {
		b, _ = appendJSON(out, Object{"error": "internal", "message": err.Error()})
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
	method, args, err := m.requests.read(req)
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

// readRequest reads [method, args] and turns args from their wire form
// into the JSON-like values Call takes.
func readRequest(req []byte) (string, []any, error) {
	v, err := decodeJSON(req)
	if err != nil {
		return "", nil, err
	}
	raw, _ := v.([]any)
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
