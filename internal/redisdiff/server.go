package redisdiff

import (
	"bytes"
	"fmt"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"echomq.dev/playground/internal/needs"
	"echomq.dev/playground/internal/redisnet"
	"echomq.dev/playground/internal/redisserver"
	"echomq.dev/playground/wasm/resp"
)

// Server is the real side of a comparison: a redis-server started for the
// test, or the replies of one, read back from a Recording.
//
// What a test sends goes into takes: the take is named by the server and
// by the scope the test is in (Scope), so that a subtest run on its own
// with -run replays its own exchanges.
type Server struct {
	rec  *Recording
	test string // the test that started it
	id   string // names the server among those of its test: test#n
	live *redisserver.Server
	// Version is the server's redis_version, "7.0.15".
	Version string
	// Databases is how many databases DiffKeyspace reads: all of them
	// (Databases) unless a suite uses fewer and says so.
	Databases int

	mu     sync.Mutex
	scope  string
	made   map[string][]Exchange // live: what each take recorded
	replay map[string]map[string][]Exchange
	dialed int
	admin  *Real
}

// Live reports whether s is a running redis-server (not a replay).
func (s *Server) Live() bool { return s.live != nil }

// Addr is the live server's address, "" on a replay.
func (s *Server) Addr() string {
	if s.live == nil {
		return ""
	}
	return s.live.Addr()
}

var (
	startsMu sync.Mutex
	starts   = map[string]int{} // test name -> servers started in it
)

// Start gives tb a real server, stopped in tb's cleanup: a live one where
// redis-server can run, else rec's replay of one. Where the live server is
// required (CI=true) and missing, the test fails, as redisserver.Start
// has it; -replay asks for the replay anyway. After a live run with
// -update, the exchanges are kept in rec for redisdiff.Main to write.
func Start(tb testing.TB, rec *Recording) *Server {
	tb.Helper()
	startsMu.Lock()
	starts[tb.Name()]++
	n := starts[tb.Name()]
	startsMu.Unlock()
	tb.Cleanup(func() { // a test run again (-count) numbers its servers again
		startsMu.Lock()
		delete(starts, tb.Name())
		startsMu.Unlock()
	})
	s := &Server{rec: rec, test: tb.Name(), id: tb.Name() + "#" + strconv.Itoa(n), Databases: Databases, made: map[string][]Exchange{}}
	s.scope = tb.Name()
	if canRunLive() {
		s.live = redisserver.Start(tb)
		tb.Cleanup(s.keep)
	} else if Update() {
		tb.Fatalf("-update records redis-server's replies: it needs redis-server (%s)", redisserver.Hint)
	}
	s.admin = s.dial(tb, "admin")
	info, err := s.admin.Node("INFO", "server")
	if err != nil {
		tb.Fatalf("redis-server: INFO server: %v", err)
	}
	for line := range strings.Lines(info.S) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "redis_version:"); ok {
			s.Version = v
		}
	}
	if !strings.HasPrefix(s.Version, "7.0.") {
		tb.Logf("note: the reference is Redis 7.0; this server is %q", s.Version)
	}
	return s
}

// canRunLive says whether this run compares with a live server: it can
// start processes, was not asked to replay, and has redis-server or must
// have it (CI), in which case redisserver.Start fails loudly.
func canRunLive() bool {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" || *replayFlag {
		return false
	}
	_, err := exec.LookPath(redisserver.Binary)
	return err == nil || needs.InCI()
}

// Scope moves s into tb's take: what is sent from now on is recorded
// under tb's name, and a replay reads it back from there.
func (s *Server) Scope(tb testing.TB) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scope = tb.Name()
	s.dialed = 0
}

// take is the name of the current take; s.mu is held.
func (s *Server) take() string {
	if s.scope == s.test {
		return s.id
	}
	return s.id + " > " + s.scope
}

// keep hands what the live run recorded to the recording.
func (s *Server) keep() {
	if !Update() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, xs := range s.made {
		s.rec.Put(name, xs)
	}
}

// Dial opens another connection to s, closed in tb's cleanup.
func (s *Server) Dial(tb testing.TB) *Real {
	tb.Helper()
	s.mu.Lock()
	s.dialed++
	label := "c" + strconv.Itoa(s.dialed)
	s.mu.Unlock()
	return s.dial(tb, label)
}

// dial opens a connection that label names in the takes.
func (s *Server) dial(tb testing.TB, label string) *Real {
	tb.Helper()
	c := &Real{srv: s, label: label}
	if s.live != nil {
		var err error
		if c.live, err = redisnet.Dial(s.live.Addr()); err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { c.live.Close() })
	}
	return c
}

// Admin is the connection s keeps for flushing, dumping and the clock.
func (s *Server) Admin() *Real { return s.admin }

// Must sends one command on the admin connection and fails tb on a broken
// connection or a replay that does not hold it.
func (s *Server) Must(tb testing.TB, args ...string) Node {
	tb.Helper()
	return s.admin.Must(tb, args...)
}

// Now is the real server's clock in Unix milliseconds, as a script
// computes it from TIME. On a replay it is the recorded clock, so the
// engine, set to it, writes the deadlines the real server wrote.
func (s *Server) Now(tb testing.TB) int64 {
	tb.Helper()
	now, err := Now(s.admin)
	if err != nil {
		tb.Fatal(err)
	}
	return now
}

// Now is the clock of the server behind c in Unix milliseconds, from TIME.
func Now(c Doer) (int64, error) {
	r, err := c.Do("TIME")
	if err != nil {
		return 0, err
	}
	parts, ok := r.Strings()
	if ok && len(parts) == 2 {
		sec, err1 := strconv.ParseInt(parts[0], 10, 64)
		usec, err2 := strconv.ParseInt(parts[1], 10, 64)
		if err1 == nil && err2 == nil {
			return sec*1000 + usec/1000, nil
		}
	}
	return 0, fmt.Errorf("TIME = %v", r)
}

// Encoding is the real server's OBJECT ENCODING of key, "" if it has none.
func (s *Server) Encoding(tb testing.TB, key string) string {
	tb.Helper()
	r := s.Must(tb, "OBJECT", "ENCODING", key)
	if r.T == '$' || r.T == '+' {
		return r.S
	}
	return ""
}

// Sleep lets d pass on a live server's clock; a replay has its clock
// recorded and does not wait.
func (s *Server) Sleep(d time.Duration) {
	if s.live != nil {
		time.Sleep(d)
	}
}

// Real is one connection to a Server. It is an emq.Conn, and answers with
// the exact wire (Node) too.
type Real struct {
	srv   *Server
	label string
	live  *redisnet.Client
}

// Server is the server c is connected to.
func (c *Real) Server() *Server { return c.srv }

// Node sends one command and returns the reply as it came over the wire.
// The error is for the connection, or a replay that does not hold the
// command: the recording is stale.
func (c *Real) Node(args ...string) (Node, error) {
	wire, err := c.exchange(args)
	if err != nil {
		return Node{}, err
	}
	if sum, ok := digested(wire); ok {
		return Node{Sum: sum}, nil
	}
	return ParseNode(wire)
}

// digested reports whether a replayed reply is a digest only: a reply's
// wire starts with its type byte, never with "sha256:".
func digested(wire []byte) (string, bool) {
	if bytes.HasPrefix(wire, []byte("sha256:")) {
		return string(wire), true
	}
	return "", false
}

// Must is Node that fails tb on an error.
func (c *Real) Must(tb testing.TB, args ...string) Node {
	tb.Helper()
	n, err := c.Node(args...)
	if err != nil {
		tb.Fatalf("redis-server: %s: %v", ShowCommand(args), err)
	}
	return n
}

// Do is Node as a resp.Reply, the emq.Conn a handle runs over.
func (c *Real) Do(args ...string) (resp.Reply, error) {
	wire, err := c.exchange(args)
	if err != nil {
		return resp.Reply{}, err
	}
	if sum, ok := digested(wire); ok {
		return resp.Reply{}, fmt.Errorf("%s keeps only the digest of the reply to %s (%s)", c.srv.rec.path, ShowCommand(args), sum)
	}
	return resp.Parse(wire)
}

// Nodes sends each command in turn: the dump reads a replay through it.
func (c *Real) Nodes(cmds [][]string) ([]Node, error) {
	out := make([]Node, len(cmds))
	for i, cmd := range cmds {
		var err error
		if out[i], err = c.Node(cmd...); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// exchange is one command: sent to the live server and recorded, or read
// from the replay.
func (c *Real) exchange(args []string) ([]byte, error) {
	key := keyOf(args)
	if c.live == nil {
		return c.srv.replayed(c.label, key)
	}
	wire, err := c.live.DoWire(args...)
	if err != nil {
		return nil, err
	}
	c.srv.record(Exchange{Conn: c.label, Key: key, Reply: c.srv.rec.kept(args, wire)})
	return wire, nil
}

func (s *Server) record(x Exchange) {
	if !Update() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	name := s.take()
	s.made[name] = append(s.made[name], x)
}

// replayed is the next recorded reply of conn in the current take.
func (s *Server) replayed(conn, key string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	name := s.take()
	if s.replay == nil {
		s.replay = map[string]map[string][]Exchange{}
	}
	queues, ok := s.replay[name]
	if !ok {
		xs, err := s.rec.Take(name)
		if err != nil {
			return nil, err
		}
		queues = map[string][]Exchange{}
		for _, x := range xs {
			queues[x.Conn] = append(queues[x.Conn], x)
		}
		s.replay[name] = queues
	}
	q := queues[conn]
	if len(q) == 0 {
		return nil, fmt.Errorf("%s: take %q ends before %s sends %s: record again with go test -update against redis-server",
			s.rec.path, name, conn, Short(key))
	}
	if q[0].Key != key {
		return nil, fmt.Errorf("%s: take %q recorded %s for %s, and this run sends %s: record again with go test -update against redis-server",
			s.rec.path, name, Short(q[0].Key), conn, Short(key))
	}
	queues[conn] = q[1:]
	return []byte(q[0].Reply), nil
}
