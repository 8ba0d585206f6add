package engine

import "testing"

// The fixups of fixups_commands.go (and KEYS and SCAN's MATCH from
// fixups.go), against Redis 7.0's recorded replies.
var commandsCases = []recordedCase{
	redisCase("INCR refuses what string2ll refuses",
		"SET n 0123", "INCR n", "SET n +5", "INCR n", "DECR n", "SET n 41", "INCR n"),
	redisCase("INCRBY refuses a step Redis would not read",
		"SET n 1", "INCRBY n 007", "INCRBY n +1", "DECRBY n -0", "INCRBY n 2", "GET n"),
	redisCase("INCR and DECRBY refuse to overflow",
		"SET n 9223372036854775807", "INCR n", "INCRBY n 1", "SET m -9223372036854775808", "DECR m",
		"DECRBY m -9223372036854775808", "GET n", "GET m"),
	redisCase("SETRANGE with an empty value writes nothing",
		`SETRANGE missing 0 ""`, "EXISTS missing", "SET k abc", "STRLEN k"),
	redisCase("SETRANGE refuses a string past 512 MB", "SETRANGE k 536870912 x", "EXISTS k"),
	redisCase("SETRANGE refuses a negative offset", "SETRANGE k -1 x"),
	redisCase("SETEX and PSETEX name the command in quotes", "SETEX k 0 v", "PSETEX k -1 v", "EXISTS k"),
	redisCase("an empty ZINTERSTORE deletes the destination",
		"ZADD a 1 x", "ZADD b 1 y", "SET dst old", "ZINTERSTORE dst 2 a b", "EXISTS dst"),
	redisCase("ZUNIONSTORE checks every input's type before it writes",
		"ZADD dst 1 m", "SET s str", "ZUNIONSTORE dst 2 dst s", "ZRANGE dst 0 -1"),
	redisCase("ZUNIONSTORE names itself when it has no input key", "ZUNIONSTORE dst 0 a", "ZINTERSTORE dst 0"),
	redisCase("COPY REPLACE over another type drops the old value",
		"SET dst old", "RPUSH src x", "COPY src dst REPLACE", "TYPE dst", "DEL dst", "APPEND dst new", "GET dst"),
	// Each pattern matches one key at most: Redis answers in no set order.
	redisCase("KEYS matches byte by byte",
		`MSET a1 1 "\xc3\xa9" 3 [x 4`, "KEYS ?", `KEYS "?\xa9"`, "KEYS [b-a]?", `KEYS \[*`),
	redisCase("SCAN's MATCH matches byte by byte",
		`MSET a1 1 "\xc3\xa9" 3`, "SCAN 0 MATCH ? COUNT 100", `SCAN 0 MATCH "?\xa9" COUNT 100`, `SADD s "\xc3\xa9" e`, "SSCAN s 0 MATCH ?"),
}

func TestCommandFixupsMatchRedis(t *testing.T) { checkRecorded(t, "fixups_commands", commandsCases) }
