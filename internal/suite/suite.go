// Package suite runs Redis 7.0.15's own test suite against a server on a
// loopback port, in the suite's external mode, and reads what it reports
// test by test. It is how the playground measures its engine against
// Redis: the same units run against a real redis-server, against the
// engine natively (internal/listen) and against the shipped WebAssembly
// module under Node (wasm/listen.mjs), and the engine must keep passing
// every test it passed before (TestSuite, from ./build.sh test).
//
// The suite is reference data outside the repository (Dir says where it is
// looked for) and is never copied into it. Its runner reads and writes
// paths under the directory it runs in (tests/..., tests/tmp), so each run
// gets a directory of its own whose tests/ links to the suite's parts (see
// Farm): runs do not share a tests/tmp, and the suite may be read-only.
package suite

import (
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

// DefaultDir is where the suite is on the team's machines and in CI.
const DefaultDir = "/work/shared/redis-7.0.15-tests"

// DirEnv names the environment variable that says where the suite is
// instead: the directory holding its runtest and tests/.
const DirEnv = "ECHOMQ_REDIS_TESTS"

// Dir is the suite's directory: $ECHOMQ_REDIS_TESTS, or DefaultDir. It
// fails when neither holds tests/test_helper.tcl.
func Dir() (string, error) {
	dir := os.Getenv(DirEnv)
	if dir == "" {
		dir = DefaultDir
	}
	if _, err := os.Stat(filepath.Join(dir, "tests", "test_helper.tcl")); err != nil {
		return "", fmt.Errorf("Redis 7.0.15's test suite is not at %s (set %s to the directory holding its tests/): %w", dir, DirEnv, err)
	}
	return dir, nil
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

// Runner runs units against one server.
type Runner struct {
	Farm *Farm
	Addr string // the server's "127.0.0.1:port"
	// Skip are the tests to skip, by name or /regexp (the skip file's
	// patterns); nil for a run against Redis.
	Skip []string
	// Hang is how long a test may run without reporting before the run
	// counts it as hung: the suite's own --timeout, which ends the unit,
	// after which Unit runs the unit again without the hung test.
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
// more: the unit runs again with it skipped, and it is reported as a
// Timeout. The error is for a run that could not be made at all (no
// tclsh); a unit that stopped early is a result, with Stopped saying why.
func (r *Runner) Unit(ctx context.Context, unit string) (UnitResult, error) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, r.Bound)
	defer cancel()
	var hung []string
	for {
		res, h, err := r.once(ctx, unit, hung)
		res.Seconds = time.Since(start).Seconds()
		if err != nil {
			return res, err
		}
		if h == "" || len(hung) == maxHangs || ctx.Err() != nil {
			markHung(&res, hung, r.Hang)
			if h != "" {
				res.Stopped = append(res.Stopped, fmt.Sprintf("the unit stopped: %q made no progress for %v, and %d tests had hung already", h, r.Hang, len(hung)))
			}
			if ctx.Err() != nil {
				res.Stopped = append(res.Stopped, fmt.Sprintf("the unit stopped: the run was cut off after %v", r.Bound))
			}
			return res, nil
		}
		hung = append(hung, h)
	}
}

// markHung turns the skips of tests that hung into timeouts.
func markHung(res *UnitResult, hung []string, after time.Duration) {
	for i, t := range res.Tests {
		if t.Outcome != Skipped {
			continue
		}
		for _, h := range hung {
			if baseName(t.Name) == h {
				res.Tests[i].Outcome = Timeout
				res.Tests[i].Detail = fmt.Sprintf("no reply for %v: the unit was run again without it", after)
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

// once runs the unit once, with the tests in also skipped.
func (r *Runner) once(ctx context.Context, unit string, also []string) (UnitResult, string, error) {
	host, port, ok := strings.Cut(r.Addr, ":")
	if !ok {
		return UnitResult{Unit: unit}, "", fmt.Errorf("suite: address %q has no port", r.Addr)
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
			return UnitResult{Unit: unit}, "", err
		}
		args = append(args, "--skipfile", path)
	}
	for _, name := range also {
		args = append(args, "--skiptest", name)
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
		return UnitResult{Unit: unit}, "", err
	}
	if err := cmd.Start(); err != nil {
		return UnitResult{Unit: unit}, "", fmt.Errorf("suite: starting tclsh (apt-get install tcl): %w", err)
	}
	// The suite's test server starts its test client in the background:
	// the whole process group goes when the run is over or cut off.
	var once sync.Once
	kill := func() { once.Do(func() { killGroup(cmd.Process.Pid) }) }
	stop := context.AfterFunc(ctx, kill)
	defer stop()
	var src io.Reader = out
	if r.Log != nil {
		src = io.TeeReader(out, r.Log)
	}
	res, hung := parse(unit, src)
	waitErr := cmd.Wait()
	kill()
	if len(res.Tests) == 0 && len(res.Stopped) == 0 && ctx.Err() == nil {
		var exit *exec.ExitError
		if waitErr != nil && !errors.As(waitErr, &exit) {
			return res, "", waitErr
		}
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			res.Stopped = append(res.Stopped, "the unit stopped: "+firstLine(msg))
		}
	}
	return res, hung, nil
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
