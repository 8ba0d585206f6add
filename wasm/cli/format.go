package cli

import (
	"strconv"
	"strings"

	"echomq.dev/playground/wasm/resp"
)

// Format is the text redis-cli 7.0 prints for a reply when it talks to a
// person (a terminal, or --no-raw): `(integer) 1`, `"JOB-1"`, `(nil)`,
// `(error) ERR ...`, numbered arrays with nested ones indented under their
// number, and after HELLO 3 the RESP3 kinds: `1# "k" => "v"` for a map,
// `1~ "m"` for a set, `(double) 1.5`, `(true)`, and a verbatim string as
// its bare text. The final newline redis-cli writes is left off.
//
// It follows cliFormatReplyTTY in redis-cli.c step by step, because its
// spacing has quirks (the indent of a nested array depends on how many
// digits its parent's numbers have) that only a faithful copy gets right.
//
// One kind is our own: redis-cli 7.0 cannot print a RESP3 big number (it
// stops with "Unknown reply type: 13"), so Format writes `(big number) N`,
// the form later redis-cli versions print.
func Format(r resp.Reply) string {
	out := appendReply(nil, r, "")
	return strings.TrimSuffix(string(out), "\n")
}

// appendReply writes one reply and its newline. prefix is the indent of
// every line of an aggregate after its first: the first line follows the
// number its parent already wrote.
func appendReply(out []byte, r resp.Reply, prefix string) []byte {
	switch r.Kind {
	case resp.Error:
		out = append(out, "(error) "...)
		out = append(out, cString(r.Str)...)
	case resp.Status:
		out = append(out, cString(r.Str)...)
	case resp.Int:
		out = strconv.AppendInt(append(out, "(integer) "...), r.Int, 10)
	case resp.Double:
		out = append(append(out, "(double) "...), cString(r.Str)...)
	case resp.BigNumber:
		out = append(append(out, "(big number) "...), cString(r.Str)...)
	case resp.Bulk:
		out = appendRepr(out, r.Str)
	case resp.Verbatim:
		// A verbatim string is meant to be read as it is: no quotes, no
		// escapes, its own line breaks kept.
		out = append(out, r.Str...)
	case resp.Nil:
		out = append(out, "(nil)"...)
	case resp.Bool:
		if r.Int != 0 {
			out = append(out, "(true)"...)
		} else {
			out = append(out, "(false)"...)
		}
	case resp.Array, resp.Set, resp.Map:
		return appendAggregate(out, r, prefix)
	default:
		out = append(out, "(unknown reply)"...)
	}
	return append(out, '\n')
}

// appendAggregate writes an array, set or map: one numbered line per
// element (per pair, for a map), the numbers right-aligned to the widest.
// An element that is itself an aggregate starts on its number's line, and
// its later lines are indented by the width of that number plus two.
func appendAggregate(out []byte, r resp.Reply, prefix string) []byte {
	if len(r.Elems) == 0 {
		return append(out, emptyAggregate[r.Kind]...)
	}
	count, sep := len(r.Elems), byte(')')
	switch r.Kind {
	case resp.Set:
		sep = '~'
	case resp.Map:
		count, sep = count/2, '#'
	}
	width := len(strconv.Itoa(count))
	inner := prefix + strings.Repeat(" ", width+2)
	for i := 0; i < len(r.Elems); i++ {
		if i > 0 {
			out = append(out, prefix...)
		}
		n := i + 1
		if r.Kind == resp.Map {
			n = i/2 + 1
		}
		out = appendIndex(out, n, width, sep)
		out = appendReply(out, r.Elems[i], inner)
		if r.Kind == resp.Map && i+1 < len(r.Elems) {
			// The key's newline gives way to the arrow. A value that takes
			// several lines starts on a line of its own, so that its
			// numbers line up under each other.
			i++
			out = append(out[:len(out)-1], " => "...)
			if multiline(r.Elems[i]) {
				out = append(append(out, '\n'), inner...)
			}
			out = appendReply(out, r.Elems[i], inner)
		}
	}
	return out
}

// multiline reports whether Format writes r on more than one line
// (cliIsMultilineValueTTY): an aggregate with two or more elements, or one
// whose single element is itself multiline. A string never counts, even
// a verbatim one holding line breaks: redis-cli does not look inside.
func multiline(r resp.Reply) bool {
	switch r.Kind {
	case resp.Array, resp.Set:
		return len(r.Elems) > 1 || len(r.Elems) == 1 && multiline(r.Elems[0])
	case resp.Map:
		return len(r.Elems) > 2 || len(r.Elems) == 2 && multiline(r.Elems[1])
	}
	return false
}

// emptyAggregate is what redis-cli prints for an aggregate with nothing in it.
var emptyAggregate = map[resp.Kind]string{
	resp.Array: "(empty array)\n",
	resp.Set:   "(empty set)\n",
	resp.Map:   "(empty hash)\n",
}

// appendIndex writes "%*d) " (or ~, #): the element's number, padded on
// the left to width.
func appendIndex(out []byte, n, width int, sep byte) []byte {
	digits := strconv.Itoa(n)
	for range width - len(digits) {
		out = append(out, ' ')
	}
	return append(append(out, digits...), sep, ' ')
}

// appendRepr quotes a bulk string as sds's sdscatrepr does: printable
// ASCII as it is, \" and \\, the escapes \n \r \t \a \b, and \xHH for
// every other byte. UTF-8 text is therefore shown byte by byte, as
// redis-cli shows it ("\xe2\x82\xac" for €).
func appendRepr(out []byte, s string) []byte {
	const hex = "0123456789abcdef"
	out = append(out, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\', '"':
			out = append(out, '\\', c)
		case '\n':
			out = append(out, '\\', 'n')
		case '\r':
			out = append(out, '\\', 'r')
		case '\t':
			out = append(out, '\\', 't')
		case '\a':
			out = append(out, '\\', 'a')
		case '\b':
			out = append(out, '\\', 'b')
		default:
			if c >= 0x20 && c <= 0x7e {
				out = append(out, c)
			} else {
				out = append(out, '\\', 'x', hex[c>>4], hex[c&0xf])
			}
		}
	}
	return append(out, '"')
}

// cString is s as C's printf("%s") sees it: up to the first NUL byte.
// redis-cli prints status, error and double replies that way.
func cString(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}
