package suite

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	runSuite = flag.Bool("suite", false, "run Redis's test suite (./build.sh test does)")
	targets  = flag.String("targets", "native", "the servers to run it against: redis, native, wasm, comma-separated")
	units    = flag.String("units", "", "the units to run, comma-separated (default: every unit of Units)")
	logDir   = flag.String("log", "", "a directory to keep each run's raw output in")
	parallel = flag.Int("parallel", 2, "units run side by side, each against a server of its own")
)

func TestSuite(t *testing.T) {
	if !*runSuite {
		t.Skip("Redis's test suite runs with -suite (./build.sh test gives it)")
	}
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	root, _ := filepath.Abs("../..")
	tmp := t.TempDir()
	var list []Target
	for _, name := range strings.Split(*targets, ",") {
		switch name {
		case "redis":
			list = append(list, Redis{})
		case "native":
			bin, err := BuildListener(root, tmp)
			if err != nil {
				t.Fatal(err)
			}
			list = append(list, Native{Bin: bin})
		case "wasm":
			module, wasmExec, err := BuildModule(root, tmp)
			if err != nil {
				t.Fatal(err)
			}
			list = append(list, Wasm{Script: filepath.Join(root, "wasm", "listen.mjs"), Module: module, Exec: wasmExec})
		default:
			t.Fatalf("-targets: unknown target %q", name)
		}
	}
	chosen := Units
	if *units != "" {
		chosen = strings.Split(*units, ",")
	}
	for _, target := range list {
		results := runAll(t, dir, target, chosen)
		for _, u := range results {
			counts := map[Outcome]int{}
			for _, tt := range u.Tests {
				counts[tt.Outcome]++
			}
			t.Logf("%s %s: %.0fs ok %d err %d exception %d timeout %d skipped %d ignored %d stopped %q",
				target.Name(), u.Unit, u.Seconds, counts[OK], counts[Err], counts[Exception], counts[Timeout], counts[Skipped], counts[Ignored], u.Stopped)
		}
	}
}

// runAll runs units against target, -parallel at a time.
func runAll(t *testing.T, dir string, target Target, chosen []string) []UnitResult {
	results := make([]UnitResult, len(chosen))
	sem := make(chan struct{}, max(*parallel, 1))
	var wg sync.WaitGroup
	for i, unit := range chosen {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			res, err := runUnit(dir, target, unit)
			if err != nil {
				t.Errorf("%s %s: %v", target.Name(), unit, err)
			}
			results[i] = res
		}()
	}
	wg.Wait()
	return results
}

func runUnit(dir string, target Target, unit string) (UnitResult, error) {
	farm, err := NewFarm(dir)
	if err != nil {
		return UnitResult{Unit: unit}, err
	}
	defer farm.Close()
	addr, stop, err := target.Start()
	if err != nil {
		return UnitResult{Unit: unit}, err
	}
	defer stop()
	r := &Runner{Farm: farm, Addr: addr, Hang: 120 * time.Second, Bound: 20 * time.Minute}
	if *logDir != "" {
		f, err := os.Create(filepath.Join(*logDir, fmt.Sprintf("%s-%s.log", target.Name(), strings.ReplaceAll(unit, "/", "-"))))
		if err != nil {
			return UnitResult{Unit: unit}, err
		}
		defer f.Close()
		r.Log = f
	}
	return r.Unit(context.Background(), unit)
}
