package suite

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// The record: what the last full run found, committed beside this
// package, so that a run can be held to it and the documents (FIDELITY.md,
// the bench report) can say it without running anything.
//
//   - testdata/passing-<target>.txt: the tests that passed against each
//     target, by unit, in the order the suite ran them. The engine's lists
//     are the gate: TestSuite fails when a test on them fails.
//   - skip.txt: the tests the engine is not run on, each with why.

// Targets are the targets a record holds, in the order reports show them.
var Targets = []string{"redis", "native", "wasm"}

// RecordDir is where a record lives, relative to the repository's root.
const RecordDir = "internal/suite/testdata"

// SkipFile is the skip file, relative to the repository's root.
const SkipFile = "internal/suite/skip.txt"

// Record is the committed record of the last run of each target.
type Record struct {
	// Passing is, by target and then by unit, the tests that passed.
	Passing map[string]map[string][]string
	Skips   []Skip
}

// Skip is one entry of the skip file.
type Skip struct {
	Pattern string // a test's name, or /regexp
	Reason  string
}

// Matches reports whether the entry names the test (a name as Test has
// it, with its " #2").
func (s Skip) Matches(test string) bool {
	name := baseName(test)
	if re, ok := strings.CutPrefix(s.Pattern, "/"); ok {
		m, err := regexp.MatchString(re, name)
		return err == nil && m
	}
	return s.Pattern == name
}

// ReadRecord reads the record of the repository at root.
func ReadRecord(root string) (*Record, error) {
	rec := &Record{Passing: map[string]map[string][]string{}}
	for _, target := range Targets {
		units, err := readPassing(filepath.Join(root, RecordDir, "passing-"+target+".txt"))
		if err != nil {
			return nil, err
		}
		rec.Passing[target] = units
	}
	skips, err := ReadSkips(filepath.Join(root, SkipFile))
	if err != nil {
		return nil, err
	}
	rec.Skips = skips
	return rec, nil
}

// A passing list: comment lines (#), then for each unit a line "== unit"
// and the names of its tests that passed, one a line.
func readPassing(path string) (map[string][]string, error) {
	units := map[string][]string{}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return units, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	unit := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "== "):
			unit = strings.TrimPrefix(line, "== ")
			units[unit] = []string{}
		case strings.HasPrefix(line, "#") || line == "":
		case unit == "":
			return nil, fmt.Errorf("%s: %q comes before any unit", path, line)
		default:
			units[unit] = append(units[unit], line)
		}
	}
	return units, sc.Err()
}

// WritePassing writes the passing list of target into the record at root:
// the units of results replace theirs, and the others stay as they were.
func WritePassing(root, target string, results []UnitResult) error {
	path := filepath.Join(root, RecordDir, "passing-"+target+".txt")
	units, err := readPassing(path)
	if err != nil {
		return err
	}
	for _, r := range results {
		units[r.Unit] = r.Passed()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# The tests of Redis 7.0.15's own suite that passed against %s, in its external mode, by unit.\n", describeTarget(target))
	b.WriteString("# Written by go test ./internal/suite -suite -update (see internal/suite); do not edit by hand.\n")
	for _, unit := range sortedUnits(units) {
		fmt.Fprintf(&b, "\n== %s\n", unit)
		for _, name := range units[unit] {
			b.WriteString(name + "\n")
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func describeTarget(target string) string {
	switch target {
	case "redis":
		return "a real redis-server 7.0.15"
	case "native":
		return "the engine built for the host (internal/listen)"
	case "wasm":
		return "the engine's WebAssembly module under Node (wasm/listen.mjs)"
	}
	return target
}

// sortedUnits lists the units of m in the order of Units, then any others
// by name.
func sortedUnits[T any](m map[string]T) []string {
	var out []string
	for _, u := range Units {
		if _, ok := m[u]; ok {
			out = append(out, u)
		}
	}
	var rest []string
	for u := range m {
		if !slices.Contains(Units, u) {
			rest = append(rest, u)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// ReadSkips reads a skip file: each test is a line of its own, its name or
// /regexp as the suite's --skipfile takes them, under the comment that
// says why it is skipped. A comment (one or more # lines) is the reason of
// the tests after it, up to a blank line; a comment that names no test is
// free text.
func ReadSkips(path string) ([]Skip, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var skips []Skip
	reason, inComment := "", false
	for i, line := range strings.Split(string(b), "\n") {
		text, comment := strings.CutPrefix(line, "#")
		if !comment {
			inComment = false
		}
		switch {
		case comment && inComment:
			reason += " " + strings.TrimSpace(text)
		case comment:
			reason, inComment = strings.TrimSpace(text), true
		case strings.TrimSpace(line) == "":
			reason = ""
		case reason == "":
			return nil, fmt.Errorf("%s:%d: %q has no reason in a comment line above it", path, i+1, line)
		default:
			skips = append(skips, Skip{Pattern: line, Reason: reason})
		}
	}
	return skips, nil
}

// Patterns are the skip file's patterns, as the suite's --skipfile takes
// them.
func Patterns(skips []Skip) []string {
	out := make([]string, len(skips))
	for i, s := range skips {
		out[i] = s.Pattern
	}
	return out
}

// skipFor is the entry of skips that names test, if any.
func skipFor(skips []Skip, test string) (Skip, bool) {
	for _, s := range skips {
		if s.Matches(test) {
			return s, true
		}
	}
	return Skip{}, false
}
