package fidelity

// Cases for the arguments that size what the engine allocates (see
// wasm/engine/argcaps.go): counts, offsets and lengths near 2^63, each
// refused as Redis refuses it, or answered as Redis answers it, without
// the engine allocating for the number.

func init() {
	known["commands/argument-caps"] = "Where Redis would build a reply or a string a browser tab cannot hold, the playground " +
		"refuses with its cap: SETBIT past the 32 MiB string cap, and a negative random count past 100000 elements " +
		"(Redis answers SRANDMEMBER s -4611686018427387903 by building that many elements, until it is killed)."
}

func argcapCases() []fcase {
	const max, min, near = "9223372036854775807", "-9223372036854775808", "-9223372036854770000"
	one := [][]string{{"HSET", "h", "f", "v"}, {"SADD", "s", "m"}, {"ZADD", "z", "1", "m"}, {"RPUSH", "l", "a", "b", "a"}, {"SET", "str", "abc"}}
	return []fcase{
		{id: "commands/random-count-range", desc: "HRANDFIELD, ZRANDMEMBER and SRANDMEMBER with counts near 2^63: the range is checked first, then the option, then (with it) half the range, then the key",
			cmds: append(one, [][]string{
				{"HRANDFIELD", "h", near, "WITHVALUES"}, {"HRANDFIELD", "h", min, "WITHVALUES"}, {"HRANDFIELD", "h", min}, {"HRANDFIELD", "h", max},
				{"HRANDFIELD", "h", max, "WITHVALUES"}, {"HRANDFIELD", "h", "-4611686018427387904", "WITHVALUES"}, {"HRANDFIELD", "h", "4611686018427387904", "withvalues"},
				{"HRANDFIELD", "h", min, "BOGUS"}, {"HRANDFIELD", "h", near, "BOGUS"}, {"HRANDFIELD", "h", near, "WITHVALUES", "x"}, {"HRANDFIELD", "h", "x", "WITHVALUES"},
				{"HRANDFIELD", "nokey", near, "WITHVALUES"}, {"HRANDFIELD", "str", near, "WITHVALUES"}, {"HRANDFIELD", "str", near}, {"HRANDFIELD", "nokey", near},
				{"HRANDFIELD", "h", "-2"}, {"HRANDFIELD", "h", "0"},
				{"ZRANDMEMBER", "z", near, "WITHSCORES"}, {"ZRANDMEMBER", "z", min}, {"ZRANDMEMBER", "z", max, "WITHSCORES"}, {"ZRANDMEMBER", "z", max},
				{"ZRANDMEMBER", "nokey", near, "WITHSCORES"}, {"ZRANDMEMBER", "z", near, "BOGUS"}, {"ZRANDMEMBER", "z", "-2", "WITHSCORES"},
				{"SRANDMEMBER", "s", min}, {"SRANDMEMBER", "nokey", min}, {"SRANDMEMBER", "s", max}, {"SRANDMEMBER", "nokey", near},
				{"SRANDMEMBER", "s", "-3"}, {"SRANDMEMBER", "str", near},
				eval("return redis.pcall('HRANDFIELD', 'h', '-9223372036854770000', 'WITHVALUES')"),
			}...)},
		{id: "commands/bit-offset-range", desc: "SETBIT and GETBIT offsets past 2^32-1 or negative are refused before the key or the bit is read",
			cmds: append(one, [][]string{
				{"SETBIT", "b", "4294967296", "1"}, {"SETBIT", "b", "-1", "1"}, {"SETBIT", "b", "x", "1"}, {"SETBIT", "b", max, "1"}, {"SETBIT", "h", "4294967296", "1"},
				{"SETBIT", "b", "4294967296", "2"}, {"SETBIT", "b", "1", "x"}, {"SETBIT", "b", "7", "1"}, {"GET", "b"},
				{"GETBIT", "b", "4294967296"}, {"GETBIT", "b", max}, {"GETBIT", "h", "4294967296"}, {"GETBIT", "b", "4294967295"}, {"GETBIT", "nokey", "4294967295"},
				{"BITFIELD", "b", "SET", "u8", "4294967296", "1"}, {"BITFIELD", "b", "GET", "u8", max},
			}...)},
		{id: "commands/pop-count-range", desc: "SPOP, LPOP and RPOP with a count that is negative or not a number: out of range, must be positive, before the key; a huge count pops everything",
			cmds: append(one, [][]string{
				{"SPOP", "s", "-1"}, {"SPOP", "s", min}, {"SPOP", "s", "x"}, {"LPOP", "l", "-1"}, {"RPOP", "l", min}, {"LPOP", "h", "-1"}, {"LPOP", "nokey", "x"},
				{"LPOP", "l", "0"}, {"RPOP", "l", max}, {"SCARD", "s"},
			}...)},
		{id: "commands/count-and-offset-extremes", desc: "LPOS COUNT, LMPOP and ZMPOP COUNT, SETRANGE and the ranges of LRANGE, GETRANGE, ZRANGE and LTRIM at 2^63-1 and -2^63",
			cmds: append(one, [][]string{
				{"LPOS", "l", "a", "COUNT", max}, {"LPOS", "l", "a", "COUNT", max, "MAXLEN", "1"}, {"LPOS", "l", "a", "COUNT", "4294967296", "RANK", "-1"},
				{"LPOS", "l", "a", "RANK", min}, {"LPOS", "l", "a", "RANK", max},
				{"LMPOP", "1", "l", "LEFT", "COUNT", max}, {"LMPOP", max, "l", "LEFT"}, {"RPUSH", "l", "a"}, {"ZMPOP", "1", "z", "MIN", "COUNT", max},
				{"SETRANGE", "str", max, "x"}, {"SETRANGE", "str", "536870912", "x"}, {"SETRANGE", "str", "-1", "x"}, {"GET", "str"},
				{"GETRANGE", "str", min, max}, {"LRANGE", "h", min, max}, {"RPUSH", "l2", "a", "b"}, {"LRANGE", "l2", min, max}, {"ZRANGE", "z", min, max},
				{"LTRIM", "l2", min, max}, {"LRANGE", "l2", "0", "-1"}, {"LINDEX", "l2", min},
			}...)},
		{id: "commands/argument-caps", desc: "What the playground caps where Redis goes on: SETBIT past 32 MiB, a negative random count past 100000",
			cmds: append(one, [][]string{
				// One bit past the cap: Redis builds a 32 MiB string and the
				// engine refuses. Redis's largest offset (2^32-1, a 512 MiB
				// string) is left out: recording that string made this
				// suite's process hold 7-15 GB and the kernel killed it. The
				// string is deleted again so the keyspace compared stays small.
				{"SETBIT", "b", "268435456", "1"}, {"STRLEN", "b"}, {"DEL", "b"}, {"SRANDMEMBER", "s", "-100001"}, {"HRANDFIELD", "h", "-100001"},
			}...)},
	}
}
