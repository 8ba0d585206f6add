package redisdiff

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestRecordingKeepsBytesAcrossAWrite(t *testing.T) {
	for _, name := range []string{"replies", "replies.gz"} {
		path := filepath.Join(t.TempDir(), name)
		rec := NewRecording(path)
		long := strings.Repeat("x", keyMax+1)
		xs := []Exchange{
			{Conn: "c1", Key: keyOf([]string{"SET", "k", "a\x00\xff\r\n\""}), Reply: "+OK\r\n"},
			{Conn: "admin", Key: keyOf([]string{"EVAL", long, "0"}), Reply: "$3\r\n\x00\xfe\n\r\n"},
		}
		rec.Put("TestX#1 > TestX/one", xs)
		if err := rec.Write(); err != nil {
			t.Fatal(err)
		}
		got, err := NewRecording(path).Take("TestX#1 > TestX/one")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, xs) {
			t.Errorf("%s: read back %q, wrote %q", name, got, xs)
		}
		if !strings.HasPrefix(got[1].Key, "sha256:") {
			t.Errorf("%s: a long command is kept as %q, not its digest", name, got[1].Key)
		}
		if _, err := NewRecording(path).Take("TestY#1"); err == nil || !strings.Contains(err.Error(), "-update") {
			t.Errorf("%s: a take that is not there: %v", name, err)
		}
	}
}

// replaying is a Server that replays rec, as Start makes one where no
// redis-server can run.
func replaying(rec *Recording, test string) *Server {
	s := &Server{rec: rec, id: test + "#1", scope: test, made: map[string][]Exchange{}}
	s.admin = &Real{srv: s, label: "admin"}
	return s
}

func TestReplayFailsOnACommandThatWasNotRecorded(t *testing.T) {
	rec := NewRecording(filepath.Join(t.TempDir(), "r"))
	rec.Put("T#1", []Exchange{
		{Conn: "admin", Key: keyOf([]string{"GET", "k"}), Reply: "$1\r\nv\r\n"},
		{Conn: "admin", Key: keyOf([]string{"GET", "j"}), Reply: "$-1\r\n"},
	})
	if err := rec.Write(); err != nil {
		t.Fatal(err)
	}
	s := replaying(NewRecording(rec.Path()), "T")
	if n, err := s.admin.Node("GET", "k"); err != nil || n.S != "v" {
		t.Fatalf("GET k = %v, %v", n, err)
	}
	if _, err := s.admin.Node("GET", "other"); err == nil || !strings.Contains(err.Error(), "record again") {
		t.Errorf("a command the recording does not hold: %v", err)
	}
	s = replaying(NewRecording(rec.Path()), "T")
	s.admin.Node("GET", "k")
	s.admin.Node("GET", "j")
	if _, err := s.admin.Node("GET", "k"); err == nil || !strings.Contains(err.Error(), "ends before") {
		t.Errorf("a command past the recording's end: %v", err)
	}
}

func TestASealedDumpComparesAsTheLiveOne(t *testing.T) {
	big := strings.Repeat("payload ", sealWhole/8+1)
	real := Dump{
		"row":   {Type: "hash", Items: []string{"state", "pending", "payload", big}, PTTL: -1, Encoding: "hashtable"},
		"lease": {Type: "string", Items: []string{"x"}, PTTL: 30000},
	}
	same := Dump{
		"row":   {Type: "hash", Items: []string{"payload", big, "state", "pending"}, PTTL: -1},
		"lease": {Type: "string", Items: []string{"x"}, PTTL: 29000},
	}
	sealed := seal(real)
	if _, whole := unseal(sealed); whole {
		t.Fatalf("a dump of %d bytes was kept whole", len(big))
	}
	if ds := diffSealed(same, sealed); ds != nil {
		t.Errorf("the same keyspace (a hash table's pairs in another order, a TTL 1 s on): %q", ds)
	}
	late := Dump{"row": same["row"], "lease": {Type: "string", Items: []string{"x"}, PTTL: 30000 - PTTLSlack - 1}}
	if ds := diffSealed(late, sealed); len(ds) != 1 || !strings.Contains(ds[0], "PTTL") {
		t.Errorf("a TTL past the slack: %q", ds)
	}
	other := Dump{"row": {Type: "hash", Items: []string{"state", "active", "payload", big}, PTTL: -1}, "lease": same["lease"]}
	if ds := diffSealed(other, sealed); len(ds) == 0 {
		t.Errorf("another value matched the recording")
	}

	small := Dump{"k": {Type: "list", Items: []string{"a", "b"}, PTTL: -1}}
	eng := Dump{"k": {Type: "list", Items: []string{"b", "a"}, PTTL: -1}}
	if got, want := diffSealed(eng, seal(small)), DiffDumps(eng, small); !reflect.DeepEqual(got, want) || len(got) == 0 {
		t.Errorf("a small dump: replayed %q, live %q", got, want)
	}
}
