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

// chatter matches the lines the test server prints on every run.
var chatter = regexp.MustCompile(`^(\*\* SLOW COMPUTER|Cleanup: |Starting test server|\[ready\]: |Testing |\s*$)`)

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

// parser reads the test server's output for one unit, a line at a time.
type parser struct {
	res    UnitResult
	suffix string         // " in tests/unit/<unit>.tcl", after a failed test's name
	seen   map[string]int // names so far, for the " #2" of the next of a name
	// A failure's message is on the lines after its status line: open is
	// the test it belongs to, or stop the Stopped entry.
	open    *Test
	stop    int
	details []string
	timeout bool   // the suite's own timeout fired
	hung    string // the test it found in progress
	last    string // the name of the test reported last
	first   string // the first line of output that is not the suite's chatter
}

func newParser(unit string) *parser {
	return &parser{res: UnitResult{Unit: unit}, suffix: " in tests/unit/" + unit + ".tcl", seen: map[string]int{}, stop: -1}
}

// parse reads a whole output.
func parse(unit string, r io.Reader) (UnitResult, string) {
	p := newParser(unit)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		p.line(sc.Text())
	}
	return p.result()
}

// result is the unit's result so far, and the test the suite's timeout
// found in progress, if it fired.
func (p *parser) result() (UnitResult, string) {
	p.closeOpen()
	return p.res, p.hung
}

// name is the name of the next test called n: " #k" after the kth.
func (p *parser) name(n string) string {
	p.seen[n]++
	if k := p.seen[n]; k > 1 {
		return n + " #" + strconv.Itoa(k)
	}
	return n
}

// closeOpen ends the failure whose message is being read. The message of
// a failed assertion may run over lines (a multi-line value): they are
// joined. An error that was not an assertion has Tcl's trace after its
// message, and the suite cuts the first ten bytes off the message itself
// (it expects "assertion:"), so the trace's first line, the whole error,
// is what Detail says.
func (p *parser) closeOpen() {
	if p.open == nil && p.stop < 0 {
		return
	}
	msg, trace := []string{}, -1
	for i, d := range p.details {
		if strings.HasPrefix(d, "    while executing") || strings.HasPrefix(d, "    invoked from within") {
			trace = i
			break
		}
	}
	lines := p.details
	if trace >= 0 {
		lines = lines[:trace]
	}
	for _, d := range lines {
		if t := strings.TrimSpace(d); t != "" {
			msg = append(msg, t)
		}
	}
	// With a trace, the message is there twice: cut, then whole.
	if trace >= 0 && len(msg) >= 2 {
		msg = msg[len(msg)/2:]
	}
	first := clip(strings.Join(msg, " ⏎ "), 400)
	if p.open != nil {
		if trace >= 0 {
			p.open.Outcome = Exception
		}
		p.open.Detail = first
		p.res.Tests = append(p.res.Tests, *p.open)
	} else {
		p.res.Stopped[p.stop] += first
	}
	p.open, p.stop, p.details = nil, -1, nil
}

// line reads one line of output. It reports whether the line was a test's
// status (one more test reported).
func (p *parser) line(text string) bool {
	text = ansi.ReplaceAllString(text, "")
	m := status.FindStringSubmatch(text)
	if m == nil && p.first == "" && !chatter.MatchString(text) {
		p.first = text
	}
	if m == nil {
		if p.timeout {
			if h := inProgress.FindStringSubmatch(text); h != nil {
				p.hung = h[1]
			}
		}
		if strings.HasPrefix(text, "Testing ") || strings.HasPrefix(text, "[") && strings.Contains(text, " done]: ") {
			p.closeOpen()
		} else if p.open != nil || p.stop >= 0 {
			p.details = append(p.details, text)
		}
		return false
	}
	p.closeOpen()
	kind, rest := m[1], m[2]
	switch kind {
	case "ok":
		p.last = p.name(okElapsed.ReplaceAllString(rest, ""))
		p.res.Tests = append(p.res.Tests, Test{Name: p.last, Outcome: OK})
	case "skip":
		p.last = p.name(rest)
		p.res.Tests = append(p.res.Tests, Test{Name: p.last, Outcome: Skipped})
	case "ignore":
		// A block its tags leave out names no test; skip it.
		n, why, ok := ignored(rest)
		if !ok {
			return false
		}
		p.last = p.name(n)
		p.res.Tests = append(p.res.Tests, Test{Name: p.last, Outcome: Ignored, Detail: why})
	case "err":
		if n, ok := strings.CutSuffix(rest, p.suffix); ok {
			p.last = p.name(n)
			p.open = &Test{Name: p.last, Outcome: Err}
		} else {
			// An error outside any test: the suite gave up the rest of
			// the block it was in, and says so with the error itself.
			p.res.Stopped = append(p.res.Stopped, "a block of tests stopped: ")
			p.stop = len(p.res.Stopped) - 1
			p.details = []string{rest}
			return false
		}
	case "exception":
		p.res.Stopped = append(p.res.Stopped, "the unit stopped: ")
		p.stop = len(p.res.Stopped) - 1
		p.details = []string{strings.TrimPrefix(rest, "Executing test client: ")}
		return false
	case "TIMEOUT":
		p.timeout = true
		return false
	}
	return true
}
