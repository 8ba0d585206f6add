package rdb

import (
	"encoding/binary"
	"strconv"
)

// Listpacks: how Redis 7.0 keeps a small hash, a small sorted set and each
// node of a list, and saves them, as one string. A listpack is its size in
// bytes (4, little-endian), its number of entries (2; 65535 for "count
// them"), the entries, and 0xff. An entry is its encoding and data, then
// the length of both written backwards, so the list can be walked from
// either end. An element that reads as an integer is stored as one.

// listpack builds one listpack.
type listpack struct {
	b []byte
	n int
}

func newListpack() *listpack { return &listpack{b: make([]byte, 6, 64)} }

// add appends s, as an integer when Redis would store it as one.
func (lp *listpack) add(s string) {
	start := len(lp.b)
	if v, ok := LongLong(s); ok {
		lp.addInt(v)
	} else {
		switch n := len(s); {
		case n < 64:
			lp.b = append(lp.b, 0x80|byte(n))
		case n < 4096:
			lp.b = append(lp.b, 0xe0|byte(n>>8), byte(n))
		default:
			lp.b = append(lp.b, 0xf0)
			lp.b = binary.LittleEndian.AppendUint32(lp.b, uint32(n))
		}
		lp.b = append(lp.b, s...)
	}
	lp.end(start)
}

// end closes the entry that starts at start with its back length.
func (lp *listpack) end(start int) {
	lp.b = appendBacklen(lp.b, len(lp.b)-start)
	lp.n++
}

func (lp *listpack) addInt(v int64) {
	switch {
	case v >= 0 && v <= 127:
		lp.b = append(lp.b, byte(v))
	case v >= -4096 && v < 4096:
		u := uint64(v) & 0x1fff
		lp.b = append(lp.b, 0xc0|byte(u>>8), byte(u))
	case v >= -1<<15 && v < 1<<15:
		lp.b = append(lp.b, 0xf1, byte(v), byte(v>>8))
	case v >= -1<<23 && v < 1<<23:
		lp.b = append(lp.b, 0xf2, byte(v), byte(v>>8), byte(v>>16))
	case v >= -1<<31 && v < 1<<31:
		lp.b = append(lp.b, 0xf3)
		lp.b = binary.LittleEndian.AppendUint32(lp.b, uint32(v))
	default:
		lp.b = append(lp.b, 0xf4)
		lp.b = binary.LittleEndian.AppendUint64(lp.b, uint64(v))
	}
}

// appendBacklen writes l so that it reads from its last byte backwards:
// seven bits a byte, most significant first, the high bit set on every
// byte but the first. The byte counts change where Redis's do (16383 takes
// three bytes, not two).
func appendBacklen(b []byte, l int) []byte {
	n := 5
	for i, limit := range [...]int{128, 16383, 2097151, 268435455} {
		if l < limit {
			n = i + 1
			break
		}
	}
	for k := n - 1; k >= 0; k-- {
		g := byte(l>>(7*k)) & 127
		if k != n-1 {
			g |= 128
		}
		b = append(b, g)
	}
	return b
}

// bytes finishes the listpack.
func (lp *listpack) bytes() []byte {
	b := append(lp.b, 0xff)
	binary.LittleEndian.PutUint32(b, uint32(len(b)))
	n := min(lp.n, 65535)
	binary.LittleEndian.PutUint16(b[4:], uint16(n))
	return b
}

// size is the listpack's size in bytes once finished.
func (lp *listpack) size() int { return len(lp.b) + 1 }

// readListpack returns a listpack's entries, or false if b is not one.
func readListpack(b []byte) ([]string, bool) {
	if len(b) < 7 || int(binary.LittleEndian.Uint32(b)) != len(b) || b[len(b)-1] != 0xff {
		return nil, false
	}
	var out []string
	p := 6
	for p < len(b)-1 {
		start := p
		c := b[p]
		var s string
		need := func(n int) bool { return p+n <= len(b)-1 }
		signed := func(u uint64, bits uint) string {
			v := int64(u<<(64-bits)) >> (64 - bits)
			return strconv.FormatInt(v, 10)
		}
		switch {
		case c < 0x80:
			s, p = strconv.Itoa(int(c)), p+1
		case c < 0xc0:
			n := int(c & 63)
			if !need(1 + n) {
				return nil, false
			}
			s, p = string(b[p+1:p+1+n]), p+1+n
		case c < 0xe0:
			if !need(2) {
				return nil, false
			}
			s, p = signed(uint64(c&31)<<8|uint64(b[p+1]), 13), p+2
		case c < 0xf0:
			if !need(2) {
				return nil, false
			}
			n := int(c&15)<<8 | int(b[p+1])
			if !need(2 + n) {
				return nil, false
			}
			s, p = string(b[p+2:p+2+n]), p+2+n
		case c == 0xf0:
			if !need(5) {
				return nil, false
			}
			n := int(binary.LittleEndian.Uint32(b[p+1:]))
			if n < 0 || !need(5+n) {
				return nil, false
			}
			s, p = string(b[p+5:p+5+n]), p+5+n
		case c >= 0xf1 && c <= 0xf4:
			w := [...]int{2, 3, 4, 8}[c-0xf1]
			if !need(1 + w) {
				return nil, false
			}
			var u uint64
			for k := w - 1; k >= 0; k-- {
				u = u<<8 | uint64(b[p+1+k])
			}
			s, p = signed(u, uint(8*w)), p+1+w
		default:
			return nil, false
		}
		// The back length: its bytes but the first have the high bit set.
		l := p - start
		want := appendBacklen(nil, l)
		if !need(len(want)) || string(b[p:p+len(want)]) != string(want) {
			return nil, false
		}
		p += len(want)
		out = append(out, s)
	}
	if n := int(binary.LittleEndian.Uint16(b[4:])); n != 65535 && n != len(out) {
		return nil, false
	}
	return out, true
}
