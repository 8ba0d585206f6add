package engine

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	emqlua "echomq.dev/playground/lua"
)

var (
	enqueueKeys = []string{"emq:{q}:job:JOB-1", "emq:{q}:pending"}
	claimKeys   = []string{"emq:{q}:pending", "emq:{q}:active"}
	claimArgv   = []string{"emq:{q}:job:", "30000"}
)

type traceRun struct {
	src        string
	keys, argv []string
}

// evalArgs is the EVAL that runs the same script untraced.
func (r traceRun) evalArgs() []string {
	args := append([]string{"EVAL", r.src, strconv.Itoa(len(r.keys))}, r.keys...)
	return append(args, r.argv...)
}

// TestTraceEndsWhereTheUntracedRunEnds is the tracer's promise: recording
// the moves changes nothing. Two engines run the same history, one traced
// and one by EVAL, and after every run their keyspaces and replies match.
func TestTraceEndsWhereTheUntracedRunEnds(t *testing.T) {
	enq, claim := emqlua.Enqueue().Source, emqlua.Claim().Source
	history := []traceRun{
		{enq, enqueueKeys, []string{"JOB-1", "{}"}},
		{enq, enqueueKeys, []string{"JOB-1", "{}"}}, // duplicate
		{enq, []string{"emq:{q}:job:bad", "emq:{q}:pending"}, []string{"bad", "{}"}},
		{enq, []string{"emq:{q}:job:JOB-0", "emq:{q}:pending"}, []string{"JOB-0", "zero"}},
		{claim, claimKeys, claimArgv},
		{claim, claimKeys, []string{"emq:{q}:job:", "abc"}},
		{claim, claimKeys, claimArgv},
		{claim, claimKeys, claimArgv}, // empty
		{"redis.call('SET', 'x', 1) return redis.call('NOPE')", nil, nil},
	}
	traced, plain := New(), New()
	for i, run := range history {
		tr := traced.Trace(run.src, run.keys, run.argv)
		want := plain.Exec(run.evalArgs()...)
		if !tr.Reply.Equal(want) {
			t.Errorf("run %d: traced reply %s, EVAL reply %s", i, tr.Reply, want)
		}
		if got, want := traced.Keyspace(), plain.Keyspace(); !reflect.DeepEqual(got, want) {
			t.Fatalf("run %d: keyspaces differ\ntraced: %+v\n  EVAL: %+v", i, got, want)
		}
		if n := len(tr.Steps); n > 0 && !reflect.DeepEqual(tr.Steps[n-1].Keyspace, traced.Keyspace()) {
			t.Errorf("run %d: the last step's keyspace is not the final keyspace", i)
		}
	}
}

func TestTraceOfAFreshEnqueueHasFourMoves(t *testing.T) {
	e := New()
	tr := e.Trace(emqlua.Enqueue().Source, enqueueKeys, []string{"JOB-1", "{}"})
	if got := tr.Reply.String(); got != "(integer) 1" {
		t.Fatalf("reply %s", got)
	}
	type row struct {
		move    int
		name    string
		command string
		reply   string
		keys    string
	}
	var got []row
	for _, s := range tr.Steps {
		r := row{move: s.Move, name: s.Name, command: strings.Join(s.Command, " ")}
		if s.Reply != nil {
			r.reply = s.Reply.String()
		}
		var keys []string
		for _, en := range s.Keyspace {
			keys = append(keys, en.Key)
		}
		r.keys = strings.Join(keys, ",")
		got = append(got, r)
	}
	want := []row{
		{1, "gate", "", "", ""},
		{2, "idempotency", "EXISTS emq:{q}:job:JOB-1", "(integer) 0", ""},
		{3, "row", "HSET emq:{q}:job:JOB-1 state pending attempts 0 payload {}", "(integer) 3", "emq:{q}:job:JOB-1"},
		{4, "pending", "ZADD emq:{q}:pending 0 JOB-1", "(integer) 1", "emq:{q}:job:JOB-1,emq:{q}:pending"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("steps\n got: %+v\nwant: %+v", got, want)
	}
	// Each step names a line inside its own move.
	script := emqlua.Enqueue()
	for _, s := range tr.Steps {
		m, ok := script.MoveAt(s.Line)
		if !ok || m.N != s.Move {
			t.Errorf("step %d (%s) names line %d, which is not in its move", s.Move, s.Name, s.Line)
		}
	}
	// The gate calls nothing: its line is the string.sub check.
	if line := strings.Split(script.Source, "\n")[tr.Steps[0].Line-1]; !strings.Contains(line, "string.sub(ARGV[1], 1, 3)") {
		t.Errorf("gate line is %q", line)
	}
}

func TestTraceStopsWhereTheScriptStops(t *testing.T) {
	e := New()
	e.Trace(emqlua.Enqueue().Source, enqueueKeys, []string{"JOB-1", "{}"})
	for _, tc := range []struct {
		desc  string
		keys  []string
		argv  []string
		moves []string
		reply string
	}{
		{"a duplicate stops at move 2", enqueueKeys, []string{"JOB-1", "{}"}, []string{"gate", "idempotency"}, "(integer) 0"},
		{"an id without JOB stops at move 1", []string{"emq:{q}:job:x", "emq:{q}:pending"}, []string{"x", "{}"}, []string{"gate"}, "(error) EMQKIND job id must be JOB-namespaced"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			tr := e.Trace(emqlua.Enqueue().Source, tc.keys, tc.argv)
			var names []string
			for _, s := range tr.Steps {
				names = append(names, s.Name)
			}
			if !reflect.DeepEqual(names, tc.moves) || tr.Reply.String() != tc.reply {
				t.Errorf("moves %v reply %s; want %v reply %s", names, tr.Reply, tc.moves, tc.reply)
			}
		})
	}
}

func TestTraceOfAClaimNamesEachMove(t *testing.T) {
	e := New()
	e.Exec(append([]string{"EVAL", emqlua.Enqueue().Source, "2"}, append(enqueueKeys, "JOB-1", "p")...)...)
	tr := e.Trace(emqlua.Claim().Source, claimKeys, claimArgv)
	var got []string
	for _, s := range tr.Steps {
		got = append(got, s.Name+":"+s.Command[0])
	}
	want := []string{"pop:ZPOPMIN", "pop:HGET", "attempt:HINCRBY", "state:HSET", "lease:TIME", "lease:ZADD"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("steps %v, want %v", got, want)
	}
	last := tr.Steps[len(tr.Steps)-1]
	if got, want := strings.Join(last.Command, " "), "ZADD emq:{q}:active 1767225630000 JOB-1"; got != want {
		t.Errorf("lease command %q, want %q", got, want)
	}
}

func TestTraceDoesNotCacheTheScript(t *testing.T) {
	e := New()
	src := emqlua.Enqueue().Source
	e.Trace(src, enqueueKeys, []string{"JOB-1", "{}"})
	do(t, e, "1) (integer) 0", "SCRIPT", "EXISTS", emqlua.SHA1Hex(src))
}

func TestTraceOfARunawayScriptIsStopped(t *testing.T) {
	e := New()
	tr := e.Trace("-- @move 1 spin\nredis.call('SET', 'k', 'v')\nwhile true do end", nil, nil)
	if !strings.HasPrefix(tr.Reply.Str, "ERR Script killed by user with SCRIPT KILL...") {
		t.Fatalf("reply %s", tr.Reply)
	}
	if len(tr.Steps) != 1 || tr.Steps[0].Name != "spin" {
		t.Errorf("steps %+v", tr.Steps)
	}
	do(t, e, `"v"`, "GET", "k")
}
