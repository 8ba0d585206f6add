package emq_test

// Helpers shared by the tests of this package. They are written so that a
// test reads like a redis-cli transcript: mustDo(t, c, "ZADD", k, "0", id),
// wantReply(t, c, resp.IntReply(1), "EXISTS", k).

import (
	"errors"
	"testing"

	"echomq.dev/playground/internal/redisdiff"
	"echomq.dev/playground/wasm/emq"
	"echomq.dev/playground/wasm/engine"
	"echomq.dev/playground/wasm/resp"
)

// newEngine is a fresh in-memory server, clock at engine.Start.
func newEngine(t testing.TB) *engine.Engine {
	t.Helper()
	return engine.MustNew()
}

// server is one kind of connection a table runs over.
type server struct {
	name string
	open func(t *testing.T) emq.Conn
}

// servers are the two connections every promise is held against: the
// engine the browser runs and the Redis 7 it must behave like.
var servers = []server{
	{"engine", func(t *testing.T) emq.Conn { return newEngine(t) }},
	{"redis", func(t *testing.T) emq.Conn { return startRedis(t) }},
}

// mustDo sends one command and fails the test on a broken connection. A
// Redis error reply is returned like any reply.
func mustDo(t testing.TB, c emq.Conn, args ...string) resp.Reply {
	t.Helper()
	r, err := c.Do(args...)
	if err != nil {
		t.Fatalf("%s: %v", redisdiff.ShowCommand(args), err)
	}
	return r
}

// wantReply sends one command and checks its reply.
func wantReply(t testing.TB, c emq.Conn, want resp.Reply, args ...string) {
	t.Helper()
	if got := mustDo(t, c, args...); !got.Equal(want) {
		t.Errorf("%s\n got: %v\nwant: %v", redisdiff.ShowCommand(args), got, want)
	}
}

// refusal unwraps a handle's error into the Refusal it must be.
func refusal(t testing.TB, err error) *emq.Refusal {
	t.Helper()
	var r *emq.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("error = %v (%T), want an *emq.Refusal", err, err)
	}
	return r
}

// strs is the bulk strings of an array reply, in order.
func strs(t testing.TB, r resp.Reply) []string {
	t.Helper()
	s, ok := r.Strings()
	if !ok {
		t.Fatalf("reply %v is not an array of bulk strings", r)
	}
	return s
}
