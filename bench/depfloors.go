package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"echomq.dev/playground/wasm/api"
)

// The floors under issue 10's two unmet targets (bench/depfloor): what the
// dependencies and Go cost alone, measured after the depth phase, in wasm
// and natively, one after the other with nothing beside them.

// floorsRun is what bench/depfloor printed, by platform ("native", "wasm").
type floorsRun struct {
	rows     map[string]map[string]floorRow // platform → row key → row
	commands []string
	runs     int           // of each 100,000-step row
	budget   time.Duration // per round-trip row
	samples  int           // per round-trip row, at most
	notes    []string
	elapsed  time.Duration
}

// floorRow is one row of bench/depfloor's line.
type floorRow struct {
	Key     string    `json:"key"`
	Unit    string    `json:"unit"`
	Samples []float64 `json:"samples"`
	Errors  []string  `json:"errors"`
}

// args are bench/depfloor's bounds: about 15 s for both platforms
// on the small machines this runs on, most of it the wasm runs.
func (f *floorsRun) args(quick bool) []string {
	f.runs, f.budget, f.samples = 5, time.Second, 3000
	if quick {
		f.runs, f.budget, f.samples = 2, 300*time.Millisecond, 500
	}
	return []string{"-runs", strconv.Itoa(f.runs), "-budget", f.budget.String(), "-max", strconv.Itoa(f.samples), "-warmup", strconv.Itoa(floorsWarmup)}
}

// floorsWarmup is how many untimed samples each round-trip row takes first.
const floorsWarmup = 300

// measureDepFloors runs bench/depfloor in wasm, then natively.
func measureDepFloors(cfg config, bl *builds, logf func(string, ...any)) *floorsRun {
	began := time.Now()
	f := &floorsRun{rows: map[string]map[string]floorRow{}}
	args := f.args(cfg.quick)
	type platform struct {
		name string
		argv []string
		env  []string
	}
	var list []platform
	if bl.floorsWasm != "" {
		if execPath, err := wasmExecRunner(); err != nil {
			f.notes = append(f.notes, "the floors in wasm: not measured: "+err.Error())
		} else {
			// At the module's GOGC, as bench/inwasm runs (see measure).
			list = append(list, platform{"wasm", append([]string{execPath, bl.floorsWasm}, args...), []string{"GOGC=" + strconv.Itoa(api.GCPercent)}})
		}
	}
	if bl.floorsNative != "" {
		list = append(list, platform{"native", append([]string{bl.floorsNative}, args...), nil})
	}
	for _, pl := range list {
		logf("floors under the targets: %s", pl.name)
		shown := strings.Join(pl.argv, " ")
		if len(pl.env) > 0 {
			shown = strings.Join(pl.env, " ") + " " + shown
		}
		f.commands = append(f.commands, shown)
		cmd := exec.Command(pl.argv[0], pl.argv[1:]...)
		cmd.Dir = cfg.root
		cmd.Env = append(os.Environ(), pl.env...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		var ev struct {
			Event string     `json:"event"`
			Rows  []floorRow `json:"rows"`
		}
		if err == nil {
			if jerr := json.Unmarshal(out, &ev); jerr != nil || ev.Event != "floors" {
				err = fmt.Errorf("printed no floors (%v): %.200s", jerr, out)
			}
		} else {
			err = fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
		}
		if err != nil {
			f.notes = append(f.notes, fmt.Sprintf("the floors, %s: not measured: %s", pl.name, firstLine(err.Error())))
			logf("floors, %s: %v", pl.name, err)
			continue
		}
		byKey := map[string]floorRow{}
		for _, r := range ev.Rows {
			byKey[r.Key] = r
		}
		f.rows[pl.name] = byKey
	}
	f.elapsed = time.Since(began)
	return f
}

// floor is a row's median on a platform, false when it has no sample.
func (f *floorsRun) floor(platform, key string) (float64, bool) {
	if f == nil {
		return 0, false
	}
	r, ok := f.rows[platform][key]
	if !ok || len(r.Samples) == 0 {
		return 0, false
	}
	return summarize(r.Samples).median, true
}

// sumOf is the sum of two rows' medians on a platform, 0 unless both
// were measured: the (a) + (b) of each floors table.
func (f *floorsRun) sumOf(platform, a, b string) float64 {
	x, okA := f.floor(platform, a)
	y, okB := f.floor(platform, b)
	if !okA || !okB {
		return 0
	}
	return x + y
}

// summaryLine is the floors' bullet in the summary: the two sums in wasm
// against their targets.
func (f *floorsRun) summaryLine(p printer) {
	sets, rt := f.sumOf("wasm", "miniredis-set", "glua-loop"), f.sumOf("wasm", "glua-protocol", "miniredis-protocol")
	if sets <= 0 && rt <= 0 {
		return
	}
	p("- **what the dependencies allow, in wasm** (miniredis and gopher-lua alone, nothing of ours between them; see \"What the dependencies allow\"):")
	if sets > 0 {
		p(" 100,000 new keys written and the script's loop %s against the 300 ms target (%s);", ms(sets), belowOrAbove(sets, 300))
	}
	if rt > 0 {
		p(" the round trip's two scripts and its data work %s against the %.0f µs target (%s);", us(rt), rtTarget, belowOrAbove(rt, rtTarget))
	}
	p(" each the sum of two medians.\n")
}

func belowOrAbove(floor, target float64) string {
	if floor > target {
		return "**the floor is above the target**"
	}
	return fmt.Sprintf("%.0f%% of it", 100*floor/target)
}

// cell prints a row's median on a platform in its unit, with the runs that
// failed, or "not measured".
func (f *floorsRun) cell(platform, key string) string {
	m, ok := f.floor(platform, key)
	var r floorRow
	if f != nil {
		r = f.rows[platform][key]
	}
	text := "not measured"
	if ok {
		text = num(m) + " " + r.Unit
	}
	if len(r.Errors) > 0 {
		text += fmt.Sprintf(" (%d run(s) stopped: `%s`)", len(r.Errors), mdEscape(shortError(r.Errors[0])))
	}
	return text
}

// floorLine is one row of a floors table: its medians natively and in wasm
// (0 when not measured), and how it prints them.
type floorLine struct {
	label, what  string
	native, wasm float64
	cells        [2]string // native, wasm; computed from the medians when empty
	target       bool      // the target's verdict goes in the last column
}

// floorTable prints one floors table: each row's medians, wasm against
// native, and the wasm median's share of the target.
func floorTable(p printer, lines []floorLine, target float64, unit string) {
	p("| | what it runs | native | wasm | wasm vs native | wasm, share of the %s %s target |\n|---|---|---:|---:|---:|---|\n", num(target), unit)
	for _, l := range lines {
		cells := l.cells
		for i, v := range []float64{l.native, l.wasm} {
			if cells[i] == "" {
				cells[i] = "not measured"
				if v > 0 {
					cells[i] = num(v) + " " + unit
				}
			}
		}
		share := "—"
		if l.wasm > 0 {
			share = fmt.Sprintf("%.0f%%", 100*l.wasm/target)
			if l.target {
				share += fmt.Sprintf(": ≤ %s %s **%s**", num(target), unit, metOrNot(l.wasm <= target))
			}
		}
		vs := "—"
		if l.native > 0 && l.wasm > 0 {
			vs = ratio(l.wasm, l.native)
		}
		p("| %s | %s | %s | %s | %s | %s |\n", l.label, l.what, cells[0], cells[1], vs, share)
	}
	p("\n")
}

// floorsSection prints the floors under the two unmet targets, beside the
// targets table of the depth phase.
func (r *report) floorsSection(p printer) {
	f := r.floors
	if f == nil {
		return
	}
	row := func(label, key, what string) floorLine {
		l := floorLine{label: label, what: what}
		l.native, _ = f.floor("native", key)
		l.wasm, _ = f.floor("wasm", key)
		l.cells = [2]string{f.cell("native", key), f.cell("wasm", key)}
		return l
	}
	p("### What the dependencies allow\n\n")
	p("The floors under two of the targets above, one script of 100,000 `SET`s and the round trip at depth 10: the parts of those figures measured with nothing of ours in between, miniredis, gopher-lua and Go alone, then the engine with part of the work left out. `bench/depfloor` measures them after the depth phase (%.0f s for this part), the same program in wasm under Node (at the module's GOGC, %d) and natively, one after the other. Every row checks its result after the clock stops.\n\n", f.elapsed.Seconds(), api.GCPercent)

	p("**One script of 100,000 `SET`s.** The median of %d runs of each row, each run on an empty store after a collection, after one untimed run of every row (wasm memory grows once, slowly, and the first run would pay it); the rows take turns run by run. The keys are the script's, `many:1` to `many:100000`.\n\n", f.runs)
	a, b := row("(a) miniredis alone", "miniredis-set", "`db.Set` of the 100,000 new keys (built beforehand) on miniredis's direct API: no Lua, no command parsed"),
		row("(b) gopher-lua alone", "glua-loop", "the script's loop and key building, `for i = 1, tonumber(ARGV[1]) do local k = KEYS[1] .. i end`, in a stock `glua.NewState()`: no engine, no `redis.call`")
	whole := floorLine{label: "(e) the whole script, as in the targets table", what: "natively over `api.Call`; in wasm through the JS API (`bench/depth_bench.mjs`)", target: true}
	if d := r.depth; d != nil {
		whole.native, _ = timedMedian(d.results["native"].ManySets)
		whole.wasm, _ = timedMedian(d.results["wasm"].ManySets)
		whole.cells = [2]string{timedText(d.results["native"].ManySets), timedText(d.results["wasm"].ManySets)}
	}
	sets := []floorLine{
		row("Go alone", "go-map", "the 100,000 new keys (built beforehand) into a `map[string]string`: one map insert each, what any store pays at least"),
		a, b,
		{label: "**(a) + (b)**", what: "the store and the VM with nothing of ours between them: the sum of the two medians", native: f.sumOf("native", "miniredis-set", "glua-loop"), wasm: f.sumOf("wasm", "miniredis-set", "glua-loop"), target: true},
		row("(c) the engine, no `redis.call`", "engine-loop", "(b)'s loop through the engine's `EVAL`"),
		row("(d) the engine, `redis.call('EXISTS', key)`", "engine-exists", "the loop calling `redis.call('EXISTS', KEYS[1] .. i)`: 100,000 calls into miniredis and back, no store write"),
		row("(e) the engine, the whole script", "engine-sets", "`redis.call('SET', KEYS[1] .. i, 'v')`, through `EVAL`, in the same process as (a) to (d)"),
		whole,
	}
	floorTable(p, sets, 300, "ms")
	if ab := sets[3].wasm; ab > 0 {
		p("In wasm, miniredis's own writes and gopher-lua's own loop alone take %s against the 300 ms target: ", ms(ab))
		if ab > 300 {
			p("**the target lies below what the two dependencies allow**, by %s, before anything of ours runs.", ms(ab-300))
		} else {
			p("%s of the target is left for everything between them.", ms(300-ab))
		}
		if c, d, e := sets[4].wasm, sets[5].wasm, sets[6].wasm; c > 0 && d > 0 && e > 0 {
			p(" Of the engine's whole script (%s in this process): its way into the VM and out costs (c) − (b) = %s, the 100,000 `redis.call`s without a write (d) − (c) = %s, and the writes (e) − (d) = %s, where miniredis's own `Set` takes %s.", ms(e), signedMs(c-b.wasm), signedMs(d-c), signedMs(e-d), ms(a.wasm))
		}
		p("\n\n")
	}

	p("**The enqueue+claim round trip at depth 10.** The median per sample (one enqueue, then one claim), in µs: each row sampled for %v (at most %s samples) in four slices, taking turns with the other, after %d untimed samples.\n\n", f.budget, thousands(f.samples), floorsWarmup)
	la, lb := row("(a) gopher-lua alone", "glua-protocol", "`@enqueue` then `@claim` in a stock `glua.NewState()` (compiled once, `KEYS` and `ARGV` built per call), a stub `redis.call` answering each command with a canned reply and storing nothing"),
		row("(b) miniredis alone", "miniredis-protocol", "the round trip's data work on miniredis's direct API, 10 jobs pending: `EXISTS`, `HSET`, `ZADD`; `EXISTS` of the pause flag, the oldest id taken as `ZPOPMIN` takes it (`ZMembers` sorts the set, then `ZRem`), `HGET`, `HINCRBY`, `HSET`, `ZADD` into the active set")
	rts := []floorLine{
		la, lb,
		{label: "**(a) + (b)**", what: "the VM and the store with nothing of ours between them: the sum of the two medians", native: f.sumOf("native", "glua-protocol", "miniredis-protocol"), wasm: f.sumOf("wasm", "glua-protocol", "miniredis-protocol"), target: true},
		{label: "(c) the engine alone", what: "`emq.Jobs` over `engine.New()`, in the latency rounds (`bench/inwasm`; natively in this process)", native: r.rtMedian(keyNative, 10), wasm: r.rtMedian(keyWasmEngine, 10)},
		{label: "the JS API", what: "the target's figure, in the latency rounds: natively `api.Call` + `api.MarshalJSON`; in wasm through the bridge", native: r.rtMedian(keyNativeAPI, 10), wasm: r.rtMedian(keyWasm, 10), target: true},
	}
	floorTable(p, rts, rtTarget, "µs")
	if ab := rts[2].wasm; ab > 0 {
		p("In wasm, the two scripts in gopher-lua and their data work in miniredis take %s against the %.0f µs target", us(ab), rtTarget)
		if ab > rtTarget {
			p(": **the target lies below what the two dependencies allow**.")
		} else {
			p(", %s of it left for everything between them", us(rtTarget-ab))
			if c := rts[3].wasm; c > 0 {
				if c >= ab {
					p("; the engine alone takes %s, %s over the two", us(c), us(c-ab))
				} else {
					p("; the engine alone takes %s, %s under the two (its own sorted-set index and direct paths do less than stock gopher-lua and miniredis's direct API do together)", us(c), us(ab-c))
				}
			}
			p(".")
		}
		p("\n\n")
	}
	for _, n := range f.notes {
		p("- %s\n", n)
	}
	if len(f.notes) > 0 {
		p("\n")
	}
}

// signedMs is ms for a difference, which may be below zero: a minus sign
// of its own, and no "-0 ms" for a difference that rounds to nothing.
func signedMs(v float64) string {
	if math.Round(v) < 0 {
		return "−" + ms(-v)
	}
	return ms(math.Max(v, 0))
}
