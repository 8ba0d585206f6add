package main

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"echomq.dev/playground/bench/depth"
)

// TestFigures: BENCHMARKS.md prints times and ratios with about three
// significant figures.
func TestFigures(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{num(1234.4), "1,234"},
		{num(123.4), "123"},
		{num(12.34), "12.3"},
		{num(1.234), "1.23"},
		{ratio(250, 10), "25×"},
		{ratio(25, 10), "2.5×"},
		{ratio(2.5, 10), "0.25×"},
		{ratio(1, 0), "—"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// TestFloorTables: the floors under the two unmet targets print as a line
// of the summary and two tables, every row with its median in its unit on both platforms, the
// sums (a)+(b) computed and judged against the target, the rows measured
// elsewhere in the run taken from there, and what did not run said so.
func TestFloorTables(t *testing.T) {
	rows := func(ms map[string]float64, us map[string]float64) map[string]floorRow {
		out := map[string]floorRow{}
		for k, v := range ms {
			out[k] = floorRow{Key: k, Unit: "ms", Samples: []float64{v + 1, v, v - 1}}
		}
		for k, v := range us {
			out[k] = floorRow{Key: k, Unit: "µs", Samples: []float64{v}}
		}
		return out
	}
	r := &report{cells: cellSet{}, depth: &depthRun{results: map[string]depth.Result{
		"wasm": {ManySets: depth.Timed{Ms: []float64{600}}},
	}}, floors: &floorsRun{runs: 3, rows: map[string]map[string]floorRow{
		"native": rows(map[string]float64{"go-map": 8, "miniredis-set": 80, "glua-loop": 25, "engine-loop": 30, "engine-exists": 50, "engine-sets": 160},
			map[string]float64{"glua-protocol": 8, "miniredis-protocol": 3}),
		"wasm": rows(map[string]float64{"go-map": 20, "miniredis-set": 220, "glua-loop": 90, "engine-loop": 100, "engine-exists": 250},
			map[string]float64{"glua-protocol": 45, "miniredis-protocol": 19}),
	}}}
	r.floors.rows["wasm"]["engine-sets"] = floorRow{Key: "engine-sets", Unit: "ms", Errors: []string{"run 1, after 950ms: ERR Script killed by user"}}
	r.cells.get(keyWasm, 10).add(nil, nil, []float64{160})
	r.cells.get(keyWasmEngine, 10).add(nil, nil, []float64{120})

	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	r.floors.summaryLine(p)
	summary := b.String()
	for _, want := range []string{
		"100,000 new keys written and the script's loop 310 ms against the 300 ms target (**the floor is above the target**)",
		"the round trip's two scripts and its data work 64.0 µs against the 100 µs target (64% of it)",
	} {
		if !strings.Contains(summary, want) {
			t.Errorf("the summary's line lacks %q; it reads:\n%s", want, summary)
		}
	}
	b.Reset()
	r.floorsSection(p)
	text := b.String()
	for _, want := range []string{
		"| | what it runs | native | wasm | wasm vs native | wasm, share of the 300 ms target |",
		"| | what it runs | native | wasm | wasm vs native | wasm, share of the 100 µs target |",
		"| (a) miniredis alone | `db.Set` of the 100,000 new keys",
		"| 80.0 ms | 220 ms | 2.8× | 73% |\n",
		"| **(a) + (b)** | the store and the VM with nothing of ours between them: the sum of the two medians | 105 ms | 310 ms | 3.0× | 103%: ≤ 300 ms **not met** |",
		"**the target lies below what the two dependencies allow**, by 10 ms",
		"| (e) the engine, the whole script | `redis.call('SET', KEYS[1] .. i, 'v')`, through `EVAL`, in the same process as (a) to (d) | 160 ms | not measured (1 run(s) stopped: `run 1, after 950ms: ERR Script killed by user`) |",
		"| (e) the whole script, as in the targets table | natively over `api.Call`; in wasm through the JS API (`bench/depth_bench.mjs`) | — | 600 ms | — | 200%: ≤ 300 ms **not met** |",
		"| **(a) + (b)** | the VM and the store with nothing of ours between them: the sum of the two medians | 11.0 µs | 64.0 µs | 5.8× | 64%: ≤ 100 µs **met** |",
		"| (c) the engine alone | `emq.Jobs` over `engine.New()`, in the latency rounds (`bench/inwasm`; natively in this process) | not measured | 120 µs |",
		"36.0 µs of it left for everything between them; the engine alone takes 120 µs, 56.0 µs over the two.",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the floors section lacks %q; it reads:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "\n| ") - 2; n != 8+5 {
		t.Errorf("%d rows in the two tables, want 13 (8 and 5):\n%s", n, text)
	}
}

// TestSignedMsWritesADifferenceAsAReaderReadsIt checks the floors' text for
// a part of the script that costs less than the row it is measured from:
// a minus sign of its own, and no "-0 ms".
func TestSignedMsWritesADifferenceAsAReaderReadsIt(t *testing.T) {
	for v, want := range map[float64]string{-3.4: "−3 ms", -0.2: "0 ms", 0: "0 ms", 139.4: "139 ms"} {
		if got := signedMs(v); got != want {
			t.Errorf("signedMs(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestShortcutsTable: what each shortcut buys prints as one table, a row
// per engine with its medians on both platforms and, but for the fast
// engine's, how much slower than the fast engine each is; a platform that
// did not run shows a dash, and a failed run is said.
func TestShortcutsTable(t *testing.T) {
	r := &report{shortcuts: &shortcutsRun{rows: map[string][]shortcutRow{
		"native": {
			{Key: "fast", RoundTrip: []float64{20, 19, 21}, Sets: []float64{300}},
			{Key: "reference", RoundTrip: []float64{40}, Sets: []float64{450}},
			{Key: "name slots", RoundTrip: []float64{22}, Sets: []float64{330}, Errors: []string{"run 2: ERR Script killed"}},
		},
	}, commands: []string{"bench/shortcuts -runs 3"}}}
	var b strings.Builder
	r.shortcutsSection(func(format string, a ...any) { fmt.Fprintf(&b, format, a...) })
	text := b.String()
	for _, want := range []string{
		"## What each shortcut buys\n",
		"| engine | round trip, native | round trip, wasm | 100,000 SETs, native | 100,000 SETs, wasm |\n",
		"| **fast** (`engine.New()`) | 20.0 µs | — | 300 ms | — |\n",
		"| **reference** (every shortcut off) | 40.0 µs (+100%) | — | 450 ms (+50%) | — |\n",
		"| without name slots | 22.0 µs (+10%) | — | 330 ms (+10%) | — |\n",
		"native, name slots: run 2: ERR Script killed",
		"`bench/shortcuts -runs 3`",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the section lacks %q; it reads:\n%s", want, text)
		}
	}
}

// TestSuiteSection: the report carries the suite's record as a table of
// units, each with Redis's count and the engine's, natively and in wasm.
func TestSuiteSection(t *testing.T) {
	r := &report{cfg: config{root: ".."}}
	var b strings.Builder
	r.suiteSection(func(format string, a ...any) { fmt.Fprintf(&b, format, a...) })
	text := b.String()
	for _, want := range []string{
		"## Redis's own test suite\n\n",
		"| unit | Redis | skipped | native | share | wasm | share |\n",
		"| `type/string` | ",
		"| `hyperloglog` | ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the suite's section lacks %q; it reads:\n%s", want, text)
		}
	}
}

// TestSizeTargetIsBuildShLine: the report judges the module against the
// line ./build.sh test enforces, not a copy of it that can drift.
func TestSizeTargetIsBuildShLine(t *testing.T) {
	b, err := os.ReadFile("../build.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^WASM_SIZE_LINE=(\d+)$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("build.sh has no WASM_SIZE_LINE=<bytes> line")
	}
	if got := strconv.Itoa(int(sizeTarget)); got != string(m[1]) {
		t.Errorf("bench's sizeTarget is %s B, build.sh's WASM_SIZE_LINE %s B", got, m[1])
	}
}
