package engine

import (
	"strings"
	"testing"

	"echomq.dev/playground/wasm/resp"
)

// TestCommandInfoIsTheEntryAsked: COMMAND INFO answers the entries of the
// names asked, in their order, nil for one Redis does not know; miniredis
// answered every name with its whole table. (COMMAND GETKEYS is held to a
// live redis-server by wasm/fidelity's server/command-getkeys.)
func TestCommandInfoIsTheEntryAsked(t *testing.T) {
	e := MustNew()
	r := e.exec("COMMAND", "INFO", "get", "NOSUCH", "Set")
	if len(r.Elems) != 3 || r.Elems[0].Elems[0].Str != "get" || r.Elems[2].Elems[0].Str != "set" || r.Elems[1].Kind != resp.Nil {
		t.Errorf("COMMAND INFO get NOSUCH Set: %s", r)
	}
	if all := e.exec("COMMAND", "INFO"); len(all.Elems) < 200 {
		t.Errorf("COMMAND INFO with no name: %d entries, want the whole table", len(all.Elems))
	}
	if r := e.exec("COMMAND", "GETKEYSANDFLAGS", "set", "a", "b"); !r.IsError() || !strings.Contains(r.Str, "not available") {
		t.Errorf("COMMAND GETKEYSANDFLAGS: %s, want an error that says it is not available", r)
	}
}
