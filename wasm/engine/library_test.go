package engine

import (
	"testing"

	emqlua "echomq.dev/playground/lua"
)

// TestCourseLibraryRunsTheScripts: the course's scripts loaded as a
// function library (lua.Library, which the console offers a learner) give,
// through FCALL, the replies and the keyspace the same scripts give
// through EVALSHA: the admitted job, the duplicate, a bad id, the claim
// with its lease on the clock, an empty queue, and a bad lease.
func TestCourseLibraryRunsTheScripts(t *testing.T) {
	byEval, byFcall := MustNew(), MustNew()
	if got := byFcall.exec("FUNCTION", "LOAD", emqlua.Library()).String(); got != `"`+emqlua.LibraryName+`"` {
		t.Fatalf("FUNCTION LOAD of the library: %s", got)
	}
	enq, clm := emqlua.Enqueue(), emqlua.Claim()
	for _, s := range []*emqlua.Script{enq, clm} {
		byEval.exec("SCRIPT", "LOAD", s.Source)
	}
	row, pending, active, prefix := "emq:{q}:job:JOB-000001", "emq:{q}:pending", "emq:{q}:active", "emq:{q}:job:"
	calls := []struct {
		script *emqlua.Script
		keys   []string
		argv   []string
	}{
		{enq, []string{row, pending}, []string{"JOB-000001", `{"task":"a"}`}},
		{enq, []string{row, pending}, []string{"JOB-000001", `{"task":"again"}`}},
		{enq, []string{"emq:{q}:job:X", pending}, []string{"X-1", "p"}},
		{clm, []string{pending, active}, []string{prefix, "30000"}},
		{clm, []string{pending, active}, []string{prefix, "30000"}},
		{clm, []string{pending, active}, []string{prefix, "soon"}},
	}
	for _, c := range calls {
		n := string(rune('0' + len(c.keys)))
		eval := append(append([]string{"EVALSHA", c.script.SHA, n}, c.keys...), c.argv...)
		fcall := append(append([]string{"FCALL", c.script.Name, n}, c.keys...), c.argv...)
		want, got := byEval.exec(eval...).String(), byFcall.exec(fcall...).String()
		if got != want {
			t.Errorf("%q\nFCALL:   %s\nEVALSHA: %s", fcall, got, want)
		}
		byEval.Advance(1000)
		byFcall.Advance(1000)
	}
	for _, key := range []string{row, pending, active} {
		for _, read := range [][]string{{"HGETALL", key}, {"ZRANGE", key, "0", "-1", "WITHSCORES"}, {"TYPE", key}} {
			if a, b := byEval.exec(read...).String(), byFcall.exec(read...).String(); a != b {
				t.Errorf("%q after the calls\nFCALL:   %s\nEVALSHA: %s", read, b, a)
			}
		}
	}
}
