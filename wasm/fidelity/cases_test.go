package fidelity

// The cases. Each one starts from an empty keyspace and an empty script
// cache on both servers, runs its commands in order on a fresh connection,
// and compares every reply, then the keyspace. The ids are stable: they
// name the rows of FIDELITY.md and the entries of the known table.

import (
	"crypto/sha1"
	"encoding/hex"
	"strconv"
	"strings"

	"echomq.dev/playground/lua"
)

// fcase is one case of the suite.
type fcase struct {
	id   string     // "area/name", stable
	desc string     // what it checks, for a learner reading FIDELITY.md
	cmds [][]string // run in order; every reply is compared
	// fresh runs the case on a redis-server of its own, started for it:
	// for behaviour that depends on what the server process did before
	// (math.random's generator lives as long as the process).
	fresh bool
	// runaway is a script that never ends: the real server is sent it,
	// then SCRIPT KILL from a second connection; the engine stops it on
	// its own budget. cmds run before it.
	runaway string
}

// eval is EVAL of src with no keys.
func eval(src string, argv ...string) []string {
	return append([]string{"EVAL", src, "0"}, argv...)
}

// evalKeys is EVAL of src with keys and arguments.
func evalKeys(src string, keys []string, argv ...string) []string {
	out := []string{"EVAL", src, strconv.Itoa(len(keys))}
	out = append(out, keys...)
	return append(out, argv...)
}

func evalsha(src string, keys []string, argv ...string) []string {
	out := []string{"EVALSHA", sha(src), strconv.Itoa(len(keys))}
	out = append(out, keys...)
	return append(out, argv...)
}

func sha(src string) string {
	sum := sha1.Sum([]byte(src))
	return hex.EncodeToString(sum[:])
}

// onLine puts code on line n of a script, after n-1 comment lines, for the
// cases that check the line an error names.
func onLine(n int, code string) string {
	return strings.Repeat("-- a comment line\n", n-1) + code
}

// each runs one Lua expression per argument and returns what each gave, or
// the error it raised, as strings: a script that checks many values in one
// EVAL, each value shown as Lua itself prints it.
func each(exprs ...string) []string {
	var b strings.Builder
	b.WriteString("local r = {}\n")
	for _, e := range exprs {
		b.WriteString("do local ok, v = pcall(function() return " + e + " end) r[#r + 1] = (ok and '' or 'error: ') .. tostring(v) end\n")
	}
	b.WriteString("return r")
	return eval(b.String())
}

func cases() []fcase {
	enq, clm := lua.Enqueue(), lua.Claim()
	row, pending, active, base := "emq:{q}:job:JOB1", "emq:{q}:pending", "emq:{q}:active", "emq:{q}:job:"
	both := []string{pending, active}
	wrongtype := onLine(18, "return redis.call('HSET', KEYS[1], 'f', 'v')")
	arith := onLine(17, "return tonumber(ARGV[1]) + 1")
	failing := "return redis.call('NOPE')"

	return append([]fcase{
		// ---- errors raised in a script
		{id: "errors/wrongtype", desc: "A failed redis.call keeps Redis's error code: WRONGTYPE ... script: <sha>, on @user_script:18.",
			cmds: [][]string{{"SET", "s", "x"}, evalKeys(wrongtype, []string{"s"}), evalsha(wrongtype, []string{"s"})}},
		{id: "errors/arithmetic-on-nil", desc: "A Lua runtime error: ERR user_script:17: attempt to perform arithmetic on a nil value script: <sha>, on @user_script:17.",
			cmds: [][]string{eval(arith, "x"), eval(arith, "41")}},
		{id: "errors/error-call", desc: "error() with a string (level 0 or 1), nil or a boolean: the message, the position Lua adds, and ERR in front",
			cmds: [][]string{
				eval("error('boom')"), eval("error('boom', 0)"), eval("local function f() error('deep', 1) end\nf()"),
				eval("error('EMQX raw text')"), eval("error('-EMQX dash')"), eval("error(nil)"), eval("error(true)"),
				eval("error('two\\nlines')"), eval("\n\n  error('third line')"),
			}},
		{id: "errors/error-level-2", desc: "error(msg, 2) blames the caller: the position is the line that called the function",
			cmds: [][]string{eval("local function f() error('deep', 2) end\nf()")}},
		{id: "errors/error-number", desc: "error(42): a number is a message like a string, and gets the position in front",
			cmds: [][]string{eval("error(42)"), eval("error(1.5)")}},
		{id: "errors/error-table", desc: "error({err=\"EMQX custom\"}) and redis.error_reply: the code is the script's own, with no ERR added",
			cmds: [][]string{
				eval(`error({err="EMQX custom"})`), eval(`error({err="EMQX two\nlines"})`),
				eval(`error(redis.error_reply('EMQY from error_reply'))`), eval(`error(redis.error_reply('-EMQY dash'))`),
				eval(`return redis.error_reply('EMQZ returned')`), eval(`return redis.error_reply('-NOSP ace')`),
				eval(`return {err='returned table'}`), eval(`return {err='-EMQX returned dash'}`), eval(`return {err=1}`),
			}},
		{id: "errors/error-table-dash", desc: "error({err=\"-CODE ...\"}): Redis keeps the leading dash of a raised table's err as it is",
			cmds: [][]string{eval(`error({err="-EMQX dash"})`)}},
		{id: "errors/error-table-number", desc: "error({err=1}): a number in err is its text",
			cmds: [][]string{eval(`error({err=1})`)}},
		{id: "errors/error-reply-empty", desc: "redis.error_reply('') still makes an error with a code",
			cmds: [][]string{eval(`return redis.error_reply('')`)}},
		{id: "errors/queue-scripts", desc: "The course's scripts meeting keys of the wrong type: WRONGTYPE from the line that failed, and the writes made before it stay",
			cmds: [][]string{
				{"SET", pending, "x"},
				evalKeys(enq.Source, []string{row, pending}, "JOB1", "p"),
				{"DEL", pending}, {"ZADD", pending, "0", "JOB2"}, {"SET", "emq:{q}:job:JOB2", "x"},
				evalKeys(clm.Source, both, base, "1000"),
				{"ZADD", pending, "0", "JOB3"}, {"HSET", "emq:{q}:job:JOB3", "attempts", "0"}, {"SET", active, "x"},
				evalKeys(clm.Source, both, base, "1000"),
				{"ZADD", pending, "0", "JOB4"}, {"HSET", "emq:{q}:job:JOB4", "attempts", "9223372036854775807", "payload", "p"},
				evalKeys(clm.Source, both, base, "1000"),
				evalKeys(enq.Source, []string{row, pending}, "nope", "p"),
				evalKeys(enq.Source, []string{row, pending}),
				evalKeys(clm.Source, both, base),
			}},
		{id: "errors/lua51-wording", desc: "Lua 5.1's words for runtime errors: arithmetic, call, index, compare, concatenate and length on the wrong type, naming the variable",
			cmds: [][]string{
				eval("return nil + 1"), eval("local a; return a + 1"), eval("return KEYS[1] + 1"), eval("return {} + 1"),
				eval("return 'abc' + 1"), eval("local up = nil; local function f() return up + 1 end return f()"),
				eval("return -{}"), eval("return ('5' * '2')"), eval("return -'2'"), eval("return 2 ^ '3'"),
				eval("return undefined_global()"), eval("local f; f()"), eval("local t = {} t.x()"), eval("local t = {} return t:nomethod()"),
				eval("return ('x'):bad()"), eval("return KEYS.x.y"), eval("local t = {} return t.x.y"), eval("local a; return a.b"),
				eval("local t = {} t.x.y = 1"), eval("return nil < 1"), eval("return {} < {}"), eval("return 1 < 'x'"), eval("return 'a' <= 1"),
				eval("return #nil"), eval("local a; return #a"), eval("return #5"),
				eval("return redis.call('GET', 'a') .. 'x'"), eval("return nil .. 'x'"), eval("return 'x' .. nil"), eval("return 'x' .. {}"),
				eval("return string.sub(nil, 1, 3)"), eval("return string.rep('x', 'y')"), eval("return string.sub()"),
				eval("return {pcall(error, 'x', 0)}"),
				eval("return {xpcall(function() return nil + 1 end, function(m) return 'handled: ' .. m end)}"),
			}},
		{id: "errors/missing-argument", desc: "A library function called with too few arguments: Lua 5.1 says 'got no value', not 'got nil'",
			cmds: [][]string{eval("return string.rep()"), eval("return string.format()")}},
		{id: "errors/method-argument-number", desc: "An argument error in a method call (s:rep(...)) counts arguments without self, as Lua 5.1 does",
			cmds: [][]string{eval("return ('x'):rep('y')"), eval("return ('%d'):format('x')"), eval("return ('x'):rep()")}},
		{id: "errors/redis-call", desc: "redis.call that fails: unknown command, wrong arity, bad argument types, commands refused in scripts",
			cmds: [][]string{
				{"SET", "s", "x"},
				eval("return redis.call('HSET','s','a','b')"), eval("return redis.call('NOPE')"), eval("\n\nreturn redis.call('hset', 'k')"),
				eval("return redis.call('SET', 'k', nil)"), eval("return redis.call('SET', 'k', {})"), eval("return redis.call('SET', 'k', true)"),
				eval("return redis.call()"), eval("return redis.call('EVAL', 'return 1', '0')"), eval("return redis.call('SCRIPT', 'FLUSH')"),
				eval("return redis.call('MULTI')"), eval("return redis.call('SUBSCRIBE', 'c')"),
				eval("return redis.call(1)"), eval("return redis.call('GET')"), eval("return redis.call('INCR', 's')"),
				eval("return redis.pcall('HSET','s','a','b')"), eval("return redis.pcall('NOPE')"),
				eval("local r = redis.pcall('INCR', 's') return {type(r), r.err}"),
			}},
		{id: "errors/pcall", desc: "Messages caught inside pcall: the text a script sees, position included, and an error table kept a table",
			cmds: [][]string{
				{"SET", "s", "x"},
				eval("local ok, err = pcall(function() return redis.call('HSET','s','a','b') end) return {tostring(ok), type(err), type(err) == 'table' and err.err or err}"),
				eval("local ok, err = pcall(redis.call, 'NOPE') return {type(err), type(err) == 'table' and err.err or err}"),
				eval("local ok, err = pcall(function() return redis.call('HSET','s','a','b') end) return {type(err), err}"),
				eval("return {pcall(function() return nil + 1 end)}"),
				eval("return {pcall(function()\n\n local a = {} return a.b.c end)}"),
				eval("return {pcall(error, 'plain', 0)}"), eval("return {pcall(function() error('positioned') end)}"),
				eval("return {pcall(function() return cjson.decode('{') end)}"),
				eval("return {pcall(function() return string.rep('x', {}) end)}"),
				eval("local ok, err = pcall(function() error('x') end) error(err, 0)"),
				eval("return {xpcall(function() error('in xpcall') end, function(m) return 'handler got: ' .. m end)}"),
			}},
		{id: "errors/pcall-error-table", desc: "pcall catching error({err=...}): in Redis 7.0 the script gets the err text as a string",
			cmds: [][]string{
				eval("local ok, e = pcall(error, {err='EMQX t'}) return {type(e), tostring(e)}"),
				eval("local ok, e = pcall(function() error({err='EMQX t'}) end) return {type(e), tostring(e)}"),
			}},
		{id: "errors/error-without-value", desc: "error() with no value raises nil, which pcall hands back",
			cmds: [][]string{eval("local ok, e = pcall(error) return {tostring(ok), tostring(e)}")}},
		{id: "errors/c-caller-position", desc: "An error raised in a library function that C code called (pcall(f), table.sort) has no user_script:N: position",
			cmds: [][]string{
				eval("return {pcall(error, 'positioned')}"), eval("return {pcall(string.rep)}"), eval("return {pcall(cjson.decode, '{')}"),
				eval("return {pcall(struct.pack, 'y', 1)}"), eval("return {pcall(struct.unpack, 'i', 'abc')}"),
				eval("return {pcall(cmsgpack.unpack, '\\193')}"), eval("return {pcall(table.sort, {1, 'x'})}"),
				eval("return {pcall(function() table.sort({1, 'x'}) end)}"),
			}},
		{id: "errors/redis-lib-errors", desc: "Errors raised by the redis.* functions themselves carry no user_script:N: position",
			cmds: [][]string{eval("return redis.log(1)"), eval("redis.setresp(4)"), eval("return {pcall(redis.log, 1)}")}},
		{id: "errors/compile", desc: "Scripts that do not compile: Lua 5.1's syntax messages, the line, and the script not cached",
			cmds: [][]string{
				eval("return 1 +"), eval("return ("), eval("x = = 1"), eval("\n\n\n\nreturn +"), eval("return 1 ++ 2"),
				eval("x = 1 // 2"), eval("return \"bad \\q escape\""), eval("return )"), eval("local x = 1 1"),
				{"SCRIPT", "EXISTS", sha("return 1 +")}, {"SCRIPT", "LOAD", "return ("},
			}},
		{id: "errors/compile-wording", desc: "Syntax errors as Lua 5.1 words them: '<name>' expected, unfinished string, break not last, ambiguous call, a block left open (to close...)",
			cmds: [][]string{
				eval("local 1 = 2"), eval("end"), eval("return 'abc"), eval("for"), eval("goto continue"), eval("return 0x"),
				eval("local t = {1, 2"), eval("if true then"), eval("return [[never closed"), eval("return 1 & 2"),
				eval("--[[ unclosed comment"), eval("return function"), eval("a.b:c = 1"),
				eval("while true do break x = 1 end"), eval("x = 1;;"), eval("local x = y\n(f)()"), eval("function f() return ... end"),
				eval("if x then\n  y = 1\nelse\n  z = 2\n"), eval("local function f()\n  return {1,\n    2\nend"),
			}},
		{id: "errors/writes-stay", desc: "A script's writes before its error stay, as in Redis: there is no rollback",
			cmds: [][]string{
				eval("redis.call('SET', 'a', '1') redis.call('HSET', 'a', 'f', 'v')"), {"GET", "a"},
				eval("redis.call('RPUSH', 'l', 'x') error('after the write')"), {"LRANGE", "l", "0", "-1"},
			}},
		{id: "errors/eval-arguments", desc: "EVAL and EVALSHA argument checks: numkeys, unknown scripts, KEYS and ARGV as given",
			cmds: [][]string{
				{"EVAL", "return 1"}, {"EVAL", "return 1", "x"}, {"EVAL", "return 1", "-1"}, {"EVAL", "return 1", "3", "a"},
				{"EVAL", "return 1", "1.0", "a"}, {"EVAL", "return 1", " 1", "a"}, {"EVAL", "return 1", "1e0", "a"},
				{"EVALSHA", "0123456789012345678901234567890123456789", "0"}, {"EVALSHA", "short", "0"},
				{"EVAL", "return {KEYS[1], ARGV[1], #KEYS, #ARGV}", "1", "k", "a"},
				{"EVAL", "return {KEYS[1], ARGV[1], #KEYS, #ARGV}", "0"},
				{"EVAL", "return ARGV", "0", "", "\x00", "\xff", "é"},
				{"EVAL_RO", "return redis.call('SET', 'k', 'v')", "0"}, {"EVAL_RO", "return redis.call('GET', 'k')", "0"},
			}},
		{id: "errors/numkeys-spelling", desc: "numkeys must be written as Redis writes integers: no leading zero, no plus sign",
			cmds: [][]string{{"EVAL", "return #KEYS", "01", "a"}, {"EVAL", "return #KEYS", "+1", "a"}, {"EVAL", "return #KEYS", "-0"}}},

		// ---- numbers
		{id: "numbers/tonumber", desc: "tonumber as Lua 5.1 reads a string: e-notation, inf, nan, hex, spaces, bases; '0b11' and '1_000' are not numbers",
			cmds: [][]string{each(
				"tonumber('1e3')", "tonumber('1E3')", "tonumber(' 1e3 ')", "tonumber('1.5e-3')", "tonumber('inf')", "tonumber('-inf')",
				"tonumber('infinity')", "tonumber('nan')", "tonumber('-nan')", "tonumber('0x10')", "tonumber('0X1f')", "tonumber('-0x10')",
				"tonumber('0x')", "tonumber('0x1p4')", "tonumber('010')", "tonumber('0b11')", "tonumber('1_000')", "tonumber('')",
				"tonumber(' ')", "tonumber('5.')", "tonumber('.5')", "tonumber('1e')", "tonumber('1e+')", "tonumber('+5')", "tonumber('- 5')",
				"tonumber('5 ')", "tonumber('\\t5\\n')", "tonumber('1e400')", "tonumber('123456789012345678')", "tonumber('10', 16)",
				"tonumber('zz', 36)", "tonumber('8', 8)", "tonumber('ff', 16)", "tonumber(' ff ', 16)", "tonumber('1e3', 10)",
				"tonumber('7', 1)", "tonumber('7', 37)", "tonumber(nil)", "tonumber({})", "tonumber(true)", "tonumber()",
			)}},
		{id: "numbers/coercion", desc: "Strings in arithmetic: '010'+0 is 10, '1e3'+0 and '0x10'+0 work, '0b11'+0 and '1_000'+0 are errors",
			cmds: [][]string{
				eval("return '010' + 0"), eval("return '1e3' + 0"), eval("return '0x10' + 0"), eval("return ' 10 ' + 0"),
				eval("return '0b11' + 0"), eval("return '1_000' + 0"), eval("return tostring('inf' + 0)"), eval("return tostring('nan' + 0)"),
				eval("return '10' * '2'"), eval("return '2' ^ 10"), eval("return '7' % '4'"), eval("return -'3'"), eval("return '' + 1"),
				eval("return ARGV[1] + 1", "1e3"), eval("return ARGV[1] + 1", " 0x10 "), eval("return ARGV[1] * 2", "5.5"),
				eval("return tostring(ARGV[1] + 0)", "-0"), eval("local s = 'a' for i = 1, 3 do s = s .. i end return s"),
				eval("return -7 % 3"), eval("return 5.5 % 2"), eval("return tostring(7 % 0)"), eval("return tostring((2^63) % 2)"),
			}},
		{id: "numbers/tostring", desc: "Numbers as text (tostring, .., %s) with %.14g: 1e+15, 0.33333333333333, inf, -inf, -nan",
			cmds: [][]string{
				each("1e15", "1e14", "1e16", "1/3", "2/3", "0.1", "0.1 + 0.2", "100", "10/2", "-0.0", "1e100", "2^53", "2^63", "1/0", "-1/0",
					"0/0", "123456789012345678", "3.14159265358979", "1e-5", "1e300 * 1e10", "-1e15", "12345678901234", "123456789012345",
					"math.huge", "-math.huge", "math.pi", "2^-1074"),
				eval("return 1 .. ''"), eval("return (1/3) .. ''"), eval("return 1e15 .. ''"), eval("return 2^53 .. ''"),
				eval("return (0/0) .. ''"), eval("return (-1/0) .. ''"), eval("return math.huge .. ''"), eval("return -0.0 .. ''"),
				eval("return string.format('%s|%s|%s|%s', 1e15, 1/3, 1/0, 0/0)"), eval("return string.format('%d', 3.7)"),
				eval("return string.format('%.3f|%g|%e|%5.1f', 1/3, 1e20, 12345.678, 2.25)"),
				eval("return table.concat({1.5, 1/3, 1e15}, ' ')"),
			}},
		{id: "numbers/concat", desc: "Numbers joined with .., as Lua 5.1 prints them (%.14g), and the arithmetic behind them",
			cmds: [][]string{
				eval("return 10/2 .. ''"), eval("return 7 % 0 .. ''"), eval("return (2^63) % 2 .. ''"), eval("return (1e300 * 1e10) .. ''"),
				eval("return (0.1 + 0.2) .. ''"), eval("return 100 .. ''"), eval("return -1e15 .. ''"), eval("return 2^63 .. ''"),
				eval("return 123456789012345 .. ''"), eval("return 0.1 .. 'x'"), eval("return 1 .. 2"),
				// Twelve numbers in one concatenation, their text longer than 64 bytes.
				eval("local a, b, c, d, e, f, g, h, i, j, k, l = 1, 0.1, -1e15, 2^63, 1/3, 123456789012345, 10/2, -7, 8.5, 99, 1e300 * 1e10, -0.0 " +
					"return a .. 'x' .. b .. c .. d .. e .. f .. ':' .. g .. h .. i .. j .. k .. l"),
				eval("local t = {} for i = 1, 3 do t[i] = 'job:' .. i .. ':' .. i * 1.5 .. i end return t"),
			}},
		{id: "numbers/negated-nan", desc: "-(0/0) is the NaN without the sign bit, which x86 prints as nan (and 0/0 as -nan)",
			cmds: [][]string{eval("return (-(0/0)) .. ''"), eval("local z = 0 return tostring(-(z/z))")}},
		{id: "numbers/script-replies", desc: "A Lua number returned by a script becomes an integer reply, truncated toward zero as C does",
			cmds: [][]string{
				eval("return 3.99"), eval("return -3.99"), eval("return 1e20"), eval("return -1e20"), eval("return 2^63"),
				eval("return 2^53 + 1"), eval("return 0/0"), eval("return 1/0"), eval("return -0.0"), eval("return {1.5, 2.5, -0.5}"),
				eval("return tonumber('9007199254740993')"), eval("return 0.999999999999"),
			}},
		{id: "numbers/arguments", desc: "A Lua number passed to redis.call is sent as Redis sends it (%.17g): 1e3 is 1000, 0.1 is 0.10000000000000001",
			cmds: [][]string{
				eval(`local vals = {0.1, 1e3, 1e20, 1/3, 2^53, 1/0, -1/0, 1e-7, 123456789012, 1767225630000, 3, -3, 1e16, 2^63}
local r = {}
for i, v in ipairs(vals) do redis.call('SET', 'n' .. i, v) r[i] = redis.call('GET', 'n' .. i) end
return r`),
				eval("return redis.call('INCRBY', 'c', 2.0)"), eval("return redis.call('INCRBY', 'c', 2.5)"),
				eval("return redis.call('EXPIRE', 'c', 1e3)"), eval("return redis.call('LRANGE', 'nolist', 0, -1.0)"),
				eval("return redis.call('ZADD', 'z', 1767225630000, 'a', 0.1, 'b')"),
				eval("redis.call('SET', 'f', 0.1) redis.call('SET', 'g', 1e20) redis.call('SET', 'h', 1767225630000) return {redis.call('GET', 'f'), redis.call('GET', 'g'), redis.call('GET', 'h')}"),
			}},
		{id: "numbers/nan-argument", desc: "0/0 passed to redis.call: x86 makes it a NaN with the sign bit set, which Redis sends as -nan",
			cmds: [][]string{eval("redis.call('SET', 'k', 0/0) return redis.call('GET', 'k')"), eval("local z = 0 return redis.call('ECHO', z/z)")}},
		{id: "numbers/zero-constants", desc: "Lua 5.1 keeps one constant for 0 and -0.0 in a script, so with -0.0 written anywhere, 1/0 is -inf",
			cmds: [][]string{
				eval("local a = -0.0 return tostring(1/0)"), eval("return {tostring(-0.0), tostring(0)}"),
				eval("local vals = {-0.0, 1/0} redis.call('SET', 'k', vals[2]) return redis.call('GET', 'k')"),
			}},
		{id: "numbers/scores", desc: "Scores in replies are %.17g: 1700000000000 not 1.7e+12, 0.1 as 0.10000000000000001; inside a script as well",
			cmds: [][]string{
				{"ZADD", "z", "1700000000000", "a", "1767225630000", "a2", "0.1", "b", "1e20", "c", "-2.5", "d", "1e-5", "e", "123456789.123", "f"},
				{"ZSCORE", "z", "a"}, {"ZSCORE", "z", "b"}, {"ZSCORE", "z", "c"}, {"ZSCORE", "z", "e"}, {"ZMSCORE", "z", "a", "b", "nope"},
				{"ZRANGE", "z", "0", "-1", "WITHSCORES"}, {"ZREVRANGE", "z", "0", "-1", "WITHSCORES"},
				{"ZRANGEBYSCORE", "z", "-inf", "+inf", "WITHSCORES"}, {"ZRANGEBYSCORE", "z", "(0.1", "1e15", "WITHSCORES", "LIMIT", "0", "2"},
				{"ZINCRBY", "z", "0.2", "b"}, {"ZINCRBY", "z", "1", "a"}, {"ZADD", "z", "INCR", "5", "d"}, {"ZADD", "z", "GT", "CH", "1", "d", "3", "new"},
				{"ZPOPMIN", "z"}, {"ZPOPMAX", "z", "2"}, {"ZRANGE", "z", "0", "-1", "WITHSCORES"},
				eval("return {redis.call('ZSCORE', 'z', 'a'), redis.call('ZINCRBY', 'z', 1, 'f')}"),
				eval("return redis.call('ZRANGE', 'z', 0, -1, 'WITHSCORES')"),
				{"ZADD", "z2", "0", "JOB-b", "0", "JOB-a", "0", "JOB-\xff", "0", "JOB-\x00"}, {"ZRANGE", "z2", "0", "-1", "WITHSCORES"},
				{"ZSCAN", "z2", "0"},
			}},
		{id: "numbers/nan-and-inf-scores", desc: "NaN scores refused (ZADD nan, inf - inf, a NaN from Lua), infinite scores kept and printed as inf",
			cmds: [][]string{
				{"ZADD", "z", "nan", "e"}, {"ZADD", "z", "inf", "f"}, {"ZADD", "z", "-inf", "g"}, {"ZINCRBY", "z", "-inf", "f"},
				{"ZINCRBY", "z", "nan", "f"}, {"ZSCORE", "z", "f"}, {"ZRANGE", "z", "0", "-1", "WITHSCORES"},
				eval("return redis.call('ZADD', 'z', 0/0, 'h')"), eval("return redis.pcall('ZADD', 'z', 0/0, 'h')"),
				eval("return redis.call('ZADD', 'z', 1/0, 'i')"), {"ZADD", "z", "+inf", "j", "1e400", "k"}, {"ZRANGEBYSCORE", "z", "-inf", "(inf"},
				{"ZADD", "z", "0x10", "m"}, {"ZADD", "z", "1_000", "m"}, {"ZADD", "z", " 5", "m"}, {"ZADD", "z", "5 ", "m"}, {"ZADD", "z", "", "m"},
				{"ZRANGE", "z", "0", "-1", "WITHSCORES"},
			}},
		{id: "numbers/nan-range-bound", desc: "A NaN bound in ZRANGEBYSCORE is refused: min or max is not a float",
			cmds: [][]string{{"ZADD", "z", "1", "a"}, {"ZRANGEBYSCORE", "z", "nan", "1"}, {"ZCOUNT", "z", "0", "nan"}}},
		{id: "numbers/hincrby-overflow", desc: "HINCRBY and INCRBY past 64 bits are errors (no wrap-around), and so are non-integers",
			cmds: [][]string{
				{"HSET", "h", "f", "9223372036854775807", "g", "-9223372036854775808", "s", "abc", "sp", " 1"},
				{"HINCRBY", "h", "f", "1"}, {"HINCRBY", "h", "f", "-1"}, {"HINCRBY", "h", "g", "-1"}, {"HINCRBY", "h", "s", "1"},
				{"HINCRBY", "h", "sp", "1"}, {"HINCRBY", "h", "f", "1.5"}, {"HINCRBY", "h", "f", "9223372036854775808"},
				{"HINCRBY", "h", "new", "-9223372036854775808"}, {"HINCRBY", "h", "new", "-1"},
				{"SET", "c", "9223372036854775807"}, {"INCR", "c"}, {"INCRBY", "c", "-1"}, {"DECRBY", "c", "1"},
				eval("return redis.call('HINCRBY', 'h', 'f', 2)"), eval("return redis.pcall('HINCRBY', 'h', 'f', 2)"),
				{"HINCRBY", "nokey", "f", "5"}, {"HINCRBY", "nokey", "f", "-7"}, {"HGETALL", "nokey"}, {"HGETALL", "h"},
			}},
		{id: "numbers/decrby-min", desc: "DECRBY by the smallest 64-bit integer cannot be negated: Redis refuses it",
			cmds: [][]string{{"SET", "c", "5"}, {"DECRBY", "c", "-9223372036854775808"}, {"GET", "c"}}},
		{id: "numbers/incrbyfloat", desc: "INCRBYFLOAT and HINCRBYFLOAT: results printed as Redis prints them, bad input refused, the TTL kept",
			cmds: [][]string{
				{"SET", "f", "10.5"}, {"INCRBYFLOAT", "f", "0.1"}, {"SET", "g", "1e20"}, {"INCRBYFLOAT", "g", "1"},
				{"SET", "i", "abc"}, {"INCRBYFLOAT", "i", "1"}, {"INCRBYFLOAT", "f", "abc"}, {"INCRBYFLOAT", "f", "inf"},
				{"SET", "j", "0x10"}, {"INCRBYFLOAT", "j", "1"}, {"INCRBYFLOAT", "k", "-0.0"}, {"INCRBYFLOAT", "k", "1.0e-5"},
				{"SET", "m", " 1"}, {"INCRBYFLOAT", "m", "1"}, {"INCRBYFLOAT", "n", "123456789012345678901234567890"},
				{"HINCRBYFLOAT", "hh", "f", "1.1"}, {"HINCRBYFLOAT", "hh", "f", "2.2"}, {"HINCRBYFLOAT", "hh", "f", "nan"},
				{"SET", "ttl", "1.5", "PX", "100000"}, {"INCRBYFLOAT", "ttl", "1"}, {"TTL", "ttl"},
				{"INCRBYFLOAT", "f", "0.1"}, {"INCRBYFLOAT", "f", "1e3"},
			}},

		// ---- hashes
		{id: "hash/small-order", desc: "HGETALL, HKEYS, HVALS keep a small hash's insertion order; a deleted field comes back last, an updated one stays",
			cmds: [][]string{
				{"HSET", "h", "state", "pending", "attempts", "0", "payload", "{}"}, {"HGETALL", "h"}, {"HKEYS", "h"}, {"HVALS", "h"},
				{"HINCRBYFLOAT", "h", "x", "1.5"}, {"HSET", "h", "b", "1", "a", "2"}, {"HGETALL", "h"},
				{"HDEL", "h", "attempts"}, {"HSET", "h", "attempts", "1"}, {"HSET", "h", "state", "active"}, {"HGETALL", "h"},
				{"HSETNX", "h", "state", "x"}, {"HSETNX", "h", "z", "last"}, {"HINCRBY", "h", "n", "5"}, {"HMSET", "h", "m", "1", "b", "2"},
				{"HGETALL", "h"}, {"HSCAN", "h", "0"}, {"HSTRLEN", "h", "payload"},
				eval("return redis.call('HGETALL', 'h')"), eval("return redis.call('HKEYS', 'h')"),
			}},
		{id: "hash/order-grown", desc: "A listpack hash grown past 16 fields, by one HSET of many and by a script's HSET loop, keeps insertion order through HDEL, re-adds and updates",
			cmds: [][]string{
				append([]string{"HSET", "wide"}, manyFields(40)...), {"HDEL", "wide", "f3", "f17", "f39", "nope"},
				{"HSET", "wide", "f3", "back", "f0", "same place", "new", "1"}, {"HGETALL", "wide"}, {"HKEYS", "wide"},
				eval("for i = 1, 100 do redis.call('HSET', 'grown', 'f' .. i, i) end for i = 1, 100, 3 do redis.call('HDEL', 'grown', 'f' .. i) end redis.call('HSET', 'grown', 'f1', 'again') return redis.call('HKEYS', 'grown')"),
				{"HVALS", "grown"}, {"HSCAN", "grown", "0", "COUNT", "200"},
				eval("for i = 99, 30, -1 do if i % 3 ~= 1 then redis.call('HDEL', 'grown', 'f' .. i) end end return redis.call('HGETALL', 'grown')"),
				{"HSET", "grown", "z", "1", "y", "2"}, {"HGETALL", "grown"},
				{"COPY", "wide", "wide2"}, {"HDEL", "wide", "f1"}, {"HSET", "wide2", "copy", "1"}, {"HKEYS", "wide"}, {"HKEYS", "wide2"},
				{"DEL", "wide"}, append([]string{"HSET", "wide"}, manyFields(20)[10:]...), {"HGETALL", "wide"},
			}},
		{id: "hash/enqueue-row", desc: "The enqueue script's row reads state, attempts, payload, in that order, by EVAL and by EVALSHA",
			cmds: [][]string{
				evalKeys(enq.Source, []string{row, pending}, "JOB1", "hello"), {"HGETALL", row}, {"HKEYS", row}, {"HVALS", row},
				evalKeys(enq.Source, []string{row, pending}, "JOB1", "again"),
				evalsha(enq.Source, []string{"emq:{q}:job:JOB2", pending}, "JOB2", "x"),
				{"SCRIPT", "LOAD", enq.Source},
				evalsha(enq.Source, []string{"emq:{q}:job:JOB2", pending}, "JOB2", "x"), {"HGETALL", "emq:{q}:job:JOB2"},
				{"ZRANGE", pending, "0", "-1", "WITHSCORES"},
			}},
		{id: "hash/order-per-db", desc: "Each database's hashes keep their own insertion order, and a hash keeps its order through RENAME, COPY, MOVE and SWAPDB",
			cmds: [][]string{
				{"SELECT", "1"}, {"HSET", "h", "b", "1", "a", "2"}, {"SELECT", "0"}, {"HSET", "h", "z", "1", "y", "2"}, {"HGETALL", "h"},
				{"SELECT", "1"}, {"HGETALL", "h"}, {"HKEYS", "h"}, eval("return redis.call('HVALS', 'h')"), {"SELECT", "0"},
				{"HSET", "r", "state", "pending", "attempts", "0", "payload", "{}"}, {"RENAME", "r", "r2"}, {"HGETALL", "r2"},
				{"RENAMENX", "r2", "h"}, {"RENAMENX", "r2", "r3"}, {"HGETALL", "r3"}, {"COPY", "r3", "c"}, {"HGETALL", "c"},
				{"COPY", "r3", "c4", "DB", "4"}, {"MOVE", "c", "5"}, {"SELECT", "4"}, {"HGETALL", "c4"}, {"SELECT", "5"}, {"HGETALL", "c"},
				{"SWAPDB", "5", "0"}, {"HGETALL", "c"}, {"HGETALL", "h"}, {"SELECT", "0"}, {"HGETALL", "c"}, {"HGETALL", "r3"},
				{"SET", "s", "x"}, {"RENAME", "s", "r3"}, {"TYPE", "r3"}, {"HSET", "r3", "y", "1", "x", "2"}, {"HGETALL", "r3"},
				{"COPY", "h", "r3", "REPLACE"}, {"HGETALL", "r3"}, {"FLUSHDB"}, {"HSET", "r3", "q", "1", "p", "2"}, {"HGETALL", "r3"},
				{"SELECT", "4"}, {"HGETALL", "c4"}, {"FLUSHALL"}, {"HSET", "c4", "n", "1", "m", "2"}, {"HGETALL", "c4"},
			}},
		{id: "hash/large", desc: "A hash past the listpack limit (more than 128 fields, or a value over 64 bytes) has no defined order: compared as a set",
			cmds: [][]string{
				append([]string{"HSET", "big"}, manyFields(200)...), {"HLEN", "big"}, {"HGETALL", "big"}, {"HKEYS", "big"}, {"HVALS", "big"},
				{"HSET", "long", "a", "1", "b", strings.Repeat("v", 65), "c", "3"}, {"HGETALL", "long"},
				{"HSET", "edge", "a", strings.Repeat("v", 64), "b", "2"}, {"HGETALL", "edge"},
				{"HDEL", "long", "b"}, {"HGETALL", "long"},
			}},

		// ---- libraries
		{id: "libs/cjson", desc: "cjson behaves as lua-cjson: {} encodes as {}, key order, %.14g numbers, errors on sparse arrays and bad JSON",
			cmds: [][]string{each(
				"cjson.encode({})", "cjson.encode({1, 2, 3})", "cjson.encode({a = 1, b = 2, c = {1, 2}, d = 'x', e = true})",
				"cjson.encode({[1] = 'a', [3] = 'c'})", "cjson.encode({[20] = 1})", "cjson.encode(1/3)", "cjson.encode(1e20)",
				"cjson.encode('\\0\\255 \"/')", "cjson.encode(cjson.null)", "cjson.encode(1/0)", "cjson.encode(type)",
				"cjson.encode(cjson.decode('[1,2,{\"a\":null}]'))", "cjson.encode(cjson.decode('{\"a\":[]}'))", "cjson.decode('{')",
				"cjson.decode('[1,]')", "cjson.decode('1e400')", "type(cjson.decode('null'))", "cjson.decode('\"\\\\u00e9\"')",
				"cjson.decode('{\"job\":\"JOB-1\",\"tries\":3}').tries", "#cjson.decode('[1,2,3]')",
			)}},
		{id: "libs/bit", desc: "The bit library: 32-bit results, signs and tohex",
			cmds: [][]string{each(
				"bit.tobit(0xffffffff)", "bit.tobit(2^40 + 3)", "bit.band(0xff, 0x0f)", "bit.bor(1, 2, 4)", "bit.bxor(5, 3)", "bit.bnot(0)",
				"bit.lshift(1, 31)", "bit.rshift(-1, 28)", "bit.arshift(-256, 4)", "bit.rol(0x12345678, 8)", "bit.ror(0x12345678, 8)",
				"bit.bswap(0x12345678)", "bit.tohex(255)", "bit.tohex(-1, -8)", "bit.band('12', 4)", "bit.band('x')",
			)}},
		{id: "libs/struct", desc: "struct.pack, unpack and size, bytes shown in hex",
			cmds: [][]string{eval(`local function hex(s) return (s:gsub('.', function(c) return string.format('%02x', c:byte()) end)) end
return {hex(struct.pack('>I2', 258)), hex(struct.pack('<i4', -2)), hex(struct.pack('d', 1.5)), hex(struct.pack('s', 'abc')),
  hex(struct.pack('>bhilTI3', -1, -300, 70000, -5, 9, 65537)), struct.size('i4 h'), struct.size('!4bd'),
  table.concat({struct.unpack('>i3', '\255\0\1')}, ','), table.concat({struct.unpack('c3c2', 'abcdef')}, ','),
  select(2, pcall(function() return struct.pack('y', 1) end)), select(2, pcall(function() return struct.unpack('i', 'abc') end))}`)}},
		{id: "libs/cmsgpack", desc: "cmsgpack round trips: integers of every width, floats, strings, nested tables",
			cmds: [][]string{eval(`local function hex(s) return (s:gsub('.', function(c) return string.format('%02x', c:byte()) end)) end
local function D(v)
  if type(v) ~= 'table' then return type(v) .. ':' .. tostring(v) end
  local items = {}
  for k, x in pairs(v) do items[#items + 1] = D(k) .. '=' .. D(x) end
  table.sort(items)
  return '{' .. table.concat(items, ',') .. '}'
end
local r = {}
for _, v in ipairs({0, 127, 128, 65536, 2^32, 2^53, -1, -33, -129, -2^31-1, 0.5, 0.1, 1/3, 1e300, 'abc', string.rep('x', 40), {1, 2, 3}, {a = {b = 'c'}}, true}) do
  local p = cmsgpack.pack(v)
  r[#r + 1] = hex(p) .. ' -> ' .. D(cmsgpack.unpack(p))
end
r[#r + 1] = select('#', cmsgpack.unpack(cmsgpack.pack(1, 'two', {3})))
r[#r + 1] = select(2, pcall(function() return cmsgpack.unpack('\193') end))
return r`)}},
		{id: "libs/string-case", desc: "string.upper and string.lower are byte-wise: UTF-8 and bytes past 127 are left as they are",
			cmds: [][]string{
				eval("return {string.upper('aé\\255z'), string.lower('ÀÉ\\255Z'), string.upper('straße'), ('İı'):lower(), ('ǅ'):upper()}"),
				eval("return {string.upper(ARGV[1]), string.lower(ARGV[1])}", "JOB-é-ÿ-\xff-ß"),
				eval("return {string.byte('é', 1, -1)}"), eval("return string.char(255, 0, 65)"), eval("return #'🚀'"),
				eval("return string.format('%q', '\\0\\n\\r\"\\\\\\255')"),
			}},
		{id: "libs/string-format", desc: "string.format as Lua 5.1 does it, and its errors",
			cmds: [][]string{each(
				"string.format('%d', 'x')", "string.format('%y', 1)", "string.format('%', 1)", "string.format('%5')", "string.format('%s')",
				"string.format('%05.1f', 3.14159)", "string.format('%x', 255)", "string.format('%X', 3000000000)", "string.format('%c', 65)",
				"string.format('%e', 12345.678)", "string.format('%g', 1e20)", "string.format('%i', 3.9)", "string.format('%5.2s|', 'abc')",
				"string.format('%-5d|', 3)", "string.format('%+d', 3)", "string.format('%%')", "string.format('%10.3q', 'x')",
				"string.format('%d', 2^63)", "string.format('%d', -0.5)", "string.format('%.20f', 0.1)", "string.format('%5.3s|', 'é')",
				"string.format('%d', '12')", "string.format('%s %s', 1)", "string.format('%123d', 1)",
			)}},
		{id: "libs/patterns", desc: "Lua patterns (string.find, match, gsub): results, and the errors for malformed patterns",
			cmds: [][]string{each(
				"string.find('JOB-12', '^JOB%-(%d+)$')", "string.match('emq:{q}:job:JOB1', ':job:(.*)')", "(string.gsub('a.b.c', '%.', '/'))",
				"string.find('5', '^[1-9]%d*$')", "string.find('05', '^[1-9]%d*$')", "string.find('1e3', '^[1-9]%d*$')",
				"string.find(' 5', '^[1-9]%d*$')", "string.match('a1b22', '%a(%d+)$')", "(string.gsub('hello', 'l+', '%0%0'))",
			)}},
		{id: "libs/pattern-errors", desc: "Malformed Lua patterns: the error each one raises, or what it matches",
			cmds: [][]string{each(
				"string.match('x', '(')", "string.find('x', '[a')", "string.gsub('x', '(', '')", "string.find('a', '%')",
				"string.gsub('abc', 'b', '%')",
			)}},
		{id: "libs/math-random", desc: "math.random is Redis's generator: seeded draws exactly, and from a freshly started server the unseeded draws too",
			fresh: true,
			cmds: [][]string{
				eval("return {tostring(math.random()), tostring(math.random(100)), tostring(math.random(5, 8))}"),
				eval("return {tostring(math.random())}"),
				{"SCRIPT", "FLUSH"},
				eval("return {tostring(math.random())}"),
				eval("math.randomseed(42) return {tostring(math.random()), math.random(10), math.random(3, 4)}"),
				each("math.random(0)", "math.random(3, 1)", "math.random(1, 2, 3)", "math.random('x')", "math.randomseed()"),
			}},
		{id: "libs/misc", desc: "Other standard functions a script leans on: table.concat, table.sort, unpack, select, string.rep, tostring of tables",
			cmds: [][]string{each(
				"table.concat({1, 2.5, 'x'}, ',')", "table.concat({1, {}, 3})", "(function() local t = {3, 1, 2} table.sort(t) return table.concat(t) end)()",
				"(function() local t = {3, 1, 2} table.sort(t, function(a, b) return a > b end) return table.concat(t) end)()",
				"select('#', unpack({1, nil, 3}))", "select(-1, 'a', 'b')", "string.rep('ab', 3, ',')",
				"string.rep('x', -1)", "#string.rep('x', 1000)", "type(tostring({}))", "tostring(nil)", "tostring(true)",
				"string.sub('hello', -3)", "string.sub('hello', 2, 100)", "string.len('\\0\\0')", "string.reverse('abc')",
				"math.floor(-3.5)", "math.fmod(-7, 3)", "math.max(1, 5, 3)", "math.sqrt(-1)", "math.abs(-0.0)", "math.modf(3.7)",
				"math.log(0)", "math.frexp(8)", "math.ldexp(1, 10)",
			)}},

		// ---- the sandbox
		{id: "sandbox/no-loading", desc: "No dofile, loadfile, require, print or module: reading them is Redis's nonexistent-global error",
			cmds: [][]string{
				eval("return dofile('/etc/passwd')"), eval("return type(loadfile)"), eval("return require('os')"), eval("print('x')"),
				eval("return module('m')"), eval("return type(setfenv)"), eval("return type(getfenv)"), eval("return type(newproxy)"),
				eval("return type(loadstring)"), eval("return loadstring('return 1 + 1')()"), eval("return {loadstring('return (')}"),
				eval("return type(os)"), eval("return type(io)"), eval("return type(debug)"), eval("return type(coroutine)"),
				eval("return type(unpack)"), eval("return _VERSION"), eval("return type(collectgarbage)"),
			}},
		{id: "sandbox/gcinfo", desc: "gcinfo, a Lua 5.1 base function Redis leaves in place",
			cmds: [][]string{eval("return type(gcinfo)"), eval("return type(gcinfo())")}},
		{id: "sandbox/globals", desc: "Globals are read-only: a global write fails with Redis's message, and so do writes to library tables and to the metatables of the globals and of strings",
			cmds: [][]string{
				eval("x = 1"), eval("function f() end"), eval("rawset(_G, 'y', 1)"), eval("_G.z = 1"), eval("setmetatable(_G, nil)"),
				eval("string.foo = 1"), eval("string.rep = nil"), eval("redis = nil"), eval("KEYS = 1"), eval("math.pi = 3"),
				eval("cjson.encode = nil"), eval("local t = string; t.upper = nil"), eval("return type(getmetatable(_G))"),
				eval("KEYS[1] = 'x' return KEYS[1]"), eval("table.insert(KEYS, 'x') return #KEYS"), eval("return rawget(_G, 'redis') ~= nil"),
				eval("return nope"), eval("local t = setmetatable({}, {__index = function(t, k) return k .. '!' end}) return t.x"),
				eval("getmetatable('').x = 1"), eval("rawset(getmetatable(''), 'x', 1)"), eval("getmetatable(_G).x = 1"),
				eval("return getmetatable('').x"),
				eval("local co = coroutine.create(function(a) local b = coroutine.yield(a + 1) return b * 2 end) local _, x = coroutine.resume(co, 1) local _, y = coroutine.resume(co, 10) return {x, y, coroutine.status(co)}"),
				eval("local f = coroutine.wrap(function() coroutine.yield(1) coroutine.yield(2) end) return {f(), f()}"),
			}},
		{id: "sandbox/redis-table", desc: "The redis table: REDIS_VERSION, REDIS_VERSION_NUM, sha1hex, log, status and error replies",
			cmds: [][]string{
				eval("return redis.REDIS_VERSION"), eval("return redis.REDIS_VERSION_NUM"), eval("return redis.sha1hex('abc')"),
				eval("return redis.sha1hex('')"), eval("return redis.log(redis.LOG_WARNING, 'from a script')"),
				eval("return {redis.LOG_DEBUG, redis.LOG_VERBOSE, redis.LOG_NOTICE, redis.LOG_WARNING}"),
				eval("return redis.set_repl(redis.REPL_ALL)"), eval("return redis.replicate_commands()"), eval("return type(redis.breakpoint)"),
				eval("return redis.status_reply('FINE')"), eval("return redis.status_reply('two\\nlines')"), eval("return redis.nope()"),
			}},
		{id: "sandbox/setresp", desc: "redis.setresp(3) makes redis.call return RESP3 types (map, double, null, set); setresp(4) is refused",
			cmds: [][]string{
				{"HSET", "h", "a", "1"}, {"ZADD", "z", "1.5", "a"}, {"SADD", "s", "x"},
				eval("return redis.setresp(3)"),
				eval("redis.setresp(3) local r = redis.call('HGETALL', 'h') return {type(r), type(r.map), r.map and r.map.a}"),
				eval("redis.setresp(3) local r = redis.call('ZSCORE', 'z', 'a') return {type(r), r.double and tostring(r.double)}"),
				eval("redis.setresp(3) return {type(redis.call('GET', 'nokey'))}"),
				eval("redis.setresp(3) local r = redis.call('SMEMBERS', 's') return {type(r), type(r.set), r.set and tostring(r.set.x)}"),
				eval("redis.setresp(2) return {type(redis.call('ZSCORE', 'z', 'a')), type(redis.call('GET', 'nokey'))}"),
				eval("redis.setresp(3) return redis.call('HGETALL', 'h')"), eval("redis.setresp(3) return redis.call('ZSCORE', 'z', 'a')"),
				eval("redis.setresp(3) return redis.call('SMEMBERS', 's')"), eval("redis.setresp(3) return redis.call('GET', 'nokey')"),
				eval("redis.setresp(3) local r = redis.call('HGETALL','h') return {type(r), type(r.map), r.map.a}"),
				eval("redis.setresp(3) local r = redis.call('ZSCORE','z','a') return {type(r), r.double}"),
				eval("return redis.call('SMEMBERS','s')"), eval("redis.setresp(3) return true"), eval("redis.setresp(3) return false"),
				{"ZSCORE", "z", "a"}, {"HGETALL", "h"}, {"GET", "nokey"}, {"SMEMBERS", "s"},
			}},
		{id: "sandbox/setresp-arguments", desc: "redis.setresp with no argument or a word: Redis's own messages",
			cmds: [][]string{eval("redis.setresp('x')"), eval("redis.setresp()"), eval("redis.setresp(2, 3)")}},
		{id: "sandbox/shebang", desc: "A #!lua shebang: flags=no-writes accepted and enforced, unknown flags and engines refused, EVAL_RO",
			cmds: [][]string{
				eval("#!lua flags=no-writes\nreturn redis.call('GET', 'k')"), eval("#!lua flags=no-writes\nreturn redis.call('SET', 'k', 'v')"),
				eval("#!lua flags=no-writes\nreturn redis.pcall('SET', 'k', 'v')"),
				eval("#!lua\nreturn 1"), eval("#!lua flags=bogus\nreturn 1"), eval("#!lua name=x\nreturn 1"),
				eval("#!lua flags=no-writes,allow-oom\nreturn 1"), eval("#!lua flags=no-writes\nerror('x')"), eval("#!python\nreturn 1"),
				eval("#!lua flags=no-writes\nreturn 1 +"), eval("#!lua  flags=no-writes   \nreturn 2"),
				eval("#!lua flags=allow-cross-slot-keys,no-cluster\nreturn 3"), eval("#!lua flags=\nreturn 4"), eval("#!lua"),
				{"EVAL_RO", "#!lua\nreturn redis.call('SET','k','v')", "0"}, {"EVAL_RO", "#!lua flags=no-writes\nreturn 5", "0"},
				{"SCRIPT", "LOAD", "#!lua flags=bogus\nreturn 1"}, {"SCRIPT", "LOAD", "#!lua flags=no-writes\nreturn 6"},
				{"EVALSHA", sha("#!lua flags=no-writes\nreturn 6"), "0"}, {"EVALSHA_RO", sha("#!lua flags=no-writes\nreturn 6"), "0"},
				{"GET", "k"},
			}},

		// ---- replies
		{id: "replies/lua-to-redis", desc: "What a script returns, converted as Redis converts it: tables up to the first nil, booleans, status and error tables",
			cmds: [][]string{
				eval("return {1, 'a', {2}, nil, 3}"), eval("return {}"), eval("return true"), eval("return false"), eval("return nil"),
				eval("return {true, false, 'x'}"), eval("return {err='two\\nlines'}"), eval("return {ok='fine', err='wins?'}"),
				eval("return {ok=1}"), eval("return type(redis.call('GET', 'missing'))"), eval("return redis.call('GET', 'missing')"),
				eval("return string.char(255, 0, 65)"), eval("return {[1] = 'a', [3] = 'c'}"), eval("return {n = 1}"),
				eval("local t = {} t[1] = t return t"), eval("return redis.call('PING')"), eval("return redis.call('SET', 'k', 'v')"),
				eval("return {redis.call('SET', 'k', 'v')}"), eval("return redis.pcall('NOPE')"),
			}},
		{id: "replies/resp3-types", desc: "A script's {double=}, {map=}, {set=}, {big_number=}, verbatim and boolean returns: RESP3 types, or their RESP2 forms",
			cmds: [][]string{
				eval("return {double=1.5}"), eval("return {double=0.1}"), eval("return {map={a=1}}"), eval("return {set={a=true}}"),
				eval("return {big_number='123'}"), eval("return {verbatim_string={format='txt', string='hi'}}"),
				eval("redis.setresp(3) return true"), eval("redis.setresp(3) return false"), eval("return {1, nil, 2}"),
				eval("return {map={}}"), eval("return {double='x'}"),
			}},

		// ---- the script cache
		{id: "cache/failed-run-is-cached", desc: "A script that fails at run time under EVAL is still cached: SCRIPT EXISTS says 1, EVALSHA runs it",
			cmds: [][]string{
				eval(failing), {"SCRIPT", "EXISTS", sha(failing)}, {"EVALSHA", sha(failing), "0"},
				eval("return (("), {"SCRIPT", "EXISTS", sha("return ((")}, {"EVALSHA", sha("return (("), "0"},
			}},
		{id: "cache/upper-case-sha", desc: "EVALSHA and SCRIPT EXISTS take the SHA in upper case",
			cmds: [][]string{
				{"SCRIPT", "LOAD", "return 'hi'"}, {"EVALSHA", strings.ToUpper(sha("return 'hi'")), "0"},
				{"SCRIPT", "EXISTS", strings.ToUpper(sha("return 'hi'")), sha("return 'hi'"), "0000000000000000000000000000000000000000"},
				{"EVALSHA_RO", strings.ToUpper(sha("return 'hi'")), "0"},
			}},
		{id: "cache/script-command", desc: "SCRIPT KILL answers NOTBUSY when idle; SCRIPT FLUSH empties the cache; bad subcommands",
			cmds: [][]string{
				{"SCRIPT", "KILL"}, {"SCRIPT", "LOAD", "return 1"}, {"SCRIPT", "FLUSH"}, {"SCRIPT", "EXISTS", sha("return 1")},
				{"SCRIPT", "LOAD", "return 1"}, {"SCRIPT", "FLUSH", "ASYNC"}, {"SCRIPT", "FLUSH", "sync"},
				{"SCRIPT", "EXISTS"}, {"SCRIPT", "LOAD"}, {"SCRIPT", "KILL", "now"}, {"SCRIPT", "NOPE"}, {"SCRIPT"},
				{"EVALSHA", sha("return 1"), "0"},
			}},

		{id: "cache/script-flush-mode", desc: "SCRIPT FLUSH with a mode that is neither SYNC nor ASYNC",
			cmds: [][]string{{"SCRIPT", "FLUSH", "bogus"}, {"SCRIPT", "FLUSH", "SYNC", "ASYNC"}}},

		// ---- runaway scripts
		{id: "kill/runaway-loop", desc: "A script that never ends is stopped as SCRIPT KILL stops it: ERR Script killed by user with SCRIPT KILL... on @user_script:3.",
			runaway: "local n = 0\n-- spin\nwhile true do n = n + 1 end"},
		{id: "kill/runaway-calls", desc: "The same, for a loop that keeps calling redis.call (reads only, so Redis lets it be killed)",
			cmds:    [][]string{{"SET", "k", "v"}},
			runaway: "while true do redis.call('GET', 'k') end"},

		// ---- plain commands the playground's pages lean on
		{id: "commands/hello", desc: "HELLO switches a connection between RESP2 and RESP3, and script replies follow (the connection id is not compared)",
			cmds: [][]string{
				{"HELLO", "3"}, eval("return {double=1.5}"), eval("return {map={a=1}}"), eval("return true"), eval("return nil"),
				{"HELLO", "2"}, eval("return {double=1.5}"), eval("return {map={a=1}}"), eval("redis.setresp(3) return false"),
				eval("return {verbatim_string={format='txt',string='hi'}}"), {"HELLO", "4"}, {"HELLO", "x"}, {"HELLO"},
			}},
		{id: "commands/hello-options", desc: "HELLO with SETNAME (and AUTH, which a server without a password refuses)",
			cmds: [][]string{{"HELLO", "3", "SETNAME", "x"}, {"HELLO", "2", "AUTH", "default", "pw"}, {"HELLO", "2", "NOPE"}}},
		{id: "commands/keys-patterns", desc: "KEYS and SCAN MATCH with awkward glob patterns, matched byte by byte (the order of KEYS is undefined: compared as a set)",
			cmds: keysPatternCmds()},

		// ---- what a learner types at the console
		{id: "console/unknown-command", desc: "An unknown command's error quotes it and its first arguments as Redis 7.0 does, cut at 128 bytes, newlines made spaces",
			cmds: [][]string{{"FOO"}, {"foo", "a", "b"}, {"NOPE", strings.Repeat("x", 200), "y"}, {"X", "a\nb", "c\r\nd"},
				{strings.Repeat("Z", 150)}, {"ZADDD", "emq:{q}:pending", "0", "JOB-1"}}},
		{id: "console/set-options", desc: "SET with options that cannot go together (NX with XX, EX with PX, KEEPTTL with EX) is a syntax error",
			cmds: [][]string{{"SET", "k", "v", "XX", "NX"}, {"SET", "k", "v", "nx", "xx"}, {"SET", "k", "v", "EX", "10", "PX", "100"},
				{"SET", "k", "v", "KEEPTTL", "EX", "10"}, {"SET", "k", "v", "NX"}, {"SET", "k", "w", "XX", "GET"}, {"GET", "k"},
				{"SET", "k", "v", "NX", "NX"}, {"SET", "k", "x", "XX", "xx", "EX", "10", "ex", "20"}, {"TTL", "k"}, {"SET", "k", "v", "EX"},
				{"SET", "k", "v", "EX", "0"}, {"SET", "k", "v", "PX", "abc"}, {"SET", "k", "v", "NOPE"}, {"SET", "k", "v", "GET", "GET"},
				{"SET", "n", "v", "XX"}, {"EXISTS", "n"}, {"SET", "k", "v", "KEEPTTL", "KEEPTTL"}, {"SET", "k", "v", "EXAT", "9999999999"}}},
		{id: "console/select", desc: "SELECT past the last of the 16 databases, negative, or not a number, is refused",
			cmds: [][]string{{"SELECT", "16"}, {"SELECT", "99"}, {"SELECT", "-1"}, {"SELECT", "x"}, {"SELECT", "15"}, {"SET", "k", "v"}, {"SELECT", "0"}, {"GET", "k"}}},
		{id: "console/select-script", desc: "A script runs in its caller's database; a SELECT inside it moves neither the caller nor the next script",
			cmds: [][]string{
				{"SELECT", "1"}, {"SET", "k", "one"}, eval("return redis.call('GET', 'k')"),
				eval("redis.call('SELECT', 2) redis.call('SET', 'k', 'two') return redis.call('GET', 'k')"),
				{"GET", "k"}, eval("return redis.call('GET', 'k')"), {"SELECT", "2"}, {"GET", "k"},
				{"SELECT", "3"}, evalKeys(enq.Source, []string{row, pending}, "JOB1", "in db 3"), {"HGETALL", row},
				{"SELECT", "0"}, {"EXISTS", row}, {"GET", "k"},
			}},
		{id: "console/incrbyfloat-errors", desc: "INCRBYFLOAT and HINCRBYFLOAT on a value that is not a number, and with an increment that is not one",
			cmds: [][]string{{"SET", "s", "abc"}, {"INCRBYFLOAT", "s", "1"}, {"INCRBYFLOAT", "n", "x"},
				{"HSET", "h", "f", "abc"}, {"HINCRBYFLOAT", "h", "f", "1"}, {"HINCRBYFLOAT", "h", "g", "x"}, {"HINCRBYFLOAT", "h", "g", "1.5"}}},
	}, append(commandCases(), append(txCases(), append(clusterCases(), append(dumpCases(), append(extraCases(), append(hllCases(), append(fuzzFoundCases(), append(functionCases(), append(blockCases(), append(intsetCases(), append(resp3Cases(), append(smallCases(), append(argcapCases(), append(serverCases(), append(expireCases(), append(streamCases(), geoCases()...)...)...)...)...)...)...)...)...)...)...)...)...)...)...)...)...)
}

// manyFields is n field, value pairs.
func manyFields(n int) []string {
	out := make([]string, 0, 2*n)
	for i := range n {
		out = append(out, "f"+strconv.Itoa(i), "v"+strconv.Itoa(i*7))
	}
	return out
}

func keysPatternCmds() [][]string {
	keys := []string{"", "a", "ab", "abc", "a]", "a*", "a\\", "a\xc3\xa9", "\x80", "\xff", "xa", "a-", "emq:{q}:job:JOB-1", "emq:{q}:pending", "b"}
	var cmds [][]string
	for _, k := range keys {
		cmds = append(cmds, []string{"SET", k, "1"})
	}
	for _, p := range []string{"*", "**", "***", "?", "??", "a?", "a??", "a*", "*a", "a[bc]", "a[^b]", "a[b-a]", "a[", "a[b", "a[\\]]",
		"a\\*", "a\\", "\\", "[", "[]", "[]]", "[^]", "a[-]", "a[a-]", "emq:\\{q\\}:job:*", "emq:{q}:*", "[\x01-\xff]", "[\x7f-\x81]",
		"a\xff", "*\\", "a[\\", "?*", "*?", "[a-b]*", "[!a]", "a[]b]"} {
		cmds = append(cmds, []string{"KEYS", p}, []string{"SCAN", "0", "MATCH", p, "COUNT", "1000"})
	}
	return cmds
}
