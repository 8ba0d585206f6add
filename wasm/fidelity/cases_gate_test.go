package fidelity

// The gate a script's redis.call passes before its command runs: Redis
// 7.0 refuses, in this order, a command (or a container's subcommand) it
// does not know, a call with the wrong number of arguments, and a command
// flagged noscript; a call that passes is the command's own to refuse.
// Each call is its own EVAL, so each reply is compared as the script gave it.

// pcalls is a case of EVALs, each returning redis.pcall of one argument
// list (Lua text), after the commands in setup.
func pcalls(id, desc string, setup [][]string, calls ...string) fcase {
	c := fcase{id: id, desc: desc, cmds: setup}
	for _, a := range calls {
		c.cmds = append(c.cmds, eval("return redis.pcall("+a+")"))
	}
	return c
}

func gateCases() []fcase {
	return []fcase{
		pcalls("gate/unknown", "Unknown to Redis 7.0, a container's unknown subcommand included, and WAITAOF (Redis 7.2's)", nil,
			"'NOSUCH', 'x'", "'CLIENT', 'NOSUCH'", "'config', 'nosuch'", "'OBJECT', 'NOSUCH', 'k'", "'WAITAOF', 0, 0, 0",
			"'LATENCY', 'NOSUCH'", "1"),
		pcalls("gate/arity-first", "The wrong number of arguments is refused before noscript: the subcommand's own arity where there is one", nil,
			"'AUTH'", "'EVAL'", "'EVALSHA'", "'MULTI', 'a', 'b'", "'WATCH'", "'SUBSCRIBE'", "'script', 'load'", "'client', 'setname'",
			"'CLIENT'", "'BLPOP'", "'WAIT'", "'DEBUG'", "'SAVE', 'x'", "'ROLE', 'x'", "'config', 'get'", "'CLIENT', 'ID', 'x'",
			"'latency', 'doctor', 'x'", "'BLMOVE', 'a', 'b'", "'GET'", "'SET', 'k'"),
		pcalls("gate/noscript", "Commands flagged noscript, whether miniredis has them or not, and CLIENT's noscript subcommands", nil,
			"'BGSAVE'", "'SAVE'", "'ROLE'", "'CONFIG', 'GET', 'x'", "'ACL', 'WHOAMI'", "'LATENCY', 'LATEST'", "'MODULE', 'LIST'",
			"'CLIENT', 'SETNAME', 'x'", "'client', 'getname'", "'CLIENT', 'ID'", "'CLIENT', 'KILL', 'x'", "'CLIENT', 'LIST'",
			"'CLIENT', 'PAUSE', '10'", "'DEBUG', 'SLEEP', '0'", "'BLPOP', 'l', 0", "'BRPOP', 'l', 0", "'BZPOPMIN', 'z', 0",
			"'BLMOVE', 'a', 'b', 'LEFT', 'LEFT', 0", "'BRPOPLPUSH', 'a', 'b', 0", "'WAIT', 0, 0", "'SHUTDOWN'", "'FAILOVER'",
			"'REPLICAOF', 'no', 'one'", "'SCRIPT', 'FLUSH'", "'FUNCTION', 'LIST'", "'MULTI'", "'EVAL', 'return 1', 0", "'HELLO'"),
		{id: "gate/raised", desc: "redis.call raises the gate's refusal as an error of the script, with Redis's words",
			cmds: [][]string{eval("return redis.call('BGSAVE')"), eval("return redis.call('CLIENT', 'NOSUCH')"),
				eval("return redis.call('AUTH')"), eval("#!lua flags=no-writes\nreturn redis.pcall('SAVE')"),
				eval("#!lua flags=no-writes\nreturn redis.pcall('BLMPOP', 0, 1, 'l', 'LEFT')")}},
		pcalls("gate/passed", "A call that passes the gate is the command's to refuse: PING's own arity, OBJECT's subcommands", nil,
			"'PING'", "'ping', 'a', 'b'", "'PING', 'hi'", "'OBJECT', 'FREQ', 'nokey'", "'OBJECT', 'HELP'", "'object', 'help', 'x'",
			"'CLIENT', 'SETNAME'"),
		pcalls("gate/blocking-pops", "BLMPOP and BZMPOP from a script never block: nil at once on empty keys, a pop otherwise; the timeout read first",
			[][]string{{"RPUSH", "l", "a", "b"}, {"ZADD", "z", "1", "m", "2", "n"}},
			"'BLMPOP', 0, 1, 'none', 'LEFT'", "'BZMPOP', 0, 1, 'none', 'MIN'", "'BLMPOP', 0, 2, 'none', 'l', 'LEFT'",
			"'BLMPOP', 5, 1, 'l', 'RIGHT', 'COUNT', 5", "'BZMPOP', '0.5', 1, 'z', 'MAX'", "'BLMPOP', 'x', 1, 'l', 'LEFT'",
			"'BLMPOP', -1, 1, 'l', 'LEFT'", "'BZMPOP', '-0.0001', 1, 'z', 'MIN'", "'BZMPOP', 'nan', 1, 'z', 'MIN'",
			"'BLMPOP', 0, 0, 'l', 'LEFT'", "'BZMPOP', 0, 1, 'l', 'MIN'"),
		pcalls("gate/xread-block", "XREAD and XREADGROUP run from a script, but not with BLOCK: Redis's words, named as the script spelt it",
			[][]string{{"XADD", "s", "1-1", "f", "v"}, {"XGROUP", "CREATE", "s", "g", "0"}},
			"'XREAD', 'COUNT', 1, 'STREAMS', 's', '0'", "'XREAD', 'BLOCK', '0', 'STREAMS', 's', '$'", "'xread', 'block', '10', 'STREAMS', 's', '$'",
			"'XREADGROUP', 'GROUP', 'g', 'c', 'BLOCK', '0', 'STREAMS', 's', '>'", "'xreadgroup', 'GROUP', 'g', 'c', 'COUNT', 1, 'STREAMS', 's', '>'",
			"'XREAD', 'COUNT', 'x', 'BLOCK', '0', 'STREAMS', 's', '$'", "'XREAD', 'FOO', 'BLOCK', '0', 'STREAMS', 's', '$'",
			"'XREAD', 'GROUP', 'g', 'c', 'BLOCK', '0', 'STREAMS', 's', '$'", "'XREAD', 'NOACK', 'STREAMS', 's', '0'",
			"'XREAD', 'BLOCK'"),
		{id: "gate/info-object", desc: "INFO with a section Redis lacks answers empty; OBJECT FREQ and HELP as Redis answers them",
			cmds: [][]string{{"INFO", "nosuch"}, {"INFO", "NOSUCH"}, eval("return redis.pcall('INFO', 'nosuch')"),
				{"OBJECT", "FREQ", "nokey"}, {"SET", "k", "v"}, {"OBJECT", "FREQ", "k"}, {"OBJECT", "FREQ"}, {"OBJECT", "HELP"},
				{"OBJECT", "HELP", "x"}, {"object", "help"}, eval("return redis.pcall('OBJECT', 'FREQ', 'k')")}},
		{id: "gate/object-refcount", desc: "OBJECT REFCOUNT: nil for no key, INT_MAX for a shared small integer, 1 for any other value",
			cmds: [][]string{{"OBJECT", "REFCOUNT", "nokey"}, {"SET", "k", "123"}, {"OBJECT", "REFCOUNT", "k"}, {"SET", "k", "9999"},
				{"OBJECT", "REFCOUNT", "k"}, {"SET", "k", "10000"}, {"OBJECT", "REFCOUNT", "k"}, {"SET", "k", "-1"}, {"OBJECT", "REFCOUNT", "k"},
				{"SET", "k", "007"}, {"OBJECT", "REFCOUNT", "k"}, {"INCR", "n"}, {"OBJECT", "REFCOUNT", "n"}, {"RPUSH", "l", "5"},
				{"OBJECT", "REFCOUNT", "l"}, {"OBJECT", "REFCOUNT"}, eval("redis.call('SET', 's', '42') return redis.pcall('OBJECT', 'REFCOUNT', 's')")}},
		{id: "gate/console", desc: "From the console: an unknown command, the wrong number of arguments, a container's unknown subcommand",
			cmds: [][]string{{"NOSUCH", "a", "b"}, {"GET"}, {"CLIENT"}, {"CLIENT", "NOSUCH"}, {"OBJECT"}, {"OBJECT", "nosuch", "k"},
				{"PING", "a", "b"}, {"SET", "k"}}},
		{id: "gate/ping", desc: "PING answers PONG, or its one argument as a bulk string, on either protocol and from a script",
			cmds: [][]string{{"PING"}, {"ping", "hi"}, {"PING", ""}, {"PING", "PONG"}, eval("return {redis.call('PING'), redis.call('PING', 'x')}"),
				{"HELLO", "3"}, {"PING"}, {"PING", "hi"}, eval("redis.setresp(3) return {redis.call('PING'), redis.call('ping', '')}")}},
	}
}
