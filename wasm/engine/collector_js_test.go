//go:build js && wasm

package engine

import (
	"runtime"
	"testing"
)

// TestALongScriptGivesTheSchedulerATurn checks, in wasm's one thread, that
// a goroutine waiting to run (as the collector's worker waits in a
// collection) runs while a long script does, though the script never
// blocks: the budget's check gives the scheduler its turn (budget.Done).
func TestALongScriptGivesTheSchedulerATurn(t *testing.T) {
	e := MustNew()
	runtime.GC() // the collector's workers exist before the script starts
	ran := false
	go func() { ran = true }()
	if r := e.exec("EVAL", "local n = 0 for i = 1, 5000 do n = n + i end return n", "0"); r.IsError() || r.Int != 12502500 {
		t.Fatalf("script: %v", r)
	}
	if !ran {
		t.Fatal("a waiting goroutine did not run during a script of 5,000 iterations")
	}
}
