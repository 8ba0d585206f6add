// Package resp is the reply side of the Redis wire: one Reply type that the
// in-memory engine, the handles and a real Redis connection all speak, plus
// the RESP2 reader and writer that move it over bytes.
//
// It is deliberately small and has no dependencies, because it crosses every
// boundary in the playground: engine to handles, Go to JavaScript, and the
// tests that compare the engine with a real redis-server.
package resp

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Kind names a reply type the way the JS API spells it.
type Kind string

const (
	Status Kind = "status"
	Error  Kind = "error"
	Int    Kind = "int"
	Bulk   Kind = "bulk"
	Nil    Kind = "nil"
	Array  Kind = "array"

	// RESP3 kinds, which a client gets after HELLO 3 (and a script after
	// redis.setresp(3)). A RESP3 null is Nil, like RESP2's two nulls.
	Map       Kind = "map"      // Elems alternate key, value
	Set       Kind = "set"      // Elems are the members
	Double    Kind = "double"   // Str is the number as the server printed it
	Bool      Kind = "bool"     // Int is 1 or 0
	BigNumber Kind = "bignum"   // Str is the digits
	Verbatim  Kind = "verbatim" // Str is the text, Format its three-letter format
)

// Reply is one Redis reply. Str holds the text of a status, error or bulk
// reply; Int the value of an integer reply; Elems the elements of an array.
// A RESP2 null bulk and null array are both Nil, as a client sees them.
type Reply struct {
	Kind   Kind
	Str    string
	Int    int64
	Elems  []Reply
	Format string // of a Verbatim reply: "txt" or "mkd"
}

// Constructors, so call sites read like the reply they build.
func StatusReply(s string) Reply      { return Reply{Kind: Status, Str: s} }
func ErrorReply(s string) Reply       { return Reply{Kind: Error, Str: s} }
func IntReply(n int64) Reply          { return Reply{Kind: Int, Int: n} }
func BulkReply(s string) Reply        { return Reply{Kind: Bulk, Str: s} }
func NilReply() Reply                 { return Reply{Kind: Nil} }
func ArrayReply(e ...Reply) Reply     { return Reply{Kind: Array, Elems: e} }
func OK() Reply                       { return StatusReply("OK") }
func Errorf(f string, a ...any) Reply { return ErrorReply(fmt.Sprintf(f, a...)) }

// NilArrayReply is RESP2's null array (*-1), what EXEC answers when a
// watched key moved. A client reads it as Nil like the null bulk string;
// only its bytes differ, so Str marks it "*".
func NilArrayReply() Reply { return Reply{Kind: Nil, Str: "*"} }

// IsError reports whether r is an error reply.
func (r Reply) IsError() bool { return r.Kind == Error }

// Code is the first word of an error reply ("NOSCRIPT", "EMQKIND", "ERR"),
// the part a client branches on.
func (r Reply) Code() string {
	if r.Kind != Error {
		return ""
	}
	code, _, _ := strings.Cut(r.Str, " ")
	return code
}

// Strings returns the elements of an array of bulk strings, or false when r
// is anything else.
func (r Reply) Strings() ([]string, bool) {
	if r.Kind != Array {
		return nil, false
	}
	out := make([]string, len(r.Elems))
	for i, e := range r.Elems {
		if e.Kind != Bulk {
			return nil, false
		}
		out[i] = e.Str
	}
	return out, true
}

// Equal reports whether two replies are the same, element by element.
func (r Reply) Equal(o Reply) bool {
	if r.Kind != o.Kind || r.Str != o.Str || r.Int != o.Int || r.Format != o.Format || len(r.Elems) != len(o.Elems) {
		return false
	}
	for i := range r.Elems {
		if !r.Elems[i].Equal(o.Elems[i]) {
			return false
		}
	}
	return true
}

// String renders r the way redis-cli does, which is what a test failure or
// a log line should show a reader who knows Redis.
func (r Reply) String() string {
	var b strings.Builder
	r.format(&b, "")
	return b.String()
}

func (r Reply) format(b *strings.Builder, indent string) {
	switch r.Kind {
	case Status:
		b.WriteString(r.Str)
	case Error:
		b.WriteString("(error) " + r.Str)
	case Int:
		b.WriteString("(integer) " + strconv.FormatInt(r.Int, 10))
	case Bulk:
		b.WriteString(strconv.Quote(r.Str))
	case Nil:
		b.WriteString("(nil)")
	case Array, Set:
		if len(r.Elems) == 0 {
			if r.Kind == Set {
				b.WriteString("(empty set)")
			} else {
				b.WriteString("(empty array)")
			}
			return
		}
		mark := ")"
		if r.Kind == Set {
			mark = "~"
		}
		width := len(strconv.Itoa(len(r.Elems)))
		for i, e := range r.Elems {
			if i > 0 {
				b.WriteString("\n" + indent)
			}
			prefix := fmt.Sprintf("%*d%s ", width, i+1, mark)
			b.WriteString(prefix)
			e.format(b, indent+strings.Repeat(" ", len(prefix)))
		}
	case Map:
		if len(r.Elems) == 0 {
			b.WriteString("(empty hash)")
			return
		}
		n := len(r.Elems) / 2
		width := len(strconv.Itoa(n))
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString("\n" + indent)
			}
			prefix := fmt.Sprintf("%*d# ", width, i+1)
			b.WriteString(prefix)
			r.Elems[2*i].format(b, indent+strings.Repeat(" ", len(prefix)))
			b.WriteString(" => ")
			r.Elems[2*i+1].format(b, indent+strings.Repeat(" ", len(prefix)+4))
		}
	case Double:
		b.WriteString("(double) " + r.Str)
	case Bool:
		if r.Int != 0 {
			b.WriteString("(true)")
		} else {
			b.WriteString("(false)")
		}
	case BigNumber:
		b.WriteString("(big number) " + r.Str)
	case Verbatim:
		b.WriteString(strconv.Quote(r.Str))
	default:
		b.WriteString("(unknown reply)")
	}
}

// Append writes r to buf: in RESP2 for the RESP2 kinds, in RESP3 for the
// others. (A Nil is written as RESP2's null bulk string.)
func Append(buf []byte, r Reply) []byte {
	switch r.Kind {
	case Status:
		return append(append(append(buf, '+'), r.Str...), '\r', '\n')
	case Error:
		return append(append(append(buf, '-'), r.Str...), '\r', '\n')
	case Int:
		return append(strconv.AppendInt(append(buf, ':'), r.Int, 10), '\r', '\n')
	case Bulk:
		buf = append(strconv.AppendInt(append(buf, '$'), int64(len(r.Str)), 10), '\r', '\n')
		return append(append(buf, r.Str...), '\r', '\n')
	case Array, Set, Map:
		mark, n := byte('*'), len(r.Elems)
		switch r.Kind {
		case Set:
			mark = '~'
		case Map:
			mark, n = '%', n/2
		}
		buf = append(strconv.AppendInt(append(buf, mark), int64(n), 10), '\r', '\n')
		for _, e := range r.Elems {
			buf = Append(buf, e)
		}
		return buf
	case Double:
		return append(append(append(buf, ','), r.Str...), '\r', '\n')
	case BigNumber:
		return append(append(append(buf, '('), r.Str...), '\r', '\n')
	case Bool:
		if r.Int != 0 {
			return append(buf, "#t\r\n"...)
		}
		return append(buf, "#f\r\n"...)
	case Verbatim:
		text := r.Format + ":" + r.Str
		buf = append(strconv.AppendInt(append(buf, '='), int64(len(text)), 10), '\r', '\n')
		return append(append(buf, text...), '\r', '\n')
	default:
		if r.Kind == Nil && r.Str == "*" {
			return append(buf, "*-1\r\n"...)
		}
		return append(buf, "$-1\r\n"...)
	}
}

// AppendCommand writes a command as a RESP2 array of bulk strings, the way
// every client sends one.
func AppendCommand(buf []byte, args []string) []byte {
	buf = append(strconv.AppendInt(append(buf, '*'), int64(len(args)), 10), '\r', '\n')
	for _, a := range args {
		buf = append(strconv.AppendInt(append(buf, '$'), int64(len(a)), 10), '\r', '\n')
		buf = append(append(buf, a...), '\r', '\n')
	}
	return buf
}

// ErrProtocol is returned for bytes that are not RESP.
var ErrProtocol = errors.New("resp: protocol error")

// Parse reads exactly one reply from b. Trailing bytes are an error: the
// engine writes one reply per command, so more means a bug. It works on the
// slice directly, since it runs for every command the engine serves.
func Parse(b []byte) (Reply, error) {
	src := source{b: b}
	r, err := decode(&src)
	if err != nil {
		return Reply{}, err
	}
	if src.i != len(b) {
		return Reply{}, fmt.Errorf("%w: trailing bytes after reply", ErrProtocol)
	}
	return r, nil
}

// Read reads one reply from r, as a client reads a server's answer.
func Read(r *bufio.Reader) (Reply, error) {
	return decode(&source{r: r})
}

// source is where decode takes a reply's bytes from: a slice (Parse), or a
// connection when r is set (Read). It is a struct rather than an interface
// so that parsing a reply allocates nothing for it.
type source struct {
	b []byte
	i int
	r *bufio.Reader
}

// decode reads one RESP2 or RESP3 reply.
func decode(src *source) (Reply, error) {
	line, err := src.line()
	if err != nil {
		return Reply{}, err
	}
	if len(line) == 0 {
		return Reply{}, fmt.Errorf("%w: empty line", ErrProtocol)
	}
	// The line's text becomes a string only where the reply keeps it: the
	// lengths and integers are read from the bytes, which allocates
	// nothing, and the engine parses a reply for every command it runs.
	switch line[0] {
	case '+':
		return StatusReply(string(line[1:])), nil
	case '-':
		return ErrorReply(string(line[1:])), nil
	case ':':
		n, err := strconv.ParseInt(string(line[1:]), 10, 64)
		if err != nil {
			return Reply{}, fmt.Errorf("%w: bad integer %q", ErrProtocol, line[1:])
		}
		return IntReply(n), nil
	case '_':
		return NilReply(), nil
	case ',':
		return Reply{Kind: Double, Str: string(line[1:])}, nil
	case '(':
		return Reply{Kind: BigNumber, Str: string(line[1:])}, nil
	case '#':
		body := string(line[1:])
		if body != "t" && body != "f" {
			return Reply{}, fmt.Errorf("%w: bad boolean %q", ErrProtocol, body)
		}
		r := Reply{Kind: Bool}
		if body == "t" {
			r.Int = 1
		}
		return r, nil
	case '$', '=':
		n, err := strconv.Atoi(string(line[1:]))
		if err != nil || n < -1 || n > MaxBulkLen || line[0] == '=' && n < 4 {
			return Reply{}, fmt.Errorf("%w: bad string length %q", ErrProtocol, line[1:])
		}
		if n == -1 {
			return NilReply(), nil
		}
		data, err := src.block(n)
		if err != nil {
			return Reply{}, err
		}
		if line[0] == '=' {
			return Reply{Kind: Verbatim, Format: string(data[:3]), Str: string(data[4:])}, nil
		}
		return BulkReply(string(data)), nil
	case '*', '~', '%', '>':
		n, err := strconv.Atoi(string(line[1:]))
		if err != nil || n < -1 || n > MaxAggregateLen || line[0] == '%' && n > MaxAggregateLen/2 {
			return Reply{}, fmt.Errorf("%w: bad aggregate length %q", ErrProtocol, line[1:])
		}
		if n == -1 {
			return NilReply(), nil
		}
		kind := Array
		switch line[0] {
		case '~':
			kind = Set
		case '%':
			kind, n = Map, 2*n
		}
		// Room for what the input can hold, not what the header claims.
		elems := make([]Reply, 0, src.elemsCap(n))
		for range n {
			e, err := decode(src)
			if err == io.EOF {
				err = io.ErrUnexpectedEOF // the stream ended inside the reply
			}
			if err != nil {
				return Reply{}, err
			}
			elems = append(elems, e)
		}
		return Reply{Kind: kind, Elems: elems}, nil
	}
	return Reply{}, fmt.Errorf("%w: unexpected type byte %q", ErrProtocol, line[0])
}

// line returns the next line, without its CRLF.
func (s *source) line() ([]byte, error) {
	if s.r != nil {
		return ReadLine(s.r)
	}
	end := bytes.Index(s.b[s.i:], []byte("\r\n"))
	if end < 0 {
		return nil, fmt.Errorf("%w: line not terminated by CRLF", ErrProtocol)
	}
	line := s.b[s.i : s.i+end]
	s.i += end + 2
	return line, nil
}

// elemsCap is the room to make for an aggregate of n elements.
func (s *source) elemsCap(n int) int {
	if s.r != nil {
		return ElemsCap(n, -1)
	}
	return ElemsCap(n, len(s.b)-s.i)
}

// block returns the next n bytes, which a CRLF must follow.
func (s *source) block(n int) ([]byte, error) {
	var data []byte
	if s.r != nil {
		var err error
		if data, err = AppendBlock(nil, s.r, n); err != nil {
			return nil, err
		}
	} else {
		if n+2 > len(s.b)-s.i {
			return nil, fmt.Errorf("%w: string not terminated", ErrProtocol)
		}
		data = s.b[s.i : s.i+n+2]
		s.i += n + 2
	}
	if data[n] != '\r' || data[n+1] != '\n' {
		return nil, fmt.Errorf("%w: string not terminated", ErrProtocol)
	}
	return data[:n], nil
}

// ReadLine reads up to the next CRLF and returns the line without it, as
// Parse reads one: a '\n' without a '\r' before it is part of the line
// (hiredis reads lines so too). The slice may point into r's buffer, good
// until r's next read.
func ReadLine(r *bufio.Reader) ([]byte, error) {
	line, err := r.ReadSlice('\n')
	if err == nil && len(line) >= 2 && line[len(line)-2] == '\r' {
		return line[:len(line)-2], nil // the common case, read in place
	}
	// A long line (an error quoting a 1 MiB argument) or one with a bare
	// '\n': the slice points into the reader's buffer, which the next read
	// reuses, so copy it before reading on.
	line = append([]byte(nil), line...)
	for {
		if err != nil && err != bufio.ErrBufferFull {
			if err == io.EOF && len(line) > 0 {
				err = io.ErrUnexpectedEOF // cut off inside a line
			}
			return nil, err
		}
		if err == nil && len(line) >= 2 && line[len(line)-2] == '\r' {
			return line[:len(line)-2], nil
		}
		var more []byte
		more, err = r.ReadSlice('\n')
		line = append(line, more...)
	}
}
