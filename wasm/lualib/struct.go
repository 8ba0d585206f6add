package lualib

import (
	"encoding/binary"
	"math"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// The struct library Redis ships (Roberto Ierusalimschy's struct 0.2, with
// Redis's overflow checks), as it behaves on x86-64 Linux: little endian
// by default, alignment 1 until "!" changes it, C types sized as LP64.
//
// Format: ">" big endian, "<" little endian, "![n]" alignment (8 without
// n), " " ignored, "x" a zero byte, b/B h/H l/L signed/unsigned char,
// short and long, T size_t, i/I[n] an n-byte integer (4 by default, 32 at
// most), c[n] n bytes (c0: the whole string when packing, the previous
// number as the length when unpacking), s a zero-terminated string, f a
// float, d a double.

const (
	structMaxIntSize = 32
	structMaxAlign   = 8
)

type structHeader struct {
	big   bool
	align int
}

// structFormat walks a format string: C reads it up to its first NUL.
type structFormat struct {
	L   *lua.LState
	s   string
	i   int
	hdr structHeader
}

func newStructFormat(L *lua.LState, s string) *structFormat {
	return &structFormat{L: L, s: cString(s), hdr: structHeader{align: 1}}
}

func (f *structFormat) more() bool { return f.i < len(f.s) }

func (f *structFormat) next() byte {
	c := f.s[f.i]
	f.i++
	return c
}

// num reads a decimal count, or returns def when none follows.
func (f *structFormat) num(def int) int {
	if !f.more() || !isDigit(f.s[f.i]) {
		return def
	}
	a := 0
	for f.more() && isDigit(f.s[f.i]) {
		d := int(f.s[f.i] - '0')
		if a > math.MaxInt32/10 || a*10 > math.MaxInt32-d {
			f.L.RaiseError("integral size overflow")
		}
		a = a*10 + d
		f.i++
	}
	return a
}

// size is the size of option opt, reading its count if it takes one.
func (f *structFormat) size(opt byte) int {
	switch opt {
	case 'B', 'b':
		return 1
	case 'H', 'h':
		return 2
	case 'L', 'l', 'T', 'd':
		return 8
	case 'f':
		return 4
	case 'x':
		return 1
	case 'c':
		return f.num(1)
	case 'i', 'I':
		n := f.num(4)
		if n > structMaxIntSize {
			f.L.RaiseError("integral size %d is larger than limit of %d", n, structMaxIntSize)
		}
		return n
	}
	return 0
}

// toAlign is how many bytes put an item of this size at its alignment.
func (f *structFormat) toAlign(pos uint64, opt byte, size int) uint64 {
	if size == 0 || opt == 'c' {
		return 0
	}
	if size > f.hdr.align {
		size = f.hdr.align
	}
	s := uint64(size)
	return (s - (pos & (s - 1))) & (s - 1)
}

// control handles the options that set byte order and alignment, and
// rejects anything else.
func (f *structFormat) control(opt byte) {
	switch opt {
	case ' ':
	case '>':
		f.hdr.big = true
	case '<':
		f.hdr.big = false
	case '!':
		a := f.num(structMaxAlign)
		if a <= 0 || a&(a-1) != 0 {
			f.L.RaiseError("alignment %d is not a power of 2", a)
		}
		f.hdr.align = a
	default:
		argError(f.L, 1, "invalid format option '"+string([]byte{opt})+"'")
	}
}

func isIntOption(opt byte) bool { return strings.IndexByte("bBhHlLTiI", opt) >= 0 }

func structTable(L *lua.LState) *lua.LTable {
	t := L.NewTable()
	setFuncs(L, t, map[string]lua.LGFunction{
		"pack":   structPack,
		"unpack": structUnpack,
		"size":   structSize,
	})
	return t
}

func structPack(L *lua.LState) int {
	f := newStructFormat(L, checkString(L, 1))
	L.Push(lua.LNil) // struct.c pushes a nil past the arguments: a missing one reads as nil
	arg := 2
	var out []byte
	var total uint64
	m := meter{L: L} // a format of a million options is one call
	for f.more() {
		m.spend(1)
		opt := f.next()
		size := f.size(opt)
		pad := f.toAlign(total, opt, size)
		total += pad
		for ; pad > 0; pad-- {
			out = append(out, 0)
		}
		switch {
		case isIntOption(opt):
			n := checkNumber(L, arg)
			arg++
			var v uint64
			if n < 0 {
				v = uint64(CInt64(n))
			} else {
				v = cUint64(n)
			}
			buf := make([]byte, size)
			for i := 0; i < size; i++ {
				j := i
				if f.hdr.big {
					j = size - 1 - i
				}
				buf[j] = byte(v)
				v >>= 8
			}
			out = append(out, buf...)
		case opt == 'x':
			out = append(out, 0)
		case opt == 'f':
			b := binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(checkNumber(L, arg))))
			arg++
			out = append(out, ordered(b, f.hdr.big)...)
		case opt == 'd':
			b := binary.LittleEndian.AppendUint64(nil, math.Float64bits(checkNumber(L, arg)))
			arg++
			out = append(out, ordered(b, f.hdr.big)...)
		case opt == 'c' || opt == 's':
			s := checkString(L, arg)
			arg++
			if size == 0 {
				size = len(s)
			}
			if len(s) < size {
				argError(L, arg, "string too short") // sic: the next argument's number
			}
			m.spend(size)
			out = append(out, s[:size]...)
			if opt == 's' {
				out = append(out, 0)
				size++
			}
		default:
			f.control(opt)
		}
		total += uint64(size)
	}
	L.Push(lua.LString(out))
	return 1
}

// ordered turns little-endian bytes big-endian when asked.
func ordered(b []byte, big bool) []byte {
	if big {
		for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
			b[i], b[j] = b[j], b[i]
		}
	}
	return b
}

func structUnpack(L *lua.LState) int {
	f := newStructFormat(L, checkString(L, 1))
	data := checkString(L, 2)
	ld := uint64(len(data))
	off := optInteger(L, 3, 1)
	if off == 0 {
		argError(L, 3, "offset must be 1 or greater")
	}
	pos := uint64(off) - 1 // C keeps it in a size_t
	n := 0
	m := meter{L: L}
	tooShort := func(size uint64) {
		if !(size <= ld && pos <= ld-size) {
			argError(L, 2, "data string too short")
		}
	}
	for f.more() {
		m.spend(1)
		opt := f.next()
		size := uint64(f.size(opt))
		pos += f.toAlign(pos, opt, int(size))
		tooShort(size)
		switch {
		case isIntOption(opt):
			var v uint64
			for i := uint64(0); i < size; i++ {
				j := pos + size - 1 - i
				if f.hdr.big {
					j = pos + i
				}
				v = v<<8 | uint64(data[j])
			}
			if opt >= 'a' && opt <= 'z' { // signed
				mask := ^uint64(0) << ((size*8 - 1) & 63)
				if v&mask != 0 {
					v |= mask
				}
				L.Push(lua.LNumber(float64(int64(v))))
			} else {
				L.Push(lua.LNumber(float64(v)))
			}
			n++
		case opt == 'x':
		case opt == 'f':
			b := ordered([]byte(data[pos:pos+4]), f.hdr.big)
			L.Push(lua.LNumber(float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))))
			n++
		case opt == 'd':
			b := ordered([]byte(data[pos:pos+8]), f.hdr.big)
			L.Push(lua.LNumber(math.Float64frombits(binary.LittleEndian.Uint64(b))))
			n++
		case opt == 'c':
			if size == 0 {
				var prev float64
				ok := false
				if n > 0 {
					prev, ok = toNumber(L.Get(-1))
				}
				if !ok {
					L.RaiseError("format 'c0' needs a previous size")
				}
				size = cUint64(prev)
				L.Pop(1)
				n--
				tooShort(size)
			}
			L.Push(lua.LString(data[pos : pos+size]))
			n++
		case opt == 's':
			e := strings.IndexByte(data[pos:], 0)
			if e < 0 {
				L.RaiseError("unfinished string in data")
			}
			size = uint64(e) + 1
			L.Push(lua.LString(data[pos : pos+uint64(e)]))
			n++
		default:
			f.control(opt)
		}
		pos += size
	}
	L.Push(lua.LNumber(float64(int64(pos + 1))))
	return n + 1
}

func structSize(L *lua.LState) int {
	f := newStructFormat(L, checkString(L, 1))
	var pos uint64
	m := meter{L: L}
	for f.more() {
		m.spend(1)
		opt := f.next()
		size := f.size(opt)
		pos += f.toAlign(pos, opt, size)
		if opt == 's' {
			argError(L, 1, "option 's' has no fixed size")
		} else if opt == 'c' && size == 0 {
			argError(L, 1, "option 'c0' has no fixed size")
		}
		if !isAlnum(opt) {
			f.control(opt)
		}
		pos += uint64(size)
	}
	L.Push(lua.LNumber(float64(int64(pos))))
	return 1
}

func isAlnum(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
