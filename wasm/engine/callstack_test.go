//go:build !(js && wasm)

package engine

import (
	"strings"
	"testing"

	"echomq.dev/playground/wasm/resp"
)

// Natively only: 20,000 calls deep outlasts the script's budget in
// WebAssembly on a loaded machine. A recursion through a metamethod stops
// 200 deep, as in Redis, in both (see ccall_test.go).

// TestEveryDeepRecursionEndsInLuasStackOverflow: the engine's Lua states
// grow their call stacks, and gopher-lua's growing stack, unlike its fixed
// one, never says it is full; past its size it panics in words of its own
// ("lua callstack overflow", at line 0). A recursion of Lua calls (a
// call, __call) must still end in the error the 20,000-frame limit has always raised,
// at the line that made the call, and the engine must serve the next call.
func TestEveryDeepRecursionEndsInLuasStackOverflow(t *testing.T) {
	e := MustNew()
	for _, tc := range []struct{ what, script string }{
		{"a call", "local function f(n) return 1 + f(n + 1) end\nreturn f(0)"},
		{"__call", "local t = setmetatable({}, {__call = function(self, n) return 1 + self(n + 1) end})\nreturn t(1)"},
	} {
		r := e.exec("EVAL", tc.script, "0")
		if r.Kind != resp.Error || !strings.Contains(r.Str, ": stack overflow") || strings.Contains(r.Str, "@user_script:0") {
			t.Errorf("recursion through %s: %s; want a Lua error \"user_script:N: stack overflow\"", tc.what, r)
		}
		if got := e.exec("PING"); !got.Equal(resp.StatusReply("PONG")) {
			t.Fatalf("after recursion through %s, PING answered %s", tc.what, got)
		}
	}
	// Just under the limit a recursion comes back whole.
	r := e.exec("EVAL", "local function f(n) if n == 0 then return 0 end return 1 + f(n - 1) end return f(19998)", "0")
	if !r.Equal(resp.IntReply(19998)) {
		t.Errorf("a recursion 19,999 calls deep: %s; want 19998", r)
	}
}
