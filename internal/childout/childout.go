// Package childout collects what a child process (redis-server, chromium,
// a benchmark's Node child) prints, for the message that explains why it
// failed. os/exec copies the output in from a goroutine of its own while a
// test or a report may read it, so the buffer is guarded.
package childout

import (
	"bytes"
	"sync"
)

// Buffer is a child's output. The zero value keeps everything; with Limit
// set it keeps the first Limit bytes or so, where a failed start is
// explained, and drops the rest.
type Buffer struct {
	Limit int

	mu  sync.Mutex
	buf bytes.Buffer
}

// Write keeps p, or drops it once the buffer holds Limit bytes.
func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.Limit > 0 && b.buf.Len() > b.Limit {
		return len(p), nil
	}
	return b.buf.Write(p)
}

// String is what the child printed so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
