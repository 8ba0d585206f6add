package fidelity

// Cases for RESP3 shapes; TestFidelityRESP3Kinds (resp3_kinds_test.go)
// compares every command's reply kinds, and these the values too.

func resp3Cases() []fcase {
	return []fcase{
		{id: "resp3/sets-pairs-maps", desc: "Under RESP3, SMEMBERS, SINTER, SUNION, SDIFF and SPOP with a count send sets, HRANDFIELD WITHVALUES [field, value] pairs, ZRANDMEMBER WITHSCORES pairs with double scores, XREAD and XREADGROUP a map of streams (GEOPOS's doubles: TestFidelityRESP3Kinds)",
			cmds: [][]string{{"SADD", "s", "1", "2", "3"}, {"SADD", "t", "3", "4"}, {"SMEMBERS", "s"}, {"SINTER", "s", "t"}, {"SUNION", "s", "t"},
				{"SDIFF", "s", "t"}, {"HSET", "h", "f", "v"}, {"HRANDFIELD", "h", "1", "WITHVALUES"}, {"HRANDFIELD", "h", "-2", "WITHVALUES"},
				{"ZADD", "z", "1.5", "m"}, {"ZRANDMEMBER", "z", "1", "WITHSCORES"}, {"ZMPOP", "1", "z", "MIN"},
				{"XADD", "st", "1-1", "f", "v"}, {"XREAD", "STREAMS", "st", "0"}, {"XGROUP", "CREATE", "st", "g", "0"},
				{"XREADGROUP", "GROUP", "g", "c", "STREAMS", "st", ">"},
				{"SPOP", "s", "5"}}},
	}
}
