package rdb

import (
	"errors"
	"strings"
	"testing"
)

// An LZF string's header says how long it expands; a payload of a few
// bytes that says 4 GiB is refused as Bad data format, having taken no
// memory for it (it took 4 GiB, which kills a wasm module).
func TestLZFLengthPastWhatTheInputCanHoldIsRefused(t *testing.T) {
	p := seal("\x00\xc3\x01\x80\xff\xff\xff\xff\xe0")
	var err error
	if n := allocatedBy(func() { _, err = Load(p) }); n > 1<<20 {
		t.Errorf("Load allocated %d bytes", n)
	}
	if !errors.Is(err, ErrFormat) {
		t.Errorf("Load: %v, want %v", err, ErrFormat)
	}
	// The longest expansion there is still expands.
	in := "\x00a" + strings.Repeat("\xe0\xff\x00", 100)
	if out, ok := lzfDecompress(in, 1+264*100); !ok || out != strings.Repeat("a", 1+264*100) {
		t.Errorf("100 longest matches did not expand to 26,401 a's: %v", ok)
	}
}
