package redisdiff

// Tests of the comparison's own machinery, which need no server.

import (
	"bufio"
	"strings"
	"testing"

	"echomq.dev/playground/wasm/resp"
)

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
