// Package suite runs Redis 7.0.15's own test suite against a server on a
// loopback port, in the suite's external mode, and reads what it reports
// test by test. It is how the playground measures its engine against
// Redis: the same units run against a real redis-server, against the
// engine natively (internal/listen) and against the shipped WebAssembly
// module under Node (wasm/listen.mjs), and the engine must keep passing
// every test it passed before (TestSuite, from ./build.sh test).
//
//	go test ./internal/suite -suite                      # the engine, natively, held to the record
//	go test ./internal/suite -suite -targets redis,native,wasm -update
//	                                                     # everything, and rewrite the record
//	go test ./internal/suite -suite -units type/list -log DIR -triage FILE
//	                                                     # one unit, keeping its output and a triage
//
// The suite is reference data outside the repository (Dir says where it is
// looked for) and is never copied into it. Its runner reads and writes
// paths under the directory it runs in (tests/..., tests/tmp), so each run
// gets a directory of its own whose tests/ links to the suite's parts (see
// Farm): runs do not share a tests/tmp, and the suite may be read-only.
//
// A run is bounded: a listener says when a request has not finished in
// Stall (the engine is stuck in a command), and the test then in progress
// is counted as hung; the suite's own --timeout catches a test waiting for
// a reply that never comes. Either way the unit runs again, on a fresh
// server, without that test (Runner.Unit), and a whole unit has a bound.
package suite

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Units are the suite's units that cover what a learner can reach, in the
// suite's own order of them.
var Units = []string{
	"dump", "keyspace", "scan", "info-command",
	"type/string", "type/incr", "type/list", "type/set", "type/zset", "type/hash",
	"type/stream", "type/stream-cgroups",
	"expire", "multi", "scripting", "functions", "introspection",
	"bitops", "bitfield", "geo", "hyperloglog",
}

// DefaultDir is where the suite is on the team's machines: beside the
// checkout, in the shared folder the team keeps reference data in.
const DefaultDir = "/work/shared/redis-7.0.15-tests"

// DirEnv names the environment variable that says where the suite is
// instead: the directory holding its runtest and tests/.
const DirEnv = "ECHOMQ_REDIS_TESTS"

// Dir is the suite's directory: $ECHOMQ_REDIS_TESTS, or else the first of
// ../shared/redis-7.0.15-tests beside the checkout (root is the
// checkout's top) and DefaultDir that holds tests/test_helper.tcl. It
// fails when none does.
func Dir(root string) (string, error) {
	candidates := []string{filepath.Join(root, "..", "shared", "redis-7.0.15-tests"), DefaultDir}
	if dir := os.Getenv(DirEnv); dir != "" {
		candidates = []string{dir}
	}
	for _, dir := range candidates {
		if _, err := os.Stat(filepath.Join(dir, "tests", "test_helper.tcl")); err == nil {
			return dir, nil
		}
	}
	return "", fmt.Errorf("Redis 7.0.15's test suite is at none of %s (set %s to the directory holding its tests/)", strings.Join(candidates, ", "), DirEnv)
}

// Farm is a directory to run the suite in: tests/ holds a link to each of
// the suite's files and folders, and a tmp/ of its own.
type Farm struct{ Dir string }

// NewFarm makes a farm for the suite at suiteDir, in a new temporary
// directory that Close removes.
func NewFarm(suiteDir string) (*Farm, error) {
	dir, err := os.MkdirTemp("", "redis-suite-")
	if err != nil {
		return nil, err
	}
	f := &Farm{Dir: dir}
	tests := filepath.Join(dir, "tests")
	entries, err := os.ReadDir(filepath.Join(suiteDir, "tests"))
	if err == nil {
		err = os.Mkdir(tests, 0o755)
	}
	for _, e := range entries {
		if err != nil {
			break
		}
		if e.Name() == "tmp" {
			continue
		}
		err = os.Symlink(filepath.Join(suiteDir, "tests", e.Name()), filepath.Join(tests, e.Name()))
	}
	if err == nil {
		err = os.Mkdir(filepath.Join(tests, "tmp"), 0o755)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("suite: preparing a directory to run it in: %w", err)
	}
	return f, nil
}

// Close removes the farm.
func (f *Farm) Close() error { return os.RemoveAll(f.Dir) }

// Mode are the suite's options for a run against a server it did not
// start, as its README gives them: one database (no SELECT), errors
// outside assertions counted as failures and the run carrying on, no
// checks of Redis's internal encodings or of DEBUG DIGEST, no test that
// needs DEBUG, one test client.
var Mode = []string{"--singledb", "--durable", "--ignore-encoding", "--ignore-digest", "--tags", "-needs:debug", "--clients", "1"}

// Runner runs units against a target, each attempt at a unit against a
// server of its own.
type Runner struct {
	Farm   *Farm
	Target Target
	// Skip are the tests to skip, by name or /regexp (the skip file's
	// patterns); nil for a run against Redis.
	Skip []string
	// Hang is how long a test may run without reporting before the run
	// counts it as hung: the suite's own --timeout, which ends the unit.
	// (A listener that says it stalled ends it sooner.)
	Hang time.Duration
	// Bound is the most a unit may take in all, its reruns included; past
	// it the run is stopped and what was reported is kept.
	Bound time.Duration
	// Log, when set, gets the suite's raw output.
	Log io.Writer
}

// maxHangs bounds how many times a unit is run again without a test
// that hung.
const maxHangs = 8

// Unit runs one unit (as Units names it). A test that hangs is run no
// more: the unit runs again from its start, on a fresh server, with that
// test skipped, and the test is reported as a Timeout. The error is for a
// run that could not be made at all (no tclsh, a server that would not
// start); a unit that stopped early is a result, with Stopped saying why.
func (r *Runner) Unit(ctx context.Context, unit string) (UnitResult, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, r.Bound)
	defer cancel()
	var hung []hang
	for taken := 0; ; {
		res, h, err := r.once(ctx, unit, hung)
		res.Seconds = time.Since(start).Seconds()
		if err == errPortTaken && taken < 3 {
			taken++
			continue
		}
		if err != nil {
			return res, err
		}
		if h.test == "" || len(hung) == maxHangs || ctx.Err() != nil {
			markHung(&res, hung)
			if h.test != "" && ctx.Err() == nil {
				res.Stopped = append(res.Stopped, fmt.Sprintf("the unit stopped: %q %s, and %d tests had hung already", h.test, h.why, len(hung)))
			}
			if ctx.Err() != nil {
				res.Stopped = append(res.Stopped, fmt.Sprintf("the unit stopped: the run was cut off after %v", r.Bound))
			}
			return res, nil
		}
		hung = append(hung, h)
	}
}

// errPortTaken is a run whose test server could not listen: another run
// took its port between the check and the bind. It is tried again.
var errPortTaken = errors.New("suite: the test server's port was taken")

// hang is a test that hung, and how the run knew.
type hang struct{ test, why string }

// markHung turns the skips of tests that hung into timeouts.
func markHung(res *UnitResult, hung []hang) {
	for i, t := range res.Tests {
		if t.Outcome != Skipped {
			continue
		}
		for _, h := range hung {
			if baseName(t.Name) == h.test {
				res.Tests[i].Outcome = Timeout
				res.Tests[i].Detail = h.why + ": the unit was run again without it"
			}
		}
	}
}

// baseName is a test's name less the " #2" that tells it from an earlier
// test of the same name.
func baseName(name string) string {
	if i := strings.LastIndex(name, " #"); i > 0 {
		if _, err := strconv.Atoi(name[i+2:]); err == nil {
			return name[:i]
		}
	}
	return name
}

// once runs the unit once on a fresh server, with the tests that hung
// before skipped. It returns the test that hung this time, if one did.
func (r *Runner) once(ctx context.Context, unit string, hung []hang) (UnitResult, hang, error) {
	srv, err := r.Target.Start()
	if err != nil {
		return UnitResult{Unit: unit}, hang{}, err
	}
	defer srv.Stop()
	host, port, ok := strings.Cut(srv.Addr, ":")
	if !ok {
		return UnitResult{Unit: unit}, hang{}, fmt.Errorf("suite: address %q has no port", srv.Addr)
	}
	args := []string{"tests/test_helper.tcl", "--host", host, "--port", port}
	args = append(args, Mode...)
	// The test server listens on a port of its own below --baseport; a
	// random one keeps concurrent runs off each other's.
	args = append(args, "--baseport", strconv.Itoa(20000+64*rand.IntN(150)))
	args = append(args, "--timeout", strconv.Itoa(int(r.Hang.Seconds())))
	if len(r.Skip) > 0 {
		path := filepath.Join(r.Farm.Dir, "skipfile")
		if err := os.WriteFile(path, []byte(strings.Join(r.Skip, "\n")+"\n"), 0o644); err != nil {
			return UnitResult{Unit: unit}, hang{}, err
		}
		args = append(args, "--skipfile", path)
	}
	for _, h := range hung {
		args = append(args, "--skiptest", h.test)
	}
	args = append(args, "--single", "unit/"+unit)

	cmd := exec.Command("tclsh", args...)
	cmd.Dir = r.Farm.Dir
	cmd.Env = append(os.Environ(), "TERM=dumb")
	cmd.SysProcAttr = groupAttr()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return UnitResult{Unit: unit}, hang{}, err
	}
	if err := cmd.Start(); err != nil {
		return UnitResult{Unit: unit}, hang{}, fmt.Errorf("suite: starting tclsh (apt-get install tcl): %w", err)
	}
	// The suite's test server starts its test client in the background:
	// the whole process group goes when the run is over or cut off.
	var once sync.Once
	kill := func() { once.Do(func() { killGroup(cmd.Process.Pid) }) }
	stop := context.AfterFunc(ctx, kill)
	defer stop()

	lines := make(chan string)
	go func() {
		defer close(lines)
		var src io.Reader = out
		if r.Log != nil {
			src = io.TeeReader(out, r.Log)
		}
		sc := bufio.NewScanner(src)
		sc.Buffer(make([]byte, 64<<10), 16<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	p := newParser(unit)
	stalled := srv.Stalled
	var stuck hang
	// Once the server stalled and was stopped, the next test reported is
	// the one that hung: awaiting holds how many units stops there were
	// then, or -1.
	awaiting := -1
read:
	for {
		select {
		case text, ok := <-lines:
			if !ok {
				break read
			}
			isTest := p.line(text)
			switch {
			case awaiting < 0:
			case isTest:
				stuck = hang{test: baseName(p.last), why: fmt.Sprintf("the engine answered nothing for %v", Stall)}
				kill()
				awaiting = -1
			case len(p.res.Stopped) > awaiting:
				p.res.Stopped = append(p.res.Stopped, fmt.Sprintf("the unit stopped: the engine answered nothing for %v, outside any test", Stall))
				kill()
				awaiting = -1
			}
		case <-stalled:
			// The engine is stuck in a command: stop it, and the test
			// waiting for the reply fails at once, by name.
			stalled = nil
			srv.Stop()
			awaiting = len(p.res.Stopped)
		}
	}
	waitErr := cmd.Wait()
	kill()
	res, timedOut := p.result()
	if timedOut != "" && stuck.test == "" {
		stuck = hang{test: timedOut, why: fmt.Sprintf("no test reported for %v", r.Hang)}
	}
	if stuck.test != "" {
		// Drop what the dead server made of the tests after the hung one.
		for i, t := range res.Tests {
			if baseName(t.Name) == stuck.test {
				res.Tests = res.Tests[:i]
				break
			}
		}
	}
	if len(res.Tests) == 0 && len(res.Stopped) == 0 && ctx.Err() == nil && stuck.test == "" {
		var exit *exec.ExitError
		if waitErr != nil && !errors.As(waitErr, &exit) {
			return res, hang{}, waitErr
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = p.first
		}
		if strings.Contains(msg, "address already in use") {
			// The test server lost the race for its own port.
			return res, hang{}, errPortTaken
		}
		if msg != "" {
			res.Stopped = append(res.Stopped, "the unit stopped: "+firstLine(msg))
		}
	}
	return res, stuck, nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
