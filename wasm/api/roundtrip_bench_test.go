package api

import (
	"strconv"
	"testing"
)

// BenchmarkRoundTrip is one enqueue and one claim through the JS API's Go
// side at depth 10: what the page's round trip costs before the bridge.
func BenchmarkRoundTrip(b *testing.B) {
	p := New()
	id := 0
	enqueue := func() {
		id++
		p.Call("enqueue", []any{"q", "JOB" + strconv.Itoa(id), "payload"})
	}
	for range 10 {
		enqueue()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		enqueue()
		p.Call("claim", []any{"q", float64(30000)})
	}
}

// BenchmarkServeRoundTrip is the same round trip as the WebAssembly module
// runs it: the request's JSON text read, the call made and its result
// written as JSON into a buffer kept from call to call, as
// wasm/main_js.go keeps it. Only the bridge's copying is left out.
func BenchmarkServeRoundTrip(b *testing.B) {
	m := NewModule()
	var out []byte
	id := 0
	enqueue := func() {
		id++
		out = m.Serve(out[:0], []byte(`["enqueue",["q","JOB`+strconv.Itoa(id)+`","payload"]]`))
	}
	for range 10 {
		enqueue()
	}
	claim := []byte(`["claim",["q",30000]]`)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		enqueue()
		out = m.Serve(out[:0], claim)
	}
}
