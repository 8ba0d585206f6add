package extracmds

import (
	"strings"
	"testing"

	"echomq.dev/playground/wasm/resp"
)

// stringKeys is a keyspace of string keys only, for the tests.
type stringKeys map[string]string

func (k stringKeys) Do(args ...string) resp.Reply {
	v, ok := k[args[1]]
	switch {
	case args[0] == "TYPE" && ok:
		return resp.StatusReply("string")
	case args[0] == "TYPE":
		return resp.StatusReply("none")
	case ok:
		return resp.BulkReply(v)
	}
	return resp.NilReply()
}

func (stringKeys) SortedSet(string) []string { return nil }

// A learner's LCS of two long strings is refused with Redis's words for a
// table it cannot allocate, rather than taking the tab's memory; one just
// inside the bound is answered.
func TestLCSBoundsItsTable(t *testing.T) {
	ks := stringKeys{"a": strings.Repeat("ab", 1100), "b": strings.Repeat("ba", 1100), "c": strings.Repeat("x", 2000)}
	if r := LCS(ks, []string{"LCS", "a", "b", "LEN"}); r.Str != "ERR Insufficient memory, failed allocating transient memory for LCS" {
		t.Errorf("LCS of two 2,200-byte strings = %v, want the allocation error", r)
	}
	if r := LCS(ks, []string{"LCS", "c", "c", "LEN"}); !r.Equal(resp.IntReply(2000)) {
		t.Errorf("LCS of a 2,000-byte string with itself = %v, want 2000", r)
	}
}
