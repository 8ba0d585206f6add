package emq_test

import (
	"testing"

	"echomq.dev/playground/internal/redisdiff"
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
