package suite

import (
	"fmt"
	"strings"
)

// Goal is the share of the tests that pass on Redis which the engine is to
// pass, in every unit (issue 22), the tests the skip file names left out:
// they cannot apply to the playground, and the file says why for each.
const Goal = 0.95

// UnitSummary is one unit's counts, from a record.
type UnitSummary struct {
	Unit string
	// Redis is how many tests passed on a real redis-server in this mode:
	// the tests that can pass at all, which the rest is measured against.
	Redis int
	// Skipped is how many of those the skip file names.
	Skipped int
	// Passed is, by engine target ("native", "wasm"), how many of Redis's
	// the engine passed; Extra how many it passed that Redis did not.
	Passed, Extra map[string]int
	// Recorded reports, by engine target, whether the record has the unit.
	Recorded map[string]bool
}

// Ratio is the share of Redis's passes the target passed, the skipped tests
// counted as not passing.
func (u UnitSummary) Ratio(target string) float64 {
	if u.Redis == 0 {
		return 1
	}
	return float64(u.Passed[target]) / float64(u.Redis)
}

// RatioRun is the share of Redis's passes the target passed, the skipped
// tests left out.
func (u UnitSummary) RatioRun(target string) float64 {
	if u.Redis-u.Skipped == 0 {
		return 1
	}
	return float64(u.Passed[target]) / float64(u.Redis-u.Skipped)
}

// Summarize counts each unit of the record.
func (r *Record) Summarize() []UnitSummary {
	var out []UnitSummary
	for _, unit := range sortedUnits(r.Passing["redis"]) {
		s := UnitSummary{Unit: unit, Passed: map[string]int{}, Extra: map[string]int{}, Recorded: map[string]bool{}}
		redis := map[string]bool{}
		for _, name := range r.Passing["redis"][unit] {
			redis[name] = true
			s.Redis++
			if _, ok := skipFor(r.Skips, name); ok {
				s.Skipped++
			}
		}
		for _, target := range Targets[1:] {
			names, ok := r.Passing[target][unit]
			s.Recorded[target] = ok
			for _, name := range names {
				if redis[name] {
					s.Passed[target]++
				} else {
					s.Extra[target]++
				}
			}
		}
		out = append(out, s)
	}
	return out
}

// SkippedTests lists, by unit, the tests that passed on Redis and that the
// skip file names, with the entry's reason.
func (r *Record) SkippedTests() map[string][]Test {
	out := map[string][]Test{}
	for unit, names := range r.Passing["redis"] {
		for _, name := range names {
			if s, ok := skipFor(r.Skips, name); ok {
				out[unit] = append(out[unit], Test{Name: name, Outcome: Skipped, Detail: s.Reason})
			}
		}
	}
	return out
}

// Markdown is the record as FIDELITY.md shows it: a section with a table of
// the units and the list of skipped tests. It depends on nothing but the
// record, so that the document comes out the same from every run of its
// generator.
func (r *Record) Markdown() string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	sums := r.Summarize()
	p("## Redis's own test suite\n\n")
	p("Redis 7.0.15's own test suite (its `tests/`, kept outside the repository) is run unit by unit in its external mode\n")
	p("(`%s`) against three servers, each\n", strings.Join(Mode, " "))
	p("started fresh for the unit: a real `redis-server` 7.0.15, the engine built for the host behind `internal/listen`, and\n")
	p("the engine's WebAssembly module, as the site ships it, behind `wasm/listen.mjs` under Node. The table counts, for each\n")
	p("unit, the tests that pass on Redis in this mode (the ones that can pass at all), and how many of those the engine\n")
	p("passes. The engine skips the tests `internal/suite/skip.txt` names (below, with why): the share is given with them\n")
	p("counted as not passing, and with them left out. The goal is %.0f%% of Redis's in every unit with them left out, since\n", Goal*100)
	p("they cannot apply to the playground.\n\n")
	p("These counts are the committed record of the last run (`internal/suite/testdata`), written by\n")
	p("`go test ./internal/suite -suite -update -targets redis,native,wasm`; `./build.sh test` runs the suite against the\n")
	p("engine and fails when a test on the record fails.\n\n")
	p("| Unit | Redis | Skipped | Engine (native) | Share | Share, skips left out | Engine (wasm) | Share | Share, skips left out |\n")
	p("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	var tot UnitSummary
	tot.Passed, tot.Extra, tot.Recorded = map[string]int{}, map[string]int{}, map[string]bool{"native": true, "wasm": true}
	for _, s := range sums {
		p("| `%s` | %d | %d | %s | %s | %s | %s | %s | %s |\n", s.Unit, s.Redis, s.Skipped,
			count(s, "native"), share(s, "native", s.Ratio), share(s, "native", s.RatioRun),
			count(s, "wasm"), share(s, "wasm", s.Ratio), share(s, "wasm", s.RatioRun))
		tot.Redis += s.Redis
		tot.Skipped += s.Skipped
		for _, t := range Targets[1:] {
			tot.Passed[t] += s.Passed[t]
			tot.Recorded[t] = tot.Recorded[t] && s.Recorded[t]
		}
	}
	p("| **all** | %d | %d | %s | %s | %s | %s | %s | %s |\n\n", tot.Redis, tot.Skipped,
		count(tot, "native"), share(tot, "native", tot.Ratio), share(tot, "native", tot.RatioRun),
		count(tot, "wasm"), share(tot, "wasm", tot.Ratio), share(tot, "wasm", tot.RatioRun))
	for _, target := range Targets[1:] {
		below := []string{}
		for _, s := range sums {
			if s.Recorded[target] && s.RatioRun(target) < Goal {
				below = append(below, "`"+s.Unit+"`")
			}
		}
		if len(below) > 0 {
			p("Below the goal (%s): %s.\n\n", target, strings.Join(below, ", "))
		}
	}
	p("### Skipped tests\n\n")
	p("Each reason, then the tests that pass on Redis and that it skips, by unit (\"#2\" marks the second test of a name\n")
	p("in its unit).\n\n")
	skipped := r.SkippedTests()
	any := false
	for _, reason := range reasons(r.Skips) {
		var lines []string
		for _, unit := range sortedUnits(skipped) {
			var names []string
			for _, t := range skipped[unit] {
				if t.Detail == reason {
					names = append(names, mdText(t.Name))
				}
			}
			if len(names) > 0 {
				lines = append(lines, fmt.Sprintf("  - `%s` (%d): %s", unit, len(names), strings.Join(names, "; ")))
			}
		}
		if len(lines) > 0 {
			any = true
			p("- %s\n%s\n", mdText(reason), strings.Join(lines, "\n"))
		}
	}
	if !any {
		p("None.\n")
	}
	p("\n")
	return b.String()
}

func count(s UnitSummary, target string) string {
	if !s.Recorded[target] {
		return "not run"
	}
	return fmt.Sprint(s.Passed[target])
}

func share(s UnitSummary, target string, ratio func(string) float64) string {
	if !s.Recorded[target] {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*ratio(target))
}

// mdText makes a test's name or a reason safe as Markdown prose.
func mdText(s string) string {
	return strings.NewReplacer("<", "&lt;", ">", "&gt;", "*", "\\*", "_", "\\_", "`", "\\`", "|", "\\|").Replace(s)
}

// reasons are the skip file's reasons, each once, in its order.
func reasons(skips []Skip) []string {
	var out []string
	for _, s := range skips {
		if len(out) == 0 || out[len(out)-1] != s.Reason {
			out = append(out, s.Reason)
		}
	}
	return out
}
