package main

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/alicebob/miniredis/v2"

	"echomq.dev/playground/bench/stock"
	"echomq.dev/playground/internal/redisnet"
	"echomq.dev/playground/internal/redisserver"
	"echomq.dev/playground/wasm/api"
	"echomq.dev/playground/wasm/emq"
	"echomq.dev/playground/wasm/engine"
)

// Backend keys: the rows of the latency tables, in the order they print.
const (
	keyWasm        = "wasm"
	keyNative      = "native"
	keyNativeAPI   = "native-api"
	keyStockWasm   = "stock-wasm"
	keyStockNative = "stock-native"
	keyStockTCP    = "stock-tcp"
	keyRedis       = "redis"
)

var backendOrder = []string{keyWasm, keyNativeAPI, keyNative, keyStockWasm, keyStockNative, keyStockTCP, keyRedis}

var backendLabels = map[string]string{
	keyWasm:        "playground, wasm in Node (JS API `echomq.enqueue`/`claim`)",
	keyNativeAPI:   "playground, native through the JS API's Go side (`api.Call` + `json.Marshal`)",
	keyNative:      "playground, native (`emq.Jobs` over `engine.New()`)",
	keyStockWasm:   "ref A: stock miniredis EVAL, wasm in Node",
	keyStockNative: "ref A: stock miniredis EVAL, native in-process",
	keyStockTCP:    "ref A: stock miniredis EVAL, native over loopback TCP",
	keyRedis:       "ref B: redis-server over loopback TCP",
}

// backend is one server the native side drives through emq.Jobs: the same
// handles, the same scripts (EVALSHA first), only the server differs. One
// more drives the playground through api.Call, the Go side of the JS API.
type backend struct {
	key  string
	conn emq.Conn // for pre-filling and housekeeping
	ops  ops
	info string // the server's version, when it says
}

// ops is the two calls a sample makes.
type ops interface {
	enqueue(queue, id, payload string) (verdict string, err error)
	claim(queue, lease string) (verdict, id string, err error)
}

// jobsOps calls the handles.
type jobsOps struct{ jobs *emq.Jobs }

func (o jobsOps) enqueue(queue, id, payload string) (string, error) {
	out, err := o.jobs.Enqueue(queue, id, payload)
	return string(out.Verdict), err
}

func (o jobsOps) claim(queue, lease string) (string, string, error) {
	out, err := o.jobs.Claim(queue, lease)
	if err != nil || out.Job == nil {
		return string(out.Verdict), "", err
	}
	return string(out.Verdict), out.Job.ID, nil
}

// apiOps calls the JS API as the wasm bridge does, minus syscall/js: the
// arguments as JS would pass them (the lease a number), the result
// marshalled to the JSON text the bridge hands to JSON.parse.
type apiOps struct{ p *api.Playground }

func (o apiOps) call(method string, args ...any) (api.Object, error) {
	out := o.p.Call(method, args)
	if _, err := json.Marshal(out); err != nil {
		return nil, err
	}
	obj, ok := out.(api.Object)
	if !ok {
		return nil, fmt.Errorf("%s answered %T, not an object", method, out)
	}
	if e, ok := obj["error"]; ok {
		return nil, fmt.Errorf("%s: %v: %v", method, e, obj["message"])
	}
	return obj, nil
}

func (o apiOps) enqueue(queue, id, payload string) (string, error) {
	obj, err := o.call("enqueue", queue, id, payload)
	if err != nil {
		return "", err
	}
	v, _ := obj["verdict"].(string)
	return v, nil
}

func (o apiOps) claim(queue, lease string) (string, string, error) {
	ms, err := strconv.ParseFloat(lease, 64)
	if err != nil {
		return "", "", err
	}
	obj, err := o.call("claim", queue, ms)
	if err != nil {
		return "", "", err
	}
	v, _ := obj["verdict"].(string)
	id, _ := obj["id"].(string)
	return v, id, nil
}

// openBackends starts every native server it can. A reference that cannot
// start is left out with a note rather than failing the run.
func openBackends(logf func(string, ...any)) (bs []*backend, closeAll func(), notes []string) {
	var closers []func()
	closeAll = func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	add := func(key string, conn emq.Conn, info string) {
		bs = append(bs, &backend{key: key, conn: conn, ops: jobsOps{emq.NewJobs(conn)}, info: info})
	}

	add(keyNative, engine.New(), "")
	p := api.New()
	bs = append(bs, &backend{key: keyNativeAPI, conn: p.Engine(), ops: apiOps{p}})

	if c, err := stock.New(); err != nil {
		notes = append(notes, "stock miniredis in-process: not measured: "+err.Error())
	} else {
		closers = append(closers, c.Close)
		add(keyStockNative, c, "")
	}

	if m, err := miniredis.Run(); err != nil {
		notes = append(notes, "stock miniredis over TCP: not measured: "+err.Error())
	} else {
		closers = append(closers, m.Close)
		if c, err := redisnet.Dial(m.Addr()); err != nil {
			notes = append(notes, "stock miniredis over TCP: not measured: "+err.Error())
		} else {
			closers = append(closers, func() { c.Close() })
			add(keyStockTCP, c, "")
		}
	}

	s, err := redisserver.Launch()
	if err != nil {
		notes = append(notes, "real Redis: not measured: "+firstLine(err.Error()))
		logf("redis-server: %v", err)
		return bs, closeAll, notes
	}
	closers = append(closers, s.Stop)
	c, err := redisnet.Dial(s.Addr())
	if err != nil {
		notes = append(notes, "real Redis: not measured: "+err.Error())
		return bs, closeAll, notes
	}
	closers = append(closers, func() { c.Close() })
	add(keyRedis, c, s.Version())
	logf("redis-server %s on %s", s.Version(), s.Addr())
	return bs, closeAll, notes
}

func redisVersionOf(bs []*backend) string {
	for _, b := range bs {
		if b.key == keyRedis {
			return b.info
		}
	}
	return ""
}

// cell is one backend at one queue depth, and every sample taken of it.
// Samples are in microseconds.
type cell struct {
	key     string
	depth   int
	queue   string
	b       *backend // nil for the cells measured in Node
	next    int      // the number of the next job id to enqueue
	claimed int      // how many claims so far: the next claim must get this id
	warmup  int      // untimed round trips
	enqueue []float64
	claim   []float64
	rt      []float64
	rounds  int
}

func newCells(bs []*backend, depths []int) []*cell {
	var cells []*cell
	for _, d := range depths {
		for _, b := range bs {
			cells = append(cells, &cell{key: b.key, depth: d, queue: queueName(d), b: b})
		}
	}
	return cells
}

func queueName(depth int) string { return "d" + strconv.Itoa(depth) }

// jobID is the id of the n-th job of a queue. Ids are fixed-width, so byte
// order (the order ZPOPMIN takes members that all score 0) is the order
// they were enqueued in: the pre-filled jobs come first, and every claim
// takes the oldest job.
func jobID(n int) string { return fmt.Sprintf("JOB-%010d", n) }

const benchPayload = `{"to":"learner@example.com","template":"welcome"}`
const benchLease = "30000"

// prefillScript writes jobs ARGV[2]..ARGV[3] as @enqueue would have (the
// row with its three fields, the id at score 0 in the pending set) in one
// call, so a deep queue fills in a moment on every server.
// KEYS[1] = pending set, ARGV[1] = row-key base, ARGV[4] = payload.
// bench/wasm_bench.mjs carries the same script.
const prefillScript = `for n = tonumber(ARGV[2]), tonumber(ARGV[3]) do
  local id = string.format('JOB-%010d', n)
  redis.call('HSET', ARGV[1] .. id, 'state', 'pending', 'attempts', '0', 'payload', ARGV[4])
  redis.call('ZADD', KEYS[1], 0, id)
end
return tonumber(ARGV[3]) - tonumber(ARGV[2]) + 1`

// prefillChunk keeps each pre-fill script far inside the engine's script
// time budget (engine.Budget), even in wasm on a busy machine.
const prefillChunk = 100

func prefillNative(cells []*cell) error {
	for _, c := range cells {
		k, _ := emq.KeyspaceFor(c.queue)
		for first := 0; first < c.depth; first += prefillChunk {
			last := min(first+prefillChunk, c.depth) - 1
			r, err := c.b.conn.Do("EVAL", prefillScript, "1", k.Pending(), k.JobBase(),
				strconv.Itoa(first), strconv.Itoa(last), benchPayload)
			if err != nil {
				return fmt.Errorf("%s: prefill: %w", c.key, err)
			}
			if r.IsError() {
				return fmt.Errorf("%s: prefill: %s", c.key, r.Str)
			}
		}
		c.next = c.depth
		n, err := pendingCount(c.b.conn, k)
		if err != nil {
			return fmt.Errorf("%s: %w", c.key, err)
		}
		if n != c.depth {
			return fmt.Errorf("%s: prefill left %d pending, want %d", c.key, n, c.depth)
		}
	}
	return nil
}

func pendingCount(conn emq.Conn, k emq.Keyspace) (int, error) {
	r, err := conn.Do("ZCARD", k.Pending())
	if err != nil {
		return 0, err
	}
	if r.IsError() {
		return 0, fmt.Errorf("ZCARD: %s", r.Str)
	}
	return int(r.Int), nil
}

// housekeepingEvery is how often (in samples) the active set is emptied,
// untimed: claimed ids would otherwise pile up in it for the whole run.
const housekeepingEvery = 256

// nativeWarmup runs cfg.warmup untimed round trips on every native cell.
func nativeWarmup(cells []*cell, cfg config) error {
	for _, c := range cells {
		for range cfg.warmup {
			if _, _, _, err := roundTrip(c); err != nil {
				return err
			}
		}
		c.warmup = cfg.warmup
		if err := clearActive(c); err != nil {
			return err
		}
	}
	return nil
}

// nativeRound measures every native cell for one round. The budget is cut
// into slices and the cells take turns, so that a burst of other work on
// the machine lands on all of them rather than on one.
func nativeRound(cells []*cell, cfg config) error {
	const slices = 4
	before := make([]int, len(cells))
	for i, c := range cells {
		before[i] = len(c.rt)
	}
	for s := range slices {
		for i, c := range cells {
			deadline := time.Now().Add(cfg.budget / slices)
			target := before[i] + cfg.maxRT*(s+1)/slices
			for len(c.rt) < target && time.Now().Before(deadline) {
				e, cl, rt, err := roundTrip(c)
				if err != nil {
					return err
				}
				c.enqueue = append(c.enqueue, e)
				c.claim = append(c.claim, cl)
				c.rt = append(c.rt, rt)
				if len(c.rt)%housekeepingEvery == 0 {
					if err := clearActive(c); err != nil {
						return err
					}
				}
			}
		}
	}
	for _, c := range cells {
		c.rounds++
		k, _ := emq.KeyspaceFor(c.queue)
		n, err := pendingCount(c.b.conn, k)
		if err != nil {
			return err
		}
		if n != c.depth {
			return fmt.Errorf("%s at depth %d: %d pending after the round, want %d", c.key, c.depth, n, c.depth)
		}
	}
	return nil
}

// roundTrip enqueues one job and claims one, timing each call, and checks
// the verdicts: a measurement of a call that went wrong is no measurement.
func roundTrip(c *cell) (enq, claim, rt float64, err error) {
	id := jobID(c.next)
	t0 := time.Now()
	ev, eerr := c.b.ops.enqueue(c.queue, id, benchPayload)
	t1 := time.Now()
	cv, got, cerr := c.b.ops.claim(c.queue, benchLease)
	t2 := time.Now()
	c.next++
	switch {
	case eerr != nil:
		return 0, 0, 0, fmt.Errorf("%s: enqueue %s: %w", c.key, id, eerr)
	case ev != string(emq.Enqueued):
		return 0, 0, 0, fmt.Errorf("%s: enqueue %s: verdict %q", c.key, id, ev)
	case cerr != nil:
		return 0, 0, 0, fmt.Errorf("%s: claim: %w", c.key, cerr)
	case cv != string(emq.Leased):
		return 0, 0, 0, fmt.Errorf("%s: claim: verdict %q", c.key, cv)
	case got != jobID(c.claimed):
		return 0, 0, 0, fmt.Errorf("%s: claim got %q, want the oldest job %s", c.key, got, jobID(c.claimed))
	}
	c.claimed++
	return micros(t1.Sub(t0)), micros(t2.Sub(t1)), micros(t2.Sub(t0)), nil
}

func clearActive(c *cell) error {
	k, _ := emq.KeyspaceFor(c.queue)
	r, err := c.b.conn.Do("DEL", k.Active())
	if err == nil && r.IsError() {
		err = fmt.Errorf("DEL: %s", r.Str)
	}
	if err != nil {
		return fmt.Errorf("%s: clear the active set: %w", c.key, err)
	}
	return nil
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

// stats summarizes samples; n is 0 when there are none.
type stats struct {
	n      int
	median float64
	p90    float64
}

func summarize(samples []float64) stats {
	if len(samples) == 0 {
		return stats{}
	}
	s := append([]float64(nil), samples...)
	sort.Float64s(s)
	return stats{n: len(s), median: quantile(s, 0.5), p90: quantile(s, 0.9)}
}

// quantile of sorted samples, interpolating between the two nearest ranks.
func quantile(sorted []float64, q float64) float64 {
	pos := q * float64(len(sorted)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(sorted)-1)
	return sorted[lo] + (sorted[hi]-sorted[lo])*(pos-float64(lo))
}
