package api

import (
	"strings"
	"testing"
)

// Two workers of the page each WATCH and MULTI on a connection of their
// own: a write from one spoils the other's EXEC, as between two clients.
func TestNamedConnectionsKeepTheirOwnTransactions(t *testing.T) {
	p := New()
	on := func(conn string, args ...any) map[string]any {
		t.Helper()
		return call(t, p, "exec", args, conn)
	}
	want := func(got map[string]any, typ string) {
		t.Helper()
		if got["type"] != typ {
			t.Fatalf("got %v, want a %s reply", got, typ)
		}
	}
	want(on("worker-A", "WATCH", "emq:{race}:pending"), "status")
	want(on("worker-B", "WATCH", "emq:{race}:pending"), "status")
	want(on("worker-A", "MULTI"), "status")
	want(on("worker-A", "ZADD", "emq:{race}:pending", "0", "JOB-1"), "status") // QUEUED
	want(on("worker-B", "MULTI"), "status")
	want(on("worker-B", "ZADD", "emq:{race}:pending", "0", "JOB-2"), "status")
	want(on("worker-A", "EXEC"), "array")
	want(on("worker-B", "EXEC"), "nil")
	// exec's own connection was never in MULTI.
	if got := call(t, p, "exec", []any{"EXEC"}); got["value"] != "ERR EXEC without MULTI" {
		t.Errorf("exec's connection: %v", got)
	}
	if got := call(t, p, "exec", []any{"ZCARD", "emq:{race}:pending"}); got["value"] != "1" {
		t.Errorf("ZCARD = %v, want 1: only A's transaction ran", got)
	}
}

func TestNamedConnectionsAreBounded(t *testing.T) {
	p := New()
	for i := range maxConnections {
		if got := call(t, p, "exec", []any{"PING"}, "c"+string(rune('a'+i))); got["type"] != "status" {
			t.Fatalf("connection %d: %v", i, got)
		}
	}
	for _, tc := range []struct {
		desc string
		name any
		want string
	}{
		{"one too many", "z", "at most 8"},
		{"empty", "", "1 to 32 bytes"},
		{"not a string", 3.0, "connection must be a string"},
	} {
		got := call(t, p, "exec", []any{"PING"}, tc.name)
		if got["error"] != "args" || !strings.Contains(got["message"].(string), tc.want) {
			t.Errorf("%s: got %v, want an args error with %q", tc.desc, got, tc.want)
		}
	}
	// A name already open still works.
	if got := call(t, p, "exec", []any{"PING"}, "ca"); got["type"] != "status" {
		t.Errorf("an open connection: %v", got)
	}
}
