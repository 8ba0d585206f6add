package api

import (
	"bytes"
	"strings"
	"testing"
)

// TestNotesSayWhereRedisLeavesTheReplyOpen: exec, cli and trace carry the
// note beside a reply whose order or pick Redis leaves to its internals,
// and no note beside one it defines, such as the lesson's own.
func TestNotesSayWhereRedisLeavesTheReplyOpen(t *testing.T) {
	p := New()
	call(t, p, "exec", []any{"SADD", "tags", "red", "green", "blue"})
	call(t, p, "exec", []any{"SADD", "ids", "3", "1", "2"})

	got := call(t, p, "exec", []any{"SMEMBERS", "tags"})
	if note, _ := got["note"].(string); !strings.HasPrefix(note, "Redis may order these differently") || got["type"] != "array" {
		t.Errorf("SMEMBERS of a set of strings: %v, want an array with the note on order", got)
	}
	if got := call(t, p, "exec", []any{"SMEMBERS", "ids"}); got["note"] != nil {
		t.Errorf("SMEMBERS of an intset, in Redis's numeric order: note %q, want none", got["note"])
	}
	if got := call(t, p, "exec", []any{"SRANDMEMBER", "tags"}); !strings.Contains(got["note"].(string), "picks at random") {
		t.Errorf("SRANDMEMBER: note %q", got["note"])
	}
	if got := call(t, p, "cli", "SMEMBERS tags"); !strings.HasPrefix(got["note"].(string), "Redis may order these differently") {
		t.Errorf("cli SMEMBERS: %v", got)
	}
	if got := call(t, p, "cli", "SMEMBERS ids"); got["note"] != nil {
		t.Errorf("cli SMEMBERS of an intset: note %q", got["note"])
	}
	walk := "local t, o = {[{}] = 'a', [{}] = 'b'}, {} for _, v in pairs(t) do o[#o + 1] = v end return o"
	if got := call(t, p, "trace", walk); !strings.Contains(got["note"].(string), "walked a table with pairs or next") {
		t.Errorf("trace of a walk: note %v", got["note"])
	}
	if got := call(t, p, "trace", "enqueue", []any{"emq:{q}:job:JOB-1", "emq:{q}:pending"}, []any{"JOB-1", "{}"}); got["note"] != nil {
		t.Errorf("trace of the lesson's enqueue: note %q, want none", got["note"])
	}
	if got := call(t, p, "enqueue", "q", "JOB-2", "{}"); got["note"] != nil {
		t.Errorf("enqueue: note %q", got["note"])
	}
}

// TestNotesAreWrittenAsThePlainPathWritesThem: the note spliced into a
// reply written as text lands where encoding/json puts it.
func TestNotesAreWrittenAsThePlainPathWritesThem(t *testing.T) {
	fast, plain := NewModule(), NewModule(Options{Reference: true})
	for _, req := range []string{
		`["exec",[["SADD","s","a","b","\u00e9\u2028"]]]`,
		`["exec",[["SMEMBERS","s"]]]`,
		`["exec",[["SET","bin","\u00ff"]]]`,
		`["exec",[["KEYS","*"]]]`,
		`["exec",[["HELLO","3"]]]`,
		`["exec",[["SMEMBERS","s"]]]`,
		`["cli",["SSCAN s 0"]]`,
	} {
		got, want := fast.Serve(nil, []byte(req)), plain.Serve(nil, []byte(req))
		if !bytes.Equal(got, want) {
			t.Fatalf("%s:\n written %s\n   plain %s", req, got, want)
		}
	}
}
