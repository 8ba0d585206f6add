package main

import (
	"errors"
	"io"
	"net"

	"strings"
	"testing"
	"time"

	"echomq.dev/playground/internal/redisserver"
	"echomq.dev/playground/wasm/engine"
	"echomq.dev/playground/wasm/wire"
)

// start serves a fresh engine on a free loopback port for the test.
func start(t *testing.T) string {
	t.Helper()
	l, err := listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- serve(l, wire.NewServer(engine.MustNew(), true)) }()
	t.Cleanup(func() {
		l.Close()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return l.Addr().String()
}

// exchange sends raw bytes on a new connection and returns what came back
// and whether the server hung up. A server that writes nothing within
// first is waiting for more; once it writes, it has said all it will when
// it is quiet for quiet. (The first wait is the longer: on a loaded
// machine a reply can be late, and a late one is not no reply.)
func exchange(t *testing.T, addr, raw string) (string, bool) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	const first, quiet = 2 * time.Second, 300 * time.Millisecond
	var got []byte
	buf := make([]byte, 64<<10)
	for {
		wait := quiet
		if len(got) == 0 {
			wait = first
		}
		c.SetReadDeadline(time.Now().Add(wait))
		n, err := c.Read(buf)
		got = append(got, buf[:n]...)
		var nerr net.Error
		switch {
		case err == nil:
			continue
		case errors.As(err, &nerr) && nerr.Timeout():
			return string(got), false
		default:
			return string(got), true
		}
	}
}

// TestWireLikeRedis sends the same bytes to a real redis-server and to the
// engine's listener, and compares what each writes back and whether each
// hangs up: requests cut or joined anyhow, inline ones with quotes, and
// every protocol error Redis 7.0 reads a request with.
func TestWireLikeRedis(t *testing.T) {
	real := redisserver.Start(t)
	if real == nil {
		return
	}
	ours := start(t)
	tests := []struct {
		desc string
		raw  string
	}{
		{"a multibulk command", "*1\r\n$4\r\nPING\r\n"},
		{"pipelined inline and multibulk", "SET k v\r\nGET k\r\n*2\r\n$3\r\nGET\r\n$1\r\nk\r\nDEL k\r\n"},
		{"empty requests are skipped", "\r\n\n*0\r\n*-1\r\n*-2\r\nPING\r\n"},
		{"the two bytes after a bulk go unread", "*1\r\n$4\r\nPINGxx*1\r\n$4\r\nPING\r\n"},
		{"quotes and escapes", `ECHO "a\tb\x41\"" 'c\'d'` + "\r\nECHO \"\"\r\n"},
		{"a word after a closing quote", `ECHO "a"b` + "\r\nPING\r\n"},
		{"an unclosed quote", "ECHO \"open\r\n"},
		{"a NUL in an inline line", "ECHO a\x00b\r\n"},
		{"an incomplete bulk", "*1\r\n$4\r\nPI"},
		{"a count that is not a number", "*abc\r\n"},
		{"an empty count", "*\r\n"},
		{"a count with a leading zero", "*01\r\n$4\r\nPING\r\n"},
		{"a count past INT_MAX", "*2147483648\r\n"},
		{"a large count waits", "*1048577\r\n"},
		{"no $ where an argument should be", "*1\r\nx\r\n"},
		{"an empty line where an argument should be", "*1\r\n\r\n"},
		{"an empty bulk length", "*1\r\n$\r\n"},
		{"a negative bulk length", "*1\r\n$-1\r\n"},
		{"a bulk length with a plus", "*1\r\n$+4\r\nPING\r\n"},
		{"a bulk length with a leading zero", "*1\r\n$04\r\nPING\r\n"},
		{"a bulk length past int64", "*1\r\n$9223372036854775808\r\n"},
		{"an inline request past 64 KiB", "PING" + strings.Repeat("x", 70000)},
		{"a count line past 64 KiB", "*1" + strings.Repeat("1", 70000)},
		{"a bulk length line past 64 KiB", "*1\r\n$" + strings.Repeat("1", 70000)},
		{"QUIT", "QUIT\r\nPING\r\n"},
		{"QUIT inside MULTI", "MULTI\r\nQUIT\r\n"},
		{"RESP3 nulls", "HELLO 3\r\nSET a 1\r\nMGET a b\r\nGET b\r\n"},
		{"CLIENT REPLY OFF, then ON", "CLIENT REPLY OFF\r\nPING a\r\nGET\r\nCLIENT REPLY ON\r\nPING c\r\n"},
		{"CLIENT REPLY SKIP", "CLIENT REPLY SKIP\r\nPING a\r\nPING b\r\n"},
		{"CLIENT REPLY SKIP twice", "CLIENT REPLY SKIP\r\nCLIENT REPLY SKIP\r\nPING a\r\nPING b\r\n"},
		{"CLIENT REPLY ON after SKIP", "CLIENT REPLY SKIP\r\nCLIENT REPLY ON\r\nPING\r\n"},
		{"CLIENT REPLY with a bad mode or arity", "client reply bad\r\nCLIENT REPLY\r\nCLIENT REPLY ON extra\r\nPING\r\n"},
	}
	// Each case is a connection of its own to each server, and the cases
	// that write name keys no other case names, so they run side by side:
	// most of the time is spent waiting out the servers' silence.
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			t.Parallel()
			wantOut, wantClosed := exchange(t, real.Addr(), tt.raw)
			if strings.HasPrefix(tt.raw, "HELLO 3") {
				// HELLO's map names the server's version and client id:
				// compare what follows it.
				_, wantOut, _ = strings.Cut(wantOut, "+OK\r\n")
			}
			gotOut, gotClosed := exchange(t, ours, tt.raw)
			if strings.HasPrefix(tt.raw, "HELLO 3") {
				_, gotOut, _ = strings.Cut(gotOut, "+OK\r\n")
			}
			if gotOut != wantOut || gotClosed != wantClosed {
				t.Errorf("sent %.60q\nengine: %q (hung up: %v)\nredis:  %q (hung up: %v)", tt.raw, gotOut, gotClosed, wantOut, wantClosed)
			}
		})
	}
}

func TestListenRefusesOtherAddresses(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:0"} {
		if l, err := listen(addr); err == nil {
			l.Close()
			t.Errorf("listen(%q) accepted an address that is not loopback", addr)
		}
	}
}
