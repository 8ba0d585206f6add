//go:build !js

package emq_test

import (
	"testing"

	"echomq.dev/playground/internal/redisnet"
	"echomq.dev/playground/internal/redisserver"
)

// startRedis starts a real redis-server for t and connects to it. Without
// the binary the test is skipped locally and fails when CI=true.
func startRedis(t testing.TB) *redisnet.Client {
	t.Helper()
	srv := redisserver.Start(t)
	c, err := redisnet.Dial(srv.Addr())
	if err != nil {
		t.Fatalf("dial redis-server %s: %v", srv.Addr(), err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
