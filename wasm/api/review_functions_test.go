package api

import (
	"reflect"
	"testing"

	"echomq.dev/playground/lua"
)

// A link that loads a library and calls its function: the library's code
// runs at FUNCTION LOAD (sandboxed, but Lua) and its function at FCALL, so
// review shows the code, with both calls; replayed with nothing allowed,
// neither runs and the keyspace stays empty; replayed with what review
// found, the function writes its key.
func TestReviewShowsALibrary(t *testing.T) {
	code := "#!lua name=ranlib\nredis.register_function('ran', function(keys) redis.call('SET', keys[1], 'ran') return 'ran' end)"
	sha := lua.SHA1Hex(code)
	for _, tc := range []struct {
		desc string
		ops  [][]any
	}{
		{"by exec", [][]any{op("exec", []any{"FUNCTION", "LOAD", code}), op("exec", []any{"FCALL", "ran", "1", "ran"})}},
		{"at the console, escaped", [][]any{op("cli", `"\x46UNCTION" load "#!lua name=ranlib\nredis.register_function('ran', function(keys) redis.call('SET', keys[1], 'ran') return 'ran' end)"`),
			op("cli", `"fcall" ran 1 ran`)}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			p := New()
			scripts := reviewOf(t, p, tc.ops...)
			want := []map[string]any{{"sha": sha, "source": code, "commands": []any{"FUNCTION LOAD"}, "ops": []any{0.0}}}
			if !reflect.DeepEqual(scripts, want) {
				t.Errorf("review = %v\nwant %v", scripts, want)
			}
			for _, o := range tc.ops {
				p.Call("replay", []any{o, []any{}})
			}
			if ran(t, p) {
				t.Errorf("replayed with nothing allowed, the function ran")
			}
			if !replayAll(t, []any{sha}, tc.ops...) {
				t.Errorf("replayed with the library allowed, the function did not run")
			}
		})
	}
	// A library the engine holds already is shown where FCALL runs it.
	p := New()
	call(t, p, "exec", []any{"FUNCTION", "LOAD", code})
	scripts := reviewOf(t, p, op("exec", []any{"FCALL", "RAN", "1", "ran"}))
	want := []map[string]any{{"sha": sha, "source": code, "commands": []any{"FCALL"}, "ops": []any{0.0}}}
	if !reflect.DeepEqual(scripts, want) {
		t.Errorf("review of an FCALL = %v\nwant %v", scripts, want)
	}
}
