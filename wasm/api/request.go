package api

import "math"

// served is every name a request may call, in Hello's order: the methods,
// then call and drop.
var served = append(append([]string{}, Methods...), "call", "drop")

// requestReader reads the bridge's requests, [method, args], with what one
// request leaves for the next: the args slice, and per method and
// position the string or number last passed there, boxed already. A page
// calls enqueue and claim over and over with the same queue, payload and
// lease, and each of those values, read afresh, was a string and its box
// made per call (a generic decode of a round trip made two dozen
// allocations, each slow in WebAssembly). The values are immutable, so
// handing the same box to the next call is invisible to it.
type requestReader struct {
	args []any
	memo [][maxMemo]memo // by the method's index in served
}

// maxMemo is how many leading arguments of a method are remembered, and
// maxMemoLen the longest string: a large payload is read afresh rather
// than kept alive between calls.
const (
	maxMemo    = 3
	maxMemoLen = 1 << 10
)

// memo is one remembered argument: a string (s, boxed in v) or a number
// (the bits of f, boxed in v); v is nil when there is none.
type memo struct {
	v   any
	str bool
	s   string
	f   uint64
}

// read reads req, as readRequest would. The request the bridge writes
// (a known method, then plain strings, numbers and the wire form's
// values) is read here in one pass into the reused args; any other text
// is left to readRequest, so its errors stay exactly readRequest's. The
// args are the caller's until done clears them.
func (r *requestReader) read(req []byte) (string, []any, error) {
	if method, args, ok := r.fast(req); ok {
		return method, args, nil
	}
	return readRequest(req)
}

// done forgets the last request's args, so the reused slice holds
// nothing alive.
func (r *requestReader) done() { clear(r.args[:cap(r.args)]) }

func (r *requestReader) fast(req []byte) (string, []any, bool) {
	d := jsonDecoder{b: req}
	if !d.skip('[') || !d.skip('"') {
		return "", nil, false
	}
	start := d.i
	for d.i < len(d.b) && d.b[d.i] != '"' && d.b[d.i] != '\\' {
		d.i++
	}
	m := -1
	for i, name := range served {
		if d.i >= len(d.b) || d.b[d.i] != '"' {
			break // an escape, or no end: not a name as the bridge writes it
		}
		if string(d.b[start:d.i]) == name {
			m = i
			break
		}
	}
	d.i++
	if m < 0 || !d.skip(',') || !d.skip('[') {
		return "", nil, false
	}
	if r.memo == nil {
		r.memo = make([][maxMemo]memo, len(served))
	}
	args := r.args[:0]
	if !d.skip(']') {
		for {
			v, ok := r.arg(&d, &r.memo[m], len(args))
			if !ok {
				return "", nil, false
			}
			args = append(args, v)
			if d.skip(']') {
				break
			}
			if !d.skip(',') {
				return "", nil, false
			}
		}
	}
	r.args = args
	if !d.skip(']') {
		return "", nil, false
	}
	if d.space(); d.i != len(d.b) {
		return "", nil, false
	}
	return served[m], args, true
}

// arg reads the argument at position i: a string or a number as its memo
// has it when it is the same, anything else as decodeJSON and fromWire
// read it.
func (r *requestReader) arg(d *jsonDecoder, memos *[maxMemo]memo, i int) (any, bool) {
	d.space()
	if d.i >= len(d.b) {
		return nil, false
	}
	var last *memo
	if i < maxMemo {
		last = &memos[i]
	}
	switch c := d.b[d.i]; {
	case c == '"':
		start := d.i + 1
		end := start
		for end < len(d.b) && d.b[end] >= 0x20 && d.b[end] < 0x80 && d.b[end] != '"' && d.b[end] != '\\' {
			end++
		}
		if last != nil && end < len(d.b) && d.b[end] == '"' {
			d.i = end + 1
			if last.v != nil && last.str && last.s == string(d.b[start:end]) {
				return last.v, true
			}
			s := string(d.b[start:end])
			v := any(s)
			if len(s) <= maxMemoLen {
				*last = memo{v: v, str: true, s: s}
			}
			return v, true
		}
		s, err := d.str()
		return s, err == nil
	case c == '-' || c >= '0' && c <= '9':
		f, err := d.float()
		if err != nil {
			return nil, false
		}
		bits := math.Float64bits(f)
		if last == nil {
			return f, true
		}
		if last.v != nil && !last.str && last.f == bits {
			return last.v, true
		}
		v := any(f)
		*last = memo{v: v, f: bits}
		return v, true
	}
	v, err := d.value(2) // as deep as readRequest finds it: in args, in the request
	return fromWire(v), err == nil
}

// skip reads c, after any space, and reports whether it was there.
func (d *jsonDecoder) skip(c byte) bool {
	d.space()
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}
