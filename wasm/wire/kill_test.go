package wire

import (
	"testing"

	"echomq.dev/playground/wasm/engine"
)

// TestClientKillCloses: a connection CLIENT KILL ended is closed with no
// reply to what it sends next, and one that killed itself (SKIPME no)
// gets its reply and then is closed, as Redis does.
func TestClientKillCloses(t *testing.T) {
	s := NewServer(engine.MustNew(), false)
	killer, victim := s.Open(), s.Open()
	defer killer.Close()
	defer victim.Close()
	if out, closed := victim.Feed(nil, []byte("PING\r\n")); string(out) != "+PONG\r\n" || closed {
		t.Fatalf("victim before: %q, closed %v", out, closed)
	}
	if out, closed := killer.Feed(nil, []byte("CLIENT KILL SKIPME yes\r\n")); string(out) != ":2\r\n" || closed {
		t.Fatalf("CLIENT KILL SKIPME yes: %q, closed %v (want 2: the victim and the engine's own connection)", out, closed)
	}
	if out, closed := victim.Feed(nil, []byte("PING\r\n")); len(out) != 0 || !closed {
		t.Errorf("victim after: %q, closed %v; want nothing written and closed", out, closed)
	}
	if out, closed := killer.Feed(nil, []byte("CLIENT KILL SKIPME no\r\nPING\r\n")); string(out) != ":1\r\n" || !closed {
		t.Errorf("CLIENT KILL SKIPME no: %q, closed %v; want its reply, then closed", out, closed)
	}
}
