package lualib

import (
	"encoding/binary"
	"math"

	lua "github.com/yuin/gopher-lua"
)

// cmsgpack as Redis ships it (lua-cmsgpack 0.4.0): MessagePack with the
// str8 type, integral numbers in the smallest integer type, others as a
// float when that loses nothing and a double otherwise, and tables as
// arrays when their keys are exactly 1..n.

// msgpackMaxNesting is how deep tables nest before cmsgpack writes nil
// instead, which also ends cycles.
const msgpackMaxNesting = 16

func msgpackTable(L *lua.LState) *lua.LTable {
	t := L.NewTable()
	setFuncs(L, t, map[string]lua.LGFunction{
		"pack":         msgpackPack,
		"unpack":       func(L *lua.LState) int { return msgpackUnpack(L, 0, 0) },
		"unpack_one":   msgpackUnpackOne,
		"unpack_limit": msgpackUnpackLimit,
	})
	t.RawSetString("_NAME", lua.LString("cmsgpack"))
	t.RawSetString("_VERSION", lua.LString("lua-cmsgpack 0.4.0"))
	t.RawSetString("_COPYRIGHT", lua.LString("Copyright (C) 2012, Salvatore Sanfilippo"))
	t.RawSetString("_DESCRIPTION", lua.LString("MessagePack C implementation for Lua"))
	return t
}

func msgpackPack(L *lua.LState) int {
	n := L.GetTop()
	if n == 0 {
		argError(L, 0, "MessagePack pack needs input.")
	}
	var out []byte
	m := &meter{L: L} // a table of a million values is one call
	for i := 1; i <= n; i++ {
		out = msgpackEncode(out, L.Get(i), 0, m)
	}
	L.Push(lua.LString(out))
	return 1
}

// msgpackEncode appends v. It recurses, but never deeper than
// msgpackMaxNesting.
func msgpackEncode(b []byte, v lua.LValue, level int, m *meter) []byte {
	m.spend(1)
	switch v := v.(type) {
	case lua.LString:
		m.spend(len(v))
		return msgpackString(b, string(v))
	case lua.LBool:
		if v {
			return append(b, 0xc3)
		}
		return append(b, 0xc2)
	case lua.LNumber:
		f := float64(v)
		if !math.IsInf(f, 0) && float64(CInt64(f)) == f {
			return msgpackInt(b, CInt64(f))
		}
		if float64(float32(f)) == f {
			return binary.BigEndian.AppendUint32(append(b, 0xca), math.Float32bits(float32(f)))
		}
		return binary.BigEndian.AppendUint64(append(b, 0xcb), math.Float64bits(f))
	case *lua.LTable:
		if level == msgpackMaxNesting {
			break
		}
		if msgpackIsArray(v) {
			n := luaLen(v)
			b = msgpackHeader(b, n, 0x90, 0xdc, 0xdd)
			for i := 1; i <= n; i++ {
				b = msgpackEncode(b, v.RawGetInt(i), level+1, m)
			}
			return b
		}
		n := 0
		v.ForEach(func(lua.LValue, lua.LValue) { n++ })
		b = msgpackHeader(b, n, 0x80, 0xde, 0xdf)
		for _, kv := range luaOrder(v) {
			b = msgpackEncode(b, kv[0], level+1, m)
			b = msgpackEncode(b, kv[1], level+1, m)
		}
		return b
	}
	return append(b, 0xc0)
}

// msgpackIsArray: every key a positive number that is a C int, and as many
// keys as the largest of them.
func msgpackIsArray(t *lua.LTable) bool {
	count, max := 0, int32(0)
	isArray := true
	for _, kv := range luaOrder(t) { // the order matters for keys past 2^31
		n, ok := kv[0].(lua.LNumber)
		if !ok || n <= 0 || math.IsInf(float64(n), 0) || float64(cInt32(float64(n))) != float64(n) {
			isArray = false
			break
		}
		if float64(n) > float64(max) {
			max = cInt32(float64(n))
		}
		count++
	}
	return isArray && int(max) == count
}

func msgpackHeader(b []byte, n int, fix, b16, b32 byte) []byte {
	switch {
	case n <= 15:
		return append(b, fix|byte(n))
	case n <= 0xffff:
		return binary.BigEndian.AppendUint16(append(b, b16), uint16(n))
	}
	return binary.BigEndian.AppendUint32(append(b, b32), uint32(n))
}

func msgpackString(b []byte, s string) []byte {
	n := len(s)
	switch {
	case n < 32:
		b = append(b, 0xa0|byte(n))
	case n <= 0xff:
		b = append(b, 0xd9, byte(n))
	case n <= 0xffff:
		b = binary.BigEndian.AppendUint16(append(b, 0xda), uint16(n))
	default:
		b = binary.BigEndian.AppendUint32(append(b, 0xdb), uint32(n))
	}
	return append(b, s...)
}

func msgpackInt(b []byte, n int64) []byte {
	if n >= 0 {
		switch {
		case n <= 127:
			return append(b, byte(n))
		case n <= 0xff:
			return append(b, 0xcc, byte(n))
		case n <= 0xffff:
			return binary.BigEndian.AppendUint16(append(b, 0xcd), uint16(n))
		case n <= 0xffffffff:
			return binary.BigEndian.AppendUint32(append(b, 0xce), uint32(n))
		}
		return binary.BigEndian.AppendUint64(append(b, 0xcf), uint64(n))
	}
	switch {
	case n >= -32:
		return append(b, byte(n))
	case n >= -128:
		return append(b, 0xd0, byte(n))
	case n >= -32768:
		return binary.BigEndian.AppendUint16(append(b, 0xd1), uint16(n))
	case n >= -2147483648:
		return binary.BigEndian.AppendUint32(append(b, 0xd2), uint32(n))
	}
	return binary.BigEndian.AppendUint64(append(b, 0xd3), uint64(n))
}

func msgpackUnpackOne(L *lua.LState) int {
	off := int32(optInteger(L, 2, 0))
	L.SetTop(1)
	return msgpackUnpack(L, 1, off)
}

func msgpackUnpackLimit(L *lua.LState) int {
	limit := int32(checkInteger(L, 2))
	off := int32(optInteger(L, 3, 0))
	L.SetTop(1)
	return msgpackUnpack(L, limit, off)
}

// msgpackUnpack decodes up to limit values from offset on (0 and 0: all
// of them, without the offset result), as lua-cmsgpack's mp_unpack_full.
func msgpackUnpack(L *lua.LState, limit, off int32) int {
	s := checkString(L, 1)
	if off < 0 || limit < 0 {
		L.RaiseError("Invalid request to unpack with offset of %d and limit of %d.", off, int32(len(s)))
	}
	if int64(off) > int64(len(s)) {
		L.RaiseError("Start offset %d greater than input length %d.", off, int32(len(s)))
	}
	all := limit == 0 && off == 0
	if all {
		limit = math.MaxInt32
	}
	d := &msgpackDecoder{L: L, data: s, pos: int(off)}
	var vals []lua.LValue
	for cnt := int32(0); d.pos < len(s) && cnt < limit; cnt++ {
		v := d.decode()
		switch d.err {
		case errMissingBytes:
			L.RaiseError("Missing bytes in input.")
		case errBadFormat:
			L.RaiseError("Bad data format in input.")
		}
		vals = append(vals, v)
	}
	if !all {
		next := lua.LNumber(d.pos)
		if d.pos == len(s) {
			next = -1
		}
		L.Push(next)
	}
	for _, v := range vals {
		L.Push(v)
	}
	if all {
		return len(vals)
	}
	return len(vals) + 1
}

const (
	errMissingBytes = 1 + iota
	errBadFormat
)

type msgpackDecoder struct {
	L    *lua.LState
	data string
	pos  int
	err  int
}

// need reports whether n more bytes are there, noting the error if not.
func (d *msgpackDecoder) need(n uint64) bool {
	if uint64(len(d.data)-d.pos) < n {
		d.err = errMissingBytes
		return false
	}
	return true
}

func (d *msgpackDecoder) uint(at, size int) uint64 {
	var v uint64
	for i := 0; i < size; i++ {
		v = v<<8 | uint64(d.data[at+i])
	}
	return v
}

// item reads one scalar, or the header of an array or map: then it
// returns the new table, its element count (pairs, for a map), and open.
func (d *msgpackDecoder) item() (v lua.LValue, n uint64, isMap, open bool) {
	if !d.need(1) {
		return lua.LNil, 0, false, false
	}
	c := d.data[d.pos]
	// fixed-size scalars: size after the type byte
	scalar := func(size int) (uint64, bool) {
		if !d.need(uint64(1 + size)) {
			return 0, false
		}
		v := d.uint(d.pos+1, size)
		d.pos += 1 + size
		return v, true
	}
	switch {
	case c <= 0x7f:
		d.pos++
		return lua.LNumber(c), 0, false, false
	case c >= 0xe0:
		d.pos++
		return lua.LNumber(int8(c)), 0, false, false
	case c&0xe0 == 0xa0:
		return d.bytes(1, uint64(c&0x1f)), 0, false, false
	case c&0xf0 == 0x90:
		d.pos++
		return d.L.NewTable(), uint64(c & 0x0f), false, true
	case c&0xf0 == 0x80:
		d.pos++
		return d.L.NewTable(), uint64(c & 0x0f), true, true
	}
	switch c {
	case 0xc0:
		d.pos++
		return lua.LNil, 0, false, false
	case 0xc2, 0xc3:
		d.pos++
		return lua.LBool(c == 0xc3), 0, false, false
	case 0xcc, 0xcd, 0xce, 0xcf:
		if v, ok := scalar(1 << (c - 0xcc)); ok {
			return lua.LNumber(float64(int64(v))), 0, false, false // a uint64 goes through a signed integer
		}
	case 0xd0:
		if v, ok := scalar(1); ok {
			return lua.LNumber(int8(v)), 0, false, false
		}
	case 0xd1:
		if v, ok := scalar(2); ok {
			return lua.LNumber(int16(v)), 0, false, false
		}
	case 0xd2:
		if v, ok := scalar(4); ok {
			return lua.LNumber(int32(v)), 0, false, false
		}
	case 0xd3:
		if v, ok := scalar(8); ok {
			return lua.LNumber(float64(int64(v))), 0, false, false
		}
	case 0xca:
		if v, ok := scalar(4); ok {
			return lua.LNumber(math.Float32frombits(uint32(v))), 0, false, false
		}
	case 0xcb:
		if v, ok := scalar(8); ok {
			return lua.LNumber(math.Float64frombits(v)), 0, false, false
		}
	case 0xd9, 0xda, 0xdb: // str 8, 16, 32 (the bin types are not read)
		size := 1 << (c - 0xd9)
		if !d.need(uint64(1 + size)) {
			return lua.LNil, 0, false, false
		}
		return d.bytes(1+size, d.uint(d.pos+1, size)), 0, false, false
	case 0xdc, 0xdd:
		size := 2 + 2*int(c-0xdc)
		if n, ok := scalar(size); ok {
			return d.L.NewTable(), n, false, true
		}
	case 0xde, 0xdf:
		size := 2 + 2*int(c-0xde)
		if n, ok := scalar(size); ok {
			return d.L.NewTable(), n, true, true
		}
	default:
		d.err = errBadFormat
	}
	return lua.LNil, 0, false, false
}

// bytes reads a string of n bytes after a header of hdr bytes.
func (d *msgpackDecoder) bytes(hdr int, n uint64) lua.LValue {
	if !d.need(uint64(hdr) + n) {
		return lua.LNil
	}
	start := d.pos + hdr
	d.pos = start + int(n)
	return lua.LString(d.data[start:d.pos])
}

// msgpackMaxDepth is how many tables deep lua-cmsgpack in Redis 7.0
// decodes before the Lua stack it builds them on is full: the 4,000th
// array fails, and so does the 4,000th map unless it is empty (a map
// takes its stack slot with its first key), each with the error that
// library raises there.
const msgpackMaxDepth = 4000

// msgpackOpen is a table decode is filling: how many elements (or pairs) it
// still awaits, and for a map the key read before its value.
type msgpackOpen struct {
	t      *lua.LTable
	left   uint64
	isMap  bool
	next   int // an array's next index
	key    lua.LValue
	hasKey bool
}

// decode reads one value. It fills nested tables with a stack of its own
// rather than by recursion: a string of 100,000 array headers is a few
// bytes to a script, and in WebAssembly every Go call is a call on the
// browser's small stack. It polls the script's budget as it goes, since a
// long string of small values is one call that never yields.
func (d *msgpackDecoder) decode() lua.LValue {
	var stack []msgpackOpen
	m := meter{L: d.L}
	for {
		m.spend(1)
		v, n, isMap, open := d.item()
		if d.err != 0 {
			return lua.LNil
		}
		if open {
			if len(stack)+1 >= msgpackMaxDepth {
				if !isMap {
					d.L.RaiseError("stack overflow (in function mp_decode_to_lua_array)")
				} else if n > 0 {
					d.L.RaiseError("stack overflow (too many return values at once; use unpack_one or unpack_limit instead.)")
				}
			}
			if n > 0 {
				stack = append(stack, msgpackOpen{t: v.(*lua.LTable), left: n, isMap: isMap, next: 1})
				continue
			}
		}
		// v is whole: it goes into the table that awaits it, which may be
		// whole then too, and so on up.
		for {
			if len(stack) == 0 {
				return v
			}
			top := &stack[len(stack)-1]
			if top.isMap && !top.hasKey {
				top.key, top.hasKey = v, true
				break
			}
			if top.isMap {
				switch k := top.key.(type) {
				case *lua.LNilType:
					d.L.RaiseError("table index is nil")
				case lua.LNumber:
					if math.IsNaN(float64(k)) {
						d.L.RaiseError("table index is NaN")
					}
				}
				top.t.RawSet(top.key, v)
				top.key, top.hasKey = nil, false
			} else {
				top.t.RawSetInt(top.next, v)
				top.next++
			}
			top.left--
			if top.left > 0 {
				break
			}
			v = top.t
			stack = stack[:len(stack)-1]
		}
	}
}
