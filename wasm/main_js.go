//go:build js && wasm

// Command echomq is the playground's WebAssembly module. This is the only
// file in the repository that imports syscall/js, and it only bridges: it
// turns JS arguments into plain Go values, calls api.Playground.Call, and
// turns the result back into a plain JS object through JSON. Every check
// and decision lives in package api, where host tests reach it.
package main

import (
	"encoding/json"
	"os"
	"syscall/js"

	"echomq.dev/playground/wasm/api"
)

func main() {
	obj := js.Global().Get("Object").New()
	obj.Set("version", api.BuildInfo())
	// A global name: see the end of main.
	name := os.Getenv("ECHOMQ_GLOBAL")
	if name == "" {
		name = "echomq"
	}
	// An engine that refuses to start publishes only its reason, which the
	// worker turns into the page's failure panel (see api.Start).
	if err := api.Start(); err != nil {
		obj.Set("failed", err.Error())
		js.Global().Set(name, obj)
		select {}
	}
	keyspaces := api.NewKeyspaces()
	p := keyspaces.Default()
	parse := js.Global().Get("JSON").Get("parse")
	// bridge makes one JS function of a Go one that takes the converted
	// arguments and returns the result object.
	bridge := func(run func(in []any) any) js.Func {
		return js.FuncOf(func(_ js.Value, args []js.Value) (result any) {
			// A panic here would end the Go program and every later call
			// with it; answer {error:"internal"} instead.
			defer func() {
				if v := recover(); v != nil {
					result = parse.Invoke(`{"error":"internal","message":"the bridge could not convert a value"}`)
				}
			}()
			in := make([]any, len(args))
			for i, a := range args {
				in[i] = fromJS(a, 0)
			}
			out, err := api.MarshalJSON(run(in))
			if err != nil {
				out, _ = json.Marshal(api.Object{"error": "internal", "message": err.Error()})
			}
			return parse.Invoke(string(out))
		})
	}
	for _, name := range api.Methods {
		obj.Set(name, bridge(func(in []any) any { return p.Call(name, in) }))
	}
	obj.Set("call", bridge(keyspaces.Call))
	obj.Set("drop", bridge(keyspaces.Drop))
	// A page always gets globalThis.echomq. ECHOMQ_GLOBAL (set through
	// wasm_exec's go.env) lets a benchmark load two builds side by side.
	js.Global().Set(name, obj)
	// Go's main must never return: the functions above live only as long
	// as the Go runtime does.
	select {}
}

// fromJS converts a JS value into the JSON-like Go value package api takes.
// Values with no JSON form become api.Foreign carrying their typeof.
func fromJS(v js.Value, depth int) any {
	t, known := typeOf(v)
	if !known {
		return api.Foreign("a bigint")
	}
	switch t {
	case js.TypeNull:
		return nil
	case js.TypeBoolean:
		return v.Bool()
	case js.TypeNumber:
		return v.Float()
	case js.TypeString:
		return v.String()
	case js.TypeObject:
		if depth > 32 {
			return api.Foreign("a nested object")
		}
		if js.Global().Get("Array").Call("isArray", v).Bool() {
			out := make([]any, v.Length())
			for i := range out {
				out[i] = fromJS(v.Index(i), depth+1)
			}
			return out
		}
		names := js.Global().Get("Object").Call("keys", v)
		out := make(map[string]any, names.Length())
		for i := 0; i < names.Length(); i++ {
			name := names.Index(i).String()
			out[name] = fromJS(v.Get(name), depth+1)
		}
		return out
	}
	return api.Foreign(v.Type().String())
}

// typeOf is v.Type(), which panics for a type syscall/js does not know
// (a BigInt); known is false then.
func typeOf(v js.Value) (t js.Type, known bool) {
	defer func() {
		if recover() != nil {
			known = false
		}
	}()
	return v.Type(), true
}
