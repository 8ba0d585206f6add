package extracmds

import (
	"strings"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// bitOp is one GET, SET or INCRBY of a BITFIELD call.
type bitOp struct {
	_        [0]func() // not comparable: no equality code
	op       byte      // 'g', 's' or 'i'
	overflow byte      // 'w'rap, 's'at or 'f'ail, as OVERFLOW last set it
	signed   bool
	bits     uint
	offset   uint64 // in bits, from the first byte's highest bit
	value    int64  // SET's value, INCRBY's increment
}

// Bitfield is BITFIELD, or BITFIELD_RO when readOnly, as Redis 7.0 runs
// it: every operation is read (and refused in its words) before the key is
// looked at; then a call that writes makes the string long enough for its
// farthest write first, even when OVERFLOW FAIL then writes nothing. The
// reply has one integer per operation, nil for one that FAIL stopped. A
// write past maxBytes (the playground's cap on a string) answers tooBig.
func Bitfield(ks Keyspace, args []string, readOnly bool, maxBytes int, tooBig resp.Reply) resp.Reply {
	var ops []bitOp
	overflow := byte('w')
	writes := false
	var end uint64 // one past the farthest bit written
	for j := 2; j < len(args); j++ {
		b := bitOp{overflow: overflow}
		switch o, rem := ascii.Lower(args[j]), len(args)-j-1; {
		case o == "get" && rem >= 2:
			b.op = 'g'
		case o == "set" && rem >= 3:
			b.op = 's'
		case o == "incrby" && rem >= 3:
			b.op = 'i'
		case o == "overflow" && rem >= 1:
			switch ascii.Lower(args[j+1]) {
			case "wrap", "sat", "fail":
				overflow = args[j+1][0] | 0x20
			default:
				return resp.ErrorReply("ERR Invalid OVERFLOW type specified")
			}
			j++
			continue
		default:
			return errSyntax
		}
		t := args[j+1]
		n, ok := int64(0), len(t) > 1 && (t[0] == 'i' || t[0] == 'u')
		if ok {
			n, ok = parseLong(t[1:])
		}
		b.signed = len(t) > 0 && t[0] == 'i'
		if !ok || n < 1 || n > 63+int64(b2i(b.signed)) {
			return resp.ErrorReply("ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.")
		}
		b.bits = uint(n)
		at, hash := strings.CutPrefix(args[j+2], "#")
		off, ok := parseLong(at)
		if hash {
			off *= n // "#2" is the third field of this width
		}
		if !ok || off < 0 || off>>3 >= 512<<20 {
			return resp.ErrorReply(resp.BitOffsetError)
		}
		b.offset = uint64(off)
		j += 2
		if b.op != 'g' {
			j++
			if b.value, ok = parseLong(args[j]); !ok {
				return errNotInt
			}
			writes = true
			end = max(end, b.offset+uint64(n))
		}
		ops = append(ops, b)
	}
	if readOnly && writes {
		return resp.ErrorReply("ERR BITFIELD_RO only supports the GET subcommand")
	}
	r := ks.Do("GET", args[1])
	if r.IsError() {
		return r // WRONGTYPE
	}
	buf := []byte(r.Str)
	if need := int((end + 7) / 8); writes && need > len(buf) {
		if need > maxBytes {
			return tooBig
		}
		buf = append(buf, make([]byte, need-len(buf))...)
	}
	var t text
	t.head('*', len(ops))
	for _, b := range ops {
		old := getBits(buf, b)
		var val uint64
		var over bool
		switch b.op {
		case 'g':
			t.head(':', int(old))
			continue
		case 's':
			val, over = fitBits(b, uint64(b.value), 0)
		default:
			val, over = fitBits(b, old, b.value)
			old = val // INCRBY answers the new value, SET the old one
		}
		if over && b.overflow == 'f' {
			t.head('$', -1)
			continue
		}
		for i := uint(0); i < b.bits; i++ {
			p := b.offset + uint64(i)
			mask := byte(0x80) >> (p & 7)
			if val>>(b.bits-1-i)&1 == 1 {
				buf[p>>3] |= mask
			} else {
				buf[p>>3] &^= mask
			}
		}
		t.head(':', int(old))
	}
	if writes {
		ks.Do("SET", args[1], string(buf), "KEEPTTL")
	}
	return t.reply()
}

// getBits reads b's field of buf, big-endian, the bits past the end of buf
// as zeros; a signed field is sign-extended.
func getBits(buf []byte, b bitOp) uint64 {
	var v uint64
	for i := uint64(0); i < uint64(b.bits); i++ {
		p := b.offset + i
		v <<= 1
		if p>>3 < uint64(len(buf)) {
			v |= uint64(buf[p>>3]>>(7-p&7)) & 1
		}
	}
	if b.signed && b.bits < 64 && v>>(b.bits-1) == 1 {
		v |= ^uint64(0) << b.bits
	}
	return v
}

// fitBits adds incr to value (both as the field's signedness reads them)
// and fits the sum into b's width by its OVERFLOW rule, as Redis's
// check{Signed,Unsigned}BitfieldOverflow do: over reports that it did not
// fit as it is. Under WRAP the sum keeps its low bits (sign-extended),
// under SAT it stops at the nearest limit; under FAIL it is not written.
func fitBits(b bitOp, value uint64, incr int64) (sum uint64, over bool) {
	var limit uint64
	if b.signed {
		v := int64(value)
		hi := int64(uint64(1)<<(b.bits-1) - 1)
		lo := -hi - 1
		upBy, downBy := int64(uint64(hi)-value), lo-v
		switch {
		case v > hi || b.bits != 64 && incr > upBy || v >= 0 && incr > 0 && incr > upBy:
			limit = uint64(hi)
		case v < lo || b.bits != 64 && incr < downBy || v < 0 && incr < 0 && incr < downBy:
			limit = uint64(lo)
		default:
			return value + uint64(incr), false
		}
	} else {
		hi := uint64(1)<<b.bits - 1
		switch {
		case value > hi || incr > 0 && incr > int64(hi-value):
			limit = hi
		case incr < 0 && incr < -int64(value):
			limit = 0
		default:
			return value + uint64(incr), false
		}
	}
	if b.overflow != 'w' {
		return limit, true
	}
	sum = value + uint64(incr)
	if b.bits < 64 {
		high := ^uint64(0) << b.bits
		if b.signed && sum>>(b.bits-1)&1 == 1 {
			return sum | high, true
		}
		return sum &^ high, true
	}
	return sum, true
}
