//go:build !cgo

package libc

// Available reports whether the C library is linked: not in this build
// (no cgo, as in js/wasm), where every function panics.
const Available = false

func Printf(format string, f float64) string                        { panic("libc: built without cgo") }
func Strtod(s string) (float64, int, bool)                          { panic("libc: built without cgo") }
func IncrByFloat(cur string, hasCur bool, inc string) (string, int) { panic("libc: built without cgo") }
func RedisDouble(s string) (float64, bool)                          { panic("libc: built without cgo") }
func ZslBound(s string) (float64, bool, bool)                       { panic("libc: built without cgo") }
func PrintfLong(format string, v int64) string                      { panic("libc: built without cgo") }
