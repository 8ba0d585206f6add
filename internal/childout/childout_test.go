package childout

import (
	"strings"
	"sync"
	"testing"
)

func TestBufferKeepsWritesFromManyGoroutines(t *testing.T) {
	var b Buffer
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				b.Write([]byte("x"))
				_ = b.String()
			}
		})
	}
	wg.Wait()
	if got := len(b.String()); got != 800 {
		t.Errorf("kept %d bytes of 800", got)
	}
}

func TestLimitKeepsTheStart(t *testing.T) {
	b := Buffer{Limit: 4}
	for _, s := range []string{"start", " of it", " and more"} {
		if n, err := b.Write([]byte(s)); n != len(s) || err != nil {
			t.Errorf("Write(%q) = %d, %v: a dropped write still reports it all written", s, n, err)
		}
	}
	if got := b.String(); !strings.HasPrefix(got, "start") || strings.Contains(got, "more") {
		t.Errorf("kept %q", got)
	}
}
