package engine

import (
	"crypto/sha1"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"

	"echomq.dev/playground/wasm/resp"
)

// TestRecursionThroughTheVMEndsInCStackOverflowAsInRedis: a metamethod
// the VM calls, a generic for's iterator and a library function that calls
// Lua are each, in Lua 5.1, a call from C, and Redis stops them 200 deep
// with "C stack overflow". In the engine each of them is a Go call nested
// in the last; in WebAssembly, unstopped, they overflowed the JavaScript
// engine's stack and killed the whole module. The answers, and the depths
// reached, are redis-server 7.0.15's (counted by the scripts themselves:
// n is how many times the recursing function ran).
func TestRecursionThroughTheVMEndsInCStackOverflowAsInRedis(t *testing.T) {
	meta := func(event, body, use string) string {
		return "local n = 0 local m = {} m." + event + " = function(a, b, c) n = n + 1 " + body + " end " +
			"local t = setmetatable({}, m) local u = setmetatable({}, m) " + use
	}
	// deep runs body 197 pcalls deep (the 199th call from C), then 198.
	deep := func(body string) string {
		return "local function f(n) if n == 0 then " + body + " end local ok, v = pcall(f, n - 1) return v end return {f(197), f(198)}"
	}
	const at, bare = "user_script:1: C stack overflow", "C stack overflow"
	str, num := resp.BulkReply, func(n int64) resp.Reply { return resp.IntReply(n) }
	counted := func(n int64, msg string) resp.Reply { return resp.ArrayReply(num(n), str(msg)) }
	for _, tc := range []struct {
		what, script string
		err          string     // the error reply, before " script: <sha>..."
		want         resp.Reply // or the reply
	}{
		// Uncaught, the error ends the script, at the line that ran the
		// operation, or with no line when a C function made the call.
		{what: "__index", script: meta("__index", "return a[b]", "return t.x"), err: at},
		{what: "__index by a method call", script: meta("__index", "return a[b]", "return t:x()"), err: at},
		{what: "__newindex", script: meta("__newindex", "a[b] = c", "t.x = 1 return 1"), err: at},
		{what: "__add", script: meta("__add", "return a + b", "return t + 1"), err: at},
		{what: "__unm", script: meta("__unm", "return -a", "return -t"), err: at},
		{what: "__concat", script: meta("__concat", "return a .. b", "return t .. 'x'"), err: at},
		{what: "__eq", script: meta("__eq", "return a == b", "return t == u"), err: at},
		{what: "__lt", script: meta("__lt", "return a < b", "return t < u"), err: at},
		{what: "__le", script: meta("__le", "return a <= b", "return t <= u"), err: at},
		{what: "a generic for's iterator", script: "local function it() for _ in it do end end for _ in it do end return 1", err: at},
		{what: "__tostring", script: meta("__tostring", "return tostring(a)", "return tostring(t)"), err: bare},
		{what: "a gsub function", script: "local function f(n) return (string.gsub('a', 'a', function() return f(n+1) end)) end return f(0)", err: bare},
		{what: "a sort comparator", script: "local function f() table.sort({1, 2, 3}, function(a, b) f() return a < b end) end f() return 1", err: bare},
		// Redis 7.0.15 gave no answer to this one within 20 s (it needed
		// SCRIPT KILL); the engine must at least live through it.
		{what: "load's reader", script: "local function f() local g = load(f) return nil end f() return 'loaded'", want: str("loaded")},
		{what: "pcall", script: "local function f() return pcall(f) end return tostring(f())", want: str("true")},

		// Caught by a pcall (one call from C more), the depth reached.
		{what: "__index, caught", script: meta("__index", "return a[b]", "local ok, e = pcall(function() return t.x end) return {n, e}"), want: counted(197, at)},
		{what: "__newindex, caught", script: meta("__newindex", "a[b] = c", "local ok, e = pcall(function() t.x = 1 end) return {n, e}"), want: counted(197, at)},
		{what: "__add, caught", script: meta("__add", "return a + b", "local ok, e = pcall(function() return t + 1 end) return {n, e}"), want: counted(197, at)},
		{what: "__concat, caught", script: meta("__concat", "return a .. b", "local ok, e = pcall(function() return t .. 'x' end) return {n, e}"), want: counted(197, at)},
		{what: "__eq, caught", script: meta("__eq", "return a == b", "local ok, e = pcall(function() return t == u end) return {n, e}"), want: counted(197, at)},
		{what: "__lt, caught", script: meta("__lt", "return a < b", "local ok, e = pcall(function() return t < u end) return {n, e}"), want: counted(197, at)},
		{what: "__tostring, caught", script: meta("__tostring", "return tostring(a)", "local ok, e = pcall(function() return tostring(t) end) return {n, e}"), want: counted(197, bare)},
		{what: "an iterator, caught", script: "local n = 0 local function it() n = n + 1 for _ in it do end end local ok, e = pcall(function() for _ in it do end end) return {n, e}", want: counted(197, at)},
		{what: "a gsub function, caught", script: "local n = 0 local function f() n = n + 1 return (string.gsub('a', 'a', function() return f() end)) end local ok, e = pcall(f) return {n, e}", want: counted(198, bare)},
		{what: "table.foreach, caught", script: "local n = 0 local function f() n = n + 1 table.foreach({1}, f) end local ok, e = pcall(f) return {n, e}", want: counted(198, bare)},
		{what: "__lt in table.sort, caught", script: "local n = 0 local m = {} m.__lt = function(a, b) n = n + 1 table.sort({setmetatable({}, m), setmetatable({}, m)}) return true end " +
			"local ok, e = pcall(table.sort, {setmetatable({}, m), setmetatable({}, m)}) return {n, e}", want: counted(197, bare)},
		{what: "a coroutine, caught", script: "local n = 0 local function f() n = n + 1 local co = coroutine.wrap(f) return co() end local ok, e = pcall(f) return {n, e}",
			want: counted(199, strings.Repeat("user_script:1: ", 199)+bare)},
		// pcall and __index in turn: two calls from C a level.
		{what: "pcall and __index in turn", script: "local n = 0 local function f() n = n + 1 local ok, e = pcall(function() local t = setmetatable({}, {__index = function(t, k) return f() end}) return t.x end) " +
			"if not ok then return e end return ok end return {f(), n}", want: resp.ArrayReply(num(1), num(100))},
		// The count goes back to nothing after the error: a second recursion goes as deep.
		{what: "a second recursion", script: meta("__index", "return a[b]", "local ok, e = pcall(function() return t.x end) local k = 0 "+
			"local ok2, e2 = pcall(function() local mt = {} mt.__index = function(a, b) k = k + 1 return a[b] end return setmetatable({}, mt).y end) return {n, e, k, e2}"),
			want: resp.ArrayReply(num(197), str(at), num(197), str(at))},

		// At the limit, only an operation that calls Lua fails.
		{what: "a field found in the table at the limit", script: deep("local o = setmetatable({x = 5}, {__index = function() return 1 end}) return o.x"), want: resp.ArrayReply(num(5), num(5))},
		{what: "__index at the limit", script: deep("local o = setmetatable({x = 5}, {__index = function() return 1 end}) return o.y"), want: resp.ArrayReply(num(1), str(at))},
		{what: "__index through a table at the limit", script: deep("local o = setmetatable({}, {__index = setmetatable({}, {__index = function() return 'deep' end})}) return o.y"), want: resp.ArrayReply(str("deep"), str(at))},
		{what: "__newindex at the limit", script: deep("local o = setmetatable({}, {__newindex = function() end}) o.x = 1 return 'set'"), want: resp.ArrayReply(str("set"), str(at))},
		{what: "a plain table at the limit", script: deep("local o = {} o.x = 1 return o.x + #o"), want: resp.ArrayReply(num(1), num(1))},
	} {
		var r resp.Reply
		e := MustNew()
		func() {
			// Natively, a stack nearer a browser's: 20,000 calls from C
			// deep overflow it (as at 1f9b5e1), 200 do not.
			defer debug.SetMaxStack(debug.SetMaxStack(1 << 20))
			r = e.exec("EVAL", tc.script, "0")
		}()
		want := tc.want
		if tc.err != "" {
			want = resp.ErrorReply(fmt.Sprintf("ERR %s script: %x, on @user_script:1.", tc.err, sha1.Sum([]byte(tc.script))))
		}
		if !r.Equal(want) {
			t.Errorf("recursion through %s: %s; want %s", tc.what, r, want)
		}
		if got := e.exec("PING"); !got.Equal(resp.StatusReply("PONG")) {
			t.Fatalf("after recursion through %s, PING answered %s", tc.what, got)
		}
	}
}
