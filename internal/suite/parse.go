package suite

import (
	"bufio"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// Outcome is what became of one test in a run.
type Outcome string

const (
	OK        Outcome = "ok"        // it passed
	Err       Outcome = "err"       // an assertion failed
	Exception Outcome = "exception" // it raised an error (a reply it did not expect to be one, a broken connection)
	Skipped   Outcome = "skipped"   // the skip file named it
	Ignored   Outcome = "ignored"   // its tags left it out of this mode (external:skip, needs:debug...)
	Timeout   Outcome = "timeout"   // it made no progress within the bound, and the unit was run again without it
	NotRun    Outcome = "not run"   // it ran on Redis but never reported here: its block or its unit stopped before it
)

// Passed reports whether o is a pass.
func (o Outcome) Passed() bool { return o == OK }

// Test is one test of a unit and its outcome.
type Test struct {
	// Name is the test's name as the suite prints it, with " #2", " #3"...
	// after the second and later tests of the same name in a unit (the
	// suite runs some tests once per encoding, or once as EVAL and once
	// as FCALL, under one name).
	Name    string
	Outcome Outcome
	// Detail is the first line of the failure (an err, an exception, a
	// timeout), or why the test was ignored.
	Detail string
}

// UnitResult is one unit's run.
type UnitResult struct {
	Unit  string // "type/list", as the suite names it less "unit/"
	Tests []Test
	// Stopped is set when the unit stopped before its end, with the first
	// line of why: an error outside any test that the suite could not
	// carry on from ("exception" in its output), the bound on the run, or
	// a block of tests abandoned after an error outside its tests.
	Stopped []string
	Seconds float64 // how long it ran, wall clock
}

// Passed returns the names of the tests that passed.
func (u UnitResult) Passed() []string {
	var out []string
	for _, t := range u.Tests {
		if t.Outcome.Passed() {
			out = append(out, t.Name)
		}
	}
	return out
}

// ansi matches the colour codes the suite prints when TERM names an xterm
// (the runner sets TERM=dumb, but a log pasted from a terminal has them).
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// status matches a line that reports a test: "[ok]: NAME (12 ms)",
// "[err]: NAME in tests/unit/x.tcl", "[skip]: NAME", "[ignore]: NAME:
// why", "[exception]: ...". The TIMEOUT report names the test that was
// running as "sockNN => (IN PROGRESS) NAME".
var (
	status     = regexp.MustCompile(`^\[(ok|err|skip|ignore|exception|TIMEOUT)\]: (.*)$`)
	okElapsed  = regexp.MustCompile(` \(\d+ ms\)$`)
	inProgress = regexp.MustCompile(`^\S+ => \(IN PROGRESS\) (.*)$`)
)

// ignoreReasons are the reasons the suite gives for a test its tags leave
// out ("NAME: reason"); an ignore line without one of them is a whole
// block left out, which names no test.
var ignoreReasons = []string{
	"Not supported on external server",
	"Not supported on singledb",
	"Not supported in cluster mode",
	"Not supported in tls mode",
	"large memory flag not provided",
}

// ignored splits an ignore line's "NAME: reason"; ok is false for a line
// with a reason and no name (a whole block left out).
func ignored(text string) (name, why string, ok bool) {
	for _, why := range ignoreReasons {
		if n, ok := strings.CutSuffix(text, ": "+why); ok {
			return n, why, true
		}
	}
	if i := strings.LastIndex(text, ": Tag: "); i >= 0 {
		return text[:i], text[i+2:], true
	}
	return "", "", false
}

// parse reads the test server's output for one unit. It also returns the
// test that was in progress when the suite's own timeout fired, if it did.
func parse(unit string, r io.Reader) (res UnitResult, hung string) {
	res.Unit = unit
	suffix := " in tests/unit/" + unit + ".tcl"
	seen := map[string]int{}
	name := func(n string) string {
		seen[n]++
		if k := seen[n]; k > 1 {
			return n + " #" + strconv.Itoa(k)
		}
		return n
	}
	// A failure's message is on the lines after its status line.
	var open *Test
	var openStop int = -1
	var details []string
	closeOpen := func() {
		if open == nil && openStop < 0 {
			return
		}
		first := ""
		for _, d := range details {
			if d = strings.TrimSpace(d); d != "" {
				first = d
				break
			}
		}
		trace := false
		for _, d := range details {
			if strings.HasPrefix(d, "    while executing") || strings.HasPrefix(d, "    invoked from within") {
				trace = true
				break
			}
		}
		if open != nil {
			if trace {
				open.Outcome = Exception
			}
			open.Detail = first
			res.Tests = append(res.Tests, *open)
		} else {
			res.Stopped[openStop] += first
		}
		open, openStop, details = nil, -1, nil
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	timeout := false
	for sc.Scan() {
		line := ansi.ReplaceAllString(sc.Text(), "")
		m := status.FindStringSubmatch(line)
		if m == nil {
			if timeout {
				if p := inProgress.FindStringSubmatch(line); p != nil {
					hung = p[1]
				}
			}
			if strings.HasPrefix(line, "Testing ") || strings.HasPrefix(line, "[") && strings.Contains(line, " done]: ") {
				closeOpen()
				continue
			}
			if open != nil || openStop >= 0 {
				details = append(details, line)
			}
			continue
		}
		closeOpen()
		kind, text := m[1], m[2]
		switch kind {
		case "ok":
			res.Tests = append(res.Tests, Test{Name: name(okElapsed.ReplaceAllString(text, "")), Outcome: OK})
		case "skip":
			res.Tests = append(res.Tests, Test{Name: name(text), Outcome: Skipped})
		case "ignore":
			// A block its tags leave out names no test; skip it.
			if n, why, ok := ignored(text); ok {
				res.Tests = append(res.Tests, Test{Name: name(n), Outcome: Ignored, Detail: why})
			}
		case "err":
			if n, ok := strings.CutSuffix(text, suffix); ok {
				open = &Test{Name: name(n), Outcome: Err}
			} else {
				// An error outside any test: the suite gave up the rest of
				// the block it was in, and says so with the error itself.
				res.Stopped = append(res.Stopped, "a block of tests stopped: ")
				openStop = len(res.Stopped) - 1
				details = []string{text}
			}
		case "exception":
			res.Stopped = append(res.Stopped, "the unit stopped: ")
			openStop = len(res.Stopped) - 1
			details = []string{strings.TrimPrefix(text, "Executing test client: ")}
		case "TIMEOUT":
			timeout = true
		}
	}
	closeOpen()
	return res, hung
}
