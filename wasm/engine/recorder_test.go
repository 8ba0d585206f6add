//go:build !js

package engine

import (
	"testing"

	"echomq.dev/playground/internal/redisdiff"
	"echomq.dev/playground/internal/redisnet"
	"echomq.dev/playground/internal/redisserver"
)

// TestRecordFixupReplies records, with -update, what redis-server answers
// to every fixup case (see recorded_test.go) into testdata, on a server of
// its own on a free loopback port, and a fresh connection and an empty
// keyspace for each case.
func TestRecordFixupReplies(t *testing.T) {
	if !redisdiff.Update() {
		t.Skip("records the fixups' Redis replies with -update (and redis-server on PATH)")
	}
	srv := redisserver.Start(t)
	for _, f := range recordedFiles {
		rec := recording(f.name)
		var xs []redisdiff.Exchange
		for _, rc := range f.cases {
			conn, err := redisnet.Dial(srv.Addr())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := conn.Do("FLUSHALL"); err != nil {
				t.Fatal(err)
			}
			r, err := runCase(rc, conn.Do)
			conn.Close()
			if err != nil {
				t.Fatalf("%s: %v", rc.desc, err)
			}
			xs = append(xs, redisdiff.Exchange{Conn: "case", Key: caseKey(rc), Reply: rec.Keep(r)})
		}
		rec.Put(f.name, xs)
		if err := rec.Write(); err != nil {
			t.Fatal(err)
		}
	}
}
