//go:build unix

package redisserver

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"echomq.dev/playground/wasm/resp"
)

func TestStartAnswersPing(t *testing.T) {
	t.Parallel()
	s := Start(t)
	if !strings.HasPrefix(s.Addr(), "127.0.0.1:") {
		t.Errorf("Addr() = %q, want 127.0.0.1:port", s.Addr())
	}
	rep, err := roundTrip(s.Addr(), time.Second, "PING")
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Equal(resp.StatusReply("PONG")) {
		t.Fatalf("PING = %v, want PONG", rep)
	}
}

func TestVersionMatchesBinary(t *testing.T) {
	t.Parallel()
	s := Start(t)
	if !regexp.MustCompile(`^\d+\.\d+\.\d+`).MatchString(s.Version()) {
		t.Fatalf("Version() = %q, want a dotted version", s.Version())
	}
	out, err := exec.Command(Binary, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "v=" + s.Version() + " "; !strings.Contains(string(out), want) {
		t.Errorf("Version() = %q, but %s --version says %q", s.Version(), Binary, out)
	}
}

func TestServersAreSeparate(t *testing.T) {
	t.Parallel()
	a, b := Start(t), Start(t)
	if a.Addr() == b.Addr() || a.PID() == b.PID() || a.dir == b.dir {
		t.Fatalf("two servers share state: %s/%d/%s and %s/%d/%s",
			a.Addr(), a.PID(), a.dir, b.Addr(), b.PID(), b.dir)
	}
	if rep, err := roundTrip(a.Addr(), time.Second, "SET", "k", "a"); err != nil || rep.IsError() {
		t.Fatalf("SET on a: %v %v", rep, err)
	}
	rep, err := roundTrip(b.Addr(), time.Second, "GET", "k")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != resp.Nil {
		t.Fatalf("GET k on b = %v, want (nil)", rep)
	}
}

func TestCleanupStopsProcess(t *testing.T) {
	t.Parallel()
	var pid int
	var dir, addr string
	t.Run("server", func(t *testing.T) {
		s := Start(t)
		pid, dir, addr = s.PID(), s.dir, s.Addr()
		if !processAlive(pid) {
			t.Fatalf("pid %d is not running while the test is", pid)
		}
	})
	if pid == 0 {
		t.Skip("subtest did not start a server")
	}
	if processAlive(pid) {
		t.Errorf("redis-server pid %d still running after the subtest's cleanup", pid)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temp dir %s still there after cleanup (stat: %v)", dir, err)
	}
	if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		conn.Close()
		t.Errorf("something still listens on %s", addr)
	}
}

func TestLaunchStop(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath(Binary); err != nil {
		t.Skip(Hint)
	}
	s, err := Launch()
	if err != nil {
		t.Fatal(err)
	}
	pid := s.PID()
	s.Stop()
	if processAlive(pid) {
		t.Errorf("pid %d still running after Stop", pid)
	}
	s.Stop() // a second Stop is a no-op
	if err := s.stop(); err != nil {
		t.Errorf("stop after Stop: %v", err)
	}
}

// TestRetriesTakenPort hands launch a port that is already in use: the first
// redis-server fails to bind and the next port must be tried.
func TestRetriesTakenPort(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath(Binary); err != nil {
		t.Skip(Hint)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	busyPort := busy.Addr().(*net.TCPAddr).Port

	var mu sync.Mutex
	calls := 0
	pick := func() (int, error) {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls == 1 {
			return busyPort, nil
		}
		return freePort()
	}
	s, err := launch(pick)
	if err != nil {
		t.Fatalf("launch with a busy first port: %v", err)
	}
	defer s.Stop()
	if calls < 2 {
		t.Fatalf("picked %d port(s), want a retry", calls)
	}
	if _, port, _ := net.SplitHostPort(s.Addr()); port == strconv.Itoa(busyPort) {
		t.Fatalf("server claims the busy port %d", busyPort)
	}
	if rep, err := roundTrip(s.Addr(), time.Second, "PING"); err != nil || rep.Str != "PONG" {
		t.Fatalf("PING: %v %v", rep, err)
	}
}

// TestStartFailureShowsOutput checks that a server which cannot start
// reports what it printed, and is not retried forever.
func TestStartFailureShowsOutput(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath(Binary); err != nil {
		t.Skip(Hint)
	}
	calls := 0
	_, err := launch(func() (int, error) { calls++; return 70000, nil }) // not a port
	if err == nil {
		t.Fatal("launch on port 70000 succeeded")
	}
	if calls != 1 {
		t.Errorf("picked %d ports for a non-bind failure, want 1", calls)
	}
	_, output, ok := strings.Cut(err.Error(), "--- output ---")
	if !ok || !strings.Contains(output, "70000") {
		t.Errorf("error does not carry the server's output: %v", err)
	}
}

func TestMissingBinary(t *testing.T) {
	// t.Setenv: not parallel.
	t.Setenv("PATH", t.TempDir())

	t.Run("skips outside CI", func(t *testing.T) {
		t.Setenv("CI", "")
		f := runFake(t)
		if !f.skipped || f.failed {
			t.Fatalf("skipped=%v failed=%v, want a skip", f.skipped, f.failed)
		}
		if !strings.Contains(f.msg, "apt-get install redis-server") {
			t.Errorf("skip message %q lacks the install hint", f.msg)
		}
	})
	t.Run("fails in CI", func(t *testing.T) {
		t.Setenv("CI", "true")
		f := runFake(t)
		if !f.failed || f.skipped {
			t.Fatalf("skipped=%v failed=%v, want a failure", f.skipped, f.failed)
		}
		if !strings.Contains(f.msg, Hint) {
			t.Errorf("failure message %q lacks %q", f.msg, Hint)
		}
	})
	t.Run("Launch", func(t *testing.T) {
		if _, err := Launch(); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Launch() error = %v, want ErrNotFound", err)
		}
	})
}

// fakeTB records how Start gives up. Like the real thing, Fatalf and Skipf
// end the goroutine, so runFake calls Start on a goroutine of its own.
type fakeTB struct {
	testing.TB
	failed, skipped bool
	msg             string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.failed, f.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (f *fakeTB) Skipf(format string, args ...any) {
	f.skipped, f.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (f *fakeTB) Cleanup(func()) { panic("Cleanup called without a server") }

func runFake(t *testing.T) *fakeTB {
	f := &fakeTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if s := Start(f); s != nil {
			t.Errorf("Start returned a server without redis-server in PATH")
		}
	}()
	<-done
	return f
}

// processAlive reports whether pid exists, with the null signal. Start's
// cleanup reaps the process, so a stopped server leaves no zombie behind.
func processAlive(pid int) bool {
	return syscall.Kill(pid, 0) == nil
}
