package rdb

import "errors"

// Functions' payloads: FUNCTION DUMP writes each library as the opcode
// RDB_OPCODE_FUNCTION2 and its code as an RDB string (LZF-compressed as
// any other), then the footer every payload has, the RDB version and the
// CRC-64. FUNCTION RESTORE reads them back.

// opFunction2 is a library of Redis 7.0's GA format: its code alone.
// opFunction is the format of 7.0's release candidates (name, engine,
// description and code), which 7.0 refuses.
const (
	opFunction2 = 245
	opFunction  = 246
)

// The errors FUNCTION RESTORE answers for a payload it cannot read, in
// Redis 7.0's words (ErrChecksum as well).
var (
	ErrNotFunction = errors.New("ERR given type is not a function")
	ErrPreGA       = errors.New("ERR Pre-GA function format not supported")
	ErrNoType      = errors.New("ERR can not read data type")
	ErrLibrary     = errors.New("ERR Failed loading library payload")
)

// DumpFunctions is FUNCTION DUMP's payload for libraries of these codes,
// in this order.
func DumpFunctions(codes []string) string {
	var w writer
	for _, c := range codes {
		w.b = append(w.b, opFunction2)
		w.str(c)
	}
	w.b = appendLE(w.b, Version, 2)
	return string(appendLE(w.b, CRC64(string(w.b)), 8))
}

// LoadFunctions reads a FUNCTION RESTORE payload: the footer first, then
// the libraries' codes up to it.
func LoadFunctions(p string) ([]string, error) {
	n := len(p)
	if n < 10 || le(p[n-10:n-8]) > Version || le(p[n-8:]) != CRC64(p[:n-8]) {
		return nil, ErrChecksum
	}
	r := reader{b: p[:n-10]}
	var codes []string
	for r.p < len(r.b) {
		switch r.take(1)[0] {
		case opFunction2:
		case opFunction:
			return nil, ErrPreGA
		default:
			return nil, ErrNotFunction
		}
		c := r.str()
		if r.bad {
			return nil, ErrLibrary
		}
		codes = append(codes, c)
	}
	return codes, nil
}
