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
		// FLUSHDB names no key and empties every one the trace follows.
		{"redis.call('SET', 'x', 2) redis.call('FLUSHDB') return 1", []string{"emq:{q}:pending"}, nil},
	}
	traced, plain := MustNew(), MustNew()
	for i, run := range history {
		tr := traced.Trace(run.src, run.keys, run.argv)
		want := plain.exec(run.evalArgs()...)
		if !tr.Reply.Equal(want) {
			t.Errorf("run %d: traced reply %s, EVAL reply %s", i, tr.Reply, want)
		}
		if got, want := traced.Keyspace(), plain.Keyspace(); !reflect.DeepEqual(got, want) {
			t.Fatalf("run %d: keyspaces differ\ntraced: %+v\n  EVAL: %+v", i, got, want)
		}
		// The steps show only the keys the run touched: the last one
		// shows each of them as the final keyspace holds it, and no
		// other key exists that a step shows.
		if n := len(tr.Steps); n > 0 && !reflect.DeepEqual(tr.Steps[n-1].Keyspace, entriesOf(traced.Keyspace(), tr.Keys)) {
			t.Errorf("run %d: the last step's keys are not the final keyspace's\nstep: %+v\nkeys: %+v", i, tr.Steps[n-1].Keyspace, entriesOf(traced.Keyspace(), tr.Keys))
		}
	}
}

func TestTraceOfAFreshEnqueueHasFourMoves(t *testing.T) {
	e := MustNew()
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
	e := MustNew()
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
	e := MustNew()
	e.exec(append([]string{"EVAL", emqlua.Enqueue().Source, "2"}, append(enqueueKeys, "JOB-1", "p")...)...)
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

// TestTraceCachesTheScriptAsEvalWould: after the stepper's traced run, a
// client's EVALSHA of the same script finds it, as after an EVAL.
func TestTraceCachesTheScriptAsEvalWould(t *testing.T) {
	e := MustNew()
	src := emqlua.Enqueue().Source
	e.Trace(src, enqueueKeys, []string{"JOB-1", "{}"})
	do(t, e, "1) (integer) 1", "SCRIPT", "EXISTS", emqlua.SHA1Hex(src))
	do(t, e, "(integer) 1", "EVALSHA", emqlua.SHA1Hex(src), "2", "emq:{q}:job:JOB-2", "emq:{q}:pending", "JOB-2", "{}")
	// A script that does not compile is not cached, by a trace or by EVAL.
	bad := "return ("
	e.Trace(bad, nil, nil)
	do(t, e, "1) (integer) 0", "SCRIPT", "EXISTS", emqlua.SHA1Hex(bad))
}

func TestTraceOfARunawayScriptIsStopped(t *testing.T) {
	e := MustNew()
	tr := e.Trace("-- @move 1 spin\nredis.call('SET', 'k', 'v')\nwhile true do end", nil, nil)
	if !strings.HasPrefix(tr.Reply.Str, "ERR Script killed by user with SCRIPT KILL...") {
		t.Fatalf("reply %s", tr.Reply)
	}
	if len(tr.Steps) != 1 || tr.Steps[0].Name != "spin" {
		t.Errorf("steps %+v", tr.Steps)
	}
	do(t, e, `"v"`, "GET", "k")
}

// entriesOf is the entries of keys in a whole keyspace, bounded as a
// traced step bounds them, in the order of keys.
func entriesOf(all []Entry, keys []string) []Entry {
	by := map[string]Entry{}
	for _, en := range all {
		by[en.Key] = en
	}
	out := []Entry{}
	for _, k := range keys {
		if en, ok := by[k]; ok {
			out = append(out, bound(en))
		}
	}
	return out
}

// bound keeps TraceEnds elements of each end of a whole entry.
func bound(en Entry) Entry {
	switch en.Type {
	case "string":
		en.Count = 1
	case "hash":
		en.Fields = keepEnds(&en, en.Fields)
	case "zset":
		en.Members = keepEnds(&en, en.Members)
	case "list", "set":
		en.Items = keepEnds(&en, en.Items)
	}
	return en
}

// keepEnds is a copy of TraceEnds elements of each end of elems, and
// en's count and gap for them.
func keepEnds[T any](en *Entry, elems []T) []T {
	n := len(elems)
	en.Count = n
	if n <= 2*TraceEnds {
		return append([]T(nil), elems...)
	}
	en.Gap = &Gap{At: TraceEnds, Count: n - 2*TraceEnds}
	return append(append([]T(nil), elems[:TraceEnds]...), elems[n-TraceEnds:]...)
}

// TestTraceAtDepthShowsOnlyTheKeysItTouches: with 10,000 jobs queued, a
// traced enqueue records its two keys and nothing else, each bounded to
// the ends the page draws, and still ends where EVAL ends.
func TestTraceAtDepthShowsOnlyTheKeysItTouches(t *testing.T) {
	unhurried(t) // about what a trace shows, not how fast it is: a loaded machine must not end it
	traced, plain := MustNew(), MustNew()
	src := emqlua.Enqueue().Source
	// In chunks of 500, each well inside the script budget under -race.
	fill := "for i = 1, 500 do local id = 'JOB-' .. (100000 + ARGV[1] + i); redis.call('HSET', KEYS[1] .. id, 'state', 'pending', 'attempts', '0', 'payload', '{}'); redis.call('ZADD', KEYS[2], 0, id) end"
	for _, e := range []*Engine{traced, plain} {
		for from := 0; from < 10000; from += 500 {
			do(t, e, "(nil)", "EVAL", fill, "2", "emq:{q}:job:", "emq:{q}:pending", strconv.Itoa(from))
		}
	}
	tr := traced.Trace(src, enqueueKeys, []string{"JOB-1", "{}"})
	want := plain.exec(traceRun{src, enqueueKeys, []string{"JOB-1", "{}"}}.evalArgs()...)
	if !tr.Reply.Equal(want) {
		t.Fatalf("traced reply %s, EVAL reply %s", tr.Reply, want)
	}
	if !reflect.DeepEqual(tr.Keys, enqueueKeys) {
		t.Errorf("keys %v, want %v", tr.Keys, enqueueKeys)
	}
	for i, s := range tr.Steps {
		for _, en := range s.Keyspace {
			if n := len(en.Members) + len(en.Fields) + len(en.Items); n > 2*TraceEnds {
				t.Errorf("step %d shows %d elements of %s", i, n, en.Key)
			}
		}
	}
	last := tr.Steps[len(tr.Steps)-1].Keyspace
	if len(last) != 2 || last[1].Count != 10001 || last[1].Gap == nil || last[1].Gap.Count != 10001-2*TraceEnds {
		t.Fatalf("last step %+v", last)
	}
	// The before holds the pending set only: the row did not exist.
	if len(tr.Before) != 1 || tr.Before[0].Key != "emq:{q}:pending" || tr.Before[0].Count != 10000 {
		t.Errorf("before %+v", tr.Before)
	}
	// The touched keys in full, then every key of the rest.
	all, wantAll := traced.Keyspace(), plain.Keyspace()
	if !reflect.DeepEqual(entriesOf(all, tr.Keys), entriesOf(wantAll, tr.Keys)) || len(all) != len(wantAll) || !reflect.DeepEqual(all, wantAll) {
		t.Fatalf("keyspaces differ after the traced run at depth (%d keys traced, %d by EVAL)", len(all), len(wantAll))
	}
}

// TestTraceFollowsTheKeysItNames: a key a command names joins the trace,
// shown as it was before the run in the steps before it was named; KEYS
// come first, the rest by name; a name that is no key is not followed.
func TestTraceFollowsTheKeysItNames(t *testing.T) {
	e := MustNew()
	e.exec("SET", "b", "old")
	e.exec("SET", "untouched", "x")
	src := "-- @move 1 first\nredis.call('SET', KEYS[1], 'v')\n-- @move 2 second\nredis.call('SET', 'b', 'new')\nredis.call('SET', 'a', ARGV[1])\nreturn redis.call('GET', 'nothing')"
	tr := e.Trace(src, []string{"k"}, []string{"1"})
	if want := []string{"k", "a", "b"}; !reflect.DeepEqual(tr.Keys, want) {
		t.Fatalf("keys %v, want %v", tr.Keys, want)
	}
	show := func(es []Entry) string {
		var out []string
		for _, en := range es {
			out = append(out, en.Key+"="+en.String)
		}
		return strings.Join(out, " ")
	}
	if got := show(tr.Before); got != "b=old" {
		t.Errorf("before %q", got)
	}
	var got []string
	for _, s := range tr.Steps {
		got = append(got, show(s.Keyspace))
	}
	want := []string{"k=v b=old", "k=v b=new", "k=v a=1 b=new", "k=v a=1 b=new"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("steps\n got %q\nwant %q", got, want)
	}
}

func TestTraceSaysWhyTheScriptDidNotReturn(t *testing.T) {
	e := MustNew()
	for _, tc := range []struct {
		src  string
		want *Problem
	}{
		{"return 1", nil},
		{"return redis.error_reply('EMQKIND no')", nil},
		{"local x = 1\nreturn (", &Problem{Kind: "syntax", Code: "ERR", Line: 2, Detail: "unexpected symbol near '<eof>'",
			Message: "ERR Error compiling script (new function): user_script:2: unexpected symbol near '<eof>'"}},
		{"\nredis.call('NOPE')", &Problem{Kind: "runtime", Code: "ERR", Line: 2, Message: "ERR Unknown Redis command called from script"}},
		{"\n\nwhile true do end", &Problem{Kind: "killed", Code: "ERR", Line: 3, Message: "ERR Script killed by user with SCRIPT KILL..."}},
	} {
		tr := e.Trace(tc.src, nil, nil)
		if !reflect.DeepEqual(tr.Problem, tc.want) {
			t.Errorf("%q: problem %+v, want %+v (reply %s)", tc.src, tr.Problem, tc.want, tr.Reply)
		}
	}
}

func TestTraceReturnsTheScriptsMoves(t *testing.T) {
	tr := MustNew().Trace(emqlua.Enqueue().Source, enqueueKeys, []string{"JOB-1", "{}"})
	if !reflect.DeepEqual(tr.Moves, emqlua.Enqueue().Moves) || len(tr.Moves) != 4 {
		t.Errorf("moves %+v", tr.Moves)
	}
}

// TestChangedNamesOnlyTheKeysWritten is the stepper's "changed" notice:
// after a run, only a write that changes a key it shows counts.
func TestChangedNamesOnlyTheKeysWritten(t *testing.T) {
	e := MustNew()
	tr := e.Trace(emqlua.Enqueue().Source, enqueueKeys, []string{"JOB-1", "{}"})
	console := e.NewClient()
	for _, cmd := range [][]string{
		{"PING"}, {"GET", "nothing"},
		{"EVAL", emqlua.Enqueue().Source, "2", "emq:{q}:job:job-2", "emq:{q}:pending", "job-2", "{}"}, // refused by the gate
		{"EVAL", emqlua.Enqueue().Source, "2", "emq:{q}:job:JOB-1", "emq:{q}:pending", "JOB-1", "{}"}, // a duplicate
		{"ZADD", "emq:{q}:pending", "0", "JOB-1"},                                                     // the score it has
		{"ZADD", "emq:{race}:pending", "0", "JOB-1"},
		{"SET", "emq:{q}:paused", "1"},
	} {
		console.Do(cmd...)
		if got := e.Changed(tr.Stamps); len(got) != 0 {
			t.Fatalf("after %s: changed %v", cmd[0], got)
		}
	}
	for _, tc := range []struct {
		cmd  []string
		want []string
	}{
		{[]string{"ZADD", "emq:{q}:pending", "0", "JOB-2"}, []string{"emq:{q}:pending"}},
		{[]string{"HSET", "emq:{q}:job:JOB-1", "state", "active"}, []string{"emq:{q}:job:JOB-1", "emq:{q}:pending"}},
	} {
		console.Do(tc.cmd...)
		if got := e.Changed(tr.Stamps); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("after %v: changed %v, want %v", tc.cmd, got, tc.want)
		}
	}
	// Expiry as the clock moves, FLUSHDB and RENAME count as well.
	for _, tc := range []struct {
		cmds [][]string
		want []string
	}{
		{[][]string{{"PEXPIRE", "emq:{q}:job:JOB-1", "1000"}}, []string{"emq:{q}:job:JOB-1"}},
		{[][]string{{"RENAME", "emq:{q}:pending", "elsewhere"}}, []string{"emq:{q}:pending"}},
		{[][]string{{"FLUSHDB"}}, []string{"emq:{q}:job:JOB-1", "emq:{q}:pending"}},
	} {
		e.Reset()
		tr := e.Trace(emqlua.Enqueue().Source, enqueueKeys, []string{"JOB-1", "{}"})
		for _, c := range tc.cmds {
			console.Do(c...)
		}
		if got := e.Changed(tr.Stamps); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("after %v: changed %v, want %v", tc.cmds, got, tc.want)
		}
	}
	e.Reset()
	tr = e.Trace(emqlua.Enqueue().Source, enqueueKeys, []string{"JOB-1", "{}"})
	console.Do("PEXPIRE", "emq:{q}:job:JOB-1", "1000")
	stamps := e.Stamps(tr.Keys)
	e.Advance(500) // the TTL runs down: no change
	if got := e.Changed(stamps); len(got) != 0 {
		t.Errorf("a TTL running down changed %v", got)
	}
	e.Advance(600) // the key expires
	if got := e.Changed(stamps); !reflect.DeepEqual(got, []string{"emq:{q}:job:JOB-1"}) {
		t.Errorf("expiry changed %v", got)
	}
}
