package api

import "testing"

// TestModuleWire: the module's RESP side, as wasm/listen.mjs drives it:
// numbered connections, each its own client, forgotten when closed.
func TestModuleWire(t *testing.T) {
	m := NewModule()
	feed := func(conn int32, in string) (string, bool) {
		out, closed := m.Wire(nil, conn, []byte(in))
		return string(out), closed
	}
	tests := []struct {
		desc   string
		conn   int32
		in     string
		want   string
		closed bool
	}{
		{"a request on a new connection", 1, "SET k v\r\n", "+OK\r\n", false},
		{"half a request waits", 2, "*2\r\n$3\r\nGET\r\n$1", "", false},
		{"the rest of it", 2, "\r\nk\r\n", "$1\r\nv\r\n", false},
		{"a transaction is the connection's own", 1, "MULTI\r\n", "+OK\r\n", false},
		{"another connection is not in it", 2, "GET k\r\n", "$1\r\nv\r\n", false},
		{"QUIT closes", 1, "QUIT\r\n", "+OK\r\n", true},
		{"the number names a new connection after", 1, "GET k\r\n", "$1\r\nv\r\n", false},
		{"a protocol error closes", 3, "*x\r\n", "-ERR Protocol error: invalid multibulk length\r\n", true},
	}
	for _, tt := range tests {
		got, closed := feed(tt.conn, tt.in)
		if got != tt.want || closed != tt.closed {
			t.Errorf("%s: got %q (closed %v), want %q (closed %v)", tt.desc, got, closed, tt.want, tt.closed)
		}
	}
	m.WireClose(2)
	if n := len(m.wires.conns); n != 1 {
		t.Errorf("after QUIT, a protocol error and a close, %d connections are open, want 1", n)
	}
	// The page's keyspace is not the wire's.
	if r, _ := m.keyspaces.Default().Engine().Do("EXISTS", "k"); r.Int != 0 {
		t.Errorf("the default keyspace sees the wire's key")
	}
}
