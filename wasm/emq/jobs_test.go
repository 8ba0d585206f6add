package emq_test

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"echomq.dev/playground/internal/redisdiff"
	"echomq.dev/playground/wasm/emq"
	"echomq.dev/playground/wasm/engine"
	"echomq.dev/playground/wasm/resp"
)

// The handles over the engine. What the engine answers is held against a
// real Redis in differential_test.go; here the tests pin down what the
// course says each verb does.

const (
	kindMsg  = "EMQKIND job id must be JOB-namespaced"
	leaseMsg = "EMQLEASE lease must be a positive integer of milliseconds"
)

func enqueue(t testing.TB, j *emq.Jobs, queue, id, payload string) emq.Outcome {
	t.Helper()
	out, err := j.Enqueue(queue, id, payload)
	if err != nil {
		t.Fatalf("Enqueue(%q, %s, %s): %v", queue, redisdiff.Short(id), redisdiff.Short(payload), err)
	}
	return out
}

func claim(t testing.TB, j *emq.Jobs, queue, lease string) emq.Outcome {
	t.Helper()
	out, err := j.ClaimLease(queue, lease)
	if err != nil {
		t.Fatalf("Claim(%q, %q): %v", queue, lease, err)
	}
	return out
}

// wantLeased claims and checks the job handed over.
func wantLeased(t testing.TB, j *emq.Jobs, queue, lease string, want emq.Job) {
	t.Helper()
	out := claim(t, j, queue, lease)
	if out.Verdict != emq.Leased || out.Job == nil {
		t.Fatalf("Claim(%q, %q) = %s %v, want leased %s", queue, lease, out.Verdict, out.Job, redisdiff.Short(want.ID))
	}
	if *out.Job != want {
		t.Errorf("Claim(%q, %q) leased {%s %s %d}, want {%s %s %d}", queue, lease,
			redisdiff.Short(out.Job.ID), redisdiff.Short(out.Job.Payload), out.Job.Attempts,
			redisdiff.Short(want.ID), redisdiff.Short(want.Payload), want.Attempts)
	}
}

func wantEmpty(t testing.TB, j *emq.Jobs, queue string) emq.Outcome {
	t.Helper()
	out := claim(t, j, queue, "1000")
	if out.Verdict != emq.Empty || out.Job != nil {
		t.Fatalf("Claim(%q) = %s %v, want empty", queue, out.Verdict, out.Job)
	}
	return out
}

// wantHash checks a row field by field, in any field order.
func wantHash(t testing.TB, c emq.Conn, key string, want map[string]string) {
	t.Helper()
	kv := strs(t, mustDo(t, c, "HGETALL", key))
	got := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		got[kv[i]] = kv[i+1]
	}
	if len(want) == 0 && len(got) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("HGETALL %s\n got: %q\nwant: %q", redisdiff.Short(key), got, want)
	}
}

// wantMembers checks a sorted set's members in ZRANGE order.
func wantMembers(t testing.TB, c emq.Conn, key string, want ...string) {
	t.Helper()
	got := strs(t, mustDo(t, c, "ZRANGE", key, "0", "-1"))
	if strings.Join(got, "\x1f") != strings.Join(want, "\x1f") || len(got) != len(want) {
		t.Errorf("ZRANGE %s 0 -1\n got: %q\nwant: %q", key, got, want)
	}
}

func pendingRow(payload string) map[string]string {
	return map[string]string{"state": "pending", "attempts": "0", "payload": payload}
}

func TestEnqueueVerdicts(t *testing.T) {
	e := newEngine(t)
	j := emq.NewJobs(e)
	k, _ := emq.KeyspaceFor("q")

	steps := []struct {
		desc        string
		id, payload string
		want        emq.Verdict // "" when refused
		wantKind    string      // Refusal.Kind when refused
	}{
		{"a JOB id is admitted", "JOB1", "first", emq.Enqueued, ""},
		{"the same id again is a no-op", "JOB1", "second", emq.Duplicate, ""},
		{"the same id with the same payload too", "JOB1", "first", emq.Duplicate, ""},
		{"exactly the three bytes JOB is an id", "JOB", "bare", emq.Enqueued, ""},
		{"lower case is another kind", "job2", "x", "", "kind"},
		{"JOB must come first", "XJOB3", "x", "", "kind"},
		{"too short", "JO", "x", "", "kind"},
		{"empty id", "", "x", "", "kind"},
		{"a NUL byte before JOB", "\x00JOB", "x", "", "kind"},
		{"bytes after JOB are anything", "JOB\x00\xff", "", emq.Enqueued, ""},
		{"an empty payload is stored as empty", "JOB4", "", emq.Enqueued, ""},
	}
	for i, st := range steps {
		before := keyspace(t, e)
		out, err := j.Enqueue("q", st.id, st.payload)
		if st.wantKind != "" {
			r := refusal(t, err)
			if got, want := r.Kind, st.wantKind; got != want {
				t.Errorf("step %d, %s: Refusal.Kind = %q, want %q", i, st.desc, got, want)
			}
			if got, want := r.Reply, resp.ErrorReply(kindMsg); !got.Equal(want) {
				t.Errorf("step %d, %s: Refusal.Reply = %v, want %v", i, st.desc, got, want)
			}
			if got, want := r.Error(), kindMsg; got != want {
				t.Errorf("step %d, %s: Error() = %q, want %q", i, st.desc, got, want)
			}
			if len(r.Wire) == 0 {
				t.Errorf("step %d, %s: a refusal by the script carries no exchanges", i, st.desc)
			}
		} else {
			if err != nil {
				t.Fatalf("step %d, %s: Enqueue(%q): %v", i, st.desc, st.id, err)
			}
			if got, want := out.Verdict, st.want; got != want {
				t.Errorf("step %d, %s: verdict = %q, want %q", i, st.desc, got, want)
			}
			if out.Job != nil {
				t.Errorf("step %d, %s: enqueue hands out a job: %+v", i, st.desc, out.Job)
			}
			if len(out.Wire) == 0 {
				t.Errorf("step %d, %s: no exchanges recorded", i, st.desc)
			}
		}
		// Only an admission writes, and then exactly the row and the
		// pending entry.
		if st.want != emq.Enqueued {
			if diff := keyspaceChange(before, keyspace(t, e)); diff != "" {
				t.Errorf("step %d, %s: the keyspace changed:\n%s", i, st.desc, diff)
			}
		}
	}

	wantHash(t, e, k.Job("JOB1"), pendingRow("first"))
	wantHash(t, e, k.Job("JOB"), pendingRow("bare"))
	wantHash(t, e, k.Job("JOB\x00\xff"), pendingRow(""))
	wantHash(t, e, k.Job("JOB4"), pendingRow(""))
	wantMembers(t, e, k.Pending(), "JOB", "JOB\x00\xff", "JOB1", "JOB4")
	wantReply(t, e, resp.ArrayReply(resp.BulkReply("0"), resp.BulkReply("0"), resp.BulkReply("0"), resp.BulkReply("0")),
		"ZMSCORE", k.Pending(), "JOB", "JOB\x00\xff", "JOB1", "JOB4")
	// Nothing else: no row for a refused id, no active set, no flag.
	got := strs(t, mustDo(t, e, "KEYS", "*"))
	if len(got) != 5 {
		t.Errorf("KEYS * = %q, want the 4 rows and the pending set", got)
	}
}

func TestClaimHandsOutInByteOrder(t *testing.T) {
	e := newEngine(t)
	j := emq.NewJobs(e)
	k, _ := emq.KeyspaceFor("q")
	// Enqueued out of order; claimed in byte order of the ids, which is
	// not numeric order ("JOB10" < "JOB2") and puts NUL first and
	// multi-byte runes last.
	for _, id := range []string{"JOB3", "JOB🚀", "JOB10", "JOBa", "JOB2", "JOB\x00", "JOBZ", "JOB1"} {
		if got := enqueue(t, j, "q", id, "payload of "+id).Verdict; got != emq.Enqueued {
			t.Fatalf("Enqueue(%q) = %s, want enqueued", id, got)
		}
	}
	order := []string{"JOB\x00", "JOB1", "JOB10", "JOB2", "JOB3", "JOBZ", "JOBa", "JOB🚀"}
	for n, id := range order {
		wantLeased(t, j, "q", "30000", emq.Job{ID: id, Payload: "payload of " + id, Attempts: 1})
		wantHash(t, e, k.Job(id), map[string]string{"state": "active", "attempts": "1", "payload": "payload of " + id})
		wantMembers(t, e, k.Pending(), order[n+1:]...)
	}
	out := wantEmpty(t, j, "q")
	if len(out.Wire) == 0 || !out.Wire[len(out.Wire)-1].Reply.Equal(resp.ArrayReply()) {
		t.Errorf("empty claim exchanges:%s, want the script's empty array", showWire(out.Wire))
	}
	// Every claimed id is in the active set, once.
	if got := mustDo(t, e, "ZCARD", k.Active()); got.Int != int64(len(order)) {
		t.Errorf("ZCARD active = %v, want %d", got, len(order))
	}
}

func TestClaimOnAnEmptyQueueWritesNothing(t *testing.T) {
	e := newEngine(t)
	j := emq.NewJobs(e)
	wantEmpty(t, j, "nothing-here")
	if got := strs(t, mustDo(t, e, "KEYS", "*")); len(got) != 0 {
		t.Errorf("KEYS * after an empty claim = %q, want none", got)
	}
}

func TestReEnqueueDoesNotRedeliver(t *testing.T) {
	e := newEngine(t)
	j := emq.NewJobs(e)
	k, _ := emq.KeyspaceFor("q")
	enqueue(t, j, "q", "JOB1", "p")
	wantLeased(t, j, "q", "1000", emq.Job{ID: "JOB1", Payload: "p", Attempts: 1})

	// The row is still there, so enqueueing the id again is a duplicate:
	// it neither resets the row nor puts the job back in line.
	if got := enqueue(t, j, "q", "JOB1", "new payload").Verdict; got != emq.Duplicate {
		t.Fatalf("re-enqueue of a claimed job = %s, want duplicate", got)
	}
	wantHash(t, e, k.Job("JOB1"), map[string]string{"state": "active", "attempts": "1", "payload": "p"})
	wantEmpty(t, j, "q")

	// Put back in line by hand (what a lease reaper would do), the job is
	// delivered again and attempts counts the second delivery.
	mustDo(t, e, "ZADD", k.Pending(), "0", "JOB1")
	wantLeased(t, j, "q", "1000", emq.Job{ID: "JOB1", Payload: "p", Attempts: 2})
	wantHash(t, e, k.Job("JOB1"), map[string]string{"state": "active", "attempts": "2", "payload": "p"})
}

func TestClaimOfAnIdWithoutARow(t *testing.T) {
	// A pending id whose row is gone is still handed over, with an empty
	// payload; @claim recreates the row with what it writes.
	e := newEngine(t)
	j := emq.NewJobs(e)
	k, _ := emq.KeyspaceFor("q")
	mustDo(t, e, "ZADD", k.Pending(), "0", "JOB9")
	wantLeased(t, j, "q", "1000", emq.Job{ID: "JOB9", Payload: "", Attempts: 1})
	wantHash(t, e, k.Job("JOB9"), map[string]string{"state": "active", "attempts": "1"})
}

func TestPauseAndResume(t *testing.T) {
	e := newEngine(t)
	j := emq.NewJobs(e)
	k, _ := emq.KeyspaceFor("q")
	enqueue(t, j, "q", "JOB1", "a")
	enqueue(t, j, "q", "JOB2", "b")
	enqueue(t, j, "other", "JOB1", "c")

	for range 2 { // pausing a paused queue is harmless
		out, err := j.Pause("q")
		if err != nil || out.Verdict != emq.Paused {
			t.Fatalf("Pause = %v, %v; want paused", out.Verdict, err)
		}
	}
	wantReply(t, e, resp.BulkReply("1"), "GET", k.Paused())
	if s, err := j.Snapshot("q"); err != nil || !s.Paused {
		t.Errorf("Snapshot of a paused queue: Paused = %v, %v", s.Paused, err)
	}

	before := keyspace(t, e)
	out := wantEmpty(t, j, "q")
	if len(out.Wire) != 0 {
		t.Errorf("a paused claim ran @claim:%s", showWire(out.Wire))
	}
	if diff := keyspaceChange(before, keyspace(t, e)); diff != "" {
		t.Errorf("a paused claim changed the keyspace:\n%s", diff)
	}
	// Enqueue still admits while paused, and the pause is per queue.
	if got := enqueue(t, j, "q", "JOB0", "z").Verdict; got != emq.Enqueued {
		t.Errorf("Enqueue on a paused queue = %s, want enqueued", got)
	}
	wantLeased(t, j, "other", "1000", emq.Job{ID: "JOB1", Payload: "c", Attempts: 1})

	for range 2 { // resuming a running queue is harmless
		out, err := j.Resume("q")
		if err != nil || out.Verdict != emq.Resumed {
			t.Fatalf("Resume = %v, %v; want resumed", out.Verdict, err)
		}
	}
	wantReply(t, e, resp.IntReply(0), "EXISTS", k.Paused())
	wantLeased(t, j, "q", "1000", emq.Job{ID: "JOB0", Payload: "z", Attempts: 1})
	wantLeased(t, j, "q", "1000", emq.Job{ID: "JOB1", Payload: "a", Attempts: 1})
}

func TestBadLeaseIsRefusedBeforeAnyWrite(t *testing.T) {
	for _, lease := range []string{
		"0", "-5", "abc", "1e3", "", "1234567890123456", " 5", "5 ", "+5", "5.0", "05", "0x10", "5\x00", "٣",
	} {
		t.Run(strconv.Quote(lease), func(t *testing.T) {
			e := newEngine(t)
			j := emq.NewJobs(e)
			k, _ := emq.KeyspaceFor("q")
			enqueue(t, j, "q", "JOB1", "p")
			before := keyspace(t, e)

			_, err := j.ClaimLease("q", lease)
			r := refusal(t, err)
			if r.Kind != "lease" || !r.Reply.Equal(resp.ErrorReply(leaseMsg)) {
				t.Errorf("Claim(%q) refused as %q %v, want lease %q", lease, r.Kind, r.Reply, leaseMsg)
			}
			if diff := keyspaceChange(before, keyspace(t, e)); diff != "" {
				t.Errorf("a refused lease changed the keyspace:\n%s", diff)
			}
			wantMembers(t, e, k.Pending(), "JOB1")
			wantReply(t, e, resp.IntReply(0), "EXISTS", k.Active())
		})
	}
}

func TestDeadlineIsServerClockPlusLease(t *testing.T) {
	for _, tc := range []struct {
		desc  string
		now   int64
		lease string
	}{
		{"at the engine's start", engine.Start, "30000"},
		{"off a whole second", engine.Start + 123, "1"},
		{"the longest lease", engine.Start + 999, "999999999999999"},
		{"at the epoch", 0, "5000"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			e := newEngine(t)
			j := emq.NewJobs(e)
			k, _ := emq.KeyspaceFor("q")
			enqueue(t, j, "q", "JOB1", "p")
			e.SetNow(tc.now)
			lease, _ := strconv.ParseInt(tc.lease, 10, 64)
			want := tc.now + lease

			wantLeased(t, j, "q", tc.lease, emq.Job{ID: "JOB1", Payload: "p", Attempts: 1})
			score := mustDo(t, e, "ZSCORE", k.Active(), "JOB1")
			if got := resp.NormalizeScore(score.Str); got != strconv.FormatInt(want, 10) {
				t.Errorf("deadline = %s, want %d + %s = %d", score.Str, tc.now, tc.lease, want)
			}
			// The clock moving on does not move a deadline already set.
			e.Advance(60000)
			s, err := j.Snapshot("q")
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Active) != 1 || s.Active[0].Deadline != want {
				t.Errorf("Snapshot.Active = %+v, want JOB1 at %d", s.Active, want)
			}
		})
	}
}

func TestSnapshot(t *testing.T) {
	e := newEngine(t)
	j := emq.NewJobs(e)
	for _, id := range []string{"JOB3", "JOB1", "JOB2"} {
		enqueue(t, j, "q", id, "p"+id[3:])
	}
	enqueue(t, j, "other", "JOB9", "not ours")
	wantLeased(t, j, "q", "5000", emq.Job{ID: "JOB1", Payload: "p1", Attempts: 1})
	e.Advance(250)
	wantLeased(t, j, "q", "1000", emq.Job{ID: "JOB2", Payload: "p2", Attempts: 1})
	if _, err := j.Pause("q"); err != nil {
		t.Fatal(err)
	}
	e.Advance(7)

	got, err := j.Snapshot("q")
	if err != nil {
		t.Fatal(err)
	}
	want := emq.Snapshot{
		Now:     engine.Start + 257,
		Paused:  true,
		Pending: []emq.Pending{{ID: "JOB3", Score: "0"}},
		Active: []emq.Lease{ // by deadline: JOB2's shorter lease ends first
			{ID: "JOB2", Deadline: engine.Start + 250 + 1000},
			{ID: "JOB1", Deadline: engine.Start + 5000},
		},
		Rows: []emq.Row{
			{ID: "JOB1", State: "active", Attempts: "1", Payload: "p1"},
			{ID: "JOB2", State: "active", Attempts: "1", Payload: "p2"},
			{ID: "JOB3", State: "pending", Attempts: "0", Payload: "p3"},
		},
		Counts: emq.Counts{Pending: 1, Active: 2, Rows: 3},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Snapshot(q)\n got: %+v\nwant: %+v", got, want)
	}

	empty, err := j.Snapshot("nobody")
	if err != nil {
		t.Fatal(err)
	}
	if want := (emq.Snapshot{Now: engine.Start + 257}); !reflect.DeepEqual(empty, want) {
		t.Errorf("Snapshot of an unknown queue = %+v, want %+v", empty, want)
	}
}

func TestEmptyQueueNameNeverReachesTheServer(t *testing.T) {
	f := &fakeConn{} // any command would fail with "no answer left"
	j := emq.NewJobs(f)
	for _, tc := range []struct {
		desc string
		call func() error
	}{
		{"enqueue", func() error { _, err := j.Enqueue("", "JOB1", "p"); return err }},
		{"claim", func() error { _, err := j.ClaimLease("", "1000"); return err }},
		{"pause", func() error { _, err := j.Pause(""); return err }},
		{"resume", func() error { _, err := j.Resume(""); return err }},
		{"snapshot", func() error { _, err := j.Snapshot(""); return err }},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := refusal(t, tc.call())
			if r.Kind != "queue" || r.Reply.Code() != "EMQQUEUE" {
				t.Errorf("refusal = %q %v, want kind queue with an EMQQUEUE reply", r.Kind, r.Reply)
			}
		})
	}
	if len(f.sent) != 0 {
		t.Errorf("commands sent for an empty queue name: %s", showCommands(f.sent))
	}
}

func TestServerErrorsAreRefusals(t *testing.T) {
	// A key of the wrong type under a queue's name: the server's error
	// reaches the caller as a Refusal of kind "server", reply intact.
	e := newEngine(t)
	j := emq.NewJobs(e)
	k, _ := emq.KeyspaceFor("q")
	mustDo(t, e, "SET", k.Pending(), "not a zset")

	_, err := j.Enqueue("q", "JOB1", "p")
	r := refusal(t, err)
	if r.Kind != "server" || r.Reply.Code() != "WRONGTYPE" {
		t.Errorf("Enqueue over a string pending key: %q %v, want a server WRONGTYPE refusal", r.Kind, r.Reply)
	}
	_, err = j.ClaimLease("q", "1000")
	if r := refusal(t, err); r.Kind != "server" || r.Reply.Code() != "WRONGTYPE" {
		t.Errorf("Claim over a string pending key: %q %v, want a server WRONGTYPE refusal", r.Kind, r.Reply)
	}
	mustDo(t, e, "HSET", k.Paused(), "f", "v") // EXISTS does not care about the type
	if out := wantEmpty(t, j, "q"); len(out.Wire) != 0 {
		t.Errorf("a paused claim ran @claim")
	}
}

func TestTransportErrorsReachTheCaller(t *testing.T) {
	for _, tc := range []struct {
		desc string
		call func(*emq.Jobs) error
	}{
		{"enqueue", func(j *emq.Jobs) error { _, err := j.Enqueue("q", "JOB1", "p"); return err }},
		{"claim", func(j *emq.Jobs) error { _, err := j.ClaimLease("q", "1000"); return err }},
		{"pause", func(j *emq.Jobs) error { _, err := j.Pause("q"); return err }},
		{"resume", func(j *emq.Jobs) error { _, err := j.Resume("q"); return err }},
		{"snapshot", func(j *emq.Jobs) error { _, err := j.Snapshot("q"); return err }},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			f := &fakeConn{answers: []fakeAnswer{{err: errLinkDown}}}
			err := tc.call(emq.NewJobs(f))
			if !errors.Is(err, errLinkDown) {
				t.Errorf("error = %v, want the connection's error", err)
			}
			var r *emq.Refusal
			if errors.As(err, &r) {
				t.Errorf("a broken connection is reported as a refusal: %v", r)
			}
			if len(f.sent) != 1 {
				t.Errorf("commands sent after the failure: %s", showCommands(f.sent))
			}
		})
	}
}

func TestRepliesThatAreNotVerdicts(t *testing.T) {
	// A server that answers nonsense gets an error, never a verdict made up.
	for _, tc := range []struct {
		desc    string
		answers []fakeAnswer
		call    func(*emq.Jobs) (emq.Outcome, error)
	}{
		{"enqueue replying 2", []fakeAnswer{{reply: resp.IntReply(2)}},
			func(j *emq.Jobs) (emq.Outcome, error) { return j.Enqueue("q", "JOB1", "p") }},
		{"enqueue replying a string", []fakeAnswer{{reply: resp.BulkReply("1")}},
			func(j *emq.Jobs) (emq.Outcome, error) { return j.Enqueue("q", "JOB1", "p") }},
		{"claim replying two elements", []fakeAnswer{{reply: resp.IntReply(0)}, {reply: resp.ArrayReply(resp.BulkReply("JOB1"), resp.BulkReply("p"))}},
			func(j *emq.Jobs) (emq.Outcome, error) { return j.ClaimLease("q", "1000") }},
		{"claim replying an integer", []fakeAnswer{{reply: resp.IntReply(0)}, {reply: resp.IntReply(1)}},
			func(j *emq.Jobs) (emq.Outcome, error) { return j.ClaimLease("q", "1000") }},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			out, err := tc.call(emq.NewJobs(&fakeConn{answers: tc.answers}))
			if err == nil {
				t.Fatalf("got verdict %q, want an error", out.Verdict)
			}
			var r *emq.Refusal
			if errors.As(err, &r) {
				t.Errorf("nonsense reported as a server refusal %v", r)
			}
		})
	}
}

// recording is a connection that notes every command sent through it.
type recording struct {
	emq.Conn
	sent [][]string
}

func (r *recording) Do(args ...string) (resp.Reply, error) {
	r.sent = append(r.sent, args)
	return r.Conn.Do(args...)
}

// TestClaimGuard: claim/3's guard, `when is_integer(lease_ms) and
// lease_ms > 0`, in Go terms: the type is the is_integer, and a lease of 0
// or less fails the guard with a GuardError that reads like Elixir's
// FunctionClauseError, before any command (not even the pause check) is
// sent. A positive lease goes on and claims.
func TestClaimGuard(t *testing.T) {
	e := newEngine(t)
	enqueue(t, emq.NewJobs(e), "q", "JOB1", "p")
	conn := &recording{Conn: e}
	j := emq.NewJobs(conn)
	for _, lease := range []int64{0, -5, -1 << 63} {
		_, err := j.Claim("q", lease)
		var guard *emq.GuardError
		if !errors.As(err, &guard) {
			t.Fatalf("Claim(q, %d): %v, want a GuardError", lease, err)
		}
		if got, want := err.Error(), "** (FunctionClauseError) no function clause matching in EchoMQ.Jobs.claim/3"; got != want {
			t.Errorf("Claim(q, %d) says %q, want %q", lease, got, want)
		}
		if len(conn.sent) != 0 {
			t.Fatalf("Claim(q, %d) sent %q: a guard refuses before the wire", lease, conn.sent)
		}
	}
	out, err := j.Claim("q", 1000)
	if err != nil || out.Verdict != emq.Leased || out.Job.ID != "JOB1" {
		t.Fatalf("Claim(q, 1000) = %+v, %v; want JOB1 leased", out, err)
	}
}

// TestClaimLeaseSkipsTheGuard: a client with no guard (ClaimLease, which
// sends the lease as ARGV text) meets @claim's own check instead, which
// is why the script keeps it.
func TestClaimLeaseSkipsTheGuard(t *testing.T) {
	e := newEngine(t)
	j := emq.NewJobs(e)
	enqueue(t, j, "q", "JOB1", "p")
	_, err := j.ClaimLease("q", "0")
	if r := refusal(t, err); r.Kind != "lease" || len(r.Wire) == 0 {
		t.Fatalf("ClaimLease(q, 0) = %+v, want @claim's EMQLEASE after a script was sent", r)
	}
}
