//go:build js && wasm && wire

package main

// The exports of the module's RESP side (api.Module.Wire), for a listener
// that moves a TCP connection's bytes in and out (wasm/listen.mjs).
//
// Only a module built with -tags wire has them: the tests build one (the
// suite's wasm target, wasm/listen.test.mjs); the site's module does not,
// and without these exports nothing reaches package wasm/wire, which the
// linker leaves out (about 7 KB of brotli a learner does not download). Like
// echomq_call they only move bytes: the request goes in the buffer of
// echomq_buffer, the reply comes back in the result of echomq_result.

// wireRefused is what echomq_wire gives for a call that came in while
// another was unfinished (see busy).
const wireRefused = -1 << 31

// wireCall feeds the n bytes in the buffer to connection conn and returns
// the length of what the server wrote back, or -(length+1) when the
// connection is to be closed once that is written.
//
//go:wasmexport echomq_wire
func wireCall(conn, n int32) int32 {
	if busy {
		return wireRefused
	}
	busy = true
	var closed bool
	out, closed = module.WireAnswer(conn, int(n))
	busy = false
	if closed {
		return -int32(len(out)) - 1
	}
	return int32(len(out))
}

// wireClose forgets connection conn, whose client hung up.
//
//go:wasmexport echomq_wire_close
func wireClose(conn int32) { module.WireClose(conn) }
