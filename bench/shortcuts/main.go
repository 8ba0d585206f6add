// Command shortcuts measures what each of the engine's shortcuts buys: the
// engine as it ships (engine.New, every cache and fast path on), the
// reference engine (engine.Options{Reference: true}, every one off), and
// the engine with each shortcut alone off (engine.Options{Without: s}),
// under the enqueue+claim round trip at depth 10 (microseconds a sample,
// emq.Jobs over the engine, no bridge) and one script of 100,000 SETs
// (milliseconds a run, from an empty keyspace, after a collection).
//
// The bench builds it for js/wasm, runs it under Node with Go's runner at
// the module's GOGC, and runs it natively:
//
//	GOOS=js GOARCH=wasm go build -o shortcuts.wasm ./bench/shortcuts
//	GOGC=200 $(go env GOROOT)/lib/wasm/go_js_wasm_exec shortcuts.wasm -runs 3
//
// The engines take turns: the round trips in bench/loop's slices, order
// reversed from slice to slice; the scripts run after run, order reversed
// every other run. Every verdict and every script's result is checked.
// Output is one JSON line, {"event":"shortcuts",...}; errors go to stderr
// with a non-zero exit.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"time"

	"echomq.dev/playground/bench/depth"
	"echomq.dev/playground/bench/loop"
	"echomq.dev/playground/wasm/emq"
	"echomq.dev/playground/wasm/engine"
)

// Row is one engine's samples.
type Row struct {
	Key       string    `json:"key"` // "fast", "reference", or the name of the shortcut switched off
	RoundTrip []float64 `json:"roundTrip"`
	Sets      []float64 `json:"sets"`
	Errors    []string  `json:"errors,omitempty"`
}

// Event is the line the command prints.
type Event struct {
	Event    string `json:"event"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
	GOGC     string `json:"gogc"`
	Rows     []Row  `json:"rows"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "shortcuts:", err)
		os.Exit(1)
	}
}

// engineUnder is one of the measured engines.
type engineUnder struct {
	key string
	o   engine.Options
}

// Engines are the measured engines, in the report's order.
func Engines() []engineUnder {
	list := []engineUnder{{"fast", engine.Options{}}, {"reference", engine.Options{Reference: true}}}
	for _, s := range engine.Shortcuts() {
		list = append(list, engineUnder{s.String(), engine.Options{Without: s}})
	}
	return list
}

func run() error {
	runs := flag.Int("runs", 3, "runs of the 100,000-SET script per engine")
	rounds := flag.Int("rounds", 2, "rounds of round trips")
	budget := flag.Duration("budget", 400*time.Millisecond, "time per engine and round of round trips")
	maxSamples := flag.Int("max", 1000, "round trips per engine and round, at most")
	warmup := flag.Int("warmup", 200, "untimed round trips per engine first")
	flag.Parse()
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flag.Args())
	}
	list := Engines()
	rows := make([]Row, len(list))
	engines := make([]*engine.Engine, len(list))
	cells := make([]*loop.Cell, len(list))
	for i, eu := range list {
		e, err := engine.NewWith(eu.o)
		if err != nil {
			return err
		}
		engines[i] = e
		rows[i].Key = eu.key
		cells[i] = loop.NewCell(eu.key, 10, e, loop.Jobs{J: emq.NewJobs(e.NewClient())})
		if err := cells[i].Prefill(); err != nil {
			return err
		}
		if err := cells[i].WarmUp(*warmup); err != nil {
			return err
		}
	}
	for range *rounds {
		if err := loop.Round(cells, *budget, *maxSamples); err != nil {
			return err
		}
	}
	for i, c := range cells {
		rows[i].RoundTrip = c.RT
	}
	// The scripts, on a keyspace of their own in each engine.
	for r := range *runs + 1 { // the first, untimed: wasm memory grows once
		order := make([]int, len(list))
		for i := range order {
			order[i] = i
		}
		if r%2 == 1 {
			slices.Reverse(order)
		}
		for _, i := range order {
			ms, err := manySets(engines[i])
			switch {
			case err != nil:
				rows[i].Errors = append(rows[i].Errors, fmt.Sprintf("run %d: %v", r, err))
			case r > 0:
				rows[i].Sets = append(rows[i].Sets, ms)
			}
		}
	}
	b, err := json.Marshal(Event{Event: "shortcuts", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH, GOGC: os.Getenv("GOGC"), Rows: rows})
	if err != nil {
		return err
	}
	_, err = fmt.Printf("%s\n", b)
	return err
}

// manySets times depth.ManySetsScript on e, in database 1 (the round
// trip's queue is in 0), and checks what it wrote.
func manySets(e *engine.Engine) (float64, error) {
	c := e.NewClient()
	for _, args := range [][]string{{"SELECT", "1"}, {"FLUSHDB"}} {
		if r, _ := c.Do(args...); r.IsError() {
			return 0, errors.New(r.Str)
		}
	}
	runtime.GC()
	t0 := time.Now()
	r, _ := c.Do("EVAL", depth.ManySetsScript, "1", "many:", strconv.Itoa(depth.ManySets))
	took := time.Since(t0)
	if r.IsError() {
		return 0, fmt.Errorf("after %v: %s", took.Round(time.Millisecond), r.Str)
	}
	n, _ := c.Do("DBSIZE")
	c.Do("FLUSHDB")
	if n.Int != int64(depth.ManySets) {
		return 0, fmt.Errorf("%d keys after the script, want %d", n.Int, depth.ManySets)
	}
	return float64(took) / float64(time.Millisecond), nil
}
