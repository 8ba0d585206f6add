//go:build !js

package fidelity

// The wire side of the comparison. A reply is kept as it travels: its RESP
// type byte and its bytes, so that "the same reply" means what a client
// would read, RESP2 or RESP3. The real server is read off its socket by the
// small reader below; the engine's replies are written out with resp.Append
// and read back by the same reader, so both sides go through one parser.

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"net"
	"sort"
	"strconv"
	"strings"
	"time"

	"echomq.dev/playground/wasm/engine"
	"echomq.dev/playground/wasm/resp"
)

// node is one reply as it came over the wire.
type node struct {
	T     byte   // the RESP type byte: + - : $ * % ~ , # ( = _ >
	S     string // the text of a line or a bulk ('=' keeps "txt:" in front)
	Null  bool   // $-1 or *-1 (RESP3's null is T '_')
	Elems []node // an aggregate's elements; a map's are key, value, key, value...
}

func (n node) isAggregate() bool { return n.T == '*' || n.T == '%' || n.T == '~' || n.T == '>' }

func (n node) isError() bool { return n.T == '-' }

// strs returns the texts of an aggregate of bulk strings.
func (n node) strs() ([]string, bool) {
	if !n.isAggregate() || n.Null {
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

// wire renders n back as RESP, which is also its canonical form for
// sorting elements whose order Redis does not define.
func (n node) wire() string {
	var b strings.Builder
	n.writeWire(&b)
	return b.String()
}

func (n node) writeWire(b *strings.Builder) {
	b.WriteByte(n.T)
	switch {
	case n.Null:
		b.WriteString("-1\r\n")
	case n.T == '$' || n.T == '=':
		fmt.Fprintf(b, "%d\r\n%s\r\n", len(n.S), n.S)
	case n.isAggregate():
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

// String shows a reply compactly, bytes quoted, the type always visible:
// +OK, -ERR ..., :1, "bulk", [a, b] (array), %{k: v} (map), ~{a} (set),
// ,1.5 (double), #t, (123 (big number), =txt:"hi", _ (null), nil ($-1 or *-1).
func (n node) String() string {
	var b strings.Builder
	n.show(&b)
	return b.String()
}

func (n node) show(b *strings.Builder) {
	if n.Null {
		fmt.Fprintf(b, "%cnil", n.T)
		return
	}
	switch n.T {
	case '$':
		b.WriteString(short(n.S))
	case '=':
		b.WriteString("=" + short(n.S))
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

// short quotes s, cut to a readable length with its size and a digest
// noted, so that two long values that differ past the cut still print
// differently.
func short(s string) string {
	const max = 80
	if len(s) <= max {
		return strconv.Quote(s)
	}
	sum := sha1.Sum([]byte(s))
	return fmt.Sprintf("%s…(%d bytes, sha1 %x)", strconv.Quote(s[:max]), len(s), sum[:4])
}

// showCommand prints a command as redis-cli would echo it, long arguments
// (a script's source, a 1 MiB payload) shortened.
func showCommand(args []string) string {
	parts := make([]string, len(args))
	for i, a := range args {
		if len(a) > 80 {
			parts[i] = short(a)
		} else {
			parts[i] = strconv.Quote(a)
		}
	}
	return strings.Join(parts, " ")
}

// errProtocol is returned for bytes that are not RESP.
var errProtocol = errors.New("fidelity: not RESP")

// readNode reads one RESP2 or RESP3 reply.
func readNode(r *bufio.Reader) (node, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return node{}, err
	}
	if len(line) < 3 || line[len(line)-2] != '\r' {
		return node{}, fmt.Errorf("%w: bad line %q", errProtocol, line)
	}
	t, body := line[0], line[1:len(line)-2]
	switch t {
	case '+', '-', ':', ',', '#', '(':
		return node{T: t, S: body}, nil
	case '_':
		return node{T: '_'}, nil
	case '$', '=', '!':
		n, err := strconv.Atoi(body)
		if err != nil || n < -1 {
			return node{}, fmt.Errorf("%w: bad length %q", errProtocol, body)
		}
		if n == -1 {
			return node{T: t, Null: true}, nil
		}
		data := make([]byte, n+2)
		if _, err := io.ReadFull(r, data); err != nil {
			return node{}, err
		}
		if data[n] != '\r' || data[n+1] != '\n' {
			return node{}, fmt.Errorf("%w: bulk not terminated", errProtocol)
		}
		if t == '!' { // a RESP3 blob error reads as an error
			t = '-'
		}
		return node{T: t, S: string(data[:n])}, nil
	case '*', '%', '~', '>', '|':
		n, err := strconv.Atoi(body)
		if err != nil || n < -1 {
			return node{}, fmt.Errorf("%w: bad length %q", errProtocol, body)
		}
		if n == -1 {
			return node{T: t, Null: true}, nil
		}
		if t == '%' || t == '|' {
			n *= 2
		}
		out := node{T: t, Elems: make([]node, n)}
		for i := range out.Elems {
			if out.Elems[i], err = readNode(r); err != nil {
				return node{}, err
			}
		}
		if t == '|' { // attributes precede the reply they describe
			return node{}, fmt.Errorf("%w: unexpected attribute %v", errProtocol, out)
		}
		return out, nil
	}
	return node{}, fmt.Errorf("%w: unexpected type byte %q", errProtocol, t)
}

// fromReply is an engine reply as it would travel: written with
// resp.Append and read back. resp.Reply has one Nil for RESP2's null bulk,
// null array and RESP3's null; the engine writes it as $-1, and as _ on a
// RESP3 connection.
func fromReply(r resp.Reply, resp3 bool) node {
	n, err := readNode(bufio.NewReader(bytes.NewReader(resp.Append(nil, r))))
	if err != nil {
		return node{T: '-', S: "fidelity: unreadable engine reply: " + err.Error()}
	}
	if resp3 {
		n = nullsAsResp3(n)
	}
	return n
}

func nullsAsResp3(n node) node {
	if n.Null {
		return node{T: '_'}
	}
	for i, e := range n.Elems {
		n.Elems[i] = nullsAsResp3(e)
	}
	return n
}

// conn is one connection to the real server.
type conn struct {
	c net.Conn
	r *bufio.Reader
}

// opTimeout bounds one exchange with the real server; only a runaway script
// takes longer than a blink.
const opTimeout = 30 * time.Second

func dial(addr string) (*conn, error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	return &conn{c: c, r: bufio.NewReaderSize(c, 64<<10)}, nil
}

func (c *conn) Close() error { return c.c.Close() }

func (c *conn) send(cmds ...[]string) error {
	var buf []byte
	for _, args := range cmds {
		buf = resp.AppendCommand(buf, args)
	}
	c.c.SetDeadline(time.Now().Add(opTimeout))
	_, err := c.c.Write(buf)
	return err
}

func (c *conn) recv() (node, error) {
	c.c.SetDeadline(time.Now().Add(opTimeout))
	return readNode(c.r)
}

// do sends one command and reads its reply.
func (c *conn) do(args ...string) (node, error) {
	if err := c.send(args); err != nil {
		return node{}, err
	}
	return c.recv()
}

// pipeline sends every command, then reads one reply per command.
func (c *conn) pipeline(cmds [][]string) ([]node, error) {
	if len(cmds) == 0 {
		return nil, nil
	}
	if err := c.send(cmds...); err != nil {
		return nil, err
	}
	out := make([]node, len(cmds))
	for i := range out {
		var err error
		if out[i], err = c.recv(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// doer is a connection the keyspace dump can read through: the real
// server's or the engine's.
type doer interface {
	pipeline(cmds [][]string) ([]node, error)
}

// engineConn is one connection to the engine, RESP2 or RESP3.
type engineConn struct {
	c     *engine.Client
	resp3 bool
}

func (c *engineConn) do(args ...string) node {
	r, _ := c.c.Do(args...)
	n := fromReply(r, c.resp3)
	if strings.EqualFold(args[0], "HELLO") && n.isAggregate() {
		// The connection now speaks the protocol HELLO names.
		for i := 0; i+1 < len(n.Elems); i += 2 {
			if n.Elems[i].S == "proto" {
				c.resp3 = n.Elems[i+1].S == "3"
			}
		}
	}
	return n
}

func (c *engineConn) pipeline(cmds [][]string) ([]node, error) {
	out := make([]node, len(cmds))
	for i, args := range cmds {
		out[i] = c.do(args...)
	}
	return out, nil
}

// sortedElems returns n with its elements in byte order of their wire form:
// how a reply whose order Redis leaves undefined is compared.
func sortedElems(n node) node {
	out := n
	out.Elems = append([]node(nil), n.Elems...)
	sort.SliceStable(out.Elems, func(i, j int) bool { return out.Elems[i].wire() < out.Elems[j].wire() })
	return out
}

// sortedPairs is sortedElems for a flat list of field, value pairs
// (HGETALL, HSCAN, a RESP3 map): the pairs are sorted, each kept whole.
func sortedPairs(n node) node {
	type pair struct {
		k, v node
		key  string
	}
	var ps []pair
	for i := 0; i+1 < len(n.Elems); i += 2 {
		ps = append(ps, pair{n.Elems[i], n.Elems[i+1], n.Elems[i].wire() + n.Elems[i+1].wire()})
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].key < ps[j].key })
	out := n
	out.Elems = make([]node, 0, len(n.Elems))
	for _, p := range ps {
		out.Elems = append(out.Elems, p.k, p.v)
	}
	if len(n.Elems)%2 == 1 {
		out.Elems = append(out.Elems, n.Elems[len(n.Elems)-1])
	}
	return out
}

// diffNodes names the places two replies differ, the first few of them:
// "" when they are the same.
func diffNodes(path string, eng, real node) string {
	var found []string
	collectDiffs(path, eng, real, &found)
	if len(found) > maxDiffs {
		found = append(found[:maxDiffs], fmt.Sprintf("and %d more", len(found)-maxDiffs))
	}
	return strings.Join(found, "; ")
}

const maxDiffs = 6

func collectDiffs(path string, eng, real node, found *[]string) {
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
