// Package redisserver runs a throwaway redis-server on a loopback port, for
// tests that compare the playground with the real thing and for benchmarks.
//
// Every call to Start or Launch spawns its own process with its own port and
// working directory; servers are never shared between tests or packages, so
// one test's keys can not leak into another's.
package redisserver

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"echomq.dev/playground/internal/childout"
	"echomq.dev/playground/internal/needs"
	"echomq.dev/playground/internal/redisnet"
	"echomq.dev/playground/wasm/resp"
)

// Binary is the executable looked up in PATH.
const Binary = "redis-server"

// Hint tells a reader how to get the binary.
const Hint = "redis-server is required in CI: apt-get install redis-server"

// ErrNotFound is returned by Launch when redis-server is not in PATH.
var ErrNotFound = errors.New("redisserver: redis-server not found in PATH (apt-get install redis-server)")

const (
	readyTimeout = 5 * time.Second       // from spawn to the first PONG
	stopGrace    = 3 * time.Second       // SIGTERM to SIGKILL
	bindAttempts = 5                     // ports tried when the bind races
	pollInterval = 20 * time.Millisecond // between readiness probes
)

// Server is one running redis-server process.
type Server struct {
	addr    string
	version string
	dir     string
	cmd     *exec.Cmd
	out     *childout.Buffer
	exited  chan struct{} // closed once the process has been reaped
	waitErr error         // valid after exited is closed

	stopOnce sync.Once
	stopErr  error
}

// Start launches a server for the calling test or benchmark and stops it in
// tb's cleanup. Without redis-server in PATH the test is skipped, unless the
// environment variable CI is true, where a missing server is a failure.
//
// The cleanup reports an error if the server died before it (a crash, or a
// SHUTDOWN sent by the test); a test that wants to stop it early calls Stop.
func Start(tb testing.TB) *Server {
	tb.Helper()
	if needs.Program(tb, Binary, Hint) == "" {
		return nil // only reached with a fake testing.TB
	}
	s, err := Launch()
	if err != nil {
		tb.Fatalf("redisserver: %v", err)
		return nil
	}
	tb.Cleanup(func() {
		if err := s.stop(); err != nil {
			tb.Errorf("redisserver: %v", err)
		}
	})
	return s
}

// Connect starts a server for the calling test, as Start does, and returns
// a connection to it that tb's cleanup closes. A server that is not Redis
// 7.0, the playground's reference, gets a note in the test's log.
func Connect(tb testing.TB) *redisnet.Client {
	tb.Helper()
	s := Start(tb)
	c, err := redisnet.Dial(s.Addr())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close() })
	if v := s.Version(); !strings.HasPrefix(v, "7.0.") {
		tb.Logf("note: the reference is Redis 7.0; this server is %s", v)
	}
	return c
}

// Launch starts a server outside of a test. The caller must call Stop.
func Launch() (*Server, error) {
	return launch(freePort)
}

// Addr is the server's "127.0.0.1:port".
func (s *Server) Addr() string { return s.addr }

// Version is redis_version from INFO server, e.g. "7.0.15".
func (s *Server) Version() string { return s.version }

// PID is the process id of the redis-server process.
func (s *Server) PID() int { return s.cmd.Process.Pid }

// Output returns what the server has written to stdout and stderr so far.
func (s *Server) Output() string { return s.out.String() }

// Stop terminates the server (SIGTERM, then SIGKILL after a grace period),
// waits for it to exit and removes its directory. It is safe to call more
// than once; calls after the first do nothing.
func (s *Server) Stop() { _ = s.stop() }

// stop is Stop with the problems it met, which Start's cleanup reports.
func (s *Server) stop() error {
	s.stopOnce.Do(func() { s.stopErr = s.terminate() })
	return s.stopErr
}

func (s *Server) terminate() error {
	var errs []error
	select {
	case <-s.exited:
		// It went away on its own, which nobody asked for: say so.
		errs = append(errs, fmt.Errorf("redis-server (pid %d) exited before Stop: %v\n--- output ---\n%s",
			s.PID(), s.waitErr, s.Output()))
	default:
		if err := s.halt(); err != nil {
			errs = append(errs, fmt.Errorf("%w\n--- output ---\n%s", err, s.Output()))
		}
	}
	if err := os.RemoveAll(s.dir); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// halt sends SIGTERM, gives the server stopGrace to exit, then SIGKILLs it.
// It returns once the process has been reaped.
func (s *Server) halt() error {
	pid := s.PID()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("SIGTERM redis-server (pid %d): %w", pid, err)
	}
	timer := time.NewTimer(stopGrace)
	defer timer.Stop()
	select {
	case <-s.exited:
		return nil
	case <-timer.C:
	}
	if err := s.cmd.Process.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("SIGKILL redis-server (pid %d): %w", pid, err)
	}
	<-s.exited
	return fmt.Errorf("redis-server (pid %d) ignored SIGTERM for %v and was killed", pid, stopGrace)
}

// launch starts a server on a port from pick, trying a few ports when the
// one picked was taken between closing the probe listener and the bind.
func launch(pick func() (int, error)) (*Server, error) {
	return launchArgs(pick, nil)
}

// launchArgs is launch with extra redis-server options.
func launchArgs(pick func() (int, error), extra []string) (*Server, error) {
	bin, err := exec.LookPath(Binary)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotFound, err)
	}
	dir, err := os.MkdirTemp("", "redisserver-")
	if err != nil {
		return nil, err
	}
	var lastErr error
	for range bindAttempts {
		port, err := pick()
		if err != nil {
			lastErr = err
			break
		}
		s, retry, err := spawn(bin, dir, port, extra...)
		if err == nil {
			return s, nil
		}
		lastErr = err
		if !retry {
			break
		}
	}
	os.RemoveAll(dir)
	return nil, lastErr
}

// spawn runs one redis-server on port and waits for it to answer PING.
// retry reports whether the failure was a lost race for the port.
func spawn(bin, dir string, port int, extra ...string) (s *Server, retry bool, err error) {
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	out := new(childout.Buffer)
	cmd := exec.Command(bin, append([]string{
		"--bind", "127.0.0.1",
		"--port", strconv.Itoa(port),
		"--save", "",
		"--appendonly", "no",
		"--protected-mode", "yes",
		"--daemonize", "no",
		"--loglevel", "warning",
		"--dir", dir,
	}, extra...)...)
	cmd.Dir = dir
	cmd.Stdout = out
	cmd.Stderr = out
	cmd.SysProcAttr = sysProcAttr()
	// Should something inherit the output pipe, do not let Wait hang on it.
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return nil, false, fmt.Errorf("start %s: %w", bin, err)
	}
	s = &Server{addr: addr, dir: dir, cmd: cmd, out: out, exited: make(chan struct{})}
	go func() {
		s.waitErr = cmd.Wait()
		close(s.exited)
	}()

	if err := s.awaitReady(); err != nil {
		select {
		case <-s.exited:
			// It died by itself; a bind failure is worth another port.
			text := s.Output()
			retry = strings.Contains(text, "Address already in use") ||
				strings.Contains(text, "Could not create server TCP listening socket")
			return nil, retry, fmt.Errorf("redis-server on %s exited during startup (%v): %v\n--- output ---\n%s",
				addr, s.waitErr, err, text)
		default:
		}
		haltErr := s.halt()
		return nil, false, errors.Join(
			fmt.Errorf("redis-server on %s (pid %d) not ready: %v\n--- output ---\n%s",
				addr, s.PID(), err, s.Output()), haltErr)
	}

	info, err := roundTrip(addr, time.Second, "INFO", "server")
	if err == nil && info.Kind != resp.Bulk {
		err = fmt.Errorf("INFO server: unexpected reply %v", info)
	}
	if err == nil {
		s.version = infoField(info.Str, "redis_version")
	}
	if err == nil && s.version == "" {
		err = errors.New("INFO server: no redis_version field")
	}
	if err != nil {
		return nil, false, errors.Join(err, s.halt())
	}
	return s, false, nil
}

// awaitReady polls with PING until the server answers PONG, the process
// exits, or readyTimeout passes.
func (s *Server) awaitReady() error {
	deadline := time.Now().Add(readyTimeout)
	var lastErr error
	for {
		select {
		case <-s.exited:
			return errors.New("process exited")
		default:
		}
		rep, err := roundTrip(s.addr, 500*time.Millisecond, "PING")
		if err == nil {
			if rep.Kind == resp.Status && rep.Str == "PONG" {
				return nil
			}
			err = fmt.Errorf("PING replied %v", rep)
		}
		lastErr = err
		if time.Now().After(deadline) {
			return fmt.Errorf("no PONG within %v, last error: %v", readyTimeout, lastErr)
		}
		time.Sleep(pollInterval)
	}
}

// roundTrip sends one command on a fresh connection and reads its reply.
func roundTrip(addr string, timeout time.Duration, args ...string) (resp.Reply, error) {
	conn, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return resp.Reply{}, err
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(timeout)); err != nil {
		return resp.Reply{}, err
	}
	if _, err := conn.Write(resp.AppendCommand(nil, args)); err != nil {
		return resp.Reply{}, err
	}
	return resp.Read(bufio.NewReader(conn))
}

// infoField returns the value of "name:value" in an INFO reply.
func infoField(info, name string) string {
	for line := range strings.Lines(info) {
		key, value, ok := strings.Cut(strings.TrimRight(line, "\r\n"), ":")
		if ok && key == name {
			return value
		}
	}
	return ""
}

// freePort asks the kernel for an unused loopback port. Another process may
// take it before redis-server binds it; launch retries when that happens.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	if err := l.Close(); err != nil {
		return 0, err
	}
	return port, nil
}
