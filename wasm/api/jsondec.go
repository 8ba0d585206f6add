package api

import (
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeJSON reads one JSON value into the JSON-like values Call takes
// (nil, bool, float64, string, []any, map[string]any), as encoding/json's
// Unmarshal into an `any` would. The bridge hands every call's arguments
// over as JSON, and in WebAssembly encoding/json's decoder (reflection, and
// a validating pass before the decoding one) was a sixth of a whole
// enqueue+claim round trip; this one reads the text once.
func decodeJSON(b []byte) (any, error) {
	d := jsonDecoder{b: b}
	return d.whole()
}

// whole reads the one JSON value that is all of d's text.
func (d *jsonDecoder) whole() (any, error) {
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.space()
	if d.i != len(d.b) {
		return nil, d.errorf("text after the value")
	}
	return v, nil
}

type jsonDecoder struct {
	b []byte
	i int
	// request is set for a request's text (readRequest, requestReader):
	// a string that is not valid text (see unquote) or is longer than
	// MaxStringBytes is then a *textError. Otherwise a lone surrogate or a
	// byte that is not UTF-8 reads as U+FFFD, as in encoding/json.
	request bool
}

// maxJSONDepth bounds the nesting decodeJSON follows. The bridge sends an
// object nested past 32 levels as a named stand-in (fromWire), so real
// requests stay far below it; this keeps a hostile text from running Go's
// stack up.
const maxJSONDepth = 1000

func (d *jsonDecoder) errorf(format string, a ...any) error {
	return fmt.Errorf("JSON at byte %d: %s", d.i, fmt.Sprintf(format, a...))
}

func (d *jsonDecoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *jsonDecoder) value(depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, d.errorf("nested more than %d levels", maxJSONDepth)
	}
	d.space()
	if d.i >= len(d.b) {
		return nil, d.errorf("unexpected end")
	}
	switch c := d.b[d.i]; {
	case c == '"':
		return d.str()
	case c == '[':
		d.i++
		list := []any{}
		d.space()
		if d.i < len(d.b) && d.b[d.i] == ']' {
			d.i++
			return list, nil
		}
		for {
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, within(err, len(list))
			}
			list = append(list, v)
			if done, err := d.next(']'); err != nil || done {
				return list, err
			}
		}
	case c == '{':
		d.i++
		obj := map[string]any{}
		d.space()
		if d.i < len(d.b) && d.b[d.i] == '}' {
			d.i++
			return obj, nil
		}
		for {
			d.space()
			if d.i >= len(d.b) || d.b[d.i] != '"' {
				return nil, d.errorf("want an object key")
			}
			k, err := d.str()
			if te, ok := err.(*textError); ok {
				te.key = true
			}
			if err != nil {
				return nil, err
			}
			d.space()
			if d.i >= len(d.b) || d.b[d.i] != ':' {
				return nil, d.errorf("want ':' after an object key")
			}
			d.i++
			v, err := d.value(depth + 1)
			if err != nil {
				return nil, within(err, k)
			}
			obj[k] = v
			if done, err := d.next('}'); err != nil || done {
				return obj, err
			}
		}
	case c == '-' || c >= '0' && c <= '9':
		f, err := d.float()
		if err != nil {
			return nil, err
		}
		return f, nil
	}
	for _, lit := range [...]struct {
		text string
		v    any
	}{{"null", nil}, {"true", true}, {"false", false}} {
		if len(d.b)-d.i >= len(lit.text) && string(d.b[d.i:d.i+len(lit.text)]) == lit.text {
			d.i += len(lit.text)
			return lit.v, nil
		}
	}
	return nil, d.errorf("unexpected %q", d.b[d.i])
}

// next reads the ',' between two elements or the closing end; done is
// true after end.
func (d *jsonDecoder) next(end byte) (done bool, err error) {
	d.space()
	if d.i < len(d.b) {
		switch d.b[d.i] {
		case ',':
			d.i++
			return false, nil
		case end:
			d.i++
			return true, nil
		}
	}
	return false, d.errorf("want ',' or %q", end)
}

// float reads a JSON number: its grammar checked here, its value by
// strconv, which would also take forms JSON has not (hex, "Inf", "_").
func (d *jsonDecoder) float() (float64, error) {
	start := d.i
	digits := func() int {
		n := 0
		for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
			d.i++
			n++
		}
		return n
	}
	if d.b[d.i] == '-' {
		d.i++
	}
	first := d.i
	if n := digits(); n == 0 || n > 1 && d.b[first] == '0' {
		return 0, d.errorf("a malformed number")
	}
	if d.i < len(d.b) && d.b[d.i] == '.' {
		d.i++
		if digits() == 0 {
			return 0, d.errorf("a malformed number")
		}
	}
	if d.i < len(d.b) && (d.b[d.i] == 'e' || d.b[d.i] == 'E') {
		d.i++
		if d.i < len(d.b) && (d.b[d.i] == '+' || d.b[d.i] == '-') {
			d.i++
		}
		if digits() == 0 {
			return 0, d.errorf("a malformed number")
		}
	}
	f, err := strconv.ParseFloat(string(d.b[start:d.i]), 64)
	if err != nil { // the grammar is checked: only a range error is left
		return 0, d.errorf("number %s out of range", d.b[start:d.i])
	}
	return f, nil
}

// str reads a JSON string, d.i at its opening quote, as unquote reads it.
func (d *jsonDecoder) str() (string, error) {
	if s, ok := d.plain(); ok {
		if d.request && len(s) > MaxStringBytes {
			return "", &textError{problem: tooLongText(len(s))}
		}
		return string(s), nil
	}
	out, err := d.unquote(nil)
	return string(out), err
}

// unquote appends the JSON string at d.i (at its opening quote) to out,
// unescaped. Bytes that are not UTF-8, and escaped halves of a surrogate
// pair that have no other half, become U+FFFD as in encoding/json; in a
// request they are a *textError instead. JSON.stringify writes a JS
// string's lone surrogate (half of a pair, alone) as an escape, and
// Redis's strings are bytes: U+FFFD in its place would make "JOB-\ud800"
// and "JOB-\udfff" one id, so a call that passes one is refused whole.
func (d *jsonDecoder) unquote(out []byte) ([]byte, error) {
	begin := len(out)
	d.i++
	for d.i < len(d.b) {
		// A run of plain bytes is copied at once, not byte by byte.
		start := d.i
		for d.i < len(d.b) && d.b[d.i] >= 0x20 && d.b[d.i] < utf8.RuneSelf && d.b[d.i] != '"' && d.b[d.i] != '\\' {
			d.i++
		}
		out = append(out, d.b[start:d.i]...)
		if d.i == len(d.b) {
			break
		}
		c := d.b[d.i]
		switch {
		case c == '"':
			d.i++
			if d.request && len(out)-begin > MaxStringBytes {
				return nil, &textError{problem: tooLongText(len(out) - begin)}
			}
			return out, nil
		case c < 0x20:
			return nil, d.errorf("a control character in a string")
		case c == '\\':
			if d.i+1 >= len(d.b) {
				return nil, d.errorf("an unterminated string")
			}
			e := d.b[d.i+1]
			d.i += 2
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := hex4(d.b[d.i:])
				if !ok {
					return nil, d.errorf("a malformed \\u escape")
				}
				d.i += 4
				if utf16.IsSurrogate(r) {
					// A pair is two escapes; anything else is half of one.
					lo, ok := rune(0), false
					if len(d.b)-d.i >= 6 && d.b[d.i] == '\\' && d.b[d.i+1] == 'u' {
						lo, ok = hex4(d.b[d.i+2:])
					}
					if pair := utf16.DecodeRune(r, lo); ok && pair != utf8.RuneError {
						r = pair
						d.i += 6
					} else if d.request {
						return nil, &textError{problem: loneSurrogate(r, out[begin:])}
					} else {
						r = utf8.RuneError
					}
				}
				out = utf8.AppendRune(out, r)
			default:
				return nil, d.errorf("a malformed escape")
			}
		default:
			r, size := utf8.DecodeRune(d.b[d.i:])
			if r == utf8.RuneError && size == 1 && d.request {
				return nil, &textError{problem: fmt.Sprintf("is not valid UTF-8: byte 0x%02x at byte %d is not UTF-8", d.b[d.i], len(out)-begin)}
			}
			out = utf8.AppendRune(out, r) // U+FFFD for a byte that is not UTF-8
			d.i += size
		}
	}
	return nil, d.errorf("an unterminated string")
}

// hex4 reads the four hex digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// textError is a string in a request that the API refuses wherever it
// stands (see unquote): the call is an ArgsError, and nothing runs.
// path is where it stands, innermost first as the error comes up through
// the arrays and objects around it: an int for an index, a string for
// an object's key; key says the string is an object's key itself.
type textError struct {
	path    []any
	key     bool
	problem string // what is wrong, as the end of a sentence about the string
}

func (e *textError) Error() string { return "a string " + e.problem }

// within adds the index or key of the element that err came up from.
func within(err error, at any) error {
	if te, ok := err.(*textError); ok {
		te.path = append(te.path, at)
	}
	return err
}

// loneSurrogate says where the lone half r of a surrogate pair stands,
// after the text before it, in the UTF-16 units of the caller's JS
// string.
func loneSurrogate(r rune, before []byte) string {
	at := 0
	for _, c := range string(before) {
		at += utf16.RuneLen(c)
	}
	return fmt.Sprintf("is not valid UTF-16: it has a lone surrogate, \\u%04x, at index %d (half of a pair, without its other half), which no UTF-8 text can hold", r, at)
}

// tooLongText says how long a string past MaxStringBytes is.
func tooLongText(n int) string {
	return fmt.Sprintf("is %d bytes in UTF-8, more than the %d MiB the playground allows a string (Redis allows 512 MB)", n, MaxStringBytes>>20)
}
