package resp

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"
)

// The fuzz targets of the RESP reader and writer. Their seed corpora are
// in testdata/fuzz; `./build.sh fuzz` runs them longer, and every input a
// run finds failing is committed there.

// allocatedBy is how many bytes of heap f allocates (no collection first:
// the delta of TotalAlloc, which only grows).
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// readBudget is what reading in may allocate: a few dozen bytes of Reply
// per byte of input (an element takes three bytes at least, "_\r\n"), one
// string chunk and the bufio buffer, whatever the headers declare.
func readBudget(n int) uint64 { return uint64(64*n) + 2*blockChunk + 16<<10 }

// FuzzParse holds the reader to itself and to the writer, on any bytes:
//   - Parse (over a slice) and Read (over a stream) read the same reply,
//     or both refuse; Read stops exactly where the reply ends;
//   - a reply Parse read, written with Append, reads back equal;
//   - neither allocates much more than the input is long, whatever length
//     its headers declare (a `*9999999999` asks for nothing);
//   - input cut short anywhere is refused with an error.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"+OK\r\n", "-ERR bad\r\n", ":-9223372036854775808\r\n", "$3\r\nabc\r\n", "$-1\r\n", "*-1\r\n",
		"*2\r\n$1\r\na\r\n*1\r\n:1\r\n", "%1\r\n+k\r\n:1\r\n", "~1\r\n_\r\n", ",1.5\r\n", "#t\r\n", "(123\r\n",
		"=7\r\ntxt:abc\r\n", ">2\r\n+a\r\n+b\r\n", "*9999999999\r\n", "$9999999999\r\n", "%4611686018427387904\r\n",
		"$2147483647\r\nab", "*3\r\n:1\r\n", "+a\nb\r\n", "$3\r\nabcd\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var r Reply
		var err error
		if n := allocatedBy(func() { r, err = Parse(data) }); n > readBudget(len(data)) {
			t.Fatalf("Parse of %d bytes allocated %d", len(data), n)
		}
		var rr Reply
		var rerr error
		under := bytes.NewReader(data)
		br := bufio.NewReader(under)
		if n := allocatedBy(func() { rr, rerr = Read(br) }); n > readBudget(len(data)) {
			t.Fatalf("Read of %d bytes allocated %d", len(data), n)
		}
		rest := under.Len() + br.Buffered()
		switch {
		case err == nil && (rerr != nil || !rr.Equal(r) || rest != 0):
			t.Fatalf("Parse read %s; Read %s, %v, %d bytes left", r, rr, rerr, rest)
		case err != nil && rerr == nil && rest == 0:
			t.Fatalf("Parse refused (%v) what Read took whole: %s", err, rr)
		case err != nil && rerr == nil && !strings.Contains(err.Error(), "trailing"):
			t.Fatalf("Parse refused (%v) what Read took with %d bytes left", err, rest)
		}
		if err != nil {
			return
		}
		if back, err := Parse(Append(nil, r)); err != nil || !back.Equal(r) {
			t.Fatalf("%s written and read back: %s, %v", r, back, err)
		}
		for cut := range len(data) {
			if c, err := Parse(data[:cut]); err == nil {
				t.Fatalf("%q cut to %d bytes read as %s", data, cut, c)
			}
			c, err := Read(bufio.NewReader(bytes.NewReader(data[:cut])))
			if err == nil {
				t.Fatalf("%q cut to %d bytes read from a stream as %s", data, cut, c)
			}
			if !errors.Is(err, ErrProtocol) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
				t.Fatalf("%q cut to %d bytes: %v", data, cut, err)
			}
		}
	})
}

// FuzzAppend builds a reply from the input (a little program: each byte
// picks a kind, and the text and numbers come from what follows) and holds
// the writer to the reader: what Append writes, Parse reads back equal,
// and AppendCommand's bytes read back as an array of the same strings.
func FuzzAppend(f *testing.F) {
	f.Add([]byte("\x05\x02ab\x03\x00\x01x"), "SET k v")
	f.Add([]byte("\x06\x07\x08\x09\x0a\x0b"), "")
	f.Fuzz(func(t *testing.T, prog []byte, cmd string) {
		r := build(&prog, 0)
		back, err := Parse(Append(nil, r))
		if err != nil || !back.Equal(r) {
			t.Fatalf("%#v written and read back: %#v, %v", r, back, err)
		}
		args := strings.Split(cmd, " ")
		got, err := Parse(AppendCommand(nil, args))
		if s, ok := got.Strings(); err != nil || !ok || strings.Join(s, " ") != cmd || len(s) != len(args) {
			t.Fatalf("AppendCommand(%q) read back as %s, %v", args, got, err)
		}
	})
}

// build makes one reply from the front of prog. Text that a line cannot
// hold (a CR or LF) is only put where the writer frames it by length.
func build(prog *[]byte, depth int) Reply {
	next := func() byte {
		if len(*prog) == 0 {
			return 0
		}
		c := (*prog)[0]
		*prog = (*prog)[1:]
		return c
	}
	text := func(line bool) string {
		n := int(next() % 8)
		n = min(n, len(*prog))
		s := string((*prog)[:n])
		*prog = (*prog)[n:]
		if line {
			s = strings.NewReplacer("\r", "r", "\n", "n").Replace(s)
		}
		return s
	}
	switch k := next() % 12; {
	case k == 0:
		return StatusReply(text(true))
	case k == 1:
		return ErrorReply(text(true))
	case k == 2:
		return IntReply(int64(next())<<56 | int64(next())<<8 | int64(next()) - 1<<62)
	case k == 3:
		return BulkReply(text(false))
	case k == 4:
		return NilReply()
	case k == 5 || k == 6 || k == 7:
		kind := []Kind{Array, Set, Map}[k-5]
		n := int(next() % 5)
		if kind == Map {
			n *= 2
		}
		elems := []Reply{}
		for i := 0; i < n && depth < 6; i++ {
			elems = append(elems, build(prog, depth+1))
		}
		if len(elems)%2 == 1 && kind == Map {
			elems = elems[:len(elems)-1]
		}
		return Reply{Kind: kind, Elems: elems}
	case k == 8:
		return Reply{Kind: Double, Str: text(true)}
	case k == 9:
		return Reply{Kind: Bool, Int: int64(next() & 1)}
	case k == 10:
		return Reply{Kind: BigNumber, Str: text(true)}
	default:
		return Reply{Kind: Verbatim, Format: []string{"txt", "mkd"}[next()&1], Str: text(false)}
	}
}
