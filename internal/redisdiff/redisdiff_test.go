package redisdiff

// Tests of the comparison's own machinery: the wire reader, the diffs,
// the recording and its replay. They need no server.

import (
	"bufio"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"echomq.dev/playground/wasm/resp"
)

// replaying is a Server that replays rec, as Start makes one where no
// redis-server can run.
func replaying(rec *Recording, test string) *Server {
	s := &Server{rec: rec, test: test, id: test + "#1", scope: test, made: map[string][]Exchange{}}
	s.admin = &Real{srv: s, label: "admin"}
	return s
}

func TestReadNodeKeepsTypeAndBytes(t *testing.T) {
	for _, wire := range []string{
		"+OK\r\n", "-ERR x\r\n", ":-3\r\n", "$3\r\na\x00b\r\n", "$-1\r\n", "*-1\r\n", "*0\r\n",
		"*2\r\n$1\r\na\r\n*1\r\n:1\r\n", "%1\r\n$1\r\nk\r\n,1.5\r\n", "~1\r\n$1\r\nx\r\n", "_\r\n",
		"#t\r\n", "(123\r\n", "=6\r\ntxt:hi\r\n", ">1\r\n$1\r\nm\r\n",
	} {
		n, err := ReadNode(bufio.NewReader(strings.NewReader(wire)))
		if err != nil {
			t.Errorf("%q: %v", wire, err)
			continue
		}
		if got := n.Wire(); got != wire {
			t.Errorf("%q read back as %q (%v)", wire, got, n)
		}
	}
	if _, err := ReadNode(bufio.NewReader(strings.NewReader("?x\r\n"))); err == nil {
		t.Errorf("a line that is not RESP was read")
	}
}

func TestEngineNullsFollowTheProtocol(t *testing.T) {
	r := resp.ArrayReply(resp.NilReply(), resp.BulkReply("x"))
	if got := FromReply(r, false).Wire(); got != "*2\r\n$-1\r\n$1\r\nx\r\n" {
		t.Errorf("RESP2: %q", got)
	}
	if got := FromReply(r, true).Wire(); got != "*2\r\n_\r\n$1\r\nx\r\n" {
		t.Errorf("RESP3: %q", got)
	}
}

func TestDiffNodesNamesTheElement(t *testing.T) {
	a := Node{T: '*', Elems: []Node{{T: '$', S: "x"}, {T: ':', S: "1"}}}
	b := Node{T: '*', Elems: []Node{{T: '$', S: "x"}, {T: '$', S: "1"}}}
	if d := Diff(a, b); !strings.Contains(d, "reply type at [1]") {
		t.Errorf("diff = %q", d)
	}
	if d := Diff(a, a); d != "" {
		t.Errorf("a reply differs from itself: %q", d)
	}
}

func TestUndefinedOrdersCompareAsSets(t *testing.T) {
	bulk := func(s ...string) Node {
		n := Node{T: '*'}
		for _, x := range s {
			n.Elems = append(n.Elems, Node{T: '$', S: x})
		}
		return n
	}
	if d := Diff(SortedElems(bulk("b", "a")), SortedElems(bulk("a", "b"))); d != "" {
		t.Errorf("sets: %s", d)
	}
	if d := Diff(SortedPairs(bulk("f2", "v", "f1", "w")), SortedPairs(bulk("f1", "w", "f2", "v"))); d != "" {
		t.Errorf("pairs: %s", d)
	}
	if d := Diff(SortedPairs(bulk("f1", "v", "f2", "w")), SortedPairs(bulk("f1", "w", "f2", "v"))); d == "" {
		t.Errorf("pairs were taken apart")
	}
}

func TestHashOrderFollowsTheListpackLimits(t *testing.T) {
	small := KeyDump{Type: "hash", Items: []string{"a", "1"}}
	long := KeyDump{Type: "hash", Items: []string{"a", strings.Repeat("v", ListpackValue+1)}}
	many := KeyDump{Type: "hash"}
	for range ListpackEntries + 1 {
		many.Items = append(many.Items, "f", "v")
	}
	shrunk := KeyDump{Type: "hash", Items: []string{"a", "1"}, Encoding: "hashtable"}
	for _, tc := range []struct {
		desc string
		k    KeyDump
		want bool
	}{
		{"small", small, true}, {"a long value", long, false}, {"many fields", many, false}, {"a hash table that shrank", shrunk, false},
	} {
		if got := HashIsOrdered(tc.k); got != tc.want {
			t.Errorf("%s: ordered = %v, want %v", tc.desc, got, tc.want)
		}
	}
	if d := DiffKey(KeyDump{Type: "hash", Items: []string{"b", "2", "a", "1"}, PTTL: -1},
		KeyDump{Type: "hash", Items: []string{"a", "1", "b", "2"}, PTTL: -1}); d == "" {
		t.Errorf("a small hash in another order matched")
	}
}

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

func TestALongReplyIsKeptAsItsDigestAndStillCompared(t *testing.T) {
	rec := NewRecording("unused").DigestOver(16, "DUMP")
	long := resp.BulkReply(strings.Repeat("v", 40))
	wire := resp.Append(nil, long)
	kept := rec.kept([]string{"GET", "k"}, wire)
	if !strings.HasPrefix(kept, "sha256:") {
		t.Fatalf("a %d-byte reply was kept whole", len(wire))
	}
	if got := rec.kept([]string{"dump", "k"}, wire); got != string(wire) {
		t.Errorf("DUMP's reply, named to be kept whole, was kept as %q", got)
	}
	if !Matches(kept, long) || Matches(kept, resp.BulkReply(strings.Repeat("w", 40))) {
		t.Errorf("Matches does not tell the digested reply from another")
	}
	real := Node{Sum: kept}
	if d := Diff(FromReply(long, false), real); d != "" {
		t.Errorf("the same reply against its digest: %s", d)
	}
	if d := Diff(FromReply(resp.BulkReply("other"), false), real); d == "" {
		t.Errorf("another reply matched the digest")
	}
}

// TestAReplyPastMaxKeptStopsTheRecordingByName: a case that makes Redis
// build a huge value stops the recording with the command named, before
// the suite's process holds copies of it enough for the kernel to kill it.
func TestAReplyPastMaxKeptStopsTheRecordingByName(t *testing.T) {
	rec := NewRecording("unused")
	defer func() {
		msg, _ := recover().(string)
		if !strings.Contains(msg, "SETBIT") || !strings.Contains(msg, "MaxKept") {
			t.Errorf("a reply past MaxKept: recovered %q, want a panic naming the command and MaxKept", msg)
		}
	}()
	rec.kept([]string{"SETBIT", "b", "4294967295", "1"}, make([]byte, MaxKept+1))
	t.Error("a reply past MaxKept was kept")
}
