package engine

import (
	"testing"

	"echomq.dev/playground/wasm/resp"
)

// PFSELFTEST answers OK, as Redis 7.0 does outside DEBUG. (Redis's own
// run takes seconds, so wasm/fidelity compares only its arity error.)
func TestPFSELFTESTAnswersOK(t *testing.T) {
	e := MustNew()
	if got, _ := e.Do("PFSELFTEST"); !got.Equal(resp.StatusReply("OK")) {
		t.Errorf("PFSELFTEST = %v, want OK", got)
	}
}

// A PF command keeps the key's TTL when it writes the string back, and
// the key still expires as the clock moves.
func TestPFCommandsKeepTheTTL(t *testing.T) {
	e := MustNew()
	for _, cmd := range [][]string{{"PFADD", "h", "a"}, {"PEXPIRE", "h", "5000"}, {"PFADD", "h", "b"}, {"PFCOUNT", "h"}, {"PFMERGE", "h"}, {"PFDEBUG", "TODENSE", "h"}} {
		e.Do(cmd...)
	}
	if got, _ := e.Do("PTTL", "h"); got.Int != 5000 {
		t.Errorf("PTTL after PFADD, PFCOUNT, PFMERGE and PFDEBUG = %v, want 5000", got)
	}
	e.Advance(5000)
	if got, _ := e.Do("EXISTS", "h"); got.Int != 0 {
		t.Errorf("EXISTS once the TTL has passed = %v, want 0", got)
	}
}
