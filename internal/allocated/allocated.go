// Package allocated measures how many bytes of Go heap a piece of code
// allocates, for tests that hold a start-up cost down (an engine per
// keyspace, a keyspace per embed) without timing anything.
package allocated

import "runtime"

// Bytes runs f once, after a garbage collection, and returns the bytes it
// allocated (runtime.MemStats.TotalAlloc before and after). Allocations
// that f's callee makes once per process should be made before, by the
// caller, so that they do not count.
func Bytes(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
