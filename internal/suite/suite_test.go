package suite

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"echomq.dev/playground/internal/needs"
)

var (
	runSuite = flag.Bool("suite", false, "run Redis's test suite (./build.sh test does)")
	update   = flag.Bool("update", false, "rewrite the record (testdata/passing-*.txt) of the targets and units run")
	targets  = flag.String("targets", "native", "the servers to run it against: redis, native, wasm, comma-separated")
	units    = flag.String("units", "", "the units to run, comma-separated (default: every unit of Units)")
	wasmOnly = flag.String("wasm-units", "", "the units to run against the wasm target, when they are to be fewer than -units")
	logDir   = flag.String("log", "", "a directory to keep each run's raw output in")
	triage   = flag.String("triage", "", "a file to write the engine's failures to, grouped by unit and first error line")
	listener = flag.String("listener", "", "a built internal/listen to run as the native target, instead of building this tree's")
	module   = flag.String("module", "", "an echomq.wasm built with -tags wire to run as the wasm target (default: $ECHOMQ_WIRE_WASM, or one built from this tree)")
	reread   = flag.Bool("reread", false, "run nothing: read the results of an earlier run from the -log directory (for -triage)")
	parallel = flag.Int("parallel", 2, "units run side by side, each against a server of its own")
)

// bounds are, by target, how long one test may go without reporting
// before it counts as hung, and how long a whole unit may run, its reruns
// included. A command the engine never returns from is caught sooner, by
// the listener's stall (Stall); these catch the rest (a test waiting for
// a reply that never comes) and must outlast the slowest test that passes:
// "SET 10000 numeric keys and access all them in reverse order" takes a
// minute natively on a loaded machine and over five in wasm, where every
// move of the clock visits every key.
var bounds = map[string][2]time.Duration{
	"redis":  {3 * time.Minute, 20 * time.Minute},
	"native": {10 * time.Minute, 45 * time.Minute},
	"wasm":   {20 * time.Minute, 150 * time.Minute},
}

// TestSuite runs the units against the targets and holds the engine to
// its record: a test the record says passed and that fails now fails the
// test. A test that passes now and is not on the record is reported, for
// -update to add.
func TestSuite(t *testing.T) {
	if !*runSuite {
		t.Skip("Redis's test suite runs with -suite (./build.sh test gives it)")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir, err := Dir(root)
	if err != nil {
		// The suite is reference data the team keeps beside the checkout,
		// not a package any machine can install: where it is missing, even
		// in CI, the run says so loudly and goes on without it.
		t.Skipf("NOT RUN: %v", err)
	}
	needs.Program(t, "tclsh", "apt-get install tcl")
	rec, err := ReadRecord(root)
	if err != nil {
		t.Fatal(err)
	}
	chosen := pickUnits(t, "-units", *units, Units)
	forWasm := pickUnits(t, "-wasm-units", *wasmOnly, chosen)
	all := map[string][]UnitResult{}
	if *reread {
		for _, name := range strings.Split(*targets, ",") {
			for _, unit := range chosen {
				res, err := rereadLog(filepath.Join(*logDir, fmt.Sprintf("%s-%s.log", name, strings.ReplaceAll(unit, "/", "-"))), unit, rec.Skips)
				if err != nil {
					t.Fatal(err)
				}
				all[name] = append(all[name], res)
			}
			for _, u := range all[name] {
				t.Log(line(name, u))
			}
		}
		if *triage != "" {
			if err := os.WriteFile(*triage, []byte(Triage(all, rec)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	for _, target := range makeTargets(t, root) {
		start := time.Now()
		list := chosen
		if target.Name() == "wasm" {
			list = forWasm
		}
		warmed, stop := Warm(target)
		results, failed := runAll(t, dir, warmed, list, rec)
		stop()
		all[target.Name()] = results
		t.Logf("%s: %d units in %v", target.Name(), len(list), time.Since(start).Round(time.Second))
		for _, u := range results {
			t.Log(line(target.Name(), u))
		}
		compare(t, target.Name(), results, rec)
		if *update {
			// A unit that could not run (no log file, no farm, a server
			// that never came up) passed nothing because it ran nothing:
			// recording that as the engine's result would leave a record
			// that no later run can fail against. Its old entry stays.
			var ran []UnitResult
			for _, u := range results {
				if !failed[u.Unit] {
					ran = append(ran, u)
				}
			}
			if err := WritePassing(root, target.Name(), ran); err != nil {
				t.Fatal(err)
			}
		}
	}
	if *triage != "" {
		if err := os.WriteFile(*triage, []byte(Triage(all, rec)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// pickUnits reads a list of units from a flag, each of which must be in
// from; an empty flag is all of from.
func pickUnits(t *testing.T, name, flagValue string, from []string) []string {
	if flagValue == "" {
		return from
	}
	list := strings.Split(flagValue, ",")
	for _, u := range list {
		if !slices.Contains(from, u) {
			t.Fatalf("%s: %q is not one of %v", name, u, from)
		}
	}
	return list
}

func makeTargets(t *testing.T, root string) []Target {
	var list []Target
	tmp := t.TempDir()
	for _, name := range strings.Split(*targets, ",") {
		switch name {
		case "redis":
			needs.Program(t, "redis-server", "apt-get install redis-server")
			list = append(list, Redis{})
		case "native":
			bin := *listener
			if bin == "" {
				var err error
				if bin, err = BuildListener(root, tmp); err != nil {
					t.Fatal(err)
				}
			}
			list = append(list, Native{Bin: bin})
		case "wasm":
			needs.Program(t, "node", "apt-get install nodejs")
			list = append(list, wasmTarget(t, root, tmp))
		default:
			t.Fatalf("-targets: unknown target %q", name)
		}
	}
	return list
}

// wasmTarget is the module -module names, or the one build.sh built with
// the listener's exports ($ECHOMQ_WIRE_WASM, beside its wasm_exec.js), or
// one built from this tree. (The site's own module, in static/, has no
// listener exports: see wasm/wire_js.go.)
func wasmTarget(t *testing.T, root, tmp string) Wasm {
	w := Wasm{Script: filepath.Join(root, "wasm", "listen.mjs"), Module: *module}
	if w.Module == "" {
		w.Module = os.Getenv("ECHOMQ_WIRE_WASM")
	}
	if w.Module != "" {
		w.Exec = filepath.Join(filepath.Dir(w.Module), "wasm_exec.js")
		if _, err := os.Stat(w.Exec); err == nil {
			return w
		}
		_, goExec, err := BuildModule(root, tmp) // only for its wasm_exec.js
		if err != nil {
			t.Fatal(err)
		}
		w.Exec = goExec
		return w
	}
	var err error
	if w.Module, w.Exec, err = BuildModule(root, tmp); err != nil {
		t.Fatal(err)
	}
	return w
}

// runAll runs the units against target, -parallel at a time, in order. It
// reports the units that could not be run at all, beside the results.
func runAll(t *testing.T, dir string, target Target, chosen []string, rec *Record) ([]UnitResult, map[string]bool) {
	results := make([]UnitResult, len(chosen))
	failed := map[string]bool{}
	var mu sync.Mutex
	sem := make(chan struct{}, max(*parallel, 1))
	var wg sync.WaitGroup
	for i, unit := range chosen {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			res, err := runUnit(dir, target, unit, rec)
			if err != nil {
				t.Errorf("%s %s: %v", target.Name(), unit, err)
				mu.Lock()
				failed[unit] = true
				mu.Unlock()
			}
			results[i] = res
		}()
	}
	wg.Wait()
	return results, failed
}

func runUnit(dir string, target Target, unit string, rec *Record) (UnitResult, error) {
	farm, err := NewFarm(dir)
	if err != nil {
		return UnitResult{Unit: unit}, err
	}
	defer farm.Close()
	b := bounds[target.Name()]
	r := &Runner{Farm: farm, Target: target, Hang: b[0], Bound: b[1]}
	if target.Name() != "redis" {
		r.Skip = Patterns(rec.Skips)
	}
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

// line is one unit's result in a line of the test's log.
func line(target string, u UnitResult) string {
	counts := map[Outcome]int{}
	for _, tt := range u.Tests {
		counts[tt.Outcome]++
	}
	s := fmt.Sprintf("%s %-20s %5.0fs: ok %d", target, u.Unit, u.Seconds, counts[OK])
	for _, o := range []Outcome{Err, Exception, Timeout, Skipped, Ignored} {
		if counts[o] > 0 {
			s += fmt.Sprintf(", %s %d", o, counts[o])
		}
	}
	for _, st := range u.Stopped {
		s += "; " + clip(st, 160)
	}
	return s
}

// compare holds a run to the record: a test the record has as passing
// that does not pass now is an error; one that passes now and is not on
// the record is news, for -update. Against Redis both are only noted: its
// record says what can pass, and a difference there is a flaky test.
func compare(t *testing.T, target string, results []UnitResult, rec *Record) {
	t.Helper()
	var gone, fresh, chance []string
	for _, u := range results {
		was := rec.Passing[target][u.Unit]
		now := map[string]Test{}
		for _, tt := range u.Tests {
			now[tt.Name] = tt
		}
		for _, name := range was {
			if tt := now[name]; !tt.Outcome.Passed() {
				o := tt.Outcome
				if o == "" {
					o = NotRun
				}
				line := fmt.Sprintf("%s %q: %s %s", u.Unit, name, o, clip(tt.Detail, 200))
				if byChance(tt.Detail) {
					chance = append(chance, line)
					continue
				}
				gone = append(gone, line)
			}
		}
		for _, name := range u.Passed() {
			if !slices.Contains(was, name) {
				fresh = append(fresh, fmt.Sprintf("%s %q", u.Unit, name))
			}
		}
	}
	if len(chance) > 0 {
		t.Logf("%s: %d tests on the record failed a statistical check, which a fair sampler fails now and then (not counted as a regression; rerun to see it pass):\n  %s",
			target, len(chance), strings.Join(chance, "\n  "))
	}
	if len(fresh) > 0 {
		t.Logf("%s: %d tests pass that the record does not have (go test ./internal/suite -suite -update -targets %s -units ... adds them):\n  %s",
			target, len(fresh), target, strings.Join(fresh, "\n  "))
	}
	if len(gone) == 0 {
		return
	}
	msg := fmt.Sprintf("%s: %d tests the record has as passing do not pass now:\n  %s", target, len(gone), strings.Join(gone, "\n  "))
	if target == "redis" || *update {
		t.Log(msg)
		return
	}
	t.Error(msg)
}

// byChance reports whether a test's failure is one of Redis's chi-square
// checks of a random sampler (SRANDMEMBER, HRANDFIELD, ZRANDMEMBER
// histograms): its threshold is passed by chance by a fair sampler too,
// as "SRANDMEMBER histogram distribution - intset" was at 44.6 against 40
// in one run of a tree that passes it. A sampler that is not fair fails it
// every run, and so never reaches the record.
func byChance(detail string) bool { return strings.Contains(detail, "chi_square_value") }

// rereadLog reads a unit's result back from the raw output a run kept
// (-log): its last attempt, where a test skipped that the skip file does
// not name is one that hung in an attempt before.
func rereadLog(path, unit string, skips []Skip) (UnitResult, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return UnitResult{}, err
	}
	text := string(b)
	if i := strings.LastIndex(text, "Starting test server at port"); i >= 0 {
		text = text[i:]
	}
	res, _ := parse(unit, strings.NewReader(text))
	for i, tt := range res.Tests {
		if _, named := skipFor(skips, tt.Name); tt.Outcome == Skipped && !named {
			res.Tests[i].Outcome, res.Tests[i].Detail = Timeout, "hung in an earlier attempt: the unit was run again without it"
		}
	}
	return res, nil
}
