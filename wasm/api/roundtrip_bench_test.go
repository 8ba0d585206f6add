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
