package rdb

import "strconv"

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

//go:noinline
func newListpack() *listpack { return &listpack{b: make([]byte, 6, 64)} }

// add appends s, as an integer when Redis would store it as one.
func (lp *listpack) add(s string) {
	if v, ok := LongLong(s); ok {
		lp.addInt(v)
		return
	}
	start := len(lp.b)
	switch n := len(s); {
	case n < 64:
		lp.b = appendNum(lp.b, 0x80|byte(n), 0, 0, false)
	case n < 4096:
		lp.b = appendNum(lp.b, 0xe0|byte(n>>8), uint64(n), 1, false)
	default:
		lp.b = appendNum(lp.b, 0xf0, uint64(n), 4, false)
	}
	lp.b = append(lp.b, s...)
	lp.end(start)
}

// addInt appends v in the narrowest of the integer encodings: 7 bits
// unsigned, 13 bits signed, or a tag and 16, 24, 32 or 64 bits.
func (lp *listpack) addInt(v int64) {
	start := len(lp.b)
	switch {
	case v >= 0 && v < 128:
		lp.b = appendNum(lp.b, byte(v), 0, 0, false)
	case v >= -4096 && v < 4096:
		lp.b = appendNum(lp.b, 0xc0|byte(v>>8)&0x1f, uint64(v), 1, false)
	default:
		w, tag := 8, byte(0xf4)
		for i, bits := range [...]uint{16, 24, 32} {
			if v >= -1<<(bits-1) && v < 1<<(bits-1) {
				w, tag = int(bits/8), 0xf1+byte(i)
				break
			}
		}
		lp.b = appendNum(lp.b, tag, uint64(v), w, false)
	}
	lp.end(start)
}

// end closes the entry that starts at start with its back length.
func (lp *listpack) end(start int) {
	lp.b = appendBacklen(lp.b, len(lp.b)-start)
	lp.n++
}

// appendBacklen writes l so that it reads from its last byte backwards:
// seven bits a byte, most significant first, the high bit set on every
// byte but the first. The byte counts change where Redis's do (16383 takes
// three bytes, not two).
//
//go:noinline
func appendBacklen(b []byte, l int) []byte {
	n := backlenSize(l)
	for k := n - 1; k >= 0; k-- {
		g := byte(l>>(7*k)) & 127
		if k != n-1 {
			g |= 128
		}
		b = append(b, g)
	}
	return b
}

// backlenSize is how many bytes the back length l takes.
func backlenSize(l int) int {
	for i, limit := range [...]int{128, 16383, 2097151, 268435455} {
		if l < limit {
			return i + 1
		}
	}
	return 5
}

// bytes finishes the listpack.
//
//go:noinline
func (lp *listpack) bytes() string {
	b := append(lp.b, 0xff)
	for k := range 4 {
		b[k] = byte(len(b) >> (8 * k))
	}
	b[4], b[5] = byte(min(lp.n, 65535)), byte(min(lp.n, 65535)>>8)
	return string(b)
}

// size is the listpack's size in bytes once finished.
func (lp *listpack) size() int { return len(lp.b) + 1 }

// readListpack returns a listpack's entries, or false if b is not one.
func readListpack(b string) ([]string, bool) {
	last := len(b) - 1 // the terminator
	if last < 6 || le(b[:4]) != uint64(len(b)) || b[last] != 0xff {
		return nil, false
	}
	var out []string
	p := 6
	for p < last {
		c := b[p]
		hdr, w := 1, 0 // header bytes; an integer's bytes after the tag
		switch {
		case c >= 0xf1 && c <= 0xf4:
			w = [...]int{2, 3, 4, 8}[c-0xf1]
			hdr += w
		case c == 0xf0:
			hdr = 5
		case c >= 0xc0 && c < 0xf0:
			hdr = 2
		case c > 0xf4:
			return nil, false
		}
		if p+hdr > last {
			return nil, false
		}
		size, v := -1, int64(0) // a string's bytes after the header, or an integer
		switch {
		case c < 0x80:
			v = int64(c)
		case c < 0xc0:
			size = int(c & 63)
		case c < 0xe0:
			v = signExtend(uint64(c&31)<<8|uint64(b[p+1]), 13)
		case c < 0xf0:
			size = int(c&15)<<8 | int(b[p+1])
		case c == 0xf0:
			size = int(le(b[p+1 : p+5]))
		default:
			v = signExtend(le(b[p+1:p+1+w]), uint(8*w))
		}
		s := strconv.FormatInt(v, 10)
		if size >= 0 {
			if p+hdr+size > last {
				return nil, false
			}
			s = b[p+hdr : p+hdr+size]
		} else {
			size = 0
		}
		// Skip the back length, which Redis does not check either.
		p += hdr + size + backlenSize(hdr+size)
		out = append(out, s)
	}
	if n := le(b[4:6]); p != last || n != 65535 && n != uint64(len(out)) {
		return nil, false
	}
	return out, true
}

// le reads b as a little-endian unsigned number.
//
//go:noinline
func le(b string) uint64 {
	var u uint64
	for i := len(b) - 1; i >= 0; i-- {
		u = u<<8 | uint64(b[i])
	}
	return u
}

// appendLE appends the n low bytes of u, least significant first.
//
//go:noinline
func appendLE(b []byte, u uint64, n int) []byte {
	for k := range n {
		b = append(b, byte(u>>(8*k)))
	}
	return b
}

// appendNum appends tag, then the size low bytes of v, least significant
// first, or most significant first when big is set: most fields of the
// format are one of these. (One function, not many appends, keeps the
// browser module small.)
//
//go:noinline
func appendNum(b []byte, tag byte, v uint64, size int, big bool) []byte {
	b = append(b, tag)
	for k := range size {
		shift := 8 * k
		if big {
			shift = 8 * (size - 1 - k)
		}
		b = append(b, byte(v>>shift))
	}
	return b
}

// signExtend reads the low bits of u as a two's complement number.
//
//go:noinline
func signExtend(u uint64, bits uint) int64 { return int64(u<<(64-bits)) >> (64 - bits) }
