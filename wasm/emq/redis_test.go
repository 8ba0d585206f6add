package emq_test

import (
	"strings"
	"testing"

	"echomq.dev/playground/internal/redisdiff"
	"echomq.dev/playground/wasm/emq"
)

// replies is redis-server's replies to this package's tests, which the
// runs without a server (js/wasm among them) hold the engine to. go test
// -update against redis-server records it.
var replies = redisdiff.NewRecording("testdata/redis7.replies.gz")

func TestMain(m *testing.M) { redisdiff.Main(m, replies) }

// startRedis gives t a real redis-server and a connection to it: a live
// one, or its recorded replies where none can run. In CI a missing
// redis-server fails the test.
func startRedis(t testing.TB) *redisdiff.Real {
	t.Helper()
	return redisdiff.Start(t, replies).Admin()
}

// keyspace is everything c holds, read as internal/redisdiff reads a
// server to compare it.
func keyspace(t testing.TB, c emq.Conn) redisdiff.Dump {
	t.Helper()
	d, err := redisdiff.DumpKeyspace(redisdiff.Replies{C: c}, false, handleDatabases)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// keyspaceChange says how the keyspace after differs from before; "" when
// nothing changed. (The diff's "engine" is after, its "redis" before.)
func keyspaceChange(before, after redisdiff.Dump) string {
	return strings.Join(redisdiff.DiffDumps(after, before), "\n")
}
