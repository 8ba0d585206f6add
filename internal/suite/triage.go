package suite

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Triage writes a run's failures on the engine as Markdown, for the
// engineers who fix them: for each unit, the tests that pass on Redis (by
// the record, or by this run's Redis results when it has them) and not on
// the engine, grouped by the first line of their failure, and why a unit
// stopped early.
func Triage(runs map[string][]UnitResult, rec *Record) string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	redis := map[string][]string{}
	for unit, names := range rec.Passing["redis"] {
		redis[unit] = names
	}
	for _, u := range runs["redis"] {
		redis[u.Unit] = u.Passed()
	}
	for _, target := range Targets[1:] {
		results, ok := runs[target]
		if !ok {
			continue
		}
		p("# The engine (%s) against Redis's own suite\n\n", target)
		p("| Unit | Redis | Skipped | Engine | Failing | Share, skips left out | Share | Seconds |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, u := range results {
			sum := unitCounts(u, redis[u.Unit], rec.Skips)
			p("| `%s` | %d | %d | %d | %d | %.1f%% | %.1f%% | %.0f |\n", u.Unit, sum.redis, sum.skipped, sum.passed, len(sum.failing), sum.shareRun(), sum.share(), u.Seconds)
		}
		p("\n")
		for _, u := range results {
			sum := unitCounts(u, redis[u.Unit], rec.Skips)
			p("## `%s` (%s): %d of %d pass, %d fail\n\n", u.Unit, target, sum.passed, sum.redis, len(sum.failing))
			for _, st := range u.Stopped {
				p("- **%s**\n", clip(st, 400))
			}
			if len(u.Stopped) > 0 {
				p("\n")
			}
			groups := map[string][]Test{}
			var order []string
			for _, t := range sum.failing {
				key := string(t.Outcome) + ": " + normalize(t.Detail)
				if _, ok := groups[key]; !ok {
					order = append(order, key)
				}
				groups[key] = append(groups[key], t)
			}
			slices.SortStableFunc(order, func(a, b string) int { return len(groups[b]) - len(groups[a]) })
			for _, key := range order {
				g := groups[key]
				p("- %d × `%s`\n", len(g), clip(strings.ReplaceAll(g[0].Detail, "`", "'"), 300))
				for _, t := range g {
					p("  - %s (%s)\n", t.Name, t.Outcome)
				}
			}
			p("\n")
		}
	}
	return b.String()
}

type counts struct {
	redis, passed, skipped int
	failing                []Test
}

func (c counts) shareRun() float64 {
	if c.redis == c.skipped {
		return 100
	}
	return 100 * float64(c.passed) / float64(c.redis-c.skipped)
}

func (c counts) share() float64 {
	if c.redis == 0 {
		return 100
	}
	return 100 * float64(c.passed) / float64(c.redis)
}

// unitCounts measures u against the tests that pass on Redis.
func unitCounts(u UnitResult, redis []string, skips []Skip) counts {
	c := counts{redis: len(redis)}
	got := map[string]Test{}
	for _, t := range u.Tests {
		got[t.Name] = t
	}
	for _, name := range redis {
		t, ok := got[name]
		_, named := skipFor(skips, name)
		switch {
		case named || t.Outcome == Skipped:
			c.skipped++
		case !ok:
			c.failing = append(c.failing, Test{Name: name, Outcome: NotRun, Detail: "never reported: its block or its unit stopped before it"})
		case t.Outcome.Passed():
			c.passed++
		default:
			c.failing = append(c.failing, t)
		}
	}
	return c
}

// normalize takes the parts of a failure's first line that differ from
// test to test of one cause (numbers, where in the test file it failed)
// out, so that those failures group together.
var (
	numbers     = regexp.MustCompile(`\d+`)
	contextNote = regexp.MustCompile(`\(context: .*$`)
)

func normalize(s string) string {
	s = contextNote.ReplaceAllString(s, "")
	return numbers.ReplaceAllString(s, "N")
}

// clip cuts s to about n bytes, on a character's boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
