package emq

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/resp"
)

// Verdict is what a handle makes of a script's reply, in the course's words.
type Verdict string

const (
	Enqueued  Verdict = "enqueued"  // @enqueue returned 1: row and pending entry written
	Duplicate Verdict = "duplicate" // @enqueue returned 0: the row existed, nothing written
	Leased    Verdict = "leased"    // @claim handed over a job
	Empty     Verdict = "empty"     // nothing pending, or the queue is paused
	Paused    Verdict = "paused"
	Resumed   Verdict = "resumed"
)

// Outcome is the result of one handle call.
type Outcome struct {
	Verdict Verdict
	Job     *Job       // set when Verdict is Leased
	Wire    []Exchange // the script commands sent, when a script ran
}

// Job is what @claim hands a worker: the id, the payload and the attempt
// count, which doubles as the fencing token for the lease.
type Job struct {
	ID       string
	Payload  string
	Attempts int64
}

// Refusal is a server error reply, sorted by what the caller can do about
// it. Kind is "kind" (the id is not JOB-namespaced), "lease" (the lease is
// not a positive integer), "queue" (the queue name is unusable) or "server"
// (anything else the server said, Reply holds it).
type Refusal struct {
	Kind  string
	Reply resp.Reply
	Wire  []Exchange
	Err   error // the Go error behind a refusal made before any command (ErrQueueName)
}

func (r *Refusal) Error() string { return r.Reply.Str }

// Unwrap lets errors.Is(err, ErrQueueName) see through a "queue" refusal.
func (r *Refusal) Unwrap() error { return r.Err }

// The two protocol scripts, looked up once: lua's registry is filled when
// that package starts and never changes, and a lookup per call is a
// string hash per call, slow in WebAssembly.
var (
	enqueueScript = lua.Enqueue()
	claimScript   = lua.Claim()
)

// Jobs is the handle a producer and a flat worker use: EchoMQ.Jobs.
type Jobs struct {
	conn *Connector
	keys atomic.Pointer[queueKeys] // the last queue's keys (see keysOf)
}

// queueKeys are the keys of one queue, spelt out once, and the pause
// check's command on them (a command's args are only read, never changed).
type queueKeys struct {
	queue, jobBase, pending, active, paused string
	exists                                  []string // EXISTS paused
}

// keysOf returns the keys of k's queue. Enqueue and claim are called over
// and over for the same queue, and building its keys each time was a
// dozen small allocations per round trip, a measurable share of it in
// WebAssembly; so the last queue's keys are kept. The pointer is atomic
// because handles, like connections, may be shared between goroutines.
func (j *Jobs) keysOf(k Keyspace) *queueKeys {
	if q := j.keys.Load(); q != nil && q.queue == k.Queue {
		return q
	}
	q := &queueKeys{queue: k.Queue, jobBase: k.JobBase(), pending: k.Pending(), active: k.Active(), paused: k.Paused()}
	q.exists = []string{"EXISTS", q.paused}
	j.keys.Store(q)
	return q
}

// NewJobs returns the handles over conn.
func NewJobs(conn Conn) *Jobs { return &Jobs{conn: NewConnector(conn)} }

// Connector is the connector the handles run scripts through.
func (j *Jobs) Connector() *Connector { return j.conn }

func keyspace(queue string) (Keyspace, error) {
	k, err := KeyspaceFor(queue)
	if err != nil {
		return k, &Refusal{Kind: "queue", Reply: resp.ErrorReply("EMQQUEUE " + err.Error()), Err: err}
	}
	return k, nil
}

// Enqueue admits a job by running @enqueue over the job's row and the
// queue's pending set. The id and payload ride ARGV untouched; the script,
// not this handle, decides whether the id is admissible. The course's
// enqueue/4 guards both with is_binary; a Go string is always a binary, so
// here the signature is the guard (the JS API, which can be handed any
// value, checks it and answers a GuardError).
func (j *Jobs) Enqueue(queue, id, payload string) (Outcome, error) {
	k, err := keyspace(queue)
	if err != nil {
		return Outcome{}, err
	}
	q := j.keysOf(k)
	r, wire, err := j.conn.Eval(enqueueScript, []string{q.jobBase + id, q.pending}, []string{id, payload})
	if err != nil {
		return Outcome{}, err
	}
	return EnqueueVerdict(r, wire)
}

// EnqueueVerdict is what the handle makes of @enqueue's reply: Enqueued,
// Duplicate, or a Refusal. The stepper's traced run asks it too, so the
// page never keeps a copy of this switch.
func EnqueueVerdict(r resp.Reply, wire []Exchange) (Outcome, error) {
	switch {
	case r.Kind == resp.Int && r.Int == 1:
		return Outcome{Verdict: Enqueued, Wire: wire}, nil
	case r.Kind == resp.Int && r.Int == 0:
		return Outcome{Verdict: Duplicate, Wire: wire}, nil
	case r.Code() == "EMQKIND":
		return Outcome{}, &Refusal{Kind: "kind", Reply: r, Wire: wire}
	case r.IsError():
		return Outcome{}, &Refusal{Kind: "server", Reply: r, Wire: wire}
	}
	return Outcome{}, fmt.Errorf("emq: @enqueue replied %s, which is not a verdict", r)
}

// GuardError is the FunctionClauseError of the course's Elixir handle: the
// arguments failed the guard of every clause, so no clause ran and nothing
// reached the server. The course's claim/3 reads
// `when is_integer(lease_ms) and lease_ms > 0`; in Go the type says
// "integer", so the guard left to check is "greater than zero".
//
// The guard and @claim's own EMQLEASE check are both kept on purpose: the
// guard answers early and in the caller's terms, and the script's check
// holds for a client in another language that has no such guard and sends
// ARGV as it pleases (ClaimLease is that client).
type GuardError struct {
	Function string // "EchoMQ.Jobs.claim/3"
	Reason   string // which part of the guard failed, in the page's words
}

func (e *GuardError) Error() string {
	return "** (FunctionClauseError) no function clause matching in " + e.Function
}

// ClaimFunction names the course's claim handle, as Elixir prints it.
const ClaimFunction = "EchoMQ.Jobs.claim/3"

// EnqueueFunction names the course's enqueue handle, as Elixir prints it.
const EnqueueFunction = "EchoMQ.Jobs.enqueue/4"

// Claim is the course's claim/3: it hands the oldest pending job to a
// worker under a lease of leaseMS milliseconds. Its guard, like the
// course's, lets only a positive lease through: a lease of 0 or less is a
// *GuardError and no command is sent, not even the pause check.
func (j *Jobs) Claim(queue string, leaseMS int64) (Outcome, error) {
	if leaseMS <= 0 {
		return Outcome{}, &GuardError{Function: ClaimFunction, Reason: "the lease must be an integer greater than 0"}
	}
	return j.ClaimLease(queue, strconv.FormatInt(leaseMS, 10))
}

// ClaimLease claims with the lease as ARGV text, unguarded: what a client
// that skips claim/3's guard would send. A paused queue answers Empty
// without running @claim, so the pending set is untouched and @claim stays
// byte-for-byte the course's.
//
// The lease is text because it rides ARGV as text: @claim judges it and
// refuses anything but 1 to 15 decimal digits before its first write.
func (j *Jobs) ClaimLease(queue, lease string) (Outcome, error) {
	k, err := keyspace(queue)
	if err != nil {
		return Outcome{}, err
	}
	paused, err := j.paused(k)
	if err != nil {
		return Outcome{}, err
	}
	if paused {
		return Outcome{Verdict: Empty}, nil
	}
	q := j.keysOf(k)
	r, wire, err := j.conn.Eval(claimScript, []string{q.pending, q.active}, []string{q.jobBase, lease})
	if err != nil {
		return Outcome{}, err
	}
	return ClaimVerdict(r, wire)
}

// ClaimVerdict is what the handle makes of @claim's reply: Leased, Empty,
// or a Refusal.
func ClaimVerdict(r resp.Reply, wire []Exchange) (Outcome, error) {
	switch {
	case r.Code() == "EMQLEASE":
		return Outcome{}, &Refusal{Kind: "lease", Reply: r, Wire: wire}
	case r.IsError():
		return Outcome{}, &Refusal{Kind: "server", Reply: r, Wire: wire}
	case r.Kind == resp.Array && len(r.Elems) == 0:
		return Outcome{Verdict: Empty, Wire: wire}, nil
	case r.Kind == resp.Array && len(r.Elems) == 3 && r.Elems[0].Kind == resp.Bulk && r.Elems[2].Kind == resp.Int:
		// A row with no payload field gives a null here; the job is still
		// handed over, with an empty payload.
		return Outcome{Verdict: Leased, Wire: wire, Job: &Job{
			ID: r.Elems[0].Str, Payload: r.Elems[1].Str, Attempts: r.Elems[2].Int,
		}}, nil
	}
	return Outcome{}, fmt.Errorf("emq: @claim replied %s, which is not a verdict", r)
}

func (j *Jobs) paused(k Keyspace) (bool, error) {
	r, err := j.conn.Conn().Do(j.keysOf(k).exists...)
	if err != nil {
		return false, err
	}
	if r.IsError() {
		return false, &Refusal{Kind: "server", Reply: r}
	}
	return r.Int == 1, nil
}

// Pause sets the queue-wide pause flag: claims answer Empty until Resume.
func (j *Jobs) Pause(queue string) (Outcome, error) {
	return j.flag(queue, Paused, "SET", "1")
}

// Resume clears the pause flag.
func (j *Jobs) Resume(queue string) (Outcome, error) {
	return j.flag(queue, Resumed, "DEL")
}

func (j *Jobs) flag(queue string, v Verdict, cmd string, value ...string) (Outcome, error) {
	k, err := keyspace(queue)
	if err != nil {
		return Outcome{}, err
	}
	r, err := j.conn.Conn().Do(append([]string{cmd, k.Paused()}, value...)...)
	if err != nil {
		return Outcome{}, err
	}
	if r.IsError() {
		return Outcome{}, &Refusal{Kind: "server", Reply: r}
	}
	return Outcome{Verdict: v}, nil
}

// Snapshot is one queue as the page draws it.
type Snapshot struct {
	Now     int64 // the server clock, ms
	Paused  bool
	Pending []Pending // in claim order
	Active  []Lease   // by deadline
	Rows    []Row     // by id

	// Counts says how many members each list has in all; Gaps, where a
	// bounded snapshot (Window) left some of them out.
	Counts Counts
	Gaps   Gaps
	// RowsOfSets is set when the keyspace was too big to list the rows
	// (more than ListKeys keys): Rows are then those of the ids that
	// Pending and Active show, and Counts.Rows counts one row per id in
	// either set, which is what @enqueue and @claim keep.
	RowsOfSets bool
}

// Counts are the sizes of a queue's lists: the two sorted sets' ZCARD, and
// the keys under the rows' prefix.
type Counts struct {
	Pending, Active, Rows int
}

// Gap is what a bounded list left out: Count members, which belong between
// the list's elements At-1 and At. A zero Count leaves nothing out.
type Gap struct {
	At, Count int
}

// Gaps are the gaps of the three lists.
type Gaps struct {
	Pending, Active, Rows Gap
}

// Pending is one waiting id with its score, printed as Redis 7 prints it.
type Pending struct {
	ID    string
	Score string
}

// Lease is one claimed id with its deadline in Unix ms.
type Lease struct {
	ID       string
	Deadline int64
}

// Row is one job row's three fields, as stored.
type Row struct {
	ID, State, Attempts, Payload string
}

// ListKeys is the most keys a database may hold for Window to list a
// queue's rows with KEYS. KEYS walks (and miniredis sorts) every key of the
// database, which at 100,000 keys costs far more than a frame; beyond this
// many, Window reads only the rows of the ids it shows.
const ListKeys = 1000

// Snapshot reads the whole queue: every pending and active id and every
// row. It reads through the connection like any client, so it works the
// same on the engine and on a real server; it uses KEYS, which is fine for
// a teaching view and not for production.
func (j *Jobs) Snapshot(queue string) (Snapshot, error) { return j.Window(queue, 0) }

// Window is a bounded Snapshot, what the page asks for on every click:
// each list holds at most its first limit and its last limit members, and
// Gaps says how many lie between. Its cost does not grow with the queue
// (ZCARD and two ZRANGEs with bounds per set, HGETALL per row shown),
// except for the rows of a small database, which KEYS lists as before.
// A limit of 0 or less reads everything, as Snapshot does.
func (j *Jobs) Window(queue string, limit int) (Snapshot, error) {
	k, err := keyspace(queue)
	if err != nil {
		return Snapshot{}, err
	}
	c := j.conn.Conn()
	var s Snapshot
	do := func(args ...string) (resp.Reply, error) {
		r, err := c.Do(args...)
		if err == nil && r.IsError() {
			err = &Refusal{Kind: "server", Reply: r}
		}
		return r, err
	}
	t, err := do("TIME")
	if err != nil {
		return s, err
	}
	if parts, ok := t.Strings(); ok && len(parts) == 2 {
		sec, _ := strconv.ParseInt(parts[0], 10, 64)
		usec, _ := strconv.ParseInt(parts[1], 10, 64)
		s.Now = sec*1000 + usec/1000
	}
	p, err := do("EXISTS", k.Paused())
	if err != nil {
		return s, err
	}
	s.Paused = p.Int == 1
	pending, err := zwindow(do, k.Pending(), limit, &s.Counts.Pending, &s.Gaps.Pending)
	if err != nil {
		return s, err
	}
	for i := 0; i+1 < len(pending); i += 2 {
		s.Pending = append(s.Pending, Pending{ID: pending[i], Score: resp.NormalizeScore(pending[i+1])})
	}
	active, err := zwindow(do, k.Active(), limit, &s.Counts.Active, &s.Gaps.Active)
	if err != nil {
		return s, err
	}
	for i := 0; i+1 < len(active); i += 2 {
		f, _ := strconv.ParseFloat(active[i+1], 64)
		s.Active = append(s.Active, Lease{ID: active[i], Deadline: int64(f)})
	}
	if limit > 0 {
		size, err := do("DBSIZE")
		if err != nil {
			return s, err
		}
		if size.Int > ListKeys {
			return s, j.rowsOfSets(c, k, &s)
		}
	}
	keys, err := do("KEYS", k.JobPattern())
	if err != nil {
		return s, err
	}
	names, _ := keys.Strings()
	sort.Strings(names)
	s.Counts.Rows = len(names)
	if limit > 0 && len(names) > 2*limit {
		s.Gaps.Rows = Gap{At: limit, Count: len(names) - 2*limit}
		names = append(names[:limit:limit], names[len(names)-limit:]...)
	}
	for i, key := range names {
		row, ok, err := readRow(c, k, key)
		if err != nil {
			return s, err
		}
		if !ok {
			// Not a hash: someone wrote a foreign key under the prefix.
			s.Counts.Rows--
			if s.Gaps.Rows.Count > 0 && i < limit {
				s.Gaps.Rows.At-- // the gap stays right after the head
			}
			continue
		}
		s.Rows = append(s.Rows, row)
	}
	return s, nil
}

// rowsOfSets fills s.Rows with the rows of the ids s shows, by id, when
// the database is too big to list. The ids the windows leave out are the
// gap; it sits after the rows up to the last id of pending's head, which in
// a queue of @enqueue's ids (all at score 0, so in byte order) is where the
// rows the pending set leaves out belong.
func (j *Jobs) rowsOfSets(c Conn, k Keyspace, s *Snapshot) error {
	s.RowsOfSets = true
	seen := make(map[string]bool, len(s.Pending)+len(s.Active))
	var ids []string
	for _, p := range s.Pending {
		if !seen[p.ID] {
			seen[p.ID] = true
			ids = append(ids, p.ID)
		}
	}
	for _, a := range s.Active {
		if !seen[a.ID] {
			seen[a.ID] = true
			ids = append(ids, a.ID)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		row, ok, err := readRow(c, k, k.Job(id))
		if err != nil {
			return err
		}
		if ok {
			s.Rows = append(s.Rows, row)
		}
	}
	hidden := s.Counts.Pending + s.Counts.Active - len(ids)
	if hidden <= 0 {
		s.Counts.Rows = len(s.Rows)
		return nil
	}
	at := len(s.Rows)
	if g := s.Gaps.Pending; g.Count > 0 {
		last := s.Pending[g.At-1].ID
		at = sort.Search(len(s.Rows), func(i int) bool { return s.Rows[i].ID > last })
	}
	s.Gaps.Rows = Gap{At: at, Count: hidden}
	s.Counts.Rows = len(s.Rows) + hidden
	return nil
}

// readRow reads one job row; ok is false when the key holds no hash.
func readRow(c Conn, k Keyspace, key string) (Row, bool, error) {
	h, err := c.Do("HGETALL", key)
	if err != nil {
		return Row{}, false, err
	}
	kv, ok := h.Strings()
	if !ok || h.IsError() || len(kv) == 0 {
		return Row{}, false, nil
	}
	row := Row{ID: strings.TrimPrefix(key, k.JobBase())}
	for i := 0; i+1 < len(kv); i += 2 {
		switch kv[i] {
		case "state":
			row.State = kv[i+1]
		case "attempts":
			row.Attempts = kv[i+1]
		case "payload":
			row.Payload = kv[i+1]
		}
	}
	return row, true, nil
}

// zwindow reads a sorted set with its scores: all of it, or with a limit
// its first and last limit members when it holds more than twice that.
// It sets *count to the set's size and *gap to what it left out.
func zwindow(do func(...string) (resp.Reply, error), key string, limit int, count *int, gap *Gap) ([]string, error) {
	if limit > 0 {
		n, err := do("ZCARD", key)
		if err != nil {
			return nil, err
		}
		*count = int(n.Int)
		if *count > 2*limit {
			head, err := do("ZRANGE", key, "0", strconv.Itoa(limit-1), "WITHSCORES")
			if err != nil {
				return nil, err
			}
			tail, err := do("ZRANGE", key, strconv.Itoa(-limit), "-1", "WITHSCORES")
			if err != nil {
				return nil, err
			}
			h, _ := head.Strings()
			t, _ := tail.Strings()
			*gap = Gap{At: limit, Count: *count - 2*limit}
			return append(h, t...), nil
		}
	}
	r, err := do("ZRANGE", key, "0", "-1", "WITHSCORES")
	if err != nil {
		return nil, err
	}
	kv, _ := r.Strings()
	*count = len(kv) / 2
	return kv, nil
}
