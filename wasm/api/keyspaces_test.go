package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"echomq.dev/playground/internal/allocated"
)

// in runs method in a keyspace through Keyspaces.Call, as the bridge does,
// and returns the result as the JS caller sees it.
func in(t *testing.T, k *Keyspaces, keyspace, method string, args ...any) map[string]any {
	t.Helper()
	out, err := json.Marshal(k.Call([]any{keyspace, method, args}))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("%s: result is not an object: %s", method, out)
	}
	return m
}

func pending(t *testing.T, k *Keyspaces, keyspace string) []any {
	t.Helper()
	s := in(t, k, keyspace, "snapshot", "q")
	list, _ := s["pending"].([]any)
	return list
}

// Two embeds in two keyspaces never see each other's jobs, clocks or
// resets; the default keyspace is the per-method functions' one.
func TestKeyspacesAreSeparate(t *testing.T) {
	k := NewKeyspaces()
	if got := in(t, k, "a", "enqueue", "q", "JOB-1", "{}"); got["verdict"] != "enqueued" {
		t.Fatalf("enqueue in a: %v", got)
	}
	in(t, k, "b", "advance", 5000.0)
	if got := pending(t, k, "b"); len(got) != 0 {
		t.Errorf("keyspace b sees a's jobs: %v", got)
	}
	if got := pending(t, k, "a"); len(got) != 1 {
		t.Errorf("keyspace a lost its job: %v", got)
	}
	if a, b := in(t, k, "a", "now")["now"], in(t, k, "b", "now")["now"]; a == b {
		t.Errorf("the clocks moved together: a %v, b %v", a, b)
	}
	in(t, k, "b", "reset")
	if got := pending(t, k, "a"); len(got) != 1 {
		t.Errorf("b's reset emptied a: %v", got)
	}
	if got := call(t, k.Default(), "snapshot", "q")["pending"].([]any); len(got) != 0 {
		t.Errorf("the default keyspace sees a's jobs: %v", got)
	}
	if got := in(t, k, "a", "drop"); got["error"] != "args" {
		t.Errorf("drop is not a keyspace's method: %v", got)
	}
	k.Drop([]any{"a"})
	if got := pending(t, k, "a"); len(got) != 0 {
		t.Errorf("a dropped keyspace comes back with its jobs: %v", got)
	}
}

func TestKeyspacesWrongArguments(t *testing.T) {
	k := NewKeyspaces()
	for _, tc := range []struct {
		args []any
		want string
	}{
		{[]any{"a", "now"}, "takes 3 arguments"},
		{[]any{1.0, "now", []any{}}, "keyspace must be a string"},
		{[]any{"a", "now", "x"}, "args must be an array"},
		{[]any{strings.Repeat("k", 200), "now", []any{}}, "at most 128 bytes"},
		{[]any{"a", "flush", []any{}}, "no method"},
	} {
		out, _ := json.Marshal(k.Call(tc.args))
		if !strings.Contains(string(out), `"error":"args"`) || !strings.Contains(string(out), tc.want) {
			t.Errorf("call(%v) = %s; want an args error saying %q", tc.args, out, tc.want)
		}
	}
	for i := k.Len(); i < MaxKeyspaces; i++ {
		k.Call([]any{fmt.Sprint("k", i), "now", []any{}})
	}
	if out, _ := json.Marshal(k.Call([]any{"one too many", "now", []any{}})); !strings.Contains(string(out), "drop one first") {
		t.Errorf("past %d keyspaces: %s", MaxKeyspaces, out)
	}
}

// On a course page every embed calls in a keyspace of its own, and the
// shared worker asks the default keyspace only for the scripts (its
// "ready" message): that must not make an engine nobody calls, a Lua
// state and all, before the first embed's first answer. The default
// keyspace still works as before once a call needs its engine.
func TestTheDefaultKeyspaceMakesItsEngineAtItsFirstCall(t *testing.T) {
	New() // the process-wide work of the first engine
	var k *Keyspaces
	var scripts []Object
	n := allocated.Bytes(func() {
		k = NewKeyspaces()
		scripts, _ = k.Default().Call("scripts", nil).([]Object)
	})
	if len(scripts) == 0 {
		t.Fatalf("scripts from a fresh default keyspace: %v", scripts)
	}
	if n > 100<<10 {
		t.Errorf("the module's keyspaces and their scripts allocated %d bytes; want under 100 KiB (no engine yet)", n)
	}
	if got := k.Default().Call("enqueue", []any{"q", "JOB-1", "{}"}); Field(got, "verdict") != "enqueued" {
		t.Errorf("the default keyspace's first enqueue: %v", got)
	}
	if p := pending(t, k, ""); len(p) != 1 {
		t.Errorf("after one enqueue the default keyspace holds %v pending", p)
	}
}
