// Package hll is Redis 7.0's HyperLogLog, byte for byte: the same hash of
// an element, the same 16,384 six-bit registers, the same two encodings of
// them in one string, and the same estimate of how many distinct elements
// were added. A HyperLogLog is a plain string to Redis (TYPE says string,
// GET returns its bytes, APPEND can damage it), so the engine keeps it in
// miniredis as one, and the PF commands read and write it through this
// package.
//
// The string is a 16-byte header and the registers:
//
//	"HYLL"  encoding (0 dense, 1 sparse)  3 unused bytes  cached count (8 bytes, little-endian)
//
// The top bit of the cached count's last byte marks it stale: PFADD and
// PFMERGE set it, and PFCOUNT of one key counts again and writes the count
// back (see Cached). Dense is every register in 6 bits, least significant
// bit first, 12,288 bytes; sparse is a run-length code of three opcodes
// (see sparse.go). A new HyperLogLog is sparse; it turns dense for good
// when a register needs a value sparse cannot hold (over 32) or when the
// string would grow past hll-sparse-max-bytes.
//
// Redis changes the string in place, and where it meets a damaged one it
// stops part way; every function here leaves the string exactly as Redis
// would, changes made before the error included. The one thing not
// followed: reading the second byte of a two-byte opcode that the string
// cuts off, Redis reads the byte past the end of its buffer, which is 0
// unless that buffer was once longer; here it is always 0.
package hll

import (
	"errors"
	"unsafe"
)

const (
	// Registers is how many registers a HyperLogLog has: the low 14 bits
	// of an element's hash choose one.
	Registers = 1 << indexBits
	indexBits = 14
	// runBits is what is left of the 64-bit hash for the run of zeros.
	runBits = 64 - indexBits

	// HeaderSize is the header's length; DenseSize the whole dense string.
	HeaderSize = 16
	DenseSize  = HeaderSize + Registers*6/8

	// SparseMaxBytes is Redis's default hll-sparse-max-bytes: a sparse
	// string that would grow past it is made dense.
	SparseMaxBytes = 3000

	dense  = 0
	sparse = 1

	staleBit = 0x80 // in h[15], the cached count's top byte
)

// The errors PFADD, PFCOUNT, PFMERGE and PFDEBUG answer, in Redis's words.
var (
	// ErrNotHLL: a string that does not pass Redis's checks (see Valid).
	ErrNotHLL = errors.New("WRONGTYPE Key is not a valid HyperLogLog string value.")
	// ErrCorrupt: a sparse string whose opcodes do not cover the registers
	// exactly once, found while reading it.
	ErrCorrupt = errors.New("INVALIDOBJ Corrupted HLL object detected")
)

// Valid reports whether Redis takes the string s for a HyperLogLog, as it
// checks one before every PF command: the header is there, starts with
// "HYLL", names one of the two encodings, and a dense string has exactly
// the dense length. A sparse string's opcodes are not read here; the
// command that reads them finds out.
func Valid(s string) bool {
	return len(s) >= HeaderSize && s[:4] == "HYLL" && s[4] <= sparse &&
		(s[4] == sparse || len(s) == DenseSize)
}

// IsDense reports whether a valid HyperLogLog is dense.
func IsDense(s string) bool { return s[4] == dense }

// New is a new HyperLogLog as PFADD and PFMERGE leave one that nothing
// was added to: sparse, one XZERO opcode over every register, and its
// count marked stale (both commands mark it after writing).
func New() []byte {
	h := make([]byte, HeaderSize, HeaderSize+2+3)
	copy(h, "HYLL")
	h[4] = sparse
	h[15] = staleBit
	return putRun(h, 0, Registers)
}

// Cached is the count a PFCOUNT of this one key answers without counting,
// and false when it is stale.
func Cached(s string) (uint64, bool) {
	if s[15]&staleBit != 0 {
		return 0, false
	}
	var n uint64
	for i := 15; i >= 8; i-- {
		n = n<<8 | uint64(s[i])
	}
	return n, true
}

// SetCached writes n as h's count, no longer stale, as PFCOUNT does after
// counting.
func SetCached(h []byte, n uint64) {
	for i := 8; i < 16; i++ {
		h[i] = byte(n)
		n >>= 8
	}
}

func markStale(h []byte) { h[15] |= staleBit }

// Add adds the elements to the HyperLogLog h as PFADD does, one after the
// other, and returns the string and whether a register changed (PFADD's
// 1). The string may be a new one: a sparse HyperLogLog is made dense when
// it must be, at maxSparse bytes (hll-sparse-max-bytes). When an element
// cannot be placed in a damaged sparse string, Add stops there with
// ErrCorrupt and the string as the elements before it left it; otherwise a
// change marks the count stale.
func Add(h []byte, elems []string, maxSparse int) ([]byte, bool, error) {
	changed := false
	for _, el := range elems {
		i, run := Position(el)
		var up bool
		var err error
		if h[4] == dense {
			up = raise(h[HeaderSize:], i, run)
		} else if h, up, err = sparseRaise(h, i, run, maxSparse); err != nil {
			return h, changed, err
		}
		changed = changed || up
	}
	if changed {
		markStale(h)
	}
	return h, changed, nil
}

// Count is the estimated number of distinct elements added to a valid
// HyperLogLog, counted from its registers (the cache is not read), or
// ErrCorrupt for a sparse string whose opcodes do not cover the registers
// exactly.
func Count(s string) (uint64, error) {
	var hist histogram
	if s[4] == dense {
		for i := range Registers {
			hist[register(s[HeaderSize:], i)]++
		}
		return hist.estimate(), nil
	}
	o := opcodes{s: s}
	for run, v := o.next(); run > 0; run, v = o.next() {
		hist[v] += run
	}
	if !o.whole() {
		return 0, ErrCorrupt
	}
	return hist.estimate(), nil
}

// Union is the registers of several HyperLogLogs merged, each the highest
// of theirs: what PFCOUNT of several keys counts and PFMERGE stores. The
// zero Union is empty.
type Union [Registers]uint8

// Add merges the valid HyperLogLog s into u, or answers ErrCorrupt for a
// sparse string whose opcodes do not cover the registers exactly, leaving
// u part merged.
func (u *Union) Add(s string) error {
	if s[4] == dense {
		for i := range u {
			u[i] = max(u[i], register(s[HeaderSize:], i))
		}
		return nil
	}
	o := opcodes{s: s}
	for run, v := o.next(); run > 0; run, v = o.next() {
		for i := o.at - run; i < o.at && v > 0; i++ {
			u[i] = max(u[i], v)
		}
	}
	if !o.whole() {
		return ErrCorrupt
	}
	return nil
}

// Count is the estimate for u's registers.
func (u *Union) Count() uint64 {
	var hist histogram
	for _, v := range u {
		hist[v]++
	}
	return hist.estimate()
}

// Store writes u into the valid HyperLogLog h as PFMERGE does: made dense
// first when toDense (PFMERGE does so when any of its inputs is dense),
// then each register of u that is not zero raised in register order (a
// sparse string may turn dense on the way), and the count marked stale.
// u must hold h's own registers already (PFMERGE merges its destination
// too), so h was read whole and cannot be damaged.
func (u *Union) Store(h []byte, toDense bool, maxSparse int) []byte {
	if toDense {
		h, _ = ToDense(h)
	}
	for i, v := range u {
		switch {
		case v == 0:
		case h[4] == dense:
			raise(h[HeaderSize:], i, v)
		default:
			h, _, _ = sparseRaise(h, i, v, maxSparse)
		}
	}
	markStale(h)
	return h
}

// ToDense returns h dense: h itself when it is dense already, or a new
// dense string with h's header (its cached count included), or
// ErrCorrupt for a sparse string that does not cover the registers exactly.
func ToDense(h []byte) ([]byte, error) {
	if h[4] == dense {
		return h, nil
	}
	d := make([]byte, DenseSize)
	copy(d, h[:HeaderSize])
	d[4] = dense
	o := opcodes{s: view(h)}
	for run, v := o.next(); run > 0; run, v = o.next() {
		for i := o.at - run; i < o.at && v > 0; i++ {
			setRegister(d[HeaderSize:], i, v)
		}
	}
	if !o.whole() {
		return h, ErrCorrupt
	}
	return d, nil
}

// Register is register i of a dense HyperLogLog.
func Register(s string, i int) uint8 { return register(s[HeaderSize:], i) }

// view is b as a string, without a copy, for the readers: b must not
// change while the string is in use.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
