package wire

import (
	"strings"
	"testing"

	"echomq.dev/playground/wasm/engine"
)

// session sends chunks on one connection to a fresh engine, in order, and
// returns everything the connection wrote and whether it asked to close.
func session(t *testing.T, chunks ...string) (string, bool) {
	t.Helper()
	c := NewServer(engine.MustNew(), false).Open()
	defer c.Close()
	var out []byte
	var closed bool
	for _, ch := range chunks {
		if closed {
			t.Fatalf("Feed(%q) after the connection asked to close", ch)
		}
		out, closed = c.Feed(out, []byte(ch))
	}
	return string(out), closed
}

func TestFeed(t *testing.T) {
	tests := []struct {
		desc   string
		chunks []string
		want   string
		closed bool
	}{
		{"a multibulk command", []string{"*1\r\n$4\r\nPING\r\n"}, "+PONG\r\n", false},
		{"an inline command", []string{"PING\r\n"}, "+PONG\r\n", false},
		{"an inline command ended by \\n alone", []string{"PING\nPING\n"}, "+PONG\r\n+PONG\r\n", false},
		{"pipelined, both kinds", []string{"SET k v\r\n*2\r\n$3\r\nGET\r\n$1\r\nk\r\n"}, "+OK\r\n$1\r\nv\r\n", false},
		{"a command in pieces, cut anywhere", []string{"*2\r", "\n$3\r\nGE", "T\r\n$", "1\r\nk", "\r", "\n"}, "$-1\r\n", false},
		{"a bulk with CRLF and NUL inside", []string{"*2\r\n$4\r\nECHO\r\n$4\r\na\r\n\x00\r\n"}, "$4\r\na\r\n\x00\r\n", false},
		{"an empty bulk", []string{"*2\r\n$4\r\nECHO\r\n$0\r\n\r\n"}, "$0\r\n\r\n", false},
		{"the two bytes after a bulk are skipped unread", []string{"*1\r\n$4\r\nPINGxx*1\r\n$4\r\nPING\r\n"}, "+PONG\r\n+PONG\r\n", false},
		{"empty lines and *0 and *-1 are no requests", []string{"\r\n\n*0\r\n*-1\r\nPING\r\n"}, "+PONG\r\n", false},
		{"double quotes with escapes", []string{`ECHO "a b\x41\n\"\\"` + "\r\n"}, "$7\r\na bA\n\"\\\r\n", false},
		{"single quotes with \\'", []string{`ECHO 'it\'s \n'` + "\r\n"}, "$7\r\nit's \\n\r\n", false},
		{"an empty quoted word", []string{`ECHO ""` + "\r\n"}, "$0\r\n\r\n", false},
		{"an inline line with a NUL never ends", []string{"ECHO a\x00b\r\n"}, "", false},
		{"a closing quote must end its word", []string{`ECHO "a"b` + "\r\nPING\r\n"}, "-ERR Protocol error: unbalanced quotes in request\r\n", true},
		{"an unclosed quote", []string{"PING\r\nECHO \"open\r\n"}, "+PONG\r\n-ERR Protocol error: unbalanced quotes in request\r\n", true},
		{"a count that is not a number", []string{"*abc\r\n"}, "-ERR Protocol error: invalid multibulk length\r\n", true},
		{"a count with a leading zero", []string{"*01\r\n$4\r\nPING\r\n"}, "-ERR Protocol error: invalid multibulk length\r\n", true},
		{"a count past INT_MAX", []string{"*2147483648\r\n"}, "-ERR Protocol error: invalid multibulk length\r\n", true},
		{"a count of INT_MAX waits for its arguments", []string{"*2147483647\r\n"}, "", false},
		{"an argument that is not a bulk", []string{"*1\r\nx\r\n"}, "-ERR Protocol error: expected '$', got 'x'\r\n", true},
		{"an empty line where an argument should be", []string{"*1\r\n\r\n"}, "-ERR Protocol error: expected '$', got ' '\r\n", true},
		{"a negative bulk length", []string{"*1\r\n$-1\r\n"}, "-ERR Protocol error: invalid bulk length\r\n", true},
		{"a bulk length with a plus sign", []string{"*1\r\n$+4\r\nPING\r\n"}, "-ERR Protocol error: invalid bulk length\r\n", true},
		{"a bulk length past 512 MiB", []string{"*1\r\n$536870913\r\n"}, "-ERR Protocol error: invalid bulk length\r\n", true},
		{"an inline request past 64 KiB without its newline", []string{"PING" + strings.Repeat("x", 64*1024)}, "-ERR Protocol error: too big inline request\r\n", true},
		{"a count line past 64 KiB", []string{"*1" + strings.Repeat("1", 64*1024)}, "-ERR Protocol error: too big mbulk count string\r\n", true},
		{"a bulk length line past 64 KiB", []string{"*1\r\n$" + strings.Repeat("1", 64*1024)}, "-ERR Protocol error: too big bulk count string\r\n", true},
		{"QUIT answers OK and closes, whatever follows", []string{"QUIT\r\nPING\r\n"}, "+OK\r\n", true},
		{"QUIT inside MULTI is not queued", []string{"MULTI\r\nquit now\r\n"}, "+OK\r\n+OK\r\n", true},
		{"a null inside an array", []string{"MGET a b\r\n"}, "*2\r\n$-1\r\n$-1\r\n", false},
		{"CLIENT REPLY OFF drops every reply until ON", []string{"CLIENT REPLY OFF\r\nPING a\r\nGET\r\n", "CLIENT REPLY ON\r\nPING c\r\n"}, "+OK\r\n$1\r\nc\r\n", false},
		{"CLIENT REPLY SKIP drops its own and the next reply", []string{"CLIENT REPLY SKIP\r\nPING a\r\nPING b\r\n"}, "$1\r\nb\r\n", false},
		{"CLIENT REPLY inside MULTI is queued, as Redis queues it", []string{"MULTI\r\nCLIENT REPLY OFF\r\nPING\r\n"}, "+OK\r\n+QUEUED\r\n+QUEUED\r\n", false},
		{"a protocol error under CLIENT REPLY OFF is not written", []string{"CLIENT REPLY OFF\r\n*x\r\n"}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, closed := session(t, tt.chunks...)
			if got != tt.want || closed != tt.closed {
				t.Errorf("got %q (close %v), want %q (close %v)", got, closed, tt.want, tt.closed)
			}
		})
	}
}

func TestRESP3Nulls(t *testing.T) {
	got, _ := session(t, "HELLO 3\r\n", "SET a 1\r\n", "MGET a b\r\n")
	_, rest, _ := strings.Cut(got, "+OK\r\n")
	if want := "*2\r\n$1\r\n1\r\n_\r\n"; rest != want {
		t.Errorf("MGET on RESP3: got %q, want %q", rest, want)
	}
}

func TestConnectionsAreClients(t *testing.T) {
	s := NewServer(engine.MustNew(), false)
	a, b := s.Open(), s.Open()
	feed := func(c *Conn, in string) string {
		out, _ := c.Feed(nil, []byte(in))
		return string(out)
	}
	feed(a, "SET k 1\r\n")
	if got, want := feed(a, "WATCH k\r\nMULTI\r\nINCR k\r\n"), "+OK\r\n+OK\r\n+QUEUED\r\n"; got != want {
		t.Fatalf("a: got %q, want %q", got, want)
	}
	if got, want := feed(b, "HELLO 3\r\nGET nothing\r\n"), "_\r\n"; !strings.HasSuffix(got, want) {
		t.Errorf("b on RESP3: got %q, want it to end in %q", got, want)
	}
	if got, want := feed(a, "GET nothing\r\n"), "+QUEUED\r\n"; got != want {
		t.Errorf("a is still in its transaction and on RESP2: got %q, want %q", got, want)
	}
	feed(b, "SET k 2\r\n")
	if got, want := feed(a, "EXEC\r\n"), "*-1\r\n"; got != want {
		t.Errorf("EXEC after another client wrote the watched key: got %q, want %q", got, want)
	}
	// A connection that closes in the middle of a transaction leaves no
	// transaction behind: the next client's writes run at once.
	c := s.Open()
	feed(c, "MULTI\r\n")
	c.Close()
	if got, want := feed(b, "INCR k\r\n"), ":3\r\n"; got != want {
		t.Errorf("after a closed client's MULTI: got %q, want %q", got, want)
	}
}

func TestWallClock(t *testing.T) {
	e := engine.MustNew()
	s := NewServer(e, true)
	before := e.Now()
	if before == engine.Start {
		t.Fatalf("a wall-clock server left the clock at the playground's start")
	}
	c := s.Open()
	out, _ := c.Feed(nil, []byte("SET k v PX 1\r\n"))
	if string(out) != "+OK\r\n" {
		t.Fatalf("SET: %q", out)
	}
	// A real server's key expires while nobody looks; so does this one's.
	for deadline := before + 5000; ; {
		out, _ = c.Feed(out[:0], []byte("EXISTS k\r\n"))
		if string(out) == ":0\r\n" {
			break
		}
		if e.Now() > deadline {
			t.Fatalf("the key with a 1 ms TTL still exists 5 s later")
		}
	}
}

// FuzzRequests holds the reader to one rule: how the bytes are cut into
// reads never changes what it reads. The same bytes fed at once and fed in
// pieces give the same requests and the same protocol error.
func FuzzRequests(f *testing.F) {
	for _, seed := range []string{
		"*1\r\n$4\r\nPING\r\n", "PING\r\n", `SET "a b" 'c\'d' "\x41"` + "\n", "*2\r\n$3\r\nGET\r\n$1\r\nk\r\n",
		"*abc\r\n", "*1\r\nx\r\n", "\r\n*0\r\n*-1\r\nPING\r\n", `ECHO "open` + "\r\n", "*1\r\n$4\r\nPINGxx",
	} {
		f.Add([]byte(seed), uint8(3))
	}
	f.Fuzz(func(t *testing.T, in []byte, cut uint8) {
		whole, wholeErr := readAll([][]byte{in})
		var pieces [][]byte
		step := int(cut%16) + 1
		for i := 0; i < len(in); i += step {
			pieces = append(pieces, in[i:min(i+step, len(in))])
		}
		split, splitErr := readAll(pieces)
		if wholeErr != splitErr || strings.Join(whole, "\x00|") != strings.Join(split, "\x00|") {
			t.Fatalf("at once: %q %q; in pieces of %d: %q %q", whole, wholeErr, step, split, splitErr)
		}
	})
}

// readAll feeds pieces to a reader and returns every request it read, each
// as its arguments joined, and the protocol error it stopped at.
func readAll(pieces [][]byte) ([]string, string) {
	r := reader{bulk: -1}
	var got []string
	for _, p := range pieces {
		r.feed(p)
		for {
			args, ok, perr := r.next()
			if perr != "" {
				return got, perr
			}
			if !ok {
				break
			}
			got = append(got, strings.Join(args, " "))
		}
		r.compact()
	}
	return got, ""
}

func TestSplitArgs(t *testing.T) {
	tests := []struct {
		desc string
		line string
		want []string
		ok   bool
	}{
		{"words", "  SET  k\tv ", []string{"SET", "k", "v"}, true},
		{"quotes join words", `"a b" 'c d'`, []string{"a b", "c d"}, true},
		{"an unknown escape is the byte", `"\q"`, []string{"q"}, true},
		{"\\x needs two hex digits", `"\x4"`, []string{"x4"}, true},
		{"a quote inside a word starts a quoted part", `a"b c"`, []string{"ab c"}, true},
		{"nothing", "   ", nil, true},
		{"an unclosed single quote", `'abc`, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			got, ok := splitArgs([]byte(tt.line))
			if ok != tt.ok || strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
				t.Errorf("splitArgs(%q) = %q, %v; want %q, %v", tt.line, got, ok, tt.want, tt.ok)
			}
		})
	}
}
