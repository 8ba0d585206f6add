package fidelity

import (
	"echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/rdb"
)

// Cases for Redis 7.0's functions (wasm/engine/functions*.go): FUNCTION
// LOAD, FCALL and FCALL_RO, FUNCTION LIST, DELETE, FLUSH, DUMP, RESTORE,
// STATS, KILL and HELP, with their errors, in MULTI and from a script.
// FUNCTION LIST and DUMP list libraries (and a library its functions) in
// the order of a hash table Redis seeds at random: a case lists one
// library with one function, or names one with LIBRARYNAME.

// lib is the code of a library called name whose body registers its
// functions.
func lib(name, body string) string { return "#!lua name=" + name + "\n" + body }

// fnLoad is FUNCTION LOAD of a library.
func fnLoad(name, body string) []string { return []string{"FUNCTION", "LOAD", lib(name, body)} }

// queueLib is a library of the course's kind: enqueue writes a job's row
// and its place in the pending set, peek reads, and a no-writes function
// that tries to write.
const queueLib = `local function enqueue(keys, args)
  if redis.call('EXISTS', keys[2]) == 1 then return 'duplicate' end
  redis.call('HSET', keys[2], 'state', 'pending', 'payload', args[2])
  redis.call('ZADD', keys[1], args[3], args[1])
  return 'enqueued'
end
redis.register_function('enqueue', enqueue)
redis.register_function{function_name='peek', callback=function(keys) return redis.call('ZRANGE', keys[1], 0, -1, 'WITHSCORES') end, flags={'no-writes'}, description='the pending set, in order'}
redis.register_function{function_name='sneak', callback=function(keys) return redis.call('DEL', keys[1]) end, flags={'no-writes'}}`

func functionCases() []fcase {
	one := lib("one", "redis.register_function('hello', function(keys, args) return 'hello ' .. (args[1] or 'you') end)")
	course, row := lua.Library(), "emq:{q}:job:JOB-000001"
	return []fcase{
		{id: "functions/course-library", desc: "The course's scripts as one library (what the console's Load button sends): FUNCTION LOAD answers its name, FCALL enqueue admits a job, refuses a duplicate and a bad id, FCALL claim refuses a bad lease and pops nothing from an empty queue, and FCALL_RO refuses both (FUNCTION LIST is left out: it lists a library's two functions in the order of a hash table Redis seeds at random)",
			cmds: [][]string{{"FUNCTION", "LOAD", course}, {"FUNCTION", "LOAD", course}, {"FUNCTION", "LOAD", "REPLACE", course},
				{"FCALL", "enqueue", "2", row, "emq:{q}:pending", "JOB-000001", `{"task":"a"}`},
				{"FCALL", "enqueue", "2", row, "emq:{q}:pending", "JOB-000001", `{"task":"again"}`},
				{"FCALL", "enqueue", "2", "emq:{q}:job:X-1", "emq:{q}:pending", "X-1", "p"},
				{"HGETALL", row}, {"ZRANGE", "emq:{q}:pending", "0", "-1", "WITHSCORES"},
				{"FCALL", "claim", "2", "emq:{q}:pending", "emq:{q}:active", "emq:{q}:job:", "soon"},
				{"FCALL", "claim", "2", "emq:{e}:pending", "emq:{e}:active", "emq:{e}:job:", "30000"},
				{"FCALL_RO", "enqueue", "2", row, "emq:{q}:pending", "JOB-000002", "p"},
				{"FCALL_RO", "claim", "2", "emq:{q}:pending", "emq:{q}:active", "emq:{q}:job:", "30000"},
				{"ZCARD", "emq:{q}:pending"}}},
		{id: "functions/learner", desc: "A course queue as a library: FUNCTION LOAD answers its name, FCALL runs enqueue with its keys and arguments (and a duplicate), FCALL_RO runs the no-writes peek, refuses enqueue, and a no-writes function that writes fails",
			cmds: [][]string{{"FUNCTION", "LOAD", lib("queue", queueLib)}, {"FCALL", "enqueue", "2", "{q}:pending", "{q}:job:1", "1", "hi", "1700000000000"},
				{"FCALL", "enqueue", "2", "{q}:pending", "{q}:job:1", "1", "hi", "1700000000000"}, {"HGETALL", "{q}:job:1"},
				{"FCALL_RO", "peek", "1", "{q}:pending"}, {"FCALL", "PEEK", "1", "{q}:pending"}, {"FCALL_RO", "enqueue", "2", "{q}:pending", "{q}:job:2", "2", "x", "1"},
				{"FCALL", "sneak", "1", "{q}:pending"}, {"FCALL_RO", "sneak", "1", "{q}:pending"}, {"ZCARD", "{q}:pending"},
				{"FUNCTION", "LIST", "LIBRARYNAME", "nomatch"}, {"FUNCTION", "STATS"}}},
		{id: "functions/list-one", desc: "FUNCTION LIST of one library with one function, with WITHCODE, a LIBRARYNAME pattern (matched in any case), and its errors",
			cmds: [][]string{{"FUNCTION", "LIST"}, {"FUNCTION", "LOAD", one}, {"FUNCTION", "LIST"}, {"FUNCTION", "LIST", "WITHCODE"},
				{"FUNCTION", "LIST", "LIBRARYNAME", "O*"}, {"FUNCTION", "list", "withcode", "libraryname", "on?"}, {"FUNCTION", "LIST", "LIBRARYNAME", "two"},
				{"FUNCTION", "LIST", "LIBRARYNAME"}, {"FUNCTION", "LIST", "WITHCODE", "WITHCODE"}, {"FUNCTION", "LIST", "LIBRARYNAME", "a", "LIBRARYNAME", "b"},
				{"FUNCTION", "LIST", "bogus"}, {"FCALL", "hello", "0"}, {"FCALL", "hello", "0", "world"}}},
		{id: "functions/list-flags", desc: "FUNCTION LIST of a function with every flag (listed in Redis's order, named in any case, one given twice) and a description, one whose description is a number, and one with none",
			cmds: [][]string{
				fnLoad("f1", "redis.register_function{function_name='all', callback=function() end, flags={'allow-cross-slot-keys','NO-WRITES','allow-oom','no-cluster','allow-stale','no-writes'}, description='every flag'}"),
				fnLoad("f2", "redis.register_function{function_name='num', callback=function() end, description=12, flags={}}"),
				fnLoad("f3", "redis.register_function{function_name=42, callback=function() end}"),
				{"FUNCTION", "LIST", "LIBRARYNAME", "f1"}, {"FUNCTION", "LIST", "LIBRARYNAME", "f2"}, {"FUNCTION", "LIST", "LIBRARYNAME", "f3"}, {"FCALL", "42", "0"}}},
		{id: "functions/load-errors", desc: "FUNCTION LOAD's errors before any code runs: no or bad first line, no name, a bad name, an unknown engine or option, a library that exists (any case of REPLACE replaces it), code that does not compile, and no function registered",
			cmds: [][]string{{"FUNCTION", "LOAD", "redis.register_function('f', function() end)"}, {"FUNCTION", "LOAD", "#!lua name=x"},
				{"FUNCTION", "LOAD", "#!lua\nreturn 1"}, {"FUNCTION", "LOAD", "#!lua name=\nreturn 1"}, {"FUNCTION", "LOAD", "#!lua name=a-b\nreturn 1"},
				{"FUNCTION", "LOAD", "#!py name=a-b\nreturn 1"}, {"FUNCTION", "LOAD", "#!py name=ab\nreturn 1"}, {"FUNCTION", "LOAD", "#!LUA name=up\nredis.register_function('up', function() return 'up' end)"},
				{"FUNCTION", "LOAD", "#!lua name=a b\nreturn 1"}, {"FUNCTION", "LOAD", "#!lua name=a name=b\nreturn 1"}, {"FUNCTION", "LOAD", "#! lua name=a\nreturn 1"},
				{"FUNCTION", "LOAD", "#!lua  NAME=sp  \r\nredis.register_function('sp', function() return 'sp' end)"}, {"FCALL", "sp", "0"},
				{"FUNCTION", "LOAD", "#!lua name='q'\nredis.register_function('q', function() end)"}, {"FUNCTION", "LOAD", "#!lua name=\"unclosed\nreturn 1"},
				{"FUNCTION", "LOAD", "#!lua name=up\nreturn ("}, {"FUNCTION", "LOAD", "#!lua name=up\nredis.register_function('up2', function() end)"},
				{"FUNCTION", "LOAD", "#!lua name=Up\nredis.register_function('up3', function() return 3 end)"},
				{"FUNCTION", "LOAD", "replace", "#!lua name=up\nreturn ("}, {"FUNCTION", "LOAD", "REPLACE", "REPLACE", "#!lua name=up\nredis.register_function('up4', function() return 4 end)"},
				{"FCALL", "up", "0"}, {"FCALL", "up4", "0"}, {"FUNCTION", "LOAD", "FOO", "#!lua name=z\nreturn 1"}, {"FUNCTION", "LOAD", "#!lua name=none\nreturn 1"},
				{"FUNCTION", "LOAD", "#!lua name=none\nlocal x = 1"}, {"FUNCTION", "LOAD"}, {"FUNCTION", "STATS"}}},
		{id: "functions/load-sandbox", desc: "A library's code runs in Redis 7.0's load-time sandbox: redis.register_function, redis.log and the version are there, redis.call, type, string, KEYS and every other global are not, globals and the redis table cannot be written, and a loop that never ends times out",
			cmds: [][]string{fnLoad("s", "redis.call('PING')"), fnLoad("s", "return type(1)"), fnLoad("s", "local s = string"), fnLoad("s", "local k = KEYS"),
				fnLoad("s", "x = 1"), fnLoad("s", "redis.x = 1"), fnLoad("s", "error('boom')"), fnLoad("s", "local t = redis.setresp"),
				fnLoad("s", "local p = pcall"), fnLoad("s", "return redis.math.random()"), fnLoad("s", "redis.redis.call('ping')"),
				fnLoad("s", "redis.log(redis.LOG_WARNING, 'loading') local v = redis.REDIS_VERSION .. redis.REDIS_VERSION_NUM\nredis.register_function('v', function() return v end)"),
				{"FCALL", "v", "0"}, fnLoad("t", "local n = 0\nwhile true do n = n + 1 end"), {"FUNCTION", "STATS"}}},
		{id: "functions/register-errors", desc: "redis.register_function's errors, each worded as Redis words it: the number and kinds of arguments, the named arguments, flags, a function that exists in the library or in another (in any case), and a call at run time",
			cmds: [][]string{fnLoad("r", "redis.register_function()"), fnLoad("r", "redis.register_function('a', function() end, 3)"),
				fnLoad("r", "redis.register_function('a')"), fnLoad("r", "redis.register_function({}, function() end)"), fnLoad("r", "redis.register_function('a', 1)"),
				fnLoad("r", "redis.register_function('a-b', function() end)"), fnLoad("r", "redis.register_function('', function() end)"),
				fnLoad("r", "redis.register_function{callback=function() end}"), fnLoad("r", "redis.register_function{function_name='a'}"),
				fnLoad("r", "redis.register_function{function_name={}, callback=function() end}"), fnLoad("r", "redis.register_function{function_name='a', callback=1}"),
				fnLoad("r", "redis.register_function{function_name='a', callback=function() end, description={}}"),
				fnLoad("r", "redis.register_function{function_name='a', callback=function() end, flags='no-writes'}"),
				fnLoad("r", "redis.register_function{function_name='a', callback=function() end, flags={'bad'}}"),
				fnLoad("r", "redis.register_function{function_name='a', callback=function() end, flags={1}}"),
				fnLoad("r", "redis.register_function{function_name='a', callback=function() end, other=1}"),
				fnLoad("r", "redis.register_function{'a', function() end}"),
				fnLoad("r", "redis.register_function('a', function() end) redis.register_function('a', function() end)"),
				fnLoad("r", "local lib = redis\nlib.register_function('a', function() return 1 end)\nlib.register_function('late', function() lib.register_function('b', function() end) end)\nlib.register_function('poke', function() lib.redis = redis end)"),
				fnLoad("r2", "redis.register_function('A', function() end)"), fnLoad("r2", "redis.register_function('b', function() end) redis.register_function('a', function() end)"),
				{"FCALL", "late", "0"}, {"FCALL", "poke", "0"}, {"FCALL", "A", "0"}, {"FUNCTION", "LIST", "LIBRARYNAME", "r2"}}},
		{id: "functions/fcall", desc: "FCALL's errors (an unknown function, a bad, negative or too large number of keys, too few arguments) and what a function sees: its keys and arguments, no KEYS or ARGV, the runner's libraries and redis API, its own errors with the function's name and user_function's line, and RESP3 replies after HELLO 3",
			cmds: [][]string{{"FCALL", "nope", "0"}, {"FCALL", "nope", "x"},
				fnLoad("f", `redis.register_function('args', function(keys, args) return {#keys, #args, keys[1], args[1], args[2]} end)
redis.register_function('globals', function() return KEYS end)
redis.register_function('libs', function() return {type(string), cjson.encode({1}), bit.band(6, 3), tostring(math.huge), redis.sha1hex('x'), type(redis.register_function)} end)
redis.register_function('boom', function() error('boom') end)
redis.register_function('bad', function() return redis.call('nosuch') end)
redis.register_function('myerr', function() return redis.error_reply('MY own error') end)
redis.register_function('set', function() x = 1 end)
redis.register_function('pc', function(keys) return redis.pcall('INCR', keys[1]) end)
redis.register_function('types', function() return {1, 'two', {ok='fine'}, 2.5, true, false, nil, 8} end)
redis.register_function('r3', function(keys) redis.setresp(3) return redis.call('HGETALL', keys[1]) end)
redis.register_function('sel', function() redis.call('SELECT', '1') return redis.call('SET', 'in1', 'v') end)`),
				{"FCALL", "args", "1", "k", "a", "b"}, {"FCALL", "ARGS", "0"}, {"FCALL", "args", "x"}, {"FCALL", "args", "-1"}, {"FCALL", "args", "2", "k"},
				{"FCALL", "args", "1.5"}, {"FCALL", "args", "99999999999999999999"}, {"FCALL", "args"}, {"FCALL_RO", "args", "0"},
				{"FCALL", "globals", "0"}, {"FCALL", "libs", "0"}, {"FCALL", "boom", "0"}, {"FCALL", "bad", "0"}, {"FCALL", "myerr", "0"}, {"FCALL", "set", "0"},
				{"SET", "s", "str"}, {"FCALL", "pc", "1", "s"}, {"FCALL", "types", "0"}, {"HSET", "h", "f", "v", "g", "w"}, {"FCALL", "r3", "1", "h"},
				{"FCALL", "sel", "0"}, {"GET", "in1"}, {"SELECT", "1"}, {"GET", "in1"}}},
		{id: "functions/errors-in-code", desc: "Errors from a library's code as Redis words them: syntax errors on the line they are on, a tab or quotes in the first line, a NUL in the code, an empty code; and from its functions: errors raised in a local function it calls, error levels and tables, pcall, a wrong command, arity and type errors",
			cmds: [][]string{{"FUNCTION", "LOAD", ""}, {"FUNCTION", "LOAD", "#!lua\tname=tab\nredis.register_function('tab', function() return 'tab' end)"}, {"FCALL", "tab", "0"},
				{"FUNCTION", "LOAD", "#!lua \"name=dq\"\nredis.register_function('dq', function() return 'dq' end)"}, {"FCALL", "dq", "0"},
				fnLoad("syn", "local x = \n\nredis.register_function('a', function() end"), fnLoad("syn", "local function f()\n  return 1 +\nend"),
				fnLoad("syn", "redis.register_function('a', function() return 'a\x00b' end)"), {"FCALL", "a", "0"},
				fnLoad("e", `local function deep(n) if n == 0 then error('deep down') end return deep(n - 1) end
local function lvl() error('at level 2', 2) end
redis.register_function('deep', function() return deep(3) end)
redis.register_function('lvl', function() lvl() end)
redis.register_function('tbl', function() error({err='CUSTOM raised table'}) end)
redis.register_function('num', function() error(42) end)
redis.register_function('pc', function() return {pcall(error, 'caught'), pcall(redis.call, 'nosuch')} end)
redis.register_function('arity', function() return redis.call('GET') end)
redis.register_function('wrongtype', function(keys) redis.call('SET', keys[1], 'x') return redis.call('LPUSH', keys[1], 'y') end)
redis.register_function('arith', function() return {} + 1 end)
redis.register_function('noret', function() end)
redis.register_function('float', function() return 3.99 end)`),
				{"FCALL", "deep", "0"}, {"FCALL", "lvl", "0"}, {"FCALL", "tbl", "0"}, {"FCALL", "num", "0"}, {"FCALL", "pc", "0"}, {"FCALL", "arity", "0"},
				{"FCALL", "wrongtype", "1", "k"}, {"FCALL", "arith", "0"}, {"FCALL", "noret", "0"}, {"FCALL", "float", "0"}}},
		{id: "functions/no-script-globals", desc: "A function sees none of a script's KEYS and ARGV, not even through _G, while the script that set them sees them again next time",
			cmds: [][]string{evalKeys("return {KEYS[1], ARGV[1]}", []string{"k"}, "a"),
				fnLoad("g", "redis.register_function('raw', function() return {type(rawget(_G, 'KEYS')), type(rawget(_G, 'ARGV')), type(rawget(_G, 'string'))} end)\nredis.register_function('viaG', function() return _G.KEYS end)"),
				{"FCALL", "raw", "0"}, {"FCALL", "viaG", "0"}, evalKeys("return {KEYS[1], ARGV[1]}", []string{"k"}, "a"), eval("return type(rawget(_G, 'KEYS'))"), {"FCALL", "raw", "0"}}},
		{id: "functions/delete-flush", desc: "FUNCTION DELETE removes a library and its functions (its name read case by case), FUNCTION FLUSH every library in either mode; FLUSHALL and FLUSHDB leave them",
			cmds: [][]string{{"FUNCTION", "LOAD", one}, {"FUNCTION", "DELETE", "ONE"}, {"FUNCTION", "DELETE", "nope"}, {"FLUSHALL"}, {"FLUSHDB"},
				{"FCALL", "hello", "0"}, {"FUNCTION", "DELETE", "one"}, {"FCALL", "hello", "0"}, {"FUNCTION", "LIST"}, {"FUNCTION", "DELETE"}, {"FUNCTION", "DELETE", "a", "b"},
				{"FUNCTION", "LOAD", one}, {"FUNCTION", "FLUSH", "ASYNC"}, {"FUNCTION", "STATS"}, {"FUNCTION", "LOAD", one}, {"FUNCTION", "FLUSH", "sync"},
				{"FUNCTION", "FLUSH", "bogus"}, {"FUNCTION", "FLUSH", "a", "b"}, {"FUNCTION", "FLUSH"}, {"FUNCTION", "STATS"}}},
		{id: "functions/dump-restore", desc: "FUNCTION DUMP's payload is Redis's byte for byte (opcode, LZF, version 10, CRC-64); FUNCTION RESTORE reads it back with APPEND (the default), REPLACE or FLUSH, refuses a collision or a bad payload and leaves the libraries as they were",
			cmds: [][]string{{"FUNCTION", "DUMP"}, {"FUNCTION", "LOAD", one}, {"FUNCTION", "DUMP"}, {"FUNCTION", "RESTORE", dumpOf(one)},
				{"FUNCTION", "RESTORE", dumpOf(one), "APPEND"}, {"FUNCTION", "RESTORE", dumpOf(one), "replace"}, {"FUNCTION", "FLUSH"},
				{"FUNCTION", "RESTORE", dumpOf(one)}, {"FCALL", "hello", "0"}, {"FUNCTION", "LOAD", lib("two", "redis.register_function('hello', function() return 2 end)")},
				{"FUNCTION", "RESTORE", dumpOf(one)}, {"FUNCTION", "RESTORE", dumpOf(one), "REPLACE"}, {"FCALL", "hello", "0"},
				{"FUNCTION", "RESTORE", dumpOf(one), "FLUSH"}, {"FCALL", "hello", "0"}, {"FUNCTION", "LIST"},
				{"FUNCTION", "LOAD", "REPLACE", lib("one", "redis.register_function('short', function() return 1 end)")}, {"FUNCTION", "DUMP"},
				{"FUNCTION", "RESTORE", "bad"}, {"FUNCTION", "RESTORE", ""}, {"FUNCTION", "RESTORE", "bad", "bogus"}, {"FUNCTION", "RESTORE", "bad", "FLUSH", "x"},
				{"FUNCTION", "RESTORE"}, {"FUNCTION", "DUMP", "x"}, {"FUNCTION", "RESTORE", dumpOf(lib("b-a-d", "return 1")), "FLUSH"}, {"FCALL", "short", "0"},
				{"FUNCTION", "RESTORE", dumpOf(lib("empty", "return 1"))}, {"FUNCTION", "RESTORE", dumpOf(lib("nope", "return ("))}, {"FUNCTION", "RESTORE", keyDump("x")},
				{"FUNCTION", "LIST"}}},
		{id: "functions/restore-several", desc: "FUNCTION RESTORE of a payload of several libraries: two of one name, two with one function name, one that fails to load (nothing is restored), and two that restore together",
			cmds: [][]string{{"FUNCTION", "RESTORE", dumpOf(one, one)}, {"FUNCTION", "RESTORE", dumpOf(one, lib("two", "redis.register_function('HELLO', function() return 2 end)"))},
				{"FUNCTION", "RESTORE", dumpOf(one, lib("bad", "return ("))}, {"FUNCTION", "STATS"},
				{"FUNCTION", "RESTORE", dumpOf(one, lib("two", "redis.register_function('two', function() return 2 end)"))}, {"FCALL", "hello", "0"}, {"FCALL", "two", "0"},
				{"FUNCTION", "STATS"}, {"FUNCTION", "RESTORE", dumpOf(lib("two", "redis.register_function('hello', function() return 3 end)")), "REPLACE"},
				{"FUNCTION", "RESTORE", dumpOf(lib("two", "redis.register_function('three', function() return 3 end)")), "REPLACE"}, {"FCALL", "three", "0"},
				{"FUNCTION", "RESTORE", dumpOf(), "FLUSH"}, {"FUNCTION", "STATS"}}},
		{id: "functions/stats-kill-help", desc: "FUNCTION STATS (nothing running, the counts of libraries and functions), FUNCTION KILL with nothing to kill, FUNCTION HELP, and the subcommands' arity errors",
			cmds: [][]string{{"FUNCTION", "STATS"}, {"FUNCTION", "LOAD", lib("queue", queueLib)}, {"FUNCTION", "STATS"}, {"FUNCTION", "STATS", "x"},
				{"FUNCTION", "KILL"}, {"FUNCTION", "KILL", "x"}, {"FUNCTION", "HELP"}, {"FUNCTION", "HELP", "x"}, {"FUNCTION"}, {"FUNCTION", "bogus"}, {"FCALL"}, {"FCALL_RO", "x"}}},
		{id: "functions/multi-and-scripts", desc: "FUNCTION and FCALL queued in MULTI run at EXEC (an error in one leaves the others), a syntax error discards the transaction, and from a script FCALL and every FUNCTION subcommand but HELP are refused",
			cmds: [][]string{{"MULTI"}, {"FUNCTION", "LOAD", lib("m", "redis.register_function('mf', function(keys) return redis.call('INCR', keys[1]) end)")},
				{"FCALL", "mf", "1", "n"}, {"FCALL", "nope", "0"}, {"FUNCTION", "LIST"}, {"FUNCTION", "STATS"}, {"FUNCTION", "DELETE", "m"}, {"EXEC"},
				{"MULTI"}, {"FCALL", "mf", "x"}, {"FCALL"}, {"EXEC"}, {"MULTI"}, {"FUNCTION", "bogus"}, {"EXEC"},
				eval("return redis.call('FUNCTION', 'HELP')[1]"), eval("return redis.pcall('FUNCTION', 'LIST')"), eval("return redis.pcall('FUNCTION', 'FLUSH')"),
				eval("return redis.pcall('FCALL', 'mf', '0')"), eval("return redis.pcall('FCALL_RO', 'mf', '0')"), eval("return redis.pcall('FUNCTION')"),
				eval("return redis.pcall('FUNCTION', 'bogus')")}},
	}
}

// dumpOf is a FUNCTION RESTORE payload holding libraries of these codes.
func dumpOf(codes ...string) string { return rdb.DumpFunctions(codes) }

// keyDump is the DUMP payload of a string key holding s: no function.
func keyDump(s string) string { return rdb.Dump(rdb.Value{Kind: rdb.String, Str: s}) }
