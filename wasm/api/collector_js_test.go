//go:build js && wasm

package api

import (
	"runtime"
	"testing"
)

// TestServeGivesTheSchedulerATurn checks, in wasm's one thread, that a
// goroutine waiting to run (as the collector's worker waits in a
// collection) runs within CollectorTurn calls of Serve, though no call
// blocks: without the turn it would wait for the next call that parks,
// which through the exports never comes (see CollectorTurn).
func TestServeGivesTheSchedulerATurn(t *testing.T) {
	m := NewModule()
	serve(t, m, `["exec",[["PING"]]]`)
	runtime.GC() // the collector's workers exist before the count starts
	ran := false
	go func() { ran = true }()
	for range CollectorTurn {
		if got := serve(t, m, `["exec",[["PING"]]]`); got["value"] != "PONG" {
			t.Fatalf("PING: %v", got)
		}
	}
	if !ran {
		t.Fatalf("a waiting goroutine did not run in %d calls of Serve", CollectorTurn)
	}
}
