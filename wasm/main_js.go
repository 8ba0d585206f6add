//go:build js && wasm

// Command echomq is the playground's WebAssembly module. It only bridges:
// its exports move one call's JSON text into the Go program and the
// result's text back out, and api.Module does the rest (the buffers, their
// caps, the call). The JS half, which makes globalThis.echomq over these
// exports (or globalThis[ECHOMQ_GLOBAL] from go.env, for a benchmark
// running two builds), is publish() in web/assets/worker-bridge.js.
//
// Why exports and not syscall/js: a js.FuncOf function cost about 12 µs a
// call from JS before it did any work (the call wakes a goroutine and
// parks it again through the runtime's event loop, and every js.Value it
// touches gets a finalizer); an exported function costs about 0.05 µs.
//
// Every address and length crosses as a uint32: linear memory is 4 GiB,
// and an address past 2 GiB read as an int32 is negative (JS reads each
// i32 result as signed; publish takes it >>> 0).
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
	out    []byte // the last result, which JS reads in place (echomq_result)
	busy   bool   // a call is running
)

func main() {
	module = api.NewModule()
	// main must not return: the exports work only while the Go program runs.
	select {}
}

// address is where b's bytes start in the module's linear memory, or 0 for
// no bytes. Go's collector does not move objects, and the module holds
// the buffers it hands out until the next call.
func address(b []byte) uint32 { return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(b)))) }

// hello writes api.Module.Hello as the result and returns its length.
//
//go:wasmexport echomq_hello
func hello() uint32 {
	out = module.Hello()
	return uint32(len(out))
}

// buffer makes room for a request of n bytes and returns where JS is to
// write it, or 0 when the module refuses a request that long (echomq_call
// then answers why).
//
//go:wasmexport echomq_buffer
func buffer(n uint32) uint32 { return address(module.Request(int(n))) }

// call runs the request of n bytes in the buffer and returns the length of
// its result, or 0 if a call is still running (see the package comment).
//
//go:wasmexport echomq_call
func call(n uint32) uint32 {
	if busy {
		return 0
	}
	busy = true
	out = module.Answer(int(n))
	busy = false
	return uint32(len(out))
}

// result returns where the last result starts.
//
//go:wasmexport echomq_result
func result() uint32 { return address(out) }
