package fidelity

import (
	"strconv"
	"strings"
)

// Cases for the commands miniredis answers otherwise than Redis 7.0, and
// for the sorted sets the engine serves from its own index (see
// wasm/engine/zsetcmds.go). Each was a difference before the engine
// served or corrected the command.

func init() {
	known["commands/setrange-cap"] = "The playground caps one string at 32 MiB (the memory a tab can give a script), " +
		"so SETRANGE past that is refused with an error that says so; Redis builds strings up to 512 MB."
	known["commands/object-encoding-history"] = "Redis never turns an encoding back, and APPEND or SETRANGE make a " +
		"string raw whatever its size; the engine follows that history for sorted sets only, and answers a string, " +
		"set or hash from what it holds now."
}

// zmembers is n score, member pairs: scores i, members m<i>.
func zmembers(n int) []string {
	out := make([]string, 0, 2*n)
	for i := range n {
		out = append(out, strconv.Itoa(i%50), "m"+strconv.Itoa(i))
	}
	return out
}

func commandCases() []fcase {
	big := append([]string{"ZADD", "big"}, zmembers(200)...)
	return []fcase{
		{id: "commands/zadd-gt-lt-incr", desc: "ZADD with GT or LT and INCR: no update answers nil, and GT with LT is refused",
			cmds: [][]string{{"ZADD", "z", "1", "a"}, {"ZADD", "z", "GT", "INCR", "5", "a"}, {"ZADD", "z", "LT", "INCR", "5", "a"},
				{"ZADD", "z", "GT", "INCR", "-1", "a"}, {"ZADD", "z", "LT", "INCR", "-1", "a"}, {"ZADD", "z", "GT", "LT", "1", "a"},
				{"ZADD", "z", "NX", "GT", "1", "a"}, {"ZADD", "z", "XX", "NX", "1", "a"}, {"ZADD", "z", "INCR", "1", "a", "2", "b"},
				{"ZADD", "z", "XX", "INCR", "1", "nope"}, {"ZADD", "z", "GT", "CH", "9", "a", "0", "b"}, {"ZRANGE", "z", "0", "-1", "WITHSCORES"}}},
		{id: "commands/zpop-count", desc: "ZPOPMIN and ZPOPMAX with a count of 0, a negative count, a count past the set, and a missing or wrong key",
			cmds: [][]string{{"ZADD", "z", "1", "a", "2", "b", "3", "c"}, {"ZPOPMIN", "z", "0"}, {"ZPOPMIN", "z", "-1"}, {"ZPOPMAX", "z", "x"},
				{"ZPOPMIN", "z", "1", "2"}, {"ZPOPMIN", "nokey", "0"}, {"ZPOPMIN", "nokey"}, {"SET", "s", "x"}, {"ZPOPMIN", "s", "0"},
				{"ZPOPMIN", "s"}, {"ZPOPMAX", "z", "10"}, {"EXISTS", "z"}}},
		{id: "commands/negative-zero", desc: "A score of -0: a small set (a listpack) keeps 0, a big one (a skiplist) keeps -0; INCR answers the sum",
			cmds: [][]string{{"ZADD", "z", "-0", "m"}, {"ZSCORE", "z", "m"}, {"ZADD", "z", "INCR", "-0", "n"}, {"ZSCORE", "z", "n"},
				{"ZINCRBY", "z", "-0", "o"}, {"ZRANGE", "z", "0", "-1", "WITHSCORES"}, {"ZRANGEBYSCORE", "z", "-0", "0"},
				big, {"ZADD", "big", "-0", "zero"}, {"ZSCORE", "big", "zero"}, {"OBJECT", "ENCODING", "big"}, {"ZRANGE", "big", "0", "0", "WITHSCORES"}}},
		{id: "commands/zstore-empty", desc: "ZUNIONSTORE and ZINTERSTORE with an empty result delete the destination; their errors name the command",
			cmds: [][]string{{"ZADD", "a", "1", "x"}, {"ZADD", "b", "1", "y"}, {"ZADD", "d", "1", "old"}, {"ZINTERSTORE", "d", "2", "a", "b"},
				{"EXISTS", "d"}, {"ZUNIONSTORE", "d", "1", "nokey"}, {"EXISTS", "d"}, {"ZUNIONSTORE", "d", "0", "a"}, {"ZINTERSTORE", "d", "-1", "a"},
				{"SET", "s", "x"}, {"ZADD", "d", "1", "kept"}, {"ZUNIONSTORE", "d", "2", "a", "s"}, {"ZRANGE", "d", "0", "-1"}}},
		{id: "commands/zrangestore", desc: "ZRANGESTORE by rank, score and lex, reversed and limited; an empty range deletes the destination",
			cmds: [][]string{{"ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d"}, {"ZRANGESTORE", "d", "z", "1", "-1"}, {"ZRANGE", "d", "0", "-1", "WITHSCORES"},
				{"ZRANGESTORE", "d", "z", "(1", "3", "BYSCORE", "LIMIT", "1", "5"}, {"ZRANGE", "d", "0", "-1", "WITHSCORES"},
				{"ZRANGESTORE", "d", "z", "[c", "-", "BYLEX", "REV"}, {"ZRANGE", "d", "0", "-1", "WITHSCORES"},
				{"ZRANGESTORE", "d", "z", "5", "9"}, {"EXISTS", "d"}, {"ZRANGESTORE", "d", "z"}, {"ZRANGESTORE", "d", "z", "0", "1", "WITHSCORES"},
				{"ZRANGESTORE", "d", "nokey", "0", "1"}, {"ZRANGESTORE", "z", "z", "0", "1"}, {"ZRANGE", "z", "0", "-1"}}},
		{id: "commands/zdiff", desc: "ZDIFF and ZDIFFSTORE: the first set's members in no other set, in order with their scores; plain sets count as scores of 1; an empty result deletes the destination; errors in Redis's order",
			cmds: [][]string{{"ZADD", "a", "3", "c", "1", "a", "2", "b", "2", "bb", "-0", "z", "-inf", "low"}, {"ZADD", "b", "9", "b", "0", "nothere"}, {"SADD", "s", "c", "q"},
				{"ZDIFF", "1", "a"}, {"ZDIFF", "2", "a", "b", "WITHSCORES"}, {"ZDIFF", "3", "a", "b", "s", "withscores"}, {"ZDIFF", "2", "a", "nokey"},
				{"ZDIFF", "2", "nokey", "a"}, {"ZDIFF", "2", "s", "a", "WITHSCORES"}, {"ZDIFF", "2", "a", "a"}, {"ZDIFF", "1", "a", "WITHSCORES", "WITHSCORES"},
				{"ZDIFFSTORE", "d", "2", "a", "b"}, {"ZRANGE", "d", "0", "-1", "WITHSCORES"}, {"OBJECT", "ENCODING", "d"}, {"ZSCORE", "d", "z"},
				{"ZDIFFSTORE", "a", "2", "a", "s"}, {"ZRANGE", "a", "0", "-1", "WITHSCORES"}, {"ZDIFFSTORE", "d", "1", "s"}, {"TYPE", "d"}, {"ZRANGE", "d", "0", "-1", "WITHSCORES"},
				{"SET", "d", "x"}, {"ZDIFFSTORE", "d", "2", "b", "b"}, {"EXISTS", "d"}, {"ZDIFFSTORE", "d", "1", "nokey"},
				{"SET", "str", "x"}, {"ZDIFF", "2", "a", "str"}, {"ZDIFF", "2", "str", "nokey", "BOGUS"}, {"ZDIFF", "2", "a", "b", "BOGUS"},
				{"ZDIFF", "0", "a"}, {"ZDIFF", "-1", "a"}, {"ZDIFF", "x", "a"}, {"ZDIFF", "3", "a", "b"}, {"ZDIFF", "1"}, {"ZDIFFSTORE", "d", "1"},
				{"ZDIFFSTORE", "d", "0", "a"}, {"ZDIFFSTORE", "d", "1", "a", "WITHSCORES"}, {"ZDIFF", "01", "a"},
				append(append([]string{"ZADD", "big"}, zmembers(130)...), "1.5", strings.Repeat("m", 65)), {"ZDIFFSTORE", "d", "2", "big", "b"},
				{"OBJECT", "ENCODING", "d"}, {"ZCARD", "d"}, {"ZDIFFSTORE", "d", "2", "big", "a"}, {"ZRANGE", "d", "0", "4", "WITHSCORES"},
				eval("return redis.call('ZDIFF', 2, 'big', 'd')"), eval("redis.call('ZDIFFSTORE', 'e', 1, 'b') return redis.call('ZRANGE', 'e', 0, -1, 'WITHSCORES')"),
				{"MULTI"}, {"ZDIFF", "1", "b"}, {"ZDIFFSTORE", "f", "1", "b"}, {"EXEC"}, {"ZRANGE", "f", "0", "-1"},
			}},
		{id: "commands/zrange-options", desc: "ZRANGE's option errors: LIMIT by rank, WITHSCORES by lex, REV twice, bad bounds",
			cmds: [][]string{{"ZADD", "z", "1", "a", "2", "b"}, {"ZRANGE", "z", "0", "-1", "LIMIT", "0", "1"}, {"ZRANGE", "z", "0", "-1", "LIMIT", "0", "-1"},
				{"ZRANGE", "z", "-", "+", "BYLEX", "WITHSCORES"}, {"ZRANGE", "z", "0", "1", "REV", "REV"}, {"ZRANGE", "z", "x", "1"},
				{"ZRANGE", "z", "(x", "1", "BYSCORE"}, {"ZRANGE", "z", "a", "b", "BYLEX"}, {"ZRANGEBYSCORE", "z", " 1", "(2"},
				{"ZRANGEBYSCORE", "z", "", "1e400", "WITHSCORES"}, {"ZREVRANGEBYSCORE", "z", "+inf", "-inf", "LIMIT", "-1", "1"},
				{"ZRANGEBYLEX", "z", "-", "+", "WITHSCORES"}, {"ZREVRANGE", "z", "0", "-1", "WITHSCORES"}}},
		{id: "commands/zset-listpack-limit", desc: "A set grows past 128 members: ranks, ranges and encodings as Redis answers, then it shrinks and stays a skiplist",
			cmds: [][]string{big, {"OBJECT", "ENCODING", "big"}, {"ZRANK", "big", "m77"}, {"ZREVRANK", "big", "m77"}, {"ZCOUNT", "big", "(10", "20"},
				{"ZRANGE", "big", "10", "12", "WITHSCORES"}, {"ZREMRANGEBYRANK", "big", "0", "150"}, {"ZCARD", "big"},
				{"OBJECT", "ENCODING", "big"}, {"ZPOPMIN", "big", "3"}, {"ZRANGEBYSCORE", "big", "40", "+inf", "LIMIT", "2", "3"}}},
		{id: "commands/incr-strict", desc: "INCR, INCRBY, DECR and DECRBY refuse 0123 and +5, stored or given, as Redis's string2ll does",
			cmds: [][]string{{"SET", "n", "0123"}, {"INCR", "n"}, {"SET", "p", "+5"}, {"INCR", "p"}, {"DECR", "p"}, {"SET", "k", "1"},
				{"INCRBY", "k", "+5"}, {"INCRBY", "k", "0123"}, {"DECRBY", "k", "+5"}, {"INCRBY", "k", "-5"}, {"SET", "max", "9223372036854775807"},
				{"INCR", "max"}, {"DECRBY", "k", "-9223372036854775808"}, {"GET", "n"}, {"GET", "k"}}},
		{id: "commands/setrange-empty", desc: "SETRANGE with an empty value creates no key and answers the length; a bad offset is refused",
			cmds: [][]string{{"SETRANGE", "k", "0", ""}, {"EXISTS", "k"}, {"SETRANGE", "k", "5", ""}, {"SET", "s", "abc"}, {"SETRANGE", "s", "10", ""},
				{"SETRANGE", "s", "-1", "x"}, {"SETRANGE", "s", "x", "y"}, {"SETRANGE", "s", "1", "Z"}, {"GET", "s"}}},
		{id: "commands/setrange-cap", desc: "SETRANGE past 32 MiB",
			cmds: [][]string{{"SETRANGE", "k", strconv.Itoa(32 << 20), "x"}, {"STRLEN", "k"}, {"DEL", "k"}}},
		{id: "commands/expire-wording", desc: "SETEX and PSETEX with a time that is not positive, and HINCRBYFLOAT by infinity",
			cmds: [][]string{{"SETEX", "k", "0", "v"}, {"SETEX", "k", "-1", "v"}, {"PSETEX", "k", "0", "v"}, {"HINCRBYFLOAT", "h", "f", "inf"},
				{"HINCRBYFLOAT", "h", "f", "-inf"}, {"HSET", "h", "f", "1"}, {"HINCRBYFLOAT", "h", "f", "+inf"}, {"EXISTS", "k"}}},
		{id: "commands/object-encoding", desc: "OBJECT ENCODING by Redis 7.0's limits: int, embstr, raw, quicklist, intset, hashtable, listpack, skiplist",
			cmds: [][]string{{"SET", "i", "12345"}, {"SET", "e", "hello"}, {"SET", "r", strings.Repeat("x", 45)}, {"SET", "z0", "0123"},
				{"RPUSH", "l", "a"}, {"SADD", "si", "1", "2"}, {"SADD", "sh", "a"}, {"HSET", "hl", "f", "v"},
				{"HSET", "hh", "f", strings.Repeat("v", 65)}, {"ZADD", "zl", "1", "a"}, {"ZADD", "zs", "1", strings.Repeat("m", 65)},
				{"OBJECT", "ENCODING", "i"}, {"OBJECT", "ENCODING", "e"}, {"OBJECT", "ENCODING", "r"}, {"OBJECT", "ENCODING", "z0"},
				{"OBJECT", "ENCODING", "l"}, {"OBJECT", "ENCODING", "si"}, {"OBJECT", "ENCODING", "sh"}, {"OBJECT", "ENCODING", "hl"},
				{"OBJECT", "ENCODING", "hh"}, {"OBJECT", "ENCODING", "zl"}, {"OBJECT", "ENCODING", "zs"}, {"OBJECT", "ENCODING", "nokey"},
				{"OBJECT", "ENCODING"}, {"OBJECT", "ENCODING", "i", "e"}}},
		{id: "commands/object-encoding-history", desc: "OBJECT ENCODING of a short string after APPEND",
			cmds: [][]string{{"SET", "s", "1"}, {"APPEND", "s", "2"}, {"OBJECT", "ENCODING", "s"}}},
		{id: "commands/zset-in-scripts", desc: "Sorted-set writes inside a script, then read in order outside it",
			cmds: [][]string{evalKeys("for i = 1, 300 do redis.call('ZADD', KEYS[1], i % 7, 'm' .. i) end "+
				"redis.call('ZPOPMIN', KEYS[1], 10) redis.call('ZREMRANGEBYSCORE', KEYS[1], 3, 4) "+
				"return {redis.call('ZCARD', KEYS[1]), redis.call('ZRANK', KEYS[1], 'm100'), redis.call('ZRANGE', KEYS[1], 0, 4, 'WITHSCORES')}", []string{"z"}),
				{"ZRANGE", "z", "-3", "-1", "WITHSCORES"}, {"OBJECT", "ENCODING", "z"}}},
		{id: "commands/set-over-every-type", desc: "A plain SET replaces a key of any type, from the console and from a script, and the key is a string after it, with no TTL",
			cmds: [][]string{
				{"HSET", "h", "f", "1"}, {"SET", "h", "v"}, {"TYPE", "h"}, {"HGET", "h", "f"}, {"GET", "h"},
				{"RPUSH", "l", "a", "b"}, {"SET", "l", "v"}, {"TYPE", "l"}, {"LLEN", "l"},
				{"SADD", "s", "a"}, evalKeys(setScript, []string{"s"}, "v"), {"TYPE", "s"}, {"SCARD", "s"},
				{"ZADD", "z", "1", "a"}, evalKeys(setScript, []string{"z"}, "v"), {"TYPE", "z"}, {"ZCARD", "z"},
				{"XADD", "x", "1-1", "f", "v"}, {"SET", "x", "v"}, {"TYPE", "x"}, {"GET", "x"},
				{"PFADD", "p", "a"}, {"SET", "p", "v"}, {"PFCOUNT", "p"},
				{"SET", "t", "v", "EX", "100"}, {"SET", "t", "w"}, {"PTTL", "t"},
				{"HSET", "ht", "f", "1"}, {"EXPIRE", "ht", "100"}, evalKeys(setScript, []string{"ht"}, "v"), {"PTTL", "ht"}, {"GET", "ht"},
			}},
		{id: "commands/set-over-indexed-zset", desc: "SET over a sorted set the engine has read in order: the set is gone, and a new one under the name holds only its own members",
			cmds: [][]string{
				{"ZADD", "z", "1", "a", "2", "b"}, {"ZRANGE", "z", "0", "-1"}, {"SET", "z", "v"}, {"ZRANGE", "z", "0", "-1"}, {"ZADD", "z", "3", "c"},
				{"DEL", "z"}, {"ZADD", "z", "3", "c"}, {"ZRANGE", "z", "0", "-1", "WITHSCORES"}, {"ZRANK", "z", "a"}, {"ZPOPMIN", "z"},
				{"ZADD", "y", "1", "a"}, {"ZRANK", "y", "a"}, evalKeys("redis.call('SET', KEYS[1], 'v') redis.call('DEL', KEYS[1]) "+
					"redis.call('ZADD', KEYS[1], 5, 'e') return redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')", []string{"y"}),
				{"ZCARD", "y"},
			}},
		{id: "commands/zset-repeated-members", desc: "ZADD naming a member twice on a new key and an old one, ZREM naming one twice, and writes of other types refused on an indexed set, which they leave as it was",
			cmds: [][]string{
				{"ZADD", "z", "1", "a", "2", "a", "0", "b", "3", "b"}, {"ZRANGE", "z", "0", "-1", "WITHSCORES"}, {"ZADD", "z", "5", "a", "4", "a", "1", "c"},
				{"ZRANGE", "z", "0", "-1", "WITHSCORES"}, {"ZREM", "z", "a", "a", "nope"}, {"ZRANK", "z", "c"}, {"ZREM", "z", "b", "c", "b"}, {"EXISTS", "z"},
				{"ZADD", "y", "1", "a", "2", "b"}, {"ZRANGE", "y", "0", "-1"}, {"HSET", "y", "f", "v"}, {"HINCRBY", "y", "f", "1"}, {"LPUSH", "y", "x"},
				{"SADD", "y", "x"}, {"INCR", "y"}, {"APPEND", "y", "x"}, {"GETDEL", "y"}, {"ZRANGE", "y", "0", "-1", "WITHSCORES"}, {"ZPOPMIN", "y"},
				evalKeys("redis.call('ZADD', KEYS[1], 1, 'm', 2, 'm', 0, 'n') redis.pcall('HSET', KEYS[1], 'f', 'v') "+
					"return {redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES'), redis.call('ZREM', KEYS[1], 'm', 'm')}", []string{"x"}),
				{"ZRANGE", "x", "0", "-1", "WITHSCORES"},
			}},
		{id: "commands/set-over-hash-order", desc: "A hash replaced by SET and made again lists its fields in the new order, not the old hash's",
			cmds: [][]string{{"HSET", "h", "b", "1", "a", "2"}, {"HGETALL", "h"}, {"SET", "h", "v"}, {"DEL", "h"}, {"HSET", "h", "a", "1", "b", "2"}, {"HGETALL", "h"},
				{"HSET", "g", "y", "1", "x", "2"}, evalKeys(setScript+" redis.call('DEL', KEYS[1]) redis.call('HSET', KEYS[1], 'x', 1, 'y', 2) return redis.call('HKEYS', KEYS[1])", []string{"g"}, "v")}},
		{id: "commands/geoadd-into-indexed-zset", desc: "GEOADD into a sorted set the engine has read in order, moving a member and adding one: the next ranges and ranks see both",
			cmds: [][]string{{"ZADD", "g", "1", "a", "2", "b"}, {"ZRANGE", "g", "0", "-1"}, {"GEOADD", "g", "13.361389", "38.115556", "a"},
				{"ZRANGE", "g", "0", "-1", "WITHSCORES"}, {"ZRANK", "g", "a"}, {"GEOADD", "g", "13.361389", "38.115556", "palermo"},
				{"ZRANGE", "g", "0", "-1", "WITHSCORES"}, {"ZCARD", "g"},
				evalKeys("redis.call('GEOADD', KEYS[1], 15.087269, 37.502669, 'catania') return redis.call('ZRANGE', KEYS[1], 0, -1)", []string{"g"})}},
		{id: "commands/set-in-databases", desc: "A plain SET writes the connection's database, and a script's SET its caller's: the same name elsewhere is untouched",
			cmds: [][]string{{"SELECT", "3"}, {"HSET", "k", "f", "1"}, {"SET", "k", "three"}, {"SELECT", "4"}, evalKeys(setScript, []string{"k"}, "four"),
				{"SET", "k", "four again"}, {"SELECT", "0"}, {"EXISTS", "k"}, {"SELECT", "3"}, {"GET", "k"}, {"TYPE", "k"}}},
		{id: "commands/xlen-wrong-type", desc: "XLEN of a key that is not a stream is WRONGTYPE, from a client, a script and a pcall; a missing key is 0",
			cmds: [][]string{{"SET", "s", "v"}, {"HSET", "h", "f", "1"}, {"RPUSH", "l", "a"}, {"SADD", "t", "m"}, {"ZADD", "z", "1", "m"},
				{"XADD", "x", "1-1", "f", "v"}, {"XLEN", "s"}, {"XLEN", "h"}, {"XLEN", "l"}, {"XLEN", "t"}, {"XLEN", "z"}, {"XLEN", "x"}, {"XLEN", "nope"},
				evalKeys("return redis.call('XLEN', KEYS[1])", []string{"h"}), evalKeys("return redis.pcall('XLEN', KEYS[1])", []string{"z"}),
				{"MULTI"}, {"XLEN", "s"}, {"XLEN", "x"}, {"EXEC"}}},
		{id: "commands/zdiff-read-only", desc: "ZDIFF is a read-only command: a read-only script and a no-writes script may call it; ZDIFFSTORE they may not",
			cmds: [][]string{{"ZADD", "a", "1", "x", "2", "y"}, {"ZADD", "b", "1", "x"},
				{"EVAL_RO", "return redis.call('ZDIFF', 2, KEYS[1], KEYS[2], 'WITHSCORES')", "2", "a", "b"},
				{"EVAL", "#!lua flags=no-writes\nreturn redis.call('ZDIFF', 2, KEYS[1], KEYS[2])", "2", "a", "b"},
				{"EVAL_RO", "return redis.pcall('ZDIFFSTORE', KEYS[3], 2, KEYS[1], KEYS[2])", "3", "a", "b", "c"}, {"EXISTS", "c"}}},
	}
}

// setScript is a script's plain SET of KEYS[1] to ARGV[1].
const setScript = "return redis.call('SET', KEYS[1], ARGV[1])"
