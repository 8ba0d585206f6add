package api

import (
	"strconv"
	"strings"
	"time"

	"echomq.dev/playground/wasm/emq"
	"echomq.dev/playground/wasm/resp"
)

// The page's bulk controls ("Enqueue 1,000", "Claim all") and the numbers
// behind its "a fresh id". A bulk call is many calls of the handles, one
// @enqueue or one @claim each, exactly as a producer or a worker would make
// them; none of it is one long script, so the script budget applies to
// each call as usual, and each stays atomic on its own.

// MaxBulk is the most jobs one enqueueMany or claimMany call handles. The
// page claims a deep queue in calls of 1,000, so that it can show its
// progress and a permalink records a drain as a few calls.
const MaxBulk = 10000

// jobNumber is n for an id JOB-n, the ids the page mints: false for any
// other id.
func jobNumber(id string) (int, bool) {
	digits, ok := strings.CutPrefix(id, "JOB-")
	if !ok || digits == "" {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil
}

// IDDigits is how many digits the ids the page mints carry: JOB-000001.
// The lesson's pending set orders its members by their bytes ("byte order
// is mint order"), so JOB-10 must not sort before JOB-9: every minted id
// is zero-padded to one width, wide enough for MaxMinted jobs, far more
// than a learner's clicks of "Enqueue 1,000" reach (a link may enqueue
// 100,000). An id written with fewer digits (JOB-7, from an old link or
// the console) still counts as n when the next id is minted.
const IDDigits = 6

// MaxMinted is the highest n an id of IDDigits digits holds.
const MaxMinted = 999999

// jobID is the id JOB-n, zero-padded to IDDigits.
func jobID(n int) string {
	digits := strconv.Itoa(n)
	if pad := IDDigits - len(digits); pad > 0 {
		digits = "000000000"[:pad] + digits
	}
	return "JOB-" + digits
}

// minted notes that the id, JOB-n, now has a row, so that the next fresh
// id is found without listing the rows.
// The entry is changed in place: one map lookup per enqueue, not a
// lookup and a store, each a string hash (slow in WebAssembly).
func (p *Playground) minted(queue, id string) {
	n, ok := jobNumber(id)
	if !ok {
		return
	}
	h := p.highest[queue]
	if h == nil {
		h = p.high(queue)
	}
	if n > h.n {
		*h = highest{n, id}
	}
}

// high is queue's entry in highest, made empty.
func (p *Playground) high(queue string) *highest {
	if p.highest == nil {
		p.highest = map[string]*highest{}
	}
	h := &highest{}
	p.highest[queue] = h
	return h
}

// highest is the highest JOB-n seen with a row, and the id it was spelt
// with (JOB-7, or JOB-007).
type highest struct {
	n  int
	id string
}

// highestJob is the highest n of any JOB-n with a row in queue. Listing the
// rows walks every key (KEYS), which is cheap in a small database and not
// at 100,000 jobs, so past emq.ListKeys keys the highest id seen before is
// trusted while its row is still there and the next one's is not; any
// other change (a FLUSHALL, a row deleted or written at the console) makes
// it list the rows again.
func (p *Playground) highestJob(k emq.Keyspace) (int, error) {
	c := p.jobs.Connector().Conn()
	do := func(args ...string) (resp.Reply, error) {
		r, err := c.Do(args...)
		if err == nil && r.IsError() {
			err = &emq.Refusal{Kind: "server", Reply: r}
		}
		return r, err
	}
	size, err := do("DBSIZE")
	if err != nil {
		return 0, err
	}
	// (Under Options.Reference, the rows are listed every time.)
	if h := p.highest[k.Queue]; h != nil && h.n > 0 && size.Int > emq.ListKeys && !p.options.Reference {
		here, err := do("EXISTS", k.Job(h.id))
		if err != nil {
			return 0, err
		}
		next, err := do("EXISTS", k.Job(jobID(h.n+1)))
		if err != nil {
			return 0, err
		}
		if here.Int == 1 && next.Int == 0 {
			return h.n, nil
		}
	}
	keys, err := do("KEYS", k.JobPattern())
	if err != nil {
		return 0, err
	}
	names, _ := keys.Strings()
	high := highest{}
	for _, key := range names {
		id := strings.TrimPrefix(key, k.JobBase())
		if n, ok := jobNumber(id); ok && n > high.n {
			high = highest{n, id}
		}
	}
	*p.high(k.Queue) = high
	return high.n, nil
}

// freshID is the next JOB-n for queue: one past the highest with a row, or
// among the ids the snapshot shows (a console's ZADD can put an id in a set
// with no row behind it).
func (p *Playground) freshID(k emq.Keyspace, s emq.Snapshot) (string, error) {
	high, err := p.highestJob(k)
	if err != nil {
		return "", err
	}
	for _, x := range s.Pending {
		if n, ok := jobNumber(x.ID); ok && n > high {
			high = n
		}
	}
	for _, x := range s.Active {
		if n, ok := jobNumber(x.ID); ok && n > high {
			high = n
		}
	}
	return jobID(high + 1), nil
}

// enqueueMany enqueues count jobs, JOB-n+1 to JOB-n+count after the highest
// JOB-n, each with the payload, each by its own @enqueue. ms is the time
// the @enqueue calls took, measured here, inside the engine's worker.
func (p *Playground) enqueueMany(queue string, count int, payload string) (Object, error) {
	k, err := queueKeys(queue)
	if err != nil {
		return nil, err
	}
	high, err := p.highestJob(k)
	if err != nil {
		return nil, err
	}
	if high+count > MaxMinted {
		return nil, argsf("the queue already holds ids up to %s: enqueueing %d more would mint ids past %s, which would no longer sort in the order they were minted", jobID(high), count, jobID(MaxMinted))
	}
	out := Object{"first": jobID(high + 1), "last": jobID(high + count)}
	enqueued, duplicate := 0, 0
	start := time.Now()
	for n := high + 1; n <= high+count; n++ {
		o, err := p.jobs.Enqueue(queue, jobID(n), payload)
		if err != nil {
			e := p.errorObject(err)
			e["enqueued"], e["duplicate"], e["ms"] = enqueued, duplicate, millisSince(start)
			return e, nil
		}
		if o.Verdict == emq.Enqueued {
			enqueued++
		} else {
			duplicate++
		}
	}
	out["ms"] = millisSince(start)
	out["enqueued"], out["duplicate"] = enqueued, duplicate
	p.minted(queue, jobID(high+count))
	return out, nil
}

// claimMany claims up to max jobs, each by claim/3 (the pause flag, then
// @claim), and stops early when the queue answers empty. ms is the time
// the claims took, measured here, inside the engine's worker.
func (p *Playground) claimMany(queue string, lease lease, max int) (Object, error) {
	out := Object{"claimed": 0, "empty": false, "paused": false}
	claimed := 0
	start := time.Now()
	for claimed < max {
		o, err := p.claim(queue, lease)
		if err != nil {
			if claimed == 0 {
				return nil, err
			}
			e := p.errorObject(err)
			e["claimed"], e["ms"] = claimed, millisSince(start)
			return e, nil
		}
		if o.Verdict != emq.Leased {
			out["empty"] = true
			out["paused"] = o.Wire == nil // claim/3 answered without running @claim
			break
		}
		if claimed == 0 {
			out["first"] = o.Job.ID
		}
		out["last"] = o.Job.ID
		claimed++
	}
	out["ms"] = millisSince(start)
	out["claimed"] = claimed
	return out, nil
}

// queueKeys is the queue's keyspace, or the refusal the handles give a
// name that cannot be a hash tag.
func queueKeys(queue string) (emq.Keyspace, error) {
	k, err := emq.KeyspaceFor(queue)
	if err != nil {
		return k, &emq.Refusal{Kind: "queue", Reply: resp.ErrorReply("EMQQUEUE " + err.Error()), Err: err}
	}
	return k, nil
}

// millisSince is the time since start in milliseconds, to the microsecond.
func millisSince(start time.Time) float64 {
	return float64(time.Since(start).Microseconds()) / 1000
}

// count reads a bulk call's job count: a whole number from 1 to MaxBulk.
func count(v any, name string) (int, error) {
	f, ok := v.(float64)
	if !ok || f != float64(int(f)) || f < 1 || f > MaxBulk {
		return 0, argsf("%s must be a whole number from 1 to %d, got %s", name, MaxBulk, describe(v))
	}
	return int(f), nil
}

// describe is a value for an error message: a number as written, anything
// else by its kind.
func describe(v any) string {
	if f, ok := v.(float64); ok {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return typeName(v)
}
