package extracmds

import (
	"strings"
	"testing"

	"echomq.dev/playground/wasm/resp"
)

// stringKeys is a keyspace of string keys only, for the tests.
type stringKeys map[string]string

func (k stringKeys) TypeOf(key string) string {
	if _, ok := k[key]; ok {
		return "string"
	}
	return "none"
}
func (k stringKeys) Get(key string) (string, bool)    { v, ok := k[key]; return v, ok }
func (stringKeys) HGet(string, string) (string, bool) { return "", false }
func (stringKeys) Elements(string) []string           { return nil }
func (stringKeys) StoreList(string, []string)         {}
func (k stringKeys) SetString(key, val string)        { k[key] = val }

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
