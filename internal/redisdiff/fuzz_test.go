package redisdiff

import (
	"bufio"
	"bytes"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"echomq.dev/playground/wasm/resp"
)

// FuzzReadNode holds ReadNode, the reader both sides of a comparison with
// real Redis go through, to the writer and to resp's reader:
//   - a node it read, written with Wire, reads back the same;
//   - whatever resp.Parse reads, it reads too, as the same reply;
//   - it allocates in proportion to the input, whatever length a header
//     declares.
//
// The seed corpus is in testdata/fuzz/FuzzReadNode.
func FuzzReadNode(f *testing.F) {
	for _, s := range []string{
		"+OK\r\n", "-ERR x\r\n", ":-3\r\n", "$3\r\na\x00b\r\n", "$-1\r\n", "*-1\r\n", "*0\r\n",
		"%1\r\n$1\r\nk\r\n,1.5\r\n", "~1\r\n$1\r\nx\r\n", "_\r\n", "#t\r\n", "(123\r\n", "=6\r\ntxt:hi\r\n",
		">1\r\n$1\r\nm\r\n", "!5\r\nERR x\r\n", "*9999999999\r\n", "$9999999999\r\n", "+a\nb\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var n Node
		var err error
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		n, err = ParseNode(data)
		runtime.ReadMemStats(&after)
		if a := after.TotalAlloc - before.TotalAlloc; a > uint64(128*len(data))+256<<10 {
			t.Fatalf("ReadNode of %d bytes allocated %d", len(data), a)
		}
		if r, perr := resp.Parse(data); perr == nil {
			if err != nil {
				t.Fatalf("resp.Parse reads %q as %s; ReadNode refuses it: %v", data, r, err)
			}
			if got := asReply(n); !got.Equal(r) {
				t.Fatalf("resp.Parse reads %q as %s; ReadNode as %v (%s)", data, r, n, got)
			}
		}
		if err != nil || hasBrokenLine(n) {
			return
		}
		back, err := ReadNode(bufio.NewReader(bytes.NewReader([]byte(n.Wire()))))
		if err != nil || !reflect.DeepEqual(back, n) {
			t.Fatalf("%#v written and read back: %#v, %v", n, back, err)
		}
	})
}

// hasBrokenLine reports whether n holds a blob error ("!") whose text has
// a CRLF: ReadNode keeps it as an error line, which Wire cannot write back.
func hasBrokenLine(n Node) bool {
	if n.T == '-' && strings.Contains(n.S, "\r\n") {
		return true
	}
	for _, e := range n.Elems {
		if hasBrokenLine(e) {
			return true
		}
	}
	return false
}

// asReply is what resp.Parse makes of the reply n is.
func asReply(n Node) resp.Reply {
	if n.Null || n.T == '_' {
		return resp.NilReply()
	}
	switch n.T {
	case '+':
		return resp.StatusReply(n.S)
	case '-':
		return resp.ErrorReply(n.S)
	case ':':
		v, _ := strconv.ParseInt(n.S, 10, 64)
		return resp.IntReply(v)
	case '$':
		return resp.BulkReply(n.S)
	case ',':
		return resp.Reply{Kind: resp.Double, Str: n.S}
	case '(':
		return resp.Reply{Kind: resp.BigNumber, Str: n.S}
	case '#':
		return resp.Reply{Kind: resp.Bool, Int: map[string]int64{"t": 1}[n.S]}
	case '=':
		return resp.Reply{Kind: resp.Verbatim, Format: n.S[:3], Str: n.S[4:]}
	}
	kind := map[byte]resp.Kind{'*': resp.Array, '>': resp.Array, '~': resp.Set, '%': resp.Map}[n.T]
	elems := make([]resp.Reply, len(n.Elems))
	for i, e := range n.Elems {
		elems[i] = asReply(e)
	}
	return resp.Reply{Kind: kind, Elems: elems}
}
