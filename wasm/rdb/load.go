package rdb

import (
	"math"
	"strconv"
)

// Load reads a DUMP payload as Redis 7.0's RESTORE does: the version and
// checksum first (ErrChecksum), then the value in any encoding Redis 7.0
// writes (ErrFormat for anything else, or anything Redis would refuse: an
// empty collection, a member twice, a NaN score). Redis reads the value
// from the whole payload, footer included, so a value may run into the
// footer's bytes; bytes left after it are ignored. Both are kept here.
func Load(p string) (Value, error) {
	n := len(p)
	if n < 10 || le(p[n-10:n-8]) > Version || le(p[n-8:]) != CRC64(p[:n-8]) {
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
	b   string
	p   int
	bad bool
}

//go:noinline
func (r *reader) take(n uint64) string {
	if r.bad || n > uint64(len(r.b)-r.p) {
		r.bad = true
		return ""
	}
	r.p += int(n)
	return r.b[r.p-int(n) : r.p]
}

// length reads a length; enc reports one of the special string encodings
// (its number in n) instead.
func (r *reader) length() (n uint64, enc bool) {
	c := le(r.take(1))
	switch c >> 6 {
	case 0:
		return c, false
	case 1:
		return (c&63)<<8 | le(r.take(1)), false
	case 3:
		return c & 63, true
	}
	size := uint64(4)
	if c == 0x81 {
		size = 8
	} else if c != 0x80 {
		r.bad = true
	}
	b := r.take(size)
	for i := range len(b) {
		n = n<<8 | uint64(b[i])
	}
	return n, false
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
	switch {
	case !enc:
		return r.take(n)
	case n < 3: // an integer of 1, 2 or 4 bytes
		size := uint(1) << n
		return strconv.FormatInt(signExtend(le(r.take(uint64(size))), 8*size), 10)
	case n == 3:
		clen, e1 := r.length()
		size, e2 := r.length()
		in := r.take(clen)
		if e1 || e2 || size == 0 || size > 1<<32 {
			r.bad = true
			return ""
		}
		out, ok := lzfDecompress(in, int(size))
		r.bad = r.bad || !ok
		return out
	}
	r.bad = true
	return ""
}

func (r *reader) value() (Value, error) {
	t := le(r.take(1))
	var v Value
	// The Kind of each type this reads, by its number.
	if kinds := "\x01\x00\x03\x00\x04\x05\x00\x00\x00\x00\x00\x03\x00\x00\x00\x00\x04\x05\x02"; t < uint64(len(kinds)) {
		v.Kind = Kind(kinds[t])
	}
	switch t {
	case typeString:
		v.Str = r.str()
	case typeStream, typeStream2:
		s, ok := r.readStream(t)
		if !ok {
			return v, ErrFormat
		}
		v.Stream = s
		return v, nil
	case typeSet, typeHash, typeZset2, typeListQuick2:
		for range r.count() {
			var container uint64
			if t == typeListQuick2 {
				container, _ = r.length()
			}
			s := r.str()
			switch {
			case t == typeHash:
				v.Elems = append(v.Elems, s, r.str())
			case t == typeZset2:
				v.Elems = append(v.Elems, s)
				v.Scores = append(v.Scores, math.Float64frombits(le(r.take(8))))
			case container == quicklistPacked:
				items, ok := readListpack(s)
				if !ok || len(items) == 0 {
					return v, ErrFormat
				}
				v.Elems = append(v.Elems, items...)
			case t == typeSet || container == 1: // 1: a plain node, one element
				v.Elems = append(v.Elems, s)
			default:
				return v, ErrFormat
			}
		}
		// Redis writes a skiplist from its highest score down.
		for i, j := 0, len(v.Scores)-1; i < j; i, j = i+1, j-1 {
			v.Elems[i], v.Elems[j] = v.Elems[j], v.Elems[i]
			v.Scores[i], v.Scores[j] = v.Scores[j], v.Scores[i]
		}
	case typeSetIntset:
		b := r.str()
		width, n := uint64(0), uint64(0)
		if len(b) >= 8 {
			width, n = le(b[:4]), le(b[4:8])
		}
		if width != 2 && width != 4 && width != 8 || n == 0 || uint64(len(b)) != 8+width*n {
			return v, ErrFormat
		}
		for i := uint64(8); i < uint64(len(b)); i += width {
			v.Elems = append(v.Elems, strconv.FormatInt(signExtend(le(b[i:i+width]), uint(8*width)), 10))
		}
	case typeHashListpack, typeZsetListpack:
		items, ok := readListpack(r.str())
		if !ok || len(items) == 0 || len(items)%2 != 0 {
			return v, ErrFormat
		}
		v.Elems = items
		if t == typeZsetListpack {
			v.Elems = nil
			for i := 0; i < len(items); i += 2 {
				f, err := strconv.ParseFloat(items[i+1], 64)
				if err != nil {
					return v, ErrFormat
				}
				v.Elems, v.Scores = append(v.Elems, items[i]), append(v.Scores, f)
			}
		}
	default:
		return v, ErrFormat
	}
	return v, v.check()
}

// check refuses a collection with a member (or hash field) twice, or a
// sorted set with a NaN score, as Redis does on load.
func (v Value) check() error {
	if v.Kind == List {
		return nil // a list may hold anything twice
	}
	stride := 1
	if v.Kind == Hash {
		stride = 2
	}
	seen := make(map[string]bool, len(v.Elems)/stride)
	for i := 0; i < len(v.Elems); i += stride {
		if seen[v.Elems[i]] {
			return ErrFormat
		}
		seen[v.Elems[i]] = true
	}
	for _, f := range v.Scores {
		if math.IsNaN(f) {
			return ErrFormat
		}
	}
	return nil
}
