package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"os/exec"
)

// sizeTarget is the playground's budget for the module a page downloads:
// build.sh's WASM_SIZE_LINE, which ./build.sh test enforces
// (TestSizeTargetIsBuildShLine holds the two together; they had drifted
// apart, and the report judged the module against a line the team had
// moved).
const sizeTarget = 2_100_000 // bytes, brotli -q 11

// wasmSize is one module's size on disk and compressed. A compressed size
// of 0 means it was not measured; why is in the note.
type wasmSize struct {
	label  string
	raw    int64
	gzip   int64
	brotli int64
	note   string
}

// measureSize reads path and compresses it the way a server would ship it:
// gzip at level 9 (Go's compress/gzip) and, when withBrotli is set, brotli
// at quality 11 (the brotli command, when it is installed). Brotli's top
// quality is slow: tens of seconds for a 10 MB module on a small machine.
func measureSize(label, path string, withBrotli bool) wasmSize {
	s := wasmSize{label: label}
	data, err := os.ReadFile(path)
	if err != nil {
		s.note = err.Error()
		return s
	}
	s.raw = int64(len(data))
	var gz bytes.Buffer
	w, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err == nil {
		_, err = w.Write(data)
	}
	if err == nil {
		err = w.Close()
	}
	if err == nil {
		s.gzip = int64(gz.Len())
	}
	if !withBrotli {
		return s
	}
	if _, err := exec.LookPath("brotli"); err != nil {
		s.note = "brotli: not measured, the brotli command is not installed (apt-get install brotli)"
		return s
	}
	// -c writes to stdout, so nothing lands next to the input.
	out, err := exec.Command("brotli", "-q", "11", "-c", path).Output()
	if err != nil {
		s.note = fmt.Sprintf("brotli: not measured, brotli -q 11 failed: %v", err)
		return s
	}
	s.brotli = int64(len(out))
	return s
}

// mb prints a byte count in decimal megabytes, the unit of the target.
func mb(n int64) string {
	if n <= 0 {
		return "not measured"
	}
	return fmt.Sprintf("%.2f MB", float64(n)/1e6)
}
