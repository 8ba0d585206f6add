package rdb

import (
	"encoding/binary"
	"math"
	"slices"
	"strconv"
)

// Load reads a DUMP payload as Redis 7.0's RESTORE does: the version and
// checksum first (ErrChecksum), then the value in any encoding Redis 7.0
// writes (ErrFormat for anything else, or anything Redis would refuse: an
// empty collection, a member twice, a NaN score). Redis reads the value
// from the whole payload, footer included, so a value may run into the
// footer's bytes; bytes left after it are ignored. Both are kept here.
func Load(p []byte) (Value, error) {
	n := len(p)
	if n < 10 || int(binary.LittleEndian.Uint16(p[n-10:])) > Version ||
		binary.LittleEndian.Uint64(p[n-8:]) != CRC64(p[:n-8]) {
		return Value{}, ErrChecksum
	}
	r := reader{b: p}
	v, err := r.value()
	if err == nil && r.bad {
		err = ErrFormat
	}
	return v, err
}

// reader reads an RDB object; bad is set by the first read past its end
// or of a malformed field, and every read after it returns zero values.
type reader struct {
	b   []byte
	p   int
	bad bool
}

func (r *reader) take(n int) []byte {
	if r.bad || n < 0 || r.p+n > len(r.b) {
		r.bad = true
		return nil
	}
	r.p += n
	return r.b[r.p-n : r.p]
}

func (r *reader) byte() byte {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

// length reads a length; enc reports one of the special string encodings
// (its number in n) instead.
func (r *reader) length() (n uint64, enc bool) {
	c := r.byte()
	switch c >> 6 {
	case 0:
		return uint64(c), false
	case 1:
		return uint64(c&63)<<8 | uint64(r.byte()), false
	case 3:
		return uint64(c & 63), true
	}
	switch c {
	case 0x80:
		if b := r.take(4); b != nil {
			return uint64(binary.BigEndian.Uint32(b)), false
		}
	case 0x81:
		if b := r.take(8); b != nil {
			return binary.BigEndian.Uint64(b), false
		}
	default:
		r.bad = true
	}
	return 0, false
}

// count reads a collection's length, which must be at least 1 and no more
// than the bytes left could hold.
func (r *reader) count() int {
	n, enc := r.length()
	if enc || n == 0 || n > uint64(len(r.b)) {
		r.bad = true
		return 0
	}
	return int(n)
}

func (r *reader) str() string {
	n, enc := r.length()
	if !enc {
		if n > uint64(len(r.b)) {
			r.bad = true
			return ""
		}
		return string(r.take(int(n)))
	}
	var v int64
	switch n {
	case 0:
		v = int64(int8(r.byte()))
	case 1:
		if b := r.take(2); b != nil {
			v = int64(int16(binary.LittleEndian.Uint16(b)))
		}
	case 2:
		if b := r.take(4); b != nil {
			v = int64(int32(binary.LittleEndian.Uint32(b)))
		}
	case 3:
		clen, e1 := r.length()
		size, e2 := r.length()
		if e1 || e2 || clen > uint64(len(r.b)) || size == 0 || size > 1<<32 {
			r.bad = true
			return ""
		}
		out, ok := lzfDecompress(r.take(int(clen)), int(size))
		if !ok {
			r.bad = true
		}
		return string(out)
	default:
		r.bad = true
	}
	return strconv.FormatInt(v, 10)
}

func (r *reader) value() (Value, error) {
	switch t := r.byte(); t {
	case typeString:
		return Value{Kind: String, Str: r.str()}, nil
	case typeListQuick2:
		v := Value{Kind: List}
		for range r.count() {
			switch container, _ := r.length(); container {
			case 1: // a plain node: one element
				v.Elems = append(v.Elems, r.str())
			case quicklistPacked:
				items, ok := readListpack([]byte(r.str()))
				if !ok || len(items) == 0 {
					return v, ErrFormat
				}
				v.Elems = append(v.Elems, items...)
			default:
				return v, ErrFormat
			}
		}
		return v, nil
	case typeSet:
		v := Value{Kind: Set}
		for range r.count() {
			v.Elems = append(v.Elems, r.str())
		}
		return v, distinct(v.Elems, 1)
	case typeSetIntset:
		v := Value{Kind: Set}
		b := []byte(r.str())
		if len(b) < 8 {
			return v, ErrFormat
		}
		width, n := int(binary.LittleEndian.Uint32(b)), int(binary.LittleEndian.Uint32(b[4:]))
		if width != 2 && width != 4 && width != 8 || n == 0 || len(b) != 8+width*n {
			return v, ErrFormat
		}
		for i := range n {
			var u uint64
			for k := width - 1; k >= 0; k-- {
				u = u<<8 | uint64(b[8+i*width+k])
			}
			x := int64(u<<(64-8*width)) >> (64 - 8*width)
			v.Elems = append(v.Elems, strconv.FormatInt(x, 10))
		}
		return v, distinct(v.Elems, 1)
	case typeHash:
		v := Value{Kind: Hash}
		for range r.count() {
			v.Elems = append(v.Elems, r.str(), r.str())
		}
		return v, distinct(v.Elems, 2)
	case typeHashListpack:
		items, ok := readListpack([]byte(r.str()))
		if !ok || len(items) == 0 || len(items)%2 != 0 {
			return Value{}, ErrFormat
		}
		return Value{Kind: Hash, Elems: items}, distinct(items, 2)
	case typeZset2:
		v := Value{Kind: Zset}
		for range r.count() {
			m := r.str()
			var f float64
			if b := r.take(8); b != nil {
				f = math.Float64frombits(binary.LittleEndian.Uint64(b))
			}
			v.Elems, v.Scores = append(v.Elems, m), append(v.Scores, f)
		}
		return v.sorted()
	case typeZsetListpack:
		items, ok := readListpack([]byte(r.str()))
		if !ok || len(items) == 0 || len(items)%2 != 0 {
			return Value{}, ErrFormat
		}
		v := Value{Kind: Zset}
		for i := 0; i < len(items); i += 2 {
			f, err := strconv.ParseFloat(items[i+1], 64)
			if err != nil {
				return v, ErrFormat
			}
			v.Elems, v.Scores = append(v.Elems, items[i]), append(v.Scores, f)
		}
		return v.sorted()
	case typeStream, typeStream2:
		return Value{}, ErrStream
	}
	return Value{}, ErrFormat
}

// sorted puts a Zset's members in score order, and refuses a NaN score or
// a member twice.
func (v Value) sorted() (Value, error) {
	idx := make([]int, len(v.Elems))
	for i := range idx {
		if math.IsNaN(v.Scores[i]) {
			return v, ErrFormat
		}
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		if v.Scores[a] != v.Scores[b] {
			if v.Scores[a] < v.Scores[b] {
				return -1
			}
			return 1
		}
		if v.Elems[a] < v.Elems[b] {
			return -1
		}
		if v.Elems[a] > v.Elems[b] {
			return 1
		}
		return 0
	})
	out := Value{Kind: Zset}
	for _, i := range idx {
		out.Elems, out.Scores = append(out.Elems, v.Elems[i]), append(out.Scores, v.Scores[i])
	}
	return out, distinct(out.Elems, 1)
}

// distinct refuses a collection that names a member (or, with stride 2, a
// hash field) twice, as Redis does on load.
func distinct(elems []string, stride int) error {
	seen := make(map[string]bool, len(elems)/stride)
	for i := 0; i < len(elems); i += stride {
		if seen[elems[i]] {
			return ErrFormat
		}
		seen[elems[i]] = true
	}
	return nil
}
