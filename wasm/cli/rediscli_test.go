//go:build !js

package cli

// The session's wants, checked against the real redis-cli (Debian's
// redis-tools, which comes with redis-server) talking to a real
// redis-server: once through its prompt, which also proves Split, and once
// with each command's arguments on the command line, which proves Format
// alone, under RESP2 and, with -3, under RESP3.

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"echomq.dev/playground/internal/needs"
	"echomq.dev/playground/internal/redisnet"
	"echomq.dev/playground/internal/redisserver"
	"echomq.dev/playground/wasm/engine"
)

// cliBinary is redis-cli, or the test is skipped (failed in CI, where it
// must be there).
func cliBinary(t *testing.T) string {
	return needs.Program(t, "redis-cli", "apt-get install redis-tools")
}

// startRedis starts a redis-server for the test and returns redis-cli and
// the server's port.
func startRedis(t *testing.T) (bin, port string) {
	t.Helper()
	bin = cliBinary(t)
	srv := redisserver.Start(t)
	_, port, err := net.SplitHostPort(srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	return bin, port
}

// sendDirectly runs one command on the server over a connection of its own.
func sendDirectly(t *testing.T, port string, args []string) {
	t.Helper()
	c, err := redisnet.Dial(net.JoinHostPort("127.0.0.1", port))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Do(args...); err != nil {
		t.Fatalf("%q: %v", args, err)
	}
}

// marker is a command typed after each step, whose reply tells where the
// step's output ends (an empty line prints nothing at all).
func marker(i int) (line, echo string) {
	word := fmt.Sprintf("@@step-%d@@", i)
	return "ECHO " + word, `"` + word + `"`
}

func TestPromptMatchesRedisCli(t *testing.T) {
	bin, port := startRedis(t)
	var in strings.Builder
	for i, s := range session {
		line, _ := marker(i)
		in.WriteString(s.line + "\n" + line + "\n")
	}
	// With no command on its command line redis-cli reads lines, as its
	// prompt does; --no-raw keeps the human format without a terminal.
	cmd := exec.CommandContext(cliContext(t), bin, "--no-raw", "-p", port)
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("redis-cli: %v\n%s", err, out)
	}
	rest := string(out)
	eng := engine.MustNew().NewClient()
	for i, s := range session {
		_, echo := marker(i)
		before, after, ok := strings.Cut(rest, echo+"\n")
		if !ok {
			t.Fatalf("redis-cli's output stops before step %d (%s):\n%s", i, s.line, rest)
		}
		rest = after
		got := masked(strings.TrimSuffix(before, "\n"))
		if got != s.want {
			t.Errorf("redis> %s\nredis-cli printed:\n%s\nthe session wants:\n%s\nthe console prints:\n%s",
				s.line, got, s.want, masked(typed(eng, s.line)))
		}
	}
}

func TestArgumentsMatchRedisCli(t *testing.T) {
	bin, port := startRedis(t)
	resp3 := false
	for _, s := range session {
		args, err := Split(s.line)
		if err != nil || len(args) == 0 {
			continue // nothing to send: the prompt test covers these
		}
		if strings.Contains(strings.Join(args, ""), "\x00") {
			// A NUL cannot be passed on a command line; send the command
			// as a client would, so that later steps find its writes.
			sendDirectly(t, port, args)
			continue
		}
		flags := []string{"--no-raw", "-p", port}
		if resp3 {
			flags = append(flags, "-3") // redis-cli sends HELLO 3 when it connects
		}
		out, err := exec.CommandContext(cliContext(t), bin, append(flags, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("redis-cli %q: %v\n%s", args, err, out)
		}
		if got := masked(strings.TrimSuffix(string(out), "\n")); got != s.want {
			t.Errorf("redis-cli %s %q printed:\n%s\nthe session wants:\n%s", strings.Join(flags[:1], " "), args, got, s.want)
		}
		if strings.EqualFold(args[0], "HELLO") && len(args) > 1 {
			resp3 = args[1] == "3"
		}
	}
}

// cliContext bounds one redis-cli run: a redis-cli that waits for ever (a
// server that stopped answering) fails the test with its name instead of
// hanging the whole package until go test's own timeout.
func cliContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}
