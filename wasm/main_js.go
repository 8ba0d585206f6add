//go:build js && wasm

// Command echomq is the playground's WebAssembly module. It only bridges:
// its exports move one call's JSON text into the Go program and the
// result's text back out, and api.Module does the rest. The JS half, which
// makes globalThis.echomq over these exports (or globalThis[ECHOMQ_GLOBAL]
// from go.env, for a benchmark running two builds), is publish() in
// web/assets/worker.js.
//
// Why exports and not syscall/js: a js.FuncOf function cost about 12 µs a
// call from JS before it did any work (the call wakes a goroutine and
// parks it again through the runtime's event loop, and every js.Value it
// touches gets a finalizer); an exported function costs about 0.05 µs.
//
// An export must never park: with no other goroutine to run, the Go
// runtime would return to JS in the middle of the call (the export gives
// 0), and resume it later from a timer, on a stack that is gone, which
// crashes the program. Nothing on the call path waits for a channel, a
// timer or JS; busy refuses a call that comes in while one is unfinished,
// and the JS half treats a 0 as an engine that has stopped. A yield is not
// a park: api.Module.Serve gives the scheduler a turn every CollectorTurn
// calls, and the export's goroutine stays runnable through it, so the
// runtime comes back to it before it returns to JS.
package main

import (
	"unsafe"

	"echomq.dev/playground/wasm/api"
)

var (
	module *api.Module
	in     []byte // the request, which JS writes in place (echomq_buffer)
	out    []byte // the last result, which JS reads in place (echomq_result)
	busy   bool   // a call is running
)

// keep is the largest buffer kept from one call to the next: a 1 MiB
// payload should not hold 1 MiB (twice) for the rest of the page's life.
const keep = 1 << 20

func main() {
	module = api.NewModule()
	// main must not return: the exports work only while the Go program runs.
	select {}
}

// address is where b's bytes start in the module's linear memory. Go's
// collector does not move objects, and in and out hold theirs.
func address(b []byte) int32 { return int32(uintptr(unsafe.Pointer(unsafe.SliceData(b)))) }

// hello writes api.Module.Hello as the result and returns its length.
//
//go:wasmexport echomq_hello
func hello() int32 {
	out = module.Hello()
	return int32(len(out))
}

// buffer makes room for a request of n bytes and returns where JS is to
// write it.
//
//go:wasmexport echomq_buffer
func buffer(n int32) int32 {
	if n < 0 {
		n = 0
	}
	if int(n) > cap(in) || cap(in) > keep {
		in = make([]byte, max(int(n), 256))
	}
	in = in[:n]
	return address(in[:cap(in)])
}

// call runs the request of n bytes in the buffer and returns the length of
// its result, or 0 if a call is still running (see the package comment).
//
//go:wasmexport echomq_call
func call(n int32) int32 {
	if busy {
		return 0
	}
	busy = true
	if cap(out) > keep {
		out = nil
	}
	req := in[:min(max(int(n), 0), len(in))]
	out = module.Serve(out[:0], req)
	busy = false
	return int32(len(out))
}

// result returns where the last result starts.
//
//go:wasmexport echomq_result
func result() int32 { return address(out[:cap(out)]) }
