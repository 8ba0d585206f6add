package hll

import (
	"strconv"
	"strings"
)

// The sparse encoding: after the header, opcodes that cover the registers
// in order, each a run of registers with one value:
//
//	ZERO   00xxxxxx           1 to 64 registers at 0 (xxxxxx+1)
//	XZERO  01xxxxxx yyyyyyyy  1 to 16,384 registers at 0 (the 14 bits+1)
//	VAL    1vvvvvxx           1 to 4 registers (xx+1) at 1 to 32 (vvvvv+1)
//
// A new HyperLogLog is one XZERO. Raising a register splits the run that
// holds it into at most three opcodes and then joins neighbouring VALs of
// one value where a VAL can hold them, in a window around the change: the
// opcodes a string holds depend on the order its registers were raised
// in, so the changes are made exactly as Redis makes them, for GET, DUMP
// and PFDEBUG DECODE to show Redis's bytes.

const (
	maxVal    = 32 // the highest value a VAL holds
	maxValRun = 4  // the most registers one VAL covers
	maxZero   = 64 // the most registers one ZERO covers
)

// opcode reads the opcode at p of a sparse string: how many registers it
// covers, their value (0 for ZERO and XZERO) and its length in bytes. An
// XZERO's second byte past the end of the string reads as 0.
func opcode(s string, p int) (run int, v uint8, size int) {
	b := s[p]
	switch {
	case b&0x80 != 0:
		return int(b&3) + 1, b>>2&0x1f + 1, 1
	case b&0x40 == 0:
		return int(b) + 1, 0, 1
	}
	low := 0
	if p+1 < len(s) {
		low = int(s[p+1])
	}
	return (int(b&0x3f)<<8 | low) + 1, 0, 2
}

func valOp(v uint8, run int) byte { return 0x80 | (v-1)<<2 | byte(run-1) }

// putRun appends the opcode for run registers at v: a VAL, or for 0 a
// ZERO when one holds them and an XZERO when not.
func putRun(b []byte, v uint8, run int) []byte {
	switch {
	case v > 0:
		return append(b, valOp(v, run))
	case run > maxZero:
		return append(b, 0x40|byte((run-1)>>8), byte(run-1))
	}
	return append(b, byte(run-1))
}

// opcodes reads a sparse string whole, as Redis 7.0.15 (as Debian ships
// it) reads one to count it, merge it or make it dense: opcode by opcode,
// stopping at one that runs past the last register.
type opcodes struct {
	s   string
	p   int // the next opcode, past the header
	at  int // the registers covered so far
	bad bool
}

// next is the next opcode's run and value; a run of 0 at the end, or at an
// opcode that runs past the last register.
func (o *opcodes) next() (run int, v uint8) {
	o.p = max(o.p, HeaderSize)
	if o.p >= len(o.s) {
		return 0, 0
	}
	run, v, size := opcode(o.s, o.p)
	if o.at+run > Registers {
		o.bad = true
		return 0, 0
	}
	o.p, o.at = o.p+size, o.at+run
	return run, v
}

// whole reports whether the opcodes read covered the registers exactly.
func (o *opcodes) whole() bool { return !o.bad && o.at == Registers }

// sparseRaise raises register i of the sparse string h to v if v is
// higher, and returns the string and whether it changed. A value over 32,
// or a change that would take the string past maxSparse bytes, makes it
// dense first. ErrCorrupt (and h as it was) when the opcodes end before
// register i, or a string that must turn dense cannot.
func sparseRaise(h []byte, i int, v uint8, maxSparse int) ([]byte, bool, error) {
	if v > maxVal {
		return promote(h, i, v)
	}
	// The opcode that covers register i, at p, and the one before it.
	p, prev, first, run, size := HeaderSize, -1, 0, 0, 0
	var cur uint8
	for p < len(h) {
		run, cur, size = opcode(view(h), p)
		if i < first+run {
			break
		}
		prev, p, first = p, p+size, first+run
	}
	if p >= len(h) {
		return h, false, ErrCorrupt
	}
	switch {
	case cur >= v:
		return h, false, nil
	case run == 1 && size == 1:
		// A VAL or ZERO of this register alone becomes a VAL of v.
		h[p] = valOp(v, 1)
	default:
		// Split the run: the registers before i (at the run's value), i
		// itself, and those after it.
		var buf [5]byte
		seq, last := buf[:0], first+run-1
		if i > first {
			seq = putRun(seq, cur, i-first)
		}
		seq = append(seq, valOp(v, 1))
		if i < last {
			seq = putRun(seq, cur, last-i)
		}
		if grow := len(seq) - size; grow > 0 && len(h)+grow > maxSparse {
			return promote(h, i, v)
		}
		h = splice(h, p, size, seq)
	}
	h = joinVals(h, prev)
	markStale(h)
	return h, true, nil
}

// promote makes h dense, then raises register i to v (which is higher than
// anything sparse can hold there).
func promote(h []byte, i int, v uint8) ([]byte, bool, error) {
	d, err := ToDense(h)
	if err != nil {
		return h, false, err
	}
	raise(d[HeaderSize:], i, v)
	return d, true, nil
}

// splice puts seq in place of the size bytes at p. The string's length
// changes by len(seq)-size even when the opcode at p was an XZERO cut off
// by the end of the string, as Redis's does: the last byte of seq is then
// lost.
func splice(h []byte, p, size int, seq []byte) []byte {
	end := len(h)
	n := end - size + len(seq)
	rest := min(p+size, end)
	if room := p + len(seq) + end - rest; room > end {
		h = append(h, make([]byte, room-end)...)
	}
	copy(h[p+len(seq):], h[rest:end])
	copy(h[p:], seq)
	return h[:n]
}

// joinVals joins neighbouring VALs of one value into one where a VAL can
// hold their registers, as Redis does after each change: it looks at up
// to five opcodes, from the one before the change (at prev, or the first
// opcode when the change was in the first), and tries a joined VAL again
// with the one after it.
func joinVals(h []byte, prev int) []byte {
	p := max(prev, HeaderSize)
	for scan := 5; scan > 0 && p < len(h); scan-- {
		b := h[p]
		if b&0x80 == 0 {
			p += 1 + int(b>>6) // an XZERO is two bytes, a ZERO one
			continue
		}
		if p+1 < len(h) && h[p+1]&0x80 != 0 && b&0x7c == h[p+1]&0x7c {
			if run := int(b&3) + int(h[p+1]&3) + 2; run <= maxValRun {
				h[p] = b&0xfc | byte(run-1)
				h = h[:p+1+copy(h[p+1:], h[p+2:])]
				continue
			}
		}
		p++
	}
	return h
}

// Decode is a sparse HyperLogLog's opcodes as PFDEBUG DECODE shows them,
// separated by spaces: "z:RUN" for a ZERO, "Z:RUN" for an XZERO and
// "v:VALUE,RUN" for a VAL.
func Decode(s string) string {
	var b []byte
	for p := HeaderSize; p < len(s); {
		run, v, size := opcode(s, p)
		switch {
		case v > 0:
			b = append(strconv.AppendInt(append(b, " v:"...), int64(v), 10), ',')
		case size == 2:
			b = append(b, " Z:"...)
		default:
			b = append(b, " z:"...)
		}
		b = strconv.AppendInt(b, int64(run), 10)
		p += size
	}
	return strings.TrimPrefix(string(b), " ")
}
