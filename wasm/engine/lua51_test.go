package engine

import (
	"runtime"
	"strings"
	"testing"
)

// A learner's gsub over a long string: 100,000 bytes, each replaced by two.
// gopher-lua's gsub built its result by repeated concatenation, which grew
// the module to 4 GB and killed it (natively it allocated some 10 GB over
// 40 s, and the budget never stopped it). The reply is the new string's
// length, and the call allocates about what the result needs, not the
// square of it.
func TestGsubOverALongStringAnswers(t *testing.T) {
	e := MustNew()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := e.exec("EVAL", "local s, n = string.gsub(string.rep('a', 100000), 'a', 'bb') return {#s, n, s:sub(1, 6)}", "0")
	if r.IsError() || len(r.Elems) != 3 || r.Elems[0].Int != 200000 || r.Elems[1].Int != 100000 || r.Elems[2].Str != "bbbbbb" {
		t.Fatalf("gsub over 100,000 bytes = %v, want [200000, 100000, \"bbbbbb\"]", r)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
		t.Errorf("gsub over 100,000 bytes allocated %d MiB; its result is 0.2 MB", grew>>20)
	}
	// The engine is still there for the next script.
	if r := e.exec("EVAL", "return 1", "0"); r.Int != 1 {
		t.Fatalf("the next script = %v", r)
	}
}

// A pattern that backtracks without end is one library call; the budget
// still stops it, with the error a runaway loop gets, and the engine lives.
func TestBacktrackingPatternIsStoppedByTheBudget(t *testing.T) {
	e := MustNew()
	src := "return string.find(string.rep('a', 60), string.rep('a?', 60) .. string.rep('a', 60) .. 'b')"
	r := e.exec("EVAL", src, "0")
	if !r.IsError() || !strings.HasPrefix(r.Str, "ERR Script killed by user with SCRIPT KILL...") {
		t.Fatalf("a pattern that never ends = %v, want the runaway script's error", r)
	}
	if r := e.exec("EVAL", "return select(2, string.gsub('a b c', '%a', '%0'))", "0"); r.Int != 3 {
		t.Fatalf("the next script = %v", r)
	}
}

// gsub cannot build a string past the playground's cap in one call.
func TestGsubResultIsCapped(t *testing.T) {
	unhurried(t)
	e := MustNew()
	r := e.exec("EVAL", "return #string.gsub(string.rep('a', 1000), 'a', string.rep('b', 40000))", "0")
	if !r.IsError() || !strings.Contains(r.Str, "string length overflow (the playground caps a string at 32 MiB)") {
		t.Fatalf("a 40 MB gsub = %v, want the string cap's error", r)
	}
}
