package api

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"echomq.dev/playground/wasm/cli"
)

// MarshalJSON writes a result of Call as JSON, for the bridge to hand to
// JSON.parse. encoding/json reads every Object through reflection and sorts
// its keys in a slice of its own; in WebAssembly that was a large part of
// each call's cost (the round trip's outcome and wire were a dozen Objects;
// they are written by outcome.appendTo now).
// The values Call returns are a few plain types, written here directly;
// anything else goes to encoding/json, so the text means the same either way.
func MarshalJSON(v any) ([]byte, error) {
	return appendJSON(make([]byte, 0, 512), v)
}

func appendJSON(b []byte, v any) ([]byte, error) {
	var err error
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case replyValue: // written already, without recursion (see replyJSON)
		return append(b, v...), nil
	case string:
		return appendJSONString(b, v), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(b, v, 10), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) || v != math.Trunc(v) || math.Abs(v) >= 1e21 {
			break // encoding/json's float format and its error
		}
		return strconv.AppendFloat(b, v, 'f', -1, 64), nil
	case Object:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, k)
			b = append(b, ':')
			if b, err = appendJSON(b, v[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	case *outcome:
		return v.appendTo(b)
	case []Object:
		return appendList(b, v)
	case []any:
		return appendList(b, v)
	case []string:
		if v == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, x)
		}
		return append(b, ']'), nil
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(b, out...), nil
}

// appendJSONString quotes s as encoding/json does: control characters
// escaped (\b and \f as such, since Go 1.22), <, > and & as \u escapes, U+2028 and U+2029 escaped, and bytes
// that are not UTF-8 as U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			if e, ok := cli.AppendShortEscape(b, c); ok {
				b = e
			} else if c == '\b' {
				b = append(b, '\\', 'b')
			} else if c == '\f' {
				b = append(b, '\\', 'f')
			} else {
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			if r == utf8.RuneError {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, '\\', 'u', '2', '0', '2', hex[r&15])
			}
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// appendList appends a JSON array of xs, each written by appendJSON.
func appendList[T any](b []byte, xs []T) ([]byte, error) {
	if xs == nil {
		return append(b, "null"...), nil // as encoding/json writes it
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = appendJSON(b, x); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// Field is the value called key in a result of Call, whichever form the
// result has (an Object, or an outcome), and nil when it has none: for Go
// callers such as the benchmarks, which read a verdict without JSON.
func Field(result any, key string) any {
	switch r := result.(type) {
	case Object:
		return r[key]
	case *outcome:
		return r.field(key)
	}
	return nil
}
