// Command inwasm measures round trips from inside a Go program, with no JS
// bridge on the path: the loop of bench/loop (time.Now around each
// enqueue and each claim, the queue held at its depth) over one or more
// implementations, all in this one process and measured in turns.
//
// The bench builds it for js/wasm and runs it under Node with Go's own
// runner, so that the rows it fills are "the same Go code, in wasm, minus
// syscall/js":
//
//	GOOS=js GOARCH=wasm go build -o inwasm.wasm ./bench/inwasm
//	$(go env GOROOT)/lib/wasm/go_js_wasm_exec inwasm.wasm -impl engine,stock,api ...
//
// It imports no syscall/js (wasm/main_js.go is the only file that may), so
// it builds natively too; the bench uses that to measure the engine of an
// older revision (-baseline) natively, from a worktree of that revision.
//
// The implementations (-impl, comma-separated):
//
//	engine  emq.Jobs over engine.New(): the playground's engine
//	api     api.New() through api.Playground.Call, the result marshalled
//	        with encoding/json: the JS API's Go side, as the bridge calls it
//	stock   emq.Jobs over bench/stock: stock miniredis with its own EVAL
//
// Output is JSON lines on stdout and nothing else: "ready" once every queue
// is filled and warm, "round" per round with that round's raw samples (in
// microseconds), "end" at the end. With -rounds stdin it measures one
// round per line read from stdin and ends at EOF, so that the bench can
// interleave it with its other measurements. Errors go to stderr, with a
// non-zero exit.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"echomq.dev/playground/bench/loop"
	"echomq.dev/playground/bench/stock"
	"echomq.dev/playground/wasm/api"
	"echomq.dev/playground/wasm/emq"
	"echomq.dev/playground/wasm/engine"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "inwasm:", err)
		os.Exit(1)
	}
}

type event struct {
	Event    string            `json:"event"`
	Go       string            `json:"go,omitempty"`
	Platform string            `json:"platform,omitempty"`
	Cells    []loop.CellReport `json:"cells,omitempty"`
}

func run() error {
	impls := flag.String("impl", "engine,stock,api", "the implementations to measure, comma-separated: engine, api, stock")
	depthList := flag.String("depths", "10,10000", "queue depths, comma-separated")
	budget := flag.Duration("budget", time.Second, "time per cell and round")
	maxSamples := flag.Int("max", 1000, "samples per cell and round, at most")
	warmup := flag.Int("warmup", 300, "untimed round trips per cell before the first round")
	rounds := flag.String("rounds", "1", `how many rounds, or "stdin": one per line read from stdin`)
	flag.Parse()
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flag.Args())
	}
	var depths []int
	for _, f := range strings.Split(*depthList, ",") {
		d, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || d < 0 {
			return fmt.Errorf("-depths: bad depth %q", f)
		}
		depths = append(depths, d)
	}

	// One server per implementation, shared by its depths (each depth has
	// its own queue), as one page holds one engine.
	type impl struct {
		name string
		conn emq.Conn
		ops  loop.Ops
	}
	var list []impl
	for _, name := range strings.Split(*impls, ",") {
		switch name = strings.TrimSpace(name); name {
		case "engine":
			e := engine.MustNew()
			list = append(list, impl{name, e, loop.Jobs{J: emq.NewJobs(e)}})
		case "api":
			p := api.New()
			list = append(list, impl{name, p.Engine(), loop.API{P: p}})
		case "stock":
			c, err := stock.New()
			if err != nil {
				return err
			}
			defer c.Close()
			list = append(list, impl{name, c, loop.Jobs{J: emq.NewJobs(c)}})
		default:
			return fmt.Errorf("-impl: unknown implementation %q", name)
		}
	}

	// Cells by depth, then implementation: loop.Round takes them in this
	// order and back, so the implementations at a depth sit side by side.
	var cells []*loop.Cell
	ready := event{Event: "ready", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	for _, d := range depths {
		for _, im := range list {
			c := loop.NewCell(im.name, d, im.conn, im.ops)
			began := time.Now()
			if err := c.Prefill(); err != nil {
				return err
			}
			prefill := time.Since(began)
			if err := c.WarmUp(*warmup); err != nil {
				return err
			}
			cells = append(cells, c)
			ready.Cells = append(ready.Cells, loop.CellReport{Target: c.Name, Depth: d, PrefillMs: round3(float64(prefill) / 1e6), WarmupOps: c.Warmup})
		}
	}
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	if err := emit(out, ready); err != nil {
		return err
	}

	measure := func() error {
		before := make([]int, len(cells))
		for i, c := range cells {
			before[i] = len(c.RT)
		}
		if err := loop.Round(cells, *budget, *maxSamples); err != nil {
			return err
		}
		ev := event{Event: "round"}
		for i, c := range cells {
			ev.Cells = append(ev.Cells, loop.CellReport{
				Target: c.Name, Depth: c.Depth, FinalDepth: c.Depth,
				Enqueue:   rounded(c.Enqueue[before[i]:]),
				Claim:     rounded(c.Claim[before[i]:]),
				RoundTrip: rounded(c.RT[before[i]:]),
			})
		}
		return emit(out, ev)
	}
	if *rounds == "stdin" {
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
			if strings.TrimSpace(in.Text()) == "" {
				continue
			}
			if err := measure(); err != nil {
				return err
			}
		}
		if err := in.Err(); err != nil {
			return fmt.Errorf("stdin: %w", err)
		}
	} else {
		n, err := strconv.Atoi(*rounds)
		if err != nil || n < 0 {
			return errors.New(`-rounds: a count, or "stdin"`)
		}
		for range n {
			if err := measure(); err != nil {
				return err
			}
		}
	}
	return emit(out, event{Event: "end"})
}

// emit writes one event as a line and flushes it.
func emit(w *bufio.Writer, ev event) error {
	b, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	w.Write(b)
	w.WriteByte('\n')
	return w.Flush()
}

// rounded keeps samples to the nanosecond, which is all the clock gives,
// so the lines stay short.
func rounded(samples []float64) []float64 {
	out := make([]float64, len(samples))
	for i, v := range samples {
		out[i] = round3(v)
	}
	return out
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }
