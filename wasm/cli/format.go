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
//
// It keeps a stack of the aggregates it is inside rather than recursing:
// a script can return arrays nested thousands deep, and in WebAssembly
// every Go call is a call on the browser's small stack.
func Format(r resp.Reply) string {
	return strings.TrimSuffix(string(appendReply(nil, &r)), "\n")
}

// openAggregate is an aggregate Format is inside: the next element to
// write, the width of its numbers, and the indent of its lines after the
// first (the first follows the number its parent already wrote). An
// indent is only ever spaces, so its length says it all.
type openAggregate struct {
	r      *resp.Reply
	next   int
	width  int
	indent int
}

// appendReply writes r and a newline after each element that is not an
// aggregate: an aggregate writes one numbered line per element (per pair,
// for a map), the numbers right-aligned to the widest. An element that is
// itself an aggregate starts on its number's line, and its later lines are
// indented by the width of that number plus two.
func appendReply(out []byte, r *resp.Reply) []byte {
	var stack []openAggregate
	out = appendValue(out, r, 0, &stack)
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		a := top.r
		i := top.next
		if i >= len(a.Elems) {
			stack = stack[:len(stack)-1]
			continue
		}
		top.next++
		inner := top.indent + top.width + 2
		if a.Kind == resp.Map && i%2 == 1 {
			// The key's newline gives way to the arrow. A value that takes
			// several lines starts on a line of its own, so that its
			// numbers line up under each other.
			out = append(out[:len(out)-1], " => "...)
			if multiline(&a.Elems[i]) {
				out = appendSpaces(append(out, '\n'), inner)
			}
		} else {
			if i > 0 {
				out = appendSpaces(out, top.indent)
			}
			n, sep := i+1, byte(')')
			switch a.Kind {
			case resp.Set:
				sep = '~'
			case resp.Map:
				n, sep = i/2+1, '#'
			}
			out = appendIndex(out, n, top.width, sep)
		}
		out = appendValue(out, &a.Elems[i], inner, &stack)
	}
	return out
}

// appendValue writes r, or for a non-empty aggregate opens it on the stack
// to be written element by element, its later lines indented by indent.
func appendValue(out []byte, r *resp.Reply, indent int, stack *[]openAggregate) []byte {
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
		if len(r.Elems) == 0 {
			return append(out, emptyAggregate[r.Kind]...)
		}
		count := len(r.Elems)
		if r.Kind == resp.Map {
			count /= 2
		}
		*stack = append(*stack, openAggregate{r: r, width: len(strconv.Itoa(count)), indent: indent})
		return out
	default:
		out = append(out, "(unknown reply)"...)
	}
	return append(out, '\n')
}

func appendSpaces(out []byte, n int) []byte {
	for range n {
		out = append(out, ' ')
	}
	return out
}

// multiline reports whether Format writes r on more than one line
// (cliIsMultilineValueTTY): an aggregate with two or more elements, or one
// whose single element is itself multiline. A string never counts, even
// a verbatim one holding line breaks: redis-cli does not look inside.
func multiline(r *resp.Reply) bool {
	for {
		switch r.Kind {
		case resp.Array, resp.Set:
			if len(r.Elems) != 1 {
				return len(r.Elems) > 1
			}
			r = &r.Elems[0]
		case resp.Map:
			if len(r.Elems) != 2 {
				return len(r.Elems) > 2
			}
			r = &r.Elems[1]
		default:
			return false
		}
	}
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

// AppendShortEscape appends the two-byte escape of c that redis-cli's
// quoting and JSON share, \" \\ \n \r and \t, and reports whether c has
// one. The page's JSON encoder (wasm/api) writes these the same way.
func AppendShortEscape(out []byte, c byte) ([]byte, bool) {
	switch c {
	case '"', '\\':
		return append(out, '\\', c), true
	case '\n':
		return append(out, '\\', 'n'), true
	case '\r':
		return append(out, '\\', 'r'), true
	case '\t':
		return append(out, '\\', 't'), true
	}
	return out, false
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
		if e, ok := AppendShortEscape(out, c); ok {
			out = e
			continue
		}
		switch c {
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
