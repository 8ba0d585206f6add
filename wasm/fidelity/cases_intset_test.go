package fidelity

import "strconv"

// Cases for integer sets (wasm/engine/intsets.go): a set of up to 512
// integers is an intset in Redis 7.0, kept in numeric order, so every read
// that walks one answers in that order, and inDefinedOrder compares such
// replies as they come instead of sorting them.

// saddRange is SADD key from ... to.
func saddRange(key string, from, to int) []string {
	cmd := []string{"SADD", key}
	for i := from; i <= to; i++ {
		cmd = append(cmd, strconv.Itoa(i))
	}
	return cmd
}

func intsetCases() []fcase {
	return []fcase{
		{id: "intset/reads-in-numeric-order", desc: "SMEMBERS, SSCAN (MATCH too), SORT BY nosort and a script's SMEMBERS read an intset in numeric order, negative and 64-bit members included",
			cmds: [][]string{{"SADD", "s", "10", "-5", "3", "0", "-100", "99999999999", "-9223372036854775808", "2"},
				{"SMEMBERS", "s"}, {"OBJECT", "ENCODING", "s"}, {"SSCAN", "s", "0"}, {"SSCAN", "s", "0", "MATCH", "*0"},
				{"SSCAN", "s", "0", "COUNT", "2"}, {"SORT", "s", "BY", "nosort"}, evalKeys("return redis.call('SMEMBERS', KEYS[1])", []string{"s"}),
				{"SREM", "s", "3"}, {"SADD", "s", "7"}, {"SMEMBERS", "s"}}},
		{id: "intset/whole-set-random-reads", desc: "SRANDMEMBER and SPOP with a count that takes the whole intset answer it in numeric order",
			cmds: [][]string{{"SADD", "s", "5", "3", "1", "4"}, {"SRANDMEMBER", "s", "4"}, {"SRANDMEMBER", "s", "10"},
				{"SPOP", "s", "10"}, {"EXISTS", "s"}, {"SADD", "s", "9", "-1", "8"}, {"SPOP", "s", "3"}}},
		{id: "intset/set-algebra", desc: "SINTER walks its first smallest set, SUNION and SDIFF build a new set that is an intset while it holds integers only: their replies follow",
			cmds: [][]string{{"SADD", "a", "5", "3", "1", "4"}, {"SADD", "b", "9", "7", "3", "5"}, {"SADD", "c", "x", "3", "5", "1"},
				{"SINTER", "a", "b"}, {"SINTER", "b", "a"}, {"SINTER", "a", "c"}, {"SUNION", "a", "b"}, {"SUNION", "b", "a", "none"},
				{"SDIFF", "a", "b"}, {"SDIFF", "b", "a"}, saddRange("big", 1, 12), {"SADD", "one", "3"}, {"SADD", "two", "4"},
				{"SDIFF", "big", "one", "two"}, {"SDIFF", "big", "none", "one"}, {"SDIFF", "big", "big"}, {"SINTER", "big", "a", "b"}}},
		{id: "intset/limit", desc: "512 integers are still an intset, in numeric order; the 513th makes a hash table",
			cmds: [][]string{saddRange("s", 1, 512), {"OBJECT", "ENCODING", "s"}, {"SMEMBERS", "s"}, {"SSCAN", "s", "0"},
				{"SADD", "s", "0"}, {"OBJECT", "ENCODING", "s"}, {"SCARD", "s"}}},
	}
}
