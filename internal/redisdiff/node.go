package redisdiff

// A reply is kept as it travels: its RESP type byte and its bytes, so that
// "the same reply" means what a client would read, RESP2 or RESP3. The
// real server's replies come off the wire (redisnet.DoWire); the engine's
// are written out with resp.Append and read back by the same reader, so
// both sides go through one parser.

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"echomq.dev/playground/wasm/resp"
)

// Node is one reply as it came over the wire.
type Node struct {
	T     byte   // the RESP type byte: + - : $ * % ~ , # ( = _ >
	S     string // the text of a line or a bulk ('=' keeps "txt:" in front)
	Null  bool   // $-1 or *-1 (RESP3's null is T '_')
	Elems []Node // an aggregate's elements; a map's are key, value, key, value...
	// Sum is set instead of the rest on a long reply that a recording kept
	// only the digest of (see Digest): it is compared by that digest.
	Sum string
}

// IsAggregate reports whether n holds elements.
func (n Node) IsAggregate() bool { return n.T == '*' || n.T == '%' || n.T == '~' || n.T == '>' }

// IsError reports whether n is an error reply.
func (n Node) IsError() bool { return n.T == '-' }

// Strs returns the texts of an aggregate of bulk strings.
func (n Node) Strs() ([]string, bool) {
	if !n.IsAggregate() || n.Null {
		return nil, false
	}
	out := make([]string, len(n.Elems))
	for i, e := range n.Elems {
		if e.T != '$' || e.Null {
			return nil, false
		}
		out[i] = e.S
	}
	return out, true
}

// Wire renders n back as RESP, which is also its canonical form for
// sorting elements whose order Redis does not define.
func (n Node) Wire() string {
	var b strings.Builder
	n.writeWire(&b)
	return b.String()
}

func (n Node) writeWire(b *strings.Builder) {
	b.WriteByte(n.T)
	switch {
	case n.Null:
		b.WriteString("-1\r\n")
	case n.T == '$' || n.T == '=':
		fmt.Fprintf(b, "%d\r\n%s\r\n", len(n.S), n.S)
	case n.IsAggregate():
		count := len(n.Elems)
		if n.T == '%' {
			count /= 2
		}
		fmt.Fprintf(b, "%d\r\n", count)
		for _, e := range n.Elems {
			e.writeWire(b)
		}
	default:
		b.WriteString(n.S + "\r\n")
	}
}

// Digest is what a recording keeps of a long text: its SHA-256.
func Digest(s string) string {
	return fmt.Sprintf("sha256:%x", sha256.Sum256([]byte(s)))
}

// String shows a reply compactly, bytes quoted, the type always visible:
// +OK, -ERR ..., :1, "bulk", [a, b] (array), %{k: v} (map), ~{a} (set),
// ,1.5 (double), #t, (123 (big number), =txt:"hi", _ (null), nil ($-1 or *-1).
func (n Node) String() string {
	var b strings.Builder
	n.show(&b)
	return b.String()
}

func (n Node) show(b *strings.Builder) {
	if n.Sum != "" {
		fmt.Fprintf(b, "(a reply of %s; run against redis-server to see it)", n.Sum)
		return
	}
	if n.Null {
		fmt.Fprintf(b, "%cnil", n.T)
		return
	}
	switch n.T {
	case '$':
		b.WriteString(Short(n.S))
	case '=':
		b.WriteString("=" + Short(n.S))
	case '-', '+':
		// A status or error is one line of text: shown bare, with any byte
		// that is not printable escaped.
		q := strconv.Quote(n.S)
		q = q[1 : len(q)-1]
		if len(q) > 300 {
			q = q[:300] + fmt.Sprintf("…(%d bytes)", len(n.S))
		}
		b.WriteByte(n.T)
		b.WriteString(q)
	case '*', '>', '~', '%':
		open, sep := map[byte]string{'*': "[", '>': ">[", '~': "~{", '%': "%{"}[n.T], ", "
		b.WriteString(open)
		for i, e := range n.Elems {
			switch {
			case n.T == '%' && i%2 == 1:
				b.WriteString(": ")
			case i > 0:
				b.WriteString(sep)
			}
			if b.Len() > 600 {
				fmt.Fprintf(b, "…(%d elements)", len(n.Elems))
				break
			}
			e.show(b)
		}
		if n.T == '~' || n.T == '%' {
			b.WriteString("}")
		} else {
			b.WriteString("]")
		}
	case '_':
		b.WriteString("_")
	default:
		b.WriteByte(n.T)
		b.WriteString(n.S)
	}
}

// Short quotes s, cut to a readable length with its size and a digest
// noted, so that two long values that differ past the cut still print
// differently.
func Short(s string) string {
	const max = 80
	if len(s) <= max {
		return strconv.Quote(s)
	}
	sum := sha1.Sum([]byte(s)) // a name to tell values apart by, as FIDELITY.md prints it
	return fmt.Sprintf("%s…(%d bytes, sha1 %x)", strconv.Quote(s[:max]), len(s), sum[:4])
}

// ShowCommand prints a command as redis-cli would echo it, long arguments
// (a script's source, a 1 MiB payload) shortened.
func ShowCommand(args []string) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = Short(a)
	}
	return strings.Join(parts, " ")
}

// errProtocol is returned for bytes that are not RESP.
var errProtocol = errors.New("redisdiff: not RESP")

// ReadNode reads one RESP2 or RESP3 reply.
func ReadNode(r *bufio.Reader) (Node, error) {
	raw, err := resp.ReadLine(r)
	if err != nil {
		return Node{}, err
	}
	if len(raw) < 1 {
		return Node{}, fmt.Errorf("%w: empty line", errProtocol)
	}
	line := string(raw)
	t, body := line[0], line[1:]
	switch t {
	case '+', '-', ':', ',', '#', '(':
		return Node{T: t, S: body}, nil
	case '_':
		return Node{T: '_'}, nil
	case '$', '=', '!':
		n, err := strconv.Atoi(body)
		if err != nil || n < -1 || n > resp.MaxBulkLen {
			return Node{}, fmt.Errorf("%w: bad length %q", errProtocol, body)
		}
		if n == -1 {
			return Node{T: t, Null: true}, nil
		}
		// Memory for the bytes as they come, not for what the header says.
		data, err := resp.AppendBlock(nil, r, n)
		if err != nil {
			return Node{}, err
		}
		if data[n] != '\r' || data[n+1] != '\n' {
			return Node{}, fmt.Errorf("%w: bulk not terminated", errProtocol)
		}
		if t == '!' { // a RESP3 blob error reads as an error
			t = '-'
		}
		return Node{T: t, S: string(data[:n])}, nil
	case '*', '%', '~', '>', '|':
		n, err := strconv.Atoi(body)
		if err != nil || n < -1 || n > resp.MaxAggregateLen/2 {
			return Node{}, fmt.Errorf("%w: bad length %q", errProtocol, body)
		}
		if n == -1 {
			return Node{T: t, Null: true}, nil
		}
		if t == '%' || t == '|' {
			n *= 2
		}
		out := Node{T: t, Elems: make([]Node, 0, resp.ElemsCap(n, -1))}
		for range n {
			e, err := ReadNode(r)
			if err != nil {
				return Node{}, err
			}
			out.Elems = append(out.Elems, e)
		}
		if t == '|' { // attributes precede the reply they describe
			return Node{}, fmt.Errorf("%w: unexpected attribute %v", errProtocol, out)
		}
		return out, nil
	}
	return Node{}, fmt.Errorf("%w: unexpected type byte %q", errProtocol, t)
}

// ParseNode reads the one reply in wire.
func ParseNode(wire []byte) (Node, error) {
	return ReadNode(bufio.NewReader(bytes.NewReader(wire)))
}

// FromReply is an engine reply as it would travel: written with
// resp.Append and read back. resp.Reply has one Nil for RESP2's null bulk,
// null array and RESP3's null; the engine writes it as $-1, and as _ on a
// RESP3 connection.
func FromReply(r resp.Reply, resp3 bool) Node {
	n, err := ParseNode(resp.Append(nil, r))
	if err != nil {
		return Node{T: '-', S: "redisdiff: unreadable engine reply: " + err.Error()}
	}
	if resp3 {
		n = nullsAsResp3(n)
	}
	return n
}

func nullsAsResp3(n Node) Node {
	if n.Null {
		return Node{T: '_'}
	}
	for i, e := range n.Elems {
		n.Elems[i] = nullsAsResp3(e)
	}
	return n
}

// SortedElems returns n with its elements in byte order of their wire form:
// how a reply whose order Redis leaves undefined is compared.
func SortedElems(n Node) Node {
	out := n
	out.Elems = append([]Node(nil), n.Elems...)
	sort.SliceStable(out.Elems, func(i, j int) bool { return out.Elems[i].Wire() < out.Elems[j].Wire() })
	return out
}

// SortedPairs is SortedElems for a flat list of field, value pairs
// (HGETALL, HSCAN, a RESP3 map): the pairs are sorted, each kept whole.
func SortedPairs(n Node) Node {
	type pair struct {
		k, v Node
		key  string
	}
	var ps []pair
	for i := 0; i+1 < len(n.Elems); i += 2 {
		ps = append(ps, pair{n.Elems[i], n.Elems[i+1], n.Elems[i].Wire() + n.Elems[i+1].Wire()})
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].key < ps[j].key })
	out := n
	out.Elems = make([]Node, 0, len(n.Elems))
	for _, p := range ps {
		out.Elems = append(out.Elems, p.k, p.v)
	}
	if len(n.Elems)%2 == 1 {
		out.Elems = append(out.Elems, n.Elems[len(n.Elems)-1])
	}
	return out
}

// Diff names the places where the engine's reply differs from the real
// server's, the first few of them: "" when they are the same. A real reply
// known by its digest only is compared by that digest.
func Diff(eng, real Node) string {
	if real.Sum != "" {
		if Digest(eng.Wire()) == real.Sum {
			return ""
		}
		return fmt.Sprintf("reply: engine %v, redis %v", eng, real)
	}
	var found []string
	collectDiffs("", eng, real, &found)
	if len(found) > maxDiffs {
		found = append(found[:maxDiffs], fmt.Sprintf("and %d more", len(found)-maxDiffs))
	}
	return strings.Join(found, "; ")
}

const maxDiffs = 6

func collectDiffs(path string, eng, real Node, found *[]string) {
	at := ""
	if path != "" {
		at = " at " + path
	}
	switch {
	case eng.T != real.T || eng.Null != real.Null:
		*found = append(*found, fmt.Sprintf("reply type%s: engine %v, redis %v", at, eng, real))
	case eng.S != real.S:
		*found = append(*found, fmt.Sprintf("reply bytes%s: engine %v, redis %v", at, eng, real))
	case len(eng.Elems) != len(real.Elems):
		*found = append(*found, fmt.Sprintf("element count%s: engine %d, redis %d: engine %v, redis %v", at, len(eng.Elems), len(real.Elems), eng, real))
	default:
		for i := range eng.Elems {
			collectDiffs(fmt.Sprintf("%s[%d]", path, i), eng.Elems[i], real.Elems[i], found)
		}
	}
}
