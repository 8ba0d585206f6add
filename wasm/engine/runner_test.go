package engine

import (
	"strings"
	"testing"

	emqlua "echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/resp"
)

func TestEvalArgumentChecks(t *testing.T) {
	for _, tc := range []struct {
		desc string
		args []string
		want string
	}{
		{"too few arguments", []string{"EVAL", "return 1"}, "(error) ERR wrong number of arguments for 'eval' command"},
		{"numkeys not a number", []string{"EVAL", "return 1", "x"}, "(error) ERR value is not an integer or out of range"},
		{"negative numkeys", []string{"EVAL", "return 1", "-1"}, "(error) ERR Number of keys can't be negative"},
		{"more keys than args", []string{"EVAL", "return 1", "3", "a"}, "(error) ERR Number of keys can't be greater than number of args"},
		{"unknown sha", []string{"EVALSHA", "0123456789012345678901234567890123456789", "0"}, "(error) NOSCRIPT No matching script. Please use EVAL."},
		{"KEYS and ARGV split at numkeys", []string{"EVAL", "return {KEYS[1], ARGV[1], #KEYS, #ARGV}", "1", "k", "a"}, "1) \"k\"\n2) \"a\"\n3) (integer) 1\n4) (integer) 1"},
	} {
		t.Run(tc.desc, func(t *testing.T) { do(t, MustNew(), tc.want, tc.args...) })
	}
}

func TestScriptCache(t *testing.T) {
	e := MustNew()
	const src = "return 'hi'"
	sha := e.exec("SCRIPT", "LOAD", src).Str
	if sha != emqlua.SHA1Hex(src) {
		t.Fatalf("SCRIPT LOAD = %q, want the SHA1 of the source", sha)
	}
	do(t, e, `"hi"`, "EVALSHA", sha, "0")
	do(t, e, `"hi"`, "EVALSHA", strings.ToUpper(sha), "0")
	do(t, e, "1) (integer) 1\n2) (integer) 0", "SCRIPT", "EXISTS", sha, strings.Repeat("0", 40))
	do(t, e, "OK", "SCRIPT", "FLUSH")
	do(t, e, "(error) NOSCRIPT No matching script. Please use EVAL.", "EVALSHA", sha, "0")
	do(t, e, "(error) NOTBUSY No scripts in execution right now.", "SCRIPT", "KILL")
	do(t, e, "(error) ERR unknown subcommand 'nope'. Try SCRIPT HELP.", "SCRIPT", "nope")

	// A script that compiles is cached even when it fails at run time.
	const failing = "return redis.call('NOPE')"
	if r := e.exec("EVAL", failing, "0"); !r.IsError() {
		t.Fatalf("EVAL %q = %s, want an error", failing, r)
	}
	do(t, e, "1) (integer) 1", "SCRIPT", "EXISTS", e.exec("SCRIPT", "LOAD", failing).Str)
	// One that does not compile is not.
	const broken = "return 1 +"
	e.exec("EVAL", broken, "0")
	do(t, e, "1) (integer) 0", "SCRIPT", "EXISTS", emqlua.SHA1Hex(broken))
}

func TestLuaValuesBecomeRedisReplies(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"return 3.99", "(integer) 3"},
		{"return -3.99", "(integer) -3"},
		{"return 1/0", "(integer) -9223372036854775808"},
		{"return 'x'", `"x"`},
		{"return true", "(integer) 1"},
		{"return false", "(nil)"},
		{"return nil", "(nil)"},
		{"return {1, 'a', {2}, nil, 3}", "1) (integer) 1\n2) \"a\"\n3) 1) (integer) 2"},
		{"return {}", "(empty array)"},
		{"return redis.status_reply('FINE')", "FINE"},
		{"return {ok='FINE'}", "FINE"},
		{"return redis.error_reply('EMQX custom')", "(error) EMQX custom"},
		{"return redis.error_reply('-NOSP ace')", "(error) NOSP ace"},
		{"return {err='two\\nlines'}", "(error) two lines"},
		{"return redis.call('GET', 'missing')", "(nil)"},
		{"return type(redis.call('GET', 'missing'))", `"boolean"`},
		{"return redis.call('PING')['ok']", `"PONG"`},
		{"return redis.sha1hex('')", `"da39a3ee5e6b4b0d3255bfef95601890afd80709"`},
		{"return redis.REDIS_VERSION", `"7.0.15"`},
		{"redis.call('SET', 'f', 0.1) return redis.call('GET', 'f')", `"0.10000000000000001"`},
		{"redis.call('SET', 'g', 1e20) return redis.call('GET', 'g')", `"1e+20"`},
		{"redis.call('SET', 'h', 1767225630000) return redis.call('GET', 'h')", `"1767225630000"`},
	} {
		t.Run(tc.src, func(t *testing.T) { do(t, MustNew(), tc.want, "EVAL", tc.src, "0") })
	}
}

// A table that contains itself becomes arrays nested as deep as Redis 7.0
// nests them, then the error Redis gives at that depth.
func TestSelfContainingTableEndsAtRedisDepth(t *testing.T) {
	r := MustNew().exec("EVAL", "local t = {} t[1] = t return t", "0")
	depth := 0
	for r.Kind == resp.Array && len(r.Elems) == 1 {
		depth++
		r = r.Elems[0]
	}
	if depth != maxReplyDepth || r.Str != "ERR reached lua stack limit" {
		t.Fatalf("%d arrays deep, then %s; want %d, then the stack-limit error", depth, r, maxReplyDepth)
	}
}

// TestScriptErrorsKeepRedisShape checks the error replies a learner reads.
// Each expected text was taken from redis-server 7.0.15; the fidelity
// suite's errors/ cases (wasm/fidelity, FIDELITY.md) compare such replies
// with a live server.
func TestScriptErrorsKeepRedisShape(t *testing.T) {
	e := MustNew()
	e.exec("SET", "s", "x")
	for _, tc := range []struct{ src, want string }{
		{"return redis.call('HSET','s','a','b')", "WRONGTYPE Operation against a key holding the wrong kind of value script: %s, on @user_script:1."},
		{"return redis.call('NOPE')", "ERR Unknown Redis command called from script script: %s, on @user_script:1."},
		{"return x", "ERR user_script:1: Script attempted to access nonexistent global variable 'x' script: %s, on @user_script:1."},
		{"x = 1", "ERR user_script:1: Attempt to modify a readonly table script: %s, on @user_script:1."},
		{"error('boom')", "ERR user_script:1: boom script: %s, on @user_script:1."},
		{"error({err='X y'})", "X y script: %s, on @user_script:1."},
		{"\n\nreturn redis.call('hset', 'k')", "ERR Wrong number of args calling Redis command from script script: %s, on @user_script:3."},
		{"return redis.call('SET', 'k', nil)", "ERR Lua redis lib command arguments must be strings or integers script: %s, on @user_script:1."},
		{"return redis.call()", "ERR Please specify at least one argument for this redis lib call script: %s, on @user_script:1."},
		{"return redis.call('EVAL', 'return 1', '0')", "ERR This Redis command is not allowed from script script: %s, on @user_script:1."},
		{"return 1 +", "ERR Error compiling script (new function): user_script:1: unexpected symbol near '<eof>'"},
	} {
		t.Run(tc.src, func(t *testing.T) {
			want := tc.want
			if strings.Contains(want, "%s") {
				want = strings.Replace(want, "%s", sha(tc.src), 1)
			}
			r := e.exec("EVAL", tc.src, "0")
			if !r.IsError() || r.Str != want {
				t.Errorf("got  %s\nwant (error) %s", r, want)
			}
		})
	}
}

func TestPcallSeesTheBareError(t *testing.T) {
	e := MustNew()
	e.exec("SET", "s", "x")
	do(t, e, "1) \"string\"\n2) \"WRONGTYPE Operation against a key holding the wrong kind of value\"",
		"EVAL", "local ok, err = pcall(function() return redis.call('HSET','s','a','b') end) return {type(err), err}", "0")
	do(t, e, "(error) WRONGTYPE Operation against a key holding the wrong kind of value",
		"EVAL", "return redis.pcall('HSET','s','a','b')", "0")
}

func TestSandbox(t *testing.T) {
	e := MustNew()
	for _, name := range []string{"dofile", "loadfile", "require", "print", "module"} {
		r := e.exec("EVAL", "return "+name, "0")
		if !r.IsError() || !strings.Contains(r.Str, "nonexistent global variable '"+name+"'") {
			t.Errorf("%s is reachable from a script: %s", name, r)
		}
	}
	// A global written by one script is never seen by the next.
	e.exec("EVAL", "leak = 1", "0")
	r := e.exec("EVAL", "return leak", "0")
	if !r.IsError() {
		t.Errorf("a global survived between scripts: %s", r)
	}
	do(t, e, `"table"`, "EVAL", "return type(cjson.decode('{\"a\":1}'))", "0")
}

func TestReadOnlyScriptsCannotWrite(t *testing.T) {
	e := MustNew()
	src := "return redis.call('SET', 'k', 'v')"
	r := e.exec("EVAL_RO", src, "0")
	want := "ERR Write commands are not allowed from read-only scripts. script: " + sha(src) + ", on @user_script:1."
	if r.Str != want {
		t.Errorf("got %s\nwant (error) %s", r, want)
	}
	do(t, e, "(nil)", "GET", "k")
	do(t, e, "(nil)", "EVAL_RO", "return redis.call('GET', 'k')", "0")
}
