// Package loop is the benchmark's sampling loop, shared by every Go program
// that measures round trips: the bench command itself (native rows) and
// bench/inwasm (the rows measured inside a WebAssembly module, and the
// baseline revision's native row). One copy of the loop means the rows
// differ only in what they call, never in how they are sampled.
//
// A cell is one implementation at one queue depth. Its queue is first
// filled to the depth with jobs written as @enqueue writes them; each
// sample is then one enqueue followed by one claim, each timed with
// time.Now, so the pending set stays at the depth throughout. Verdicts are
// checked after the clock stops, and the claim must lease the oldest job.
//
// The package imports only the playground's Go packages and bench/stock,
// none of them syscall/js, so it builds natively and for js/wasm alike, and
// from an older checkout of the repository too.
package loop

import (
	"fmt"
	"runtime"
	"strconv"
	"time"

	"echomq.dev/playground/wasm/api"
	"echomq.dev/playground/wasm/emq"
)

// Payload and Lease are the arguments of every sample, the same in every
// program (bench/wasm_bench.mjs uses the same ones).
const (
	Payload = `{"to":"learner@example.com","template":"welcome"}`
	Lease   = "30000"
)

// PrefillScript writes jobs ARGV[2]..ARGV[3] as @enqueue would have (the
// row with its three fields, the id at score 0 in the pending set) in one
// call, so a deep queue fills in a moment on every server.
// KEYS[1] = pending set, ARGV[1] = row-key base, ARGV[4] = payload.
// bench/wasm_bench.mjs carries the same script.
const PrefillScript = `for n = tonumber(ARGV[2]), tonumber(ARGV[3]) do
  local id = string.format('JOB-%010d', n)
  redis.call('HSET', ARGV[1] .. id, 'state', 'pending', 'attempts', '0', 'payload', ARGV[4])
  redis.call('ZADD', KEYS[1], 0, id)
end
return tonumber(ARGV[3]) - tonumber(ARGV[2]) + 1`

// PrefillChunk keeps each pre-fill script far inside the engine's script
// time budget, even in wasm on a busy machine.
const PrefillChunk = 100

// HousekeepingEvery is how often (in samples) the active set is emptied,
// untimed: claimed ids would otherwise pile up in it for the whole run.
const HousekeepingEvery = 256

// Ops is the two calls a sample makes.
type Ops interface {
	Enqueue(queue, id, payload string) (verdict string, err error)
	Claim(queue, lease string) (verdict, id string, err error)
}

// Jobs calls the handles, emq.Jobs, as a Go caller of the playground would.
type Jobs struct{ J *emq.Jobs }

func (o Jobs) Enqueue(queue, id, payload string) (string, error) {
	out, err := o.J.Enqueue(queue, id, payload)
	return string(out.Verdict), err
}

func (o Jobs) Claim(queue, lease string) (string, string, error) {
	out, err := o.J.ClaimLease(queue, lease)
	if err != nil || out.Job == nil {
		return string(out.Verdict), "", err
	}
	return string(out.Verdict), out.Job.ID, nil
}

// API calls the JS API's Go side as wasm/main_js.go does, minus syscall/js:
// the arguments as JS would pass them (the lease a number), the result
// marshalled to the JSON text the bridge hands to JSON.parse.
type API struct{ P *api.Playground }

func (o API) call(method string, args ...any) (any, error) {
	out := o.P.Call(method, args)
	if _, err := api.MarshalJSON(out); err != nil {
		return nil, err
	}
	if e := api.Field(out, "error"); e != nil {
		return nil, fmt.Errorf("%s: %v: %v", method, e, api.Field(out, "message"))
	}
	if api.Field(out, "verdict") == nil {
		return nil, fmt.Errorf("%s answered %T with no verdict", method, out)
	}
	return out, nil
}

func (o API) Enqueue(queue, id, payload string) (string, error) {
	obj, err := o.call("enqueue", queue, id, payload)
	if err != nil {
		return "", err
	}
	v, _ := api.Field(obj, "verdict").(string)
	return v, nil
}

func (o API) Claim(queue, lease string) (string, string, error) {
	ms, err := strconv.ParseFloat(lease, 64)
	if err != nil {
		return "", "", err
	}
	obj, err := o.call("claim", queue, ms)
	if err != nil {
		return "", "", err
	}
	v, _ := api.Field(obj, "verdict").(string)
	id, _ := api.Field(obj, "id").(string)
	return v, id, nil
}

// Cell is one implementation at one depth, and every sample taken of it,
// in microseconds.
type Cell struct {
	Name    string
	Depth   int
	Queue   string
	Conn    emq.Conn // for pre-filling and housekeeping
	Ops     Ops
	Warmup  int // untimed round trips run
	Rounds  int
	Enqueue []float64
	Claim   []float64
	RT      []float64

	next    int // the number of the next job id to enqueue
	claimed int // how many claims so far: the next claim must get this id
}

// CellReport is one cell in a line a measuring child prints: bench/inwasm
// writes it from a Cell, bench/wasm_bench.mjs with the same field names,
// and the bench reads both with this one type.
type CellReport struct {
	Target     string    `json:"target"`
	Depth      int       `json:"depth"`
	PrefillMs  float64   `json:"prefillMs,omitempty"`
	WarmupOps  int       `json:"warmupOps,omitempty"`
	FinalDepth int       `json:"finalDepth,omitempty"`
	Enqueue    []float64 `json:"enqueue,omitempty"`
	Claim      []float64 `json:"claim,omitempty"`
	RoundTrip  []float64 `json:"roundTrip,omitempty"`
}

// NewCell is a cell over conn at depth; nothing is written yet.
func NewCell(name string, depth int, conn emq.Conn, ops Ops) *Cell {
	return &Cell{Name: name, Depth: depth, Queue: QueueName(depth), Conn: conn, Ops: ops}
}

// QueueName is the queue a depth's cells use.
func QueueName(depth int) string { return "d" + strconv.Itoa(depth) }

// JobID is the id of the n-th job of a queue. Ids are fixed-width, so byte
// order (the order ZPOPMIN takes members that all score 0) is the order
// they were enqueued in: the pre-filled jobs come first, and every claim
// takes the oldest job.
func JobID(n int) string { return fmt.Sprintf("JOB-%010d", n) }

func (c *Cell) keyspace() emq.Keyspace {
	k, _ := emq.KeyspaceFor(c.Queue)
	return k
}

// Prefill fills the cell's queue to its depth and checks it holds that many.
func (c *Cell) Prefill() error {
	k := c.keyspace()
	for first := 0; first < c.Depth; first += PrefillChunk {
		last := min(first+PrefillChunk, c.Depth) - 1
		r, err := c.Conn.Do("EVAL", PrefillScript, "1", k.Pending(), k.JobBase(),
			strconv.Itoa(first), strconv.Itoa(last), Payload)
		if err == nil && r.IsError() {
			err = fmt.Errorf("%s", r.Str)
		}
		if err != nil {
			return fmt.Errorf("%s: prefill: %w", c.Name, err)
		}
	}
	c.next = c.Depth
	n, err := c.Pending()
	if err != nil {
		return err
	}
	if n != c.Depth {
		return fmt.Errorf("%s: prefill left %d pending, want %d", c.Name, n, c.Depth)
	}
	return nil
}

// Pending is the size of the cell's pending set.
func (c *Cell) Pending() (int, error) {
	r, err := c.Conn.Do("ZCARD", c.keyspace().Pending())
	if err == nil && r.IsError() {
		err = fmt.Errorf("%s", r.Str)
	}
	if err != nil {
		return 0, fmt.Errorf("%s: ZCARD: %w", c.Name, err)
	}
	return int(r.Int), nil
}

// WarmUp runs n untimed round trips.
func (c *Cell) WarmUp(n int) error {
	for range n {
		if _, _, _, err := c.roundTrip(); err != nil {
			return err
		}
	}
	c.Warmup += n
	return c.clearActive()
}

// SchedulerTurnEvery is how many samples a cell takes between two turns
// it gives Go's scheduler, untimed: the module does the same every 16
// calls (api.CollectorTurn, two calls a sample), so that in wasm the
// collector's worker runs, and the rows of bench/inwasm measure the engine
// as the module runs it. The constant is kept here, not read from api, so
// that an older checkout builds this package too.
const SchedulerTurnEvery = 8

// Round measures every cell once. The budget (per cell) is cut into slices
// and the cells take turns, alternating their order from slice to slice,
// so that a burst of other work on the machine lands on all of them rather
// than on one. It checks that every queue is still at its depth afterwards.
func Round(cells []*Cell, budget time.Duration, maxSamples int) error {
	const slices = 4
	before := make([]int, len(cells))
	for i, c := range cells {
		before[i] = len(c.RT)
	}
	for s := range slices {
		for j := range cells {
			i := j
			if s%2 == 1 {
				i = len(cells) - 1 - j
			}
			c := cells[i]
			deadline := time.Now().Add(budget / slices)
			target := before[i] + maxSamples*(s+1)/slices
			for len(c.RT) < target && time.Now().Before(deadline) {
				e, cl, rt, err := c.roundTrip()
				if err != nil {
					return err
				}
				c.Enqueue = append(c.Enqueue, e)
				c.Claim = append(c.Claim, cl)
				c.RT = append(c.RT, rt)
				if len(c.RT)%HousekeepingEvery == 0 {
					if err := c.clearActive(); err != nil {
						return err
					}
				}
				if len(c.RT)%SchedulerTurnEvery == 0 {
					runtime.Gosched()
				}
			}
		}
	}
	for _, c := range cells {
		c.Rounds++
		n, err := c.Pending()
		if err != nil {
			return err
		}
		if n != c.Depth {
			return fmt.Errorf("%s at depth %d: %d pending after the round, want %d", c.Name, c.Depth, n, c.Depth)
		}
	}
	return nil
}

// roundTrip enqueues one job and claims one, timing each call, and checks
// the verdicts: a measurement of a call that went wrong is no measurement.
func (c *Cell) roundTrip() (enq, claim, rt float64, err error) {
	id := JobID(c.next)
	t0 := time.Now()
	ev, eerr := c.Ops.Enqueue(c.Queue, id, Payload)
	t1 := time.Now()
	cv, got, cerr := c.Ops.Claim(c.Queue, Lease)
	t2 := time.Now()
	c.next++
	switch {
	case eerr != nil:
		return 0, 0, 0, fmt.Errorf("%s: enqueue %s: %w", c.Name, id, eerr)
	case ev != string(emq.Enqueued):
		return 0, 0, 0, fmt.Errorf("%s: enqueue %s: verdict %q", c.Name, id, ev)
	case cerr != nil:
		return 0, 0, 0, fmt.Errorf("%s: claim: %w", c.Name, cerr)
	case cv != string(emq.Leased):
		return 0, 0, 0, fmt.Errorf("%s: claim: verdict %q", c.Name, cv)
	case got != JobID(c.claimed):
		return 0, 0, 0, fmt.Errorf("%s: claim got %q, want the oldest job %s", c.Name, got, JobID(c.claimed))
	}
	c.claimed++
	return Micros(t1.Sub(t0)), Micros(t2.Sub(t1)), Micros(t2.Sub(t0)), nil
}

func (c *Cell) clearActive() error {
	r, err := c.Conn.Do("DEL", c.keyspace().Active())
	if err == nil && r.IsError() {
		err = fmt.Errorf("DEL: %s", r.Str)
	}
	if err != nil {
		return fmt.Errorf("%s: clear the active set: %w", c.Name, err)
	}
	return nil
}

// Micros is d in microseconds.
func Micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
