package redisnet

import (
	"bufio"
	"bytes"
	"runtime"
	"testing"

	"echomq.dev/playground/wasm/resp"
)

// FuzzReadWire holds readWire, which keeps a reply's bytes as they came
// (DoWire, PipelineWire), to the one reply it reads:
//   - what it returns is exactly the bytes it consumed, the front of the
//     input, and the same bytes cut by one are refused;
//   - whatever resp.Parse reads whole, it reads whole too;
//   - it allocates in proportion to the input, whatever length a header
//     declares (`$9999999999`, `*2147483647` ask for nothing).
//
// The seed corpus is in testdata/fuzz/FuzzReadWire.
func FuzzReadWire(f *testing.F) {
	for _, s := range []string{
		"+OK\r\n", "$3\r\nabc\r\n", "*2\r\n:1\r\n$-1\r\n", "%1\r\n+k\r\n_\r\n", "|1\r\n+a\r\n+b\r\n+reply\r\n",
		"!3\r\nERR\r\n", "*9999999999\r\n", "$9999999999\r\n", "$3\r\nabcd\r\n", "+a\nb\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		under := bytes.NewReader(data)
		br := bufio.NewReader(under)
		var out []byte
		var err error
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		out, err = readWire(br, nil)
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > uint64(8*len(data))+256<<10 {
			t.Fatalf("readWire of %d bytes allocated %d", len(data), n)
		}
		if _, perr := resp.Parse(data); perr == nil && (err != nil || !bytes.Equal(out, data)) {
			t.Fatalf("resp.Parse reads %q whole; readWire: %q, %v", data, out, err)
		}
		if err != nil {
			return
		}
		if consumed := len(data) - under.Len() - br.Buffered(); !bytes.Equal(out, data[:consumed]) {
			t.Fatalf("readWire returned %q for the %d bytes %q it read", out, consumed, data[:consumed])
		}
		if _, err := readWire(bufio.NewReader(bytes.NewReader(out[:len(out)-1])), nil); err == nil {
			t.Fatalf("%q cut by one byte was read", out)
		}
	})
}
