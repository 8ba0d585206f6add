package resp

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"testing"
)

// A header declares a length before its bytes come; the reader must
// neither believe it with memory nor die of it. Each of these killed the
// process (makeslice out of range, or out of memory) before.
func TestHeadersDoNotSizeMemory(t *testing.T) {
	for _, in := range []string{
		"*9999999999\r\n", "$9999999999\r\n", "%4611686018427387904\r\n", "~2147483647\r\n:1\r\n",
		"$536870913\r\nab", "$536870912\r\nab", "*2147483647\r\n*2147483647\r\n",
	} {
		if n := allocatedBy(func() { _, _ = Parse([]byte(in)) }); n > readBudget(len(in)) {
			t.Errorf("Parse(%q) allocated %d bytes", in, n)
		}
		var err error
		if n := allocatedBy(func() { _, err = Read(bufio.NewReader(bytes.NewReader([]byte(in)))) }); n > readBudget(len(in)) {
			t.Errorf("Read(%q) allocated %d bytes", in, n)
		}
		if err == nil || !errors.Is(err, ErrProtocol) && !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("Read(%q): %v, want a protocol error or an unexpected EOF", in, err)
		}
	}
}

// A status line may hold a bare LF: Parse and Read both read to the CRLF.
func TestReadReadsALineToItsCRLF(t *testing.T) {
	got, err := Read(bufio.NewReader(bytes.NewReader([]byte("+a\nb\r\n"))))
	if err != nil || !got.Equal(StatusReply("a\nb")) {
		t.Fatalf("Read: %s, %v; want the status a\\nb, as Parse reads it", got, err)
	}
}
