package main

import (
	"fmt"
	"math"
	"sort"

	"github.com/alicebob/miniredis/v2"

	"echomq.dev/playground/bench/loop"
	"echomq.dev/playground/bench/stock"
	"echomq.dev/playground/internal/redisnet"
	"echomq.dev/playground/internal/redisserver"
	"echomq.dev/playground/wasm/api"
	"echomq.dev/playground/wasm/emq"
	"echomq.dev/playground/wasm/engine"
)

// Row keys: the rows of the latency tables, and the baseline's.
const (
	keyWasm        = "wasm"         // JS API, static/echomq.wasm, wasm_bench.mjs
	keyWasmAPI     = "wasm-api"     // api.Call + api.MarshalJSON inside Go, bench/inwasm
	keyWasmEngine  = "wasm-engine"  // emq.Jobs over engine.MustNew() inside Go, bench/inwasm
	keyStockWasm   = "stock-wasm"   // emq.Jobs over stock miniredis inside Go, bench/inwasm
	keyNativeAPI   = "native-api"   // in this process
	keyNative      = "native"       // in this process
	keyStockNative = "stock-native" // in this process
	keyStockTCP    = "stock-tcp"    // in this process, miniredis's listener
	keyRedis       = "redis"        // in this process, redis-server
	// The baseline comparison, in its own section.
	keyWasmBase      = "wasm-base"       // JS API, the baseline's static wasm, wasm_bench.mjs
	keyNativeProc    = "native-proc"     // emq.Jobs over engine.MustNew(), bench/inwasm built natively from this tree
	keyNativeBase    = "native-base"     // the same, built from the baseline's worktree
	keyNativeProcAPI = "native-proc-api" // api.Call + api.MarshalJSON, bench/inwasm built natively from this tree
	keyNativeBaseAPI = "native-base-api" // the same, built from the baseline's worktree
)

var backendOrder = []string{keyWasm, keyWasmAPI, keyWasmEngine, keyStockWasm, keyNativeAPI, keyNative, keyStockNative, keyStockTCP, keyRedis}

var backendLabels = map[string]string{
	keyWasm:        "playground, wasm: JS API (`echomq.enqueue`/`claim` from JS)",
	keyWasmAPI:     "playground, wasm, no bridge: `api.Call` + `api.MarshalJSON` inside Go",
	keyWasmEngine:  "playground, wasm, no bridge: `emq.Jobs` over `engine.New()` inside Go",
	keyStockWasm:   "ref A: stock miniredis EVAL, wasm, inside Go",
	keyNativeAPI:   "playground, native: `api.Call` + `api.MarshalJSON`",
	keyNative:      "playground, native: `emq.Jobs` over `engine.New()`",
	keyStockNative: "ref A: stock miniredis EVAL, native in-process",
	keyStockTCP:    "ref A: stock miniredis EVAL, native over loopback TCP",
	keyRedis:       "ref B: redis-server over loopback TCP",
}

// sameSide is the stock-miniredis row on the same platform as a row, for
// the "vs stock EVAL" column.
var sameSide = map[string]string{
	keyWasm: keyStockWasm, keyWasmAPI: keyStockWasm, keyWasmEngine: keyStockWasm,
	keyNativeAPI: keyStockNative, keyNative: keyStockNative,
}

// backend is one server this process drives: through emq.Jobs (the same
// handles, the same scripts, EVALSHA first) or, for one of them, through
// api.Call, the Go side of the JS API.
type backend struct {
	key  string
	conn emq.Conn
	ops  loop.Ops
	info string // the server's version, when it says
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
		bs = append(bs, &backend{key: key, conn: conn, ops: loop.Jobs{J: emq.NewJobs(conn)}, info: info})
	}

	add(keyNative, engine.MustNew(), "")
	p := api.New()
	bs = append(bs, &backend{key: keyNativeAPI, conn: p.Engine(), ops: loop.API{P: p}})

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

// nativeCells are this process's cells, by depth and then backend, which
// is the order loop.Round takes them in (and back).
func nativeCells(bs []*backend, depths []int) []*loop.Cell {
	var cells []*loop.Cell
	for _, d := range depths {
		for _, b := range bs {
			cells = append(cells, loop.NewCell(b.key, d, b.conn, b.ops))
		}
	}
	return cells
}

// nativePrepare fills every native queue and warms every cell up.
func nativePrepare(cells []*loop.Cell, warmup int) error {
	for _, c := range cells {
		if err := c.Prefill(); err != nil {
			return err
		}
	}
	for _, c := range cells {
		if err := c.WarmUp(warmup); err != nil {
			return err
		}
	}
	return nil
}

// cell is one row at one depth as the report sees it: every sample, in
// microseconds, wherever it was measured.
type cell struct {
	key     string
	depth   int
	warmup  int // untimed round trips
	enqueue []float64
	claim   []float64
	rt      []float64
	ends    []int // len(rt) at the end of each round
}

// add appends samples.
func (c *cell) add(enq, claim, rt []float64) {
	c.enqueue = append(c.enqueue, enq...)
	c.claim = append(c.claim, claim...)
	c.rt = append(c.rt, rt...)
}

// roundMedians is the round trip's median in each round.
func (c *cell) roundMedians() []float64 {
	var out []float64
	start := 0
	for _, end := range c.ends {
		if end > start {
			out = append(out, summarize(c.rt[start:end]).median)
		}
		start = end
	}
	return out
}

// cellSet holds the report's cells by row and depth.
type cellSet map[string]*cell

// endRound marks the end of a round in every cell.
func (s cellSet) endRound() {
	for _, c := range s {
		c.ends = append(c.ends, len(c.rt))
	}
}

func (s cellSet) get(key string, depth int) *cell {
	id := fmt.Sprintf("%s/%d", key, depth)
	c := s[id]
	if c == nil {
		c = &cell{key: key, depth: depth}
		s[id] = c
	}
	return c
}

// nativeRound measures this process's cells for one round and copies the
// round's samples into the report's cells.
func nativeRound(cells []*loop.Cell, set cellSet, cfg config) error {
	before := make([]int, len(cells))
	for i, c := range cells {
		before[i] = len(c.RT)
	}
	if err := loop.Round(cells, cfg.budget, cfg.maxRT); err != nil {
		return err
	}
	for i, c := range cells {
		rc := set.get(c.Name, c.Depth)
		rc.warmup = c.Warmup
		rc.add(c.Enqueue[before[i]:], c.Claim[before[i]:], c.RT[before[i]:])
	}
	return nil
}

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
