//go:build !js

package engine

import (
	"testing"

	"echomq.dev/playground/internal/golden"
	"echomq.dev/playground/internal/redisnet"
	"echomq.dev/playground/internal/redisserver"
)

// TestRecordFixupReplies records, with -update, what redis-server answers
// to every fixup case (see recorded_test.go) into testdata, on a server of
// its own on a free loopback port, and a fresh connection and an empty
// keyspace for each case.
func TestRecordFixupReplies(t *testing.T) {
	if !*update {
		t.Skip("records the fixups' Redis replies with -update (and redis-server on PATH)")
	}
	srv := redisserver.Start(t)
	for _, f := range recordedFiles {
		var entries []golden.Entry
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
			entries = append(entries, golden.Entry{Desc: rc.desc, Inputs: []string{rc.input()}, Reply: r})
		}
		if err := golden.Write(recordedPath(f.name), entries); err != nil {
			t.Fatal(err)
		}
	}
}
