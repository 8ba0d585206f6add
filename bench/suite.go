package main

import (
	"fmt"

	"echomq.dev/playground/internal/suite"
)

// suiteSection prints the per-unit counts of Redis's own test suite from
// its committed record (internal/suite), as FIDELITY.md does: the bench
// does not run the suite (it takes minutes; ./build.sh test and
// `go test ./internal/suite -suite -update` do), it carries its record
// beside the speeds, so one report says how fast and how faithful.
func (r *report) suiteSection(p printer) {
	p("## Redis's own test suite\n\n")
	rec, err := suite.ReadRecord(r.cfg.root)
	if err != nil {
		p("The record could not be read: %v\n\n", err)
		return
	}
	sums := rec.Summarize()
	if len(sums) == 0 {
		p("The record is empty: `go test ./internal/suite -suite -update -targets redis,native,wasm` writes it.\n\n")
		return
	}
	p("From the committed record of the last run (`%s`, see FIDELITY.md): the tests of each unit that pass on a real redis-server 7.0.15 in the suite's external mode, and how many of those the engine passes, built for the host and as the shipped wasm module under Node. The share leaves the skipped tests out (they cannot apply to the playground; FIDELITY.md lists them with why, and gives the share with them counted as not passing too); the goal is %.0f%% in every unit.\n\n", suite.RecordDir, suite.Goal*100)
	p("| unit | Redis | skipped | native | share | wasm | share |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range sums {
		p("| `%s` | %d | %d | %s | %s | %s | %s |\n", s.Unit, s.Redis, s.Skipped,
			suiteCount(s, "native"), suiteShare(s, "native"), suiteCount(s, "wasm"), suiteShare(s, "wasm"))
	}
	p("\n")
}

func suiteCount(s suite.UnitSummary, target string) string {
	if !s.Recorded[target] {
		return "not run"
	}
	return fmt.Sprint(s.Passed[target])
}

func suiteShare(s suite.UnitSummary, target string) string {
	if !s.Recorded[target] {
		return "—"
	}
	return fmt.Sprintf("%.1f%%", 100*s.RatioRun(target))
}
