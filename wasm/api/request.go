package api

import "math"

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
	memo []any  // maxMemo per method, by the method's index in served
	text []byte // a string argument's text, unescaped, to compare
}

// maxMemo is how many leading arguments of a method are remembered, and
// maxMemoLen the longest string: a large payload is read afresh rather
// than kept alive between calls.
const (
	maxMemo    = 3
	maxMemoLen = 1 << 10
	maxText    = 64 << 10 // the most text's buffer keeps
)

// read reads req, as readRequest would. The request the bridge writes
// (a known method, then the args) is read here in one pass into the
// reused args; any other text is left to readRequest, so its errors stay
// exactly readRequest's. The args are the caller's until done clears them.
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
	d := jsonDecoder{b: req, request: true}
	m := -1
	if d.skip('[') && d.peek('"') {
		if name, ok := d.plain(); ok {
			for i, s := range served {
				if s == string(name) {
					m = i
					break
				}
			}
		}
	}
	if m < 0 || !d.skip(',') || !d.skip('[') {
		return "", nil, false
	}
	if r.memo == nil {
		r.memo = make([]any, maxMemo*len(served))
	}
	args := r.args[:0]
	for end := d.skip(']'); !end; end = d.skip(']') {
		if len(args) > 0 && !d.skip(',') {
			return "", nil, false
		}
		var last *any
		if len(args) < maxMemo {
			last = &r.memo[maxMemo*m+len(args)]
		}
		v, ok := d.arg(last, &r.text)
		if !ok {
			return "", nil, false
		}
		args = append(args, v)
	}
	r.args = args
	if !d.skip(']') || d.skipSpace() != len(d.b) {
		return "", nil, false
	}
	return served[m], args, true
}

// arg reads one argument of a request: a string or a number as *last
// has it when it is the same (keeping it there when last is not nil),
// anything else as decodeJSON and fromWire read it. A string is unescaped
// into *text (the payload of a job is JSON, so its quotes are escaped) and
// made a string of its own only when it is new.
func (d *jsonDecoder) arg(last *any, text *[]byte) (any, bool) {
	if last != nil && d.peek('"') {
		raw, err := d.unquote((*text)[:0])
		if cap(raw) <= maxText {
			*text = raw
		}
		if s, ok := (*last).(string); ok && s == string(raw) {
			return *last, err == nil
		}
		v := any(string(raw))
		if len(raw) <= maxMemoLen {
			*last = v
		}
		return v, err == nil
	}
	if last != nil && (d.peek('-') || d.peek('0')) {
		f, err := d.float()
		if f0, ok := (*last).(float64); ok && math.Float64bits(f0) == math.Float64bits(f) {
			return *last, err == nil
		}
		*last = f
		return *last, err == nil
	}
	v, err := d.value(2) // as deep as readRequest finds it: in args, in the request
	return fromWire(v), err == nil
}

// plain reads the string at d.i when it is printable ASCII without an
// escape, as the bridge writes method names and most arguments, and
// returns its bytes; otherwise it reads nothing.
func (d *jsonDecoder) plain() ([]byte, bool) {
	for j := d.i + 1; j < len(d.b); j++ {
		switch c := d.b[j]; {
		case c == '"':
			s := d.b[d.i+1 : j]
			d.i = j + 1
			return s, true
		case c < 0x20 || c >= 0x80 || c == '\\':
			return nil, false
		}
	}
	return nil, false
}

// peek reports, after any space, whether c is next; '0' stands for any
// digit.
func (d *jsonDecoder) peek(c byte) bool {
	if d.skipSpace() == len(d.b) {
		return false
	}
	next := d.b[d.i]
	return next == c || c == '0' && next >= '0' && next <= '9'
}

// skip reads c, after any space, and reports whether it was there.
func (d *jsonDecoder) skip(c byte) bool {
	ok := d.peek(c)
	if ok {
		d.i++
	}
	return ok
}

// skipSpace skips space and returns where it stopped.
func (d *jsonDecoder) skipSpace() int {
	d.space()
	return d.i
}
