//go:build js

package emq_test

import (
	"testing"

	"echomq.dev/playground/internal/redisnet"
)

// startRedis skips: a wasm test run under Node cannot start processes. The
// host run (go test -race ./...) holds the engine against redis-server.
func startRedis(t testing.TB) *redisnet.Client {
	t.Helper()
	t.Skip("no redis-server under js/wasm; the host test run compares with it")
	return nil
}
