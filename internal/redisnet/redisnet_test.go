package redisnet_test

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"echomq.dev/playground/internal/redisnet"
	"echomq.dev/playground/internal/redisserver"
	"echomq.dev/playground/wasm/resp"
)

// connect starts a server of the test's own and dials it.
func connect(t *testing.T) (*redisnet.Client, *redisserver.Server) {
	t.Helper()
	srv := redisserver.Start(t)
	c, err := redisnet.Dial(srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, srv
}

// do runs a command that must not fail at the network level.
func do(t *testing.T, c *redisnet.Client, args ...string) resp.Reply {
	t.Helper()
	rep, err := c.Do(args...)
	if err != nil {
		t.Fatalf("%s: %v", strings.Join(args, " "), err)
	}
	return rep
}

func TestPing(t *testing.T) {
	t.Parallel()
	c, _ := connect(t)
	if rep := do(t, c, "PING"); !rep.Equal(resp.StatusReply("PONG")) {
		t.Fatalf("PING = %v, want status PONG", rep)
	}
}

func TestBinaryValueRoundTrip(t *testing.T) {
	t.Parallel()
	c, _ := connect(t)

	// 1 MiB of every byte value, so NULs, CR/LF and invalid UTF-8 (lone
	// continuation bytes, 0xC0, 0xFF) are all in it, many times over.
	value := make([]byte, 1<<20)
	for i := range value {
		value[i] = byte(i*7 + i>>8)
	}
	copy(value, "\x00\r\n\xff\xfe\xc3(")
	if !bytes.Contains(value, []byte{0}) || utf8.Valid(value) {
		t.Fatal("test value should hold NUL bytes and invalid UTF-8")
	}

	if rep := do(t, c, "SET", "bin", string(value)); !rep.Equal(resp.OK()) {
		t.Fatalf("SET = %v", rep)
	}
	if rep := do(t, c, "STRLEN", "bin"); !rep.Equal(resp.IntReply(1 << 20)) {
		t.Fatalf("STRLEN = %v, want %d", rep, 1<<20)
	}
	rep := do(t, c, "GET", "bin")
	if rep.Kind != resp.Bulk {
		t.Fatalf("GET kind = %s, want bulk", rep.Kind)
	}
	if rep.Str != string(value) {
		t.Fatalf("GET returned %d bytes that differ from the %d stored", len(rep.Str), len(value))
	}

	// A binary key works too, and the connection is still in step.
	key := "k\x00\xff"
	do(t, c, "SET", key, "v")
	if rep := do(t, c, "GET", key); !rep.Equal(resp.BulkReply("v")) {
		t.Fatalf("GET binary key = %v", rep)
	}
}

func TestErrorReplyIsNotGoError(t *testing.T) {
	t.Parallel()
	c, _ := connect(t)
	do(t, c, "SET", "str", "x")
	rep, err := c.Do("HSET", "str", "field", "value")
	if err != nil {
		t.Fatalf("HSET on a string returned a Go error: %v", err)
	}
	if !rep.IsError() || rep.Code() != "WRONGTYPE" {
		t.Fatalf("HSET on a string = %v, want a WRONGTYPE error reply", rep)
	}
	rep = do(t, c, "NOSUCHCOMMAND", "arg")
	if rep.Code() != "ERR" {
		t.Fatalf("unknown command = %v, want an ERR reply", rep)
	}
	// The client is still usable after error replies.
	if rep := do(t, c, "GET", "str"); !rep.Equal(resp.BulkReply("x")) {
		t.Fatalf("GET after errors = %v", rep)
	}
}

func TestNilBulk(t *testing.T) {
	t.Parallel()
	c, _ := connect(t)
	if rep := do(t, c, "GET", "missing"); rep.Kind != resp.Nil {
		t.Fatalf("GET missing = %v, want (nil)", rep)
	}
}

func TestArrayReply(t *testing.T) {
	t.Parallel()
	c, _ := connect(t)
	if rep := do(t, c, "RPUSH", "list", "a", "", "c\x00"); !rep.Equal(resp.IntReply(3)) {
		t.Fatalf("RPUSH = %v", rep)
	}
	rep := do(t, c, "LRANGE", "list", "0", "-1")
	got, ok := rep.Strings()
	if !ok || strings.Join(got, "|") != "a||c\x00" {
		t.Fatalf("LRANGE = %v, want a, \"\", c\\x00", rep)
	}
	if rep := do(t, c, "LRANGE", "nolist", "0", "-1"); rep.Kind != resp.Array || len(rep.Elems) != 0 {
		t.Fatalf("LRANGE of a missing key = %v, want an empty array", rep)
	}
	// Mixed element kinds: MGET has a nil in the middle.
	do(t, c, "SET", "x", "1")
	want := resp.ArrayReply(resp.BulkReply("1"), resp.NilReply(), resp.BulkReply("1"))
	if rep := do(t, c, "MGET", "x", "nox", "x"); !rep.Equal(want) {
		t.Fatalf("MGET = %v, want %v", rep, want)
	}
}

func TestPipelineIncr(t *testing.T) {
	t.Parallel()
	c, _ := connect(t)
	cmds := make([][]string, 100)
	for i := range cmds {
		cmds[i] = []string{"INCR", "counter"}
	}
	replies, err := c.Pipeline(cmds)
	if err != nil {
		t.Fatal(err)
	}
	if len(replies) != len(cmds) {
		t.Fatalf("got %d replies for %d commands", len(replies), len(cmds))
	}
	for i, rep := range replies {
		if !rep.Equal(resp.IntReply(int64(i + 1))) {
			t.Fatalf("reply %d = %v, want (integer) %d", i, rep, i+1)
		}
	}
	if rep := do(t, c, "GET", "counter"); rep.Str != "100" {
		t.Fatalf("GET counter = %v, want \"100\"", rep)
	}
}

func TestPipelineMixed(t *testing.T) {
	t.Parallel()
	c, _ := connect(t)
	big := strings.Repeat("\x00\xff", 1<<19) // 1 MiB
	replies, err := c.Pipeline([][]string{
		{"SET", "big", big},
		{"HSET", "big", "f", "v"},
		{"GET", "big"},
		{"GET", "missing"},
		{"PING"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []resp.Reply{resp.OK(), {}, resp.BulkReply(big), resp.NilReply(), resp.StatusReply("PONG")}
	for i, rep := range replies {
		if i == 1 {
			if rep.Code() != "WRONGTYPE" {
				t.Errorf("reply 1 = %v, want WRONGTYPE", rep)
			}
			continue
		}
		if !rep.Equal(want[i]) {
			t.Errorf("reply %d: kind %s, %d bytes; want kind %s, %d bytes",
				i, rep.Kind, len(rep.Str), want[i].Kind, len(want[i].Str))
		}
	}
	if replies, err := c.Pipeline(nil); err != nil || len(replies) != 0 {
		t.Errorf("empty pipeline = %v, %v", replies, err)
	}
}

func TestSharedClient(t *testing.T) {
	t.Parallel()
	c, _ := connect(t)
	const workers, each = 8, 50
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			key := "w" + strconv.Itoa(w)
			for i := range each {
				rep, err := c.Do("INCR", key)
				if err != nil || !rep.Equal(resp.IntReply(int64(i+1))) {
					t.Errorf("worker %d INCR %d = %v, %v", w, i, rep, err)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestEmptyCommandRejected(t *testing.T) {
	t.Parallel()
	c, _ := connect(t)
	if _, err := c.Do(); err == nil {
		t.Error("Do() with no arguments succeeded")
	}
	if _, err := c.Pipeline([][]string{{"PING"}, {}}); err == nil {
		t.Error("Pipeline with an empty command succeeded")
	}
	// Nothing was sent, so the connection is still in step.
	if rep := do(t, c, "PING"); rep.Str != "PONG" {
		t.Fatalf("PING = %v", rep)
	}
}

func TestClose(t *testing.T) {
	t.Parallel()
	c, _ := connect(t)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := c.Do("PING"); !errors.Is(err, redisnet.ErrClosed) {
		t.Errorf("Do after Close = %v, want ErrClosed", err)
	}
	if _, err := c.Pipeline([][]string{{"PING"}}); !errors.Is(err, redisnet.ErrClosed) {
		t.Errorf("Pipeline after Close = %v, want ErrClosed", err)
	}
}

func TestServerGoneIsGoError(t *testing.T) {
	t.Parallel()
	c, srv := connect(t)
	do(t, c, "PING")
	srv.Stop()
	rep, err := c.Do("PING")
	if err == nil {
		t.Fatalf("PING to a stopped server = %v with no error", rep)
	}
	// The client stays broken with the same error.
	if _, err2 := c.Do("PING"); err2 == nil || err2.Error() != err.Error() {
		t.Errorf("second call error = %v, want %v", err2, err)
	}
}

func TestDialError(t *testing.T) {
	t.Parallel()
	for _, addr := range []string{"127.0.0.1:notaport", "127.0.0.1:0"} {
		if c, err := redisnet.Dial(addr); err == nil {
			c.Close()
			t.Errorf("Dial(%q) succeeded", addr)
		}
	}
}

// TestDoWireKeepsTheServersBytes: what the comparisons with Redis judge is
// the reply as it came, RESP3's null and a null array included, which a
// resp.Reply folds into one Nil.
func TestDoWireKeepsTheServersBytes(t *testing.T) {
	t.Parallel()
	c, _ := connect(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"SET", "k", "a\x00b"}, "+OK\r\n"},
		{[]string{"GET", "k"}, "$3\r\na\x00b\r\n"},
		{[]string{"GET", "missing"}, "$-1\r\n"},
		{[]string{"BLPOP", "missing", "0.01"}, "*-1\r\n"},
		{[]string{"HELLO", "3", "SETNAME", "x"}, ""}, // a map: only its type byte is checked
		{[]string{"GET", "missing"}, "_\r\n"},
		{[]string{"ZADD", "z", "1.5", "m"}, ":1\r\n"},
		{[]string{"ZSCORE", "z", "m"}, ",1.5\r\n"},
		{[]string{"ZRANGE", "z", "0", "-1", "WITHSCORES"}, "*1\r\n*2\r\n$1\r\nm\r\n,1.5\r\n"},
	} {
		got, err := c.DoWire(tc.args...)
		if err != nil {
			t.Fatalf("%q: %v", tc.args, err)
		}
		if tc.want == "" {
			if got[0] != '%' {
				t.Errorf("%q = %q, want a map", tc.args, got)
			}
			continue
		}
		if string(got) != tc.want {
			t.Errorf("%q = %q, want %q", tc.args, got, tc.want)
		}
	}
	wires, err := c.PipelineWire([][]string{{"PING"}, {"SMEMBERS", "missing"}})
	if err != nil || len(wires) != 2 || string(wires[0]) != "+PONG\r\n" || string(wires[1]) != "~0\r\n" {
		t.Errorf("PipelineWire = %q, %v", wires, err)
	}
}
