package fidelity

import (
	"encoding/binary"
	"strconv"
	"strings"

	"echomq.dev/playground/wasm/rdb"
)

// Cases for DUMP and RESTORE (wasm/engine/dump.go): the payload of every
// type and encoding, byte for byte where Redis's bytes follow from the
// value; Redis 7.0's own payloads restored; damaged payloads refused with
// nothing written; and RESTORE's options in Redis's order. A set or hash
// past its small encoding is a hash table in Redis, whose order is its
// own: those payloads are compared by what RESTORE makes of them (the
// keyspace), not by their bytes.

// Payloads redis-server 7.0.15 gave, one per encoding.
const (
	fromRedisInt       = "\x00\xc1\xd2\x04\n\x00\x00\x87\b\xa1D\x82\\\xed"
	fromRedisLZF       = "\x00\xc3\x0c0\x04job:j\xe0 \x03\x01b:\n\x00\x83\a`3Y\xc0??"
	fromRedisSetTable  = "\x02\x03\x06banana\xc0\a\x05apple\n\x00\xd2\xf7\x7f\xb1U\xc6[\x95"
	fromRedisHashTable = "\x04\x02\x05state\awaiting\x01f\xc3\t@A\x01vv\xe04\x00\x01vv\n\x00h\xc9\xccS\x83\xe2':"
	fromRedisHashLP    = "\x1055\x00\x00\x00\x06\x00\x85state\x06\x87waiting\b\x88attempts\t\x00\x01\x87payload\b\x87{\"n\":1}\b\xff\n\x00F/\xf1U\\\x12\xfa\x18"
	fromRedisSkiplist  = "\x05\x03\xc3\t@A\x01mm\xe04\x00\x01mm\x00\x00\x00\x00\x00\x00\x00@\x01a\x00\x00\x00\x00\x00\x00\xf0?\x03neg\x00\x00\x00\x00\x00\x00\x00\x80\n\x00\x91\x04\x97,\xff*\x16\xf7"
	fromRedisList2     = "\x12\x02\x02\xc3@JS\x96\a\x96\x13\x00\x00\x01\x00\xf0\x88 \x06\x00a\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xee\x00\x02'\x8d\xff\x02\xc3@MS\x99\a\x99\x13\x00\x00\x02\x00\xf0\x88 \x06\x00b\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xff\x00\xe0\xee\x00\x05'\x8d\x81x\x02\xff\n\x00F\xcf\xba\xa6?\xe4\xf5O"
)

// sealed is body with a version and a correct checksum: a payload that
// passes the footer check, for the cases about what comes before it.
func sealed(body string, version uint16) string {
	b := binary.LittleEndian.AppendUint16([]byte(body), version)
	return string(binary.LittleEndian.AppendUint64(b, rdb.CRC64(string(b))))
}

// roundTrip is a script that DUMPs KEYS[1], RESTOREs the payload under
// KEYS[2] and answers whether a payload came back: the restored key is then
// compared with Redis's in the keyspace.
const roundTrip = "local d = redis.call('DUMP', KEYS[1]) return redis.call('RESTORE', KEYS[2], 0, d)"

func dumpCases() []fcase {
	rep := strings.Repeat
	jobs := rep("job:", 12)
	var wide []string
	for i := range 130 {
		wide = append(wide, "f"+rep("x", i%7)+string(rune('a'+i%26))+rep("y", i/26), rep("v", i%70))
	}
	var ints []string
	for i := range 513 {
		ints = append(ints, strconv.Itoa(i*i*7919-100000))
	}
	trip := func(key string) []string { return evalKeys(roundTrip, []string{key, key + ":copy"}) }
	return []fcase{
		{id: "dump/string", desc: "DUMP of strings: small, 16-bit, 32-bit and 64-bit integers, text, 20 bytes (stored as is) and 21 (LZF-compressed), a long value, and a missing key",
			cmds: [][]string{{"SET", "a", "7"}, {"SET", "b", "-1234"}, {"SET", "c", "2147483647"}, {"SET", "d", "9000000000"}, {"SET", "e", "007"},
				{"SET", "f", rep("a", 20)}, {"SET", "g", rep("a", 21)}, {"SET", "h", jobs + rep("lease:", 200)}, {"SET", "i", ""},
				{"DUMP", "a"}, {"DUMP", "b"}, {"DUMP", "c"}, {"DUMP", "d"}, {"DUMP", "e"}, {"DUMP", "f"}, {"DUMP", "g"}, {"DUMP", "h"}, {"DUMP", "i"},
				{"DUMP", "nokey"}, trip("h"), {"GET", "h:copy"}}},
		{id: "dump/list", desc: "DUMP of lists: one listpack of integers and text, and a quicklist of several 8 KiB listpacks",
			cmds: [][]string{{"RPUSH", "l", "a", "0", "127", "128", "-4096", "4095", "32768", "-8388609", "2147483648", "-9223372036854775808", rep("t", 64)},
				{"DUMP", "l"}, append([]string{"RPUSH", "big"}, ints...), {"RPUSH", "big", rep("w", 5000), rep("w", 9000)}, {"DUMP", "big"},
				trip("big"), {"LRANGE", "big:copy", "-3", "-1"}}},
		{id: "dump/set", desc: "DUMP of sets: intsets of 16, 32 and 64-bit members, 512 integers still an intset, one more a hash table, and text members (a hash table: restored and compared)",
			cmds: [][]string{{"SADD", "s", "3", "1", "2"}, {"DUMP", "s"}, {"SADD", "w", "-40000", "5"}, {"DUMP", "w"}, {"SADD", "x", "5", "9000000000", "-3"}, {"DUMP", "x"},
				append([]string{"SADD", "i"}, ints[:512]...), {"OBJECT", "ENCODING", "i"}, {"DUMP", "i"},
				append([]string{"SADD", "j"}, ints...), {"OBJECT", "ENCODING", "j"}, trip("j"), {"SADD", "t", "apple", "7", "banana"}, trip("t")}},
		{id: "dump/hash", desc: "DUMP of hashes: a job row as a listpack in field order, and a hash past 128 fields or 64-byte values (a hash table: restored and compared)",
			cmds: [][]string{{"HSET", "row", "state", "waiting", "attempts", "0", "payload", `{"n":1}`}, {"HSET", "row", "lease", "-1700000000000"}, {"DUMP", "row"},
				{"HDEL", "row", "attempts"}, {"HSET", "row", "attempts", "1"}, {"DUMP", "row"},
				append([]string{"HSET", "wide"}, wide...), trip("wide"), {"HSET", "long", "f", rep("v", 65)}, trip("long"), {"HGETALL", "long:copy"}}},
		{id: "dump/zset", desc: "DUMP of sorted sets: a listpack with integer, fractional, huge and infinite scores, and a skiplist written from the highest score down",
			cmds: [][]string{{"ZADD", "z", "-0", "a", "0.1", "e", "1.5", "b", "3", "c", "1e20", "d", "-inf", "low", "4.6e18", "f", "4.7e18", "g"}, {"DUMP", "z"},
				append([]string{"ZADD", "big"}, zmembers(130)...), {"ZADD", "big", "-0", "zero", "0.25", "q"}, {"DUMP", "big"},
				{"ZREMRANGEBYRANK", "big", "3", "-1"}, {"OBJECT", "ENCODING", "big"}, {"DUMP", "big"}}},
		{id: "dump/restore-redis-payloads", desc: "RESTORE of Redis 7.0's own payloads, one per encoding: what each key then holds, and its encoding",
			cmds: [][]string{{"RESTORE", "i", "0", fromRedisInt}, {"RESTORE", "lz", "0", fromRedisLZF}, {"RESTORE", "st", "0", fromRedisSetTable},
				{"RESTORE", "ht", "0", fromRedisHashTable}, {"RESTORE", "hl", "0", fromRedisHashLP}, {"RESTORE", "zs", "0", fromRedisSkiplist},
				{"RESTORE", "l2", "0", fromRedisList2}, {"GET", "i"}, {"GET", "lz"}, {"SCARD", "st"}, {"HGETALL", "hl"}, {"HSET", "hl", "more", "1"}, {"HKEYS", "hl"},
				{"ZRANGE", "zs", "0", "-1", "WITHSCORES"}, {"ZSCORE", "zs", "neg"}, {"OBJECT", "ENCODING", "zs"}, {"ZPOPMIN", "zs"}, {"LLEN", "l2"}, {"LINDEX", "l2", "-1"},
				{"OBJECT", "ENCODING", "ht"}, {"OBJECT", "ENCODING", "hl"}, {"DUMP", "hl"}, {"DUMP", "zs"}}},
		{id: "dump/restore-damaged", desc: "RESTORE of junk, an empty payload, a byte more or less, a flipped byte, a later RDB version, an unknown type or an empty set: an error, and nothing written or replaced",
			cmds: [][]string{{"SET", "s", "v"}, {"SET", "keep", "old"}, {"RESTORE", "k", "0", "junk"}, {"RESTORE", "k", "0", ""},
				eval("local d = redis.call('DUMP', 's') return {pcall(redis.call, 'RESTORE', 'k', 0, d .. 'x'), redis.pcall('RESTORE', 'k', 0, d:sub(1, -2)), redis.pcall('RESTORE', 'k', 0, d:sub(1, 3))}"),
				eval("local d = redis.call('DUMP', 's') return redis.pcall('RESTORE', 'keep', 0, d:sub(1, 2) .. 'w' .. d:sub(4), 'REPLACE')"),
				{"RESTORE", "keep", "0", sealed("\x00\x01v", 11), "REPLACE"}, {"RESTORE", "keep", "0", sealed("\x63", 10), "REPLACE"},
				{"RESTORE", "keep", "0", sealed("\x02\x00", 10), "REPLACE"}, {"RESTORE", "keep", "0", sealed("\x00\x3fab", 10), "REPLACE"},
				{"RESTORE", "ok", "0", sealed("\x00\x01v", 9)}, {"GET", "keep"}, {"EXISTS", "k"}, {"GET", "ok"}}},
		{id: "dump/restore-options", desc: "RESTORE's options and errors in Redis's order: BUSYKEY, REPLACE over another type, TTLs relative, absolute and past, IDLETIME and FREQ",
			cmds: [][]string{{"SET", "s", "v"}, {"HSET", "h", "f", "1"}, {"RESTORE", "h", "0", fromRedisInt}, {"RESTORE", "h", "-1", "junk"},
				{"RESTORE", "new", "-1", "junk"}, {"RESTORE", "new", "x", "junk"}, {"RESTORE", "new", "0", "junk", "BOGUS"},
				{"RESTORE", "h", "0", fromRedisInt, "REPLACE"}, {"TYPE", "h"}, {"GET", "h"}, {"HSET", "h", "f", "1"},
				{"RESTORE", "t", "100000", fromRedisInt}, {"TTL", "t"}, {"RESTORE", "past", "1", fromRedisInt, "ABSTTL"}, {"EXISTS", "past"},
				{"RESTORE", "s", "1", fromRedisInt, "ABSTTL", "REPLACE"}, {"EXISTS", "s"}, {"RESTORE", "abs", "4102444800000", fromRedisInt, "ABSTTL"},
				eval("return redis.call('PTTL', 'abs') > 100000"), {"RESTORE", "i1", "0", fromRedisInt, "IDLETIME", "10"}, {"RESTORE", "i2", "0", fromRedisInt, "IDLETIME", "-1"},
				{"RESTORE", "i3", "0", fromRedisInt, "IDLETIME"}, {"RESTORE", "i4", "0", fromRedisInt, "IDLETIME", "x"}, {"RESTORE", "f1", "0", fromRedisInt, "FREQ", "255"},
				{"RESTORE", "f2", "0", fromRedisInt, "FREQ", "256"}, {"RESTORE", "f3", "0", fromRedisInt, "FREQ", "-1"}, {"RESTORE", "f4", "0", fromRedisInt, "IDLETIME", "1", "FREQ", "1"},
				{"RESTORE", "f5", "0", fromRedisInt, "freq", "3", "replace", "absttl"}, {"RESTORE", "x"}, {"DUMP"}, {"DUMP", "a", "b"}}},
		{id: "dump/restore-scripts", desc: "DUMP and RESTORE inside scripts: a list and a sorted set copied, REPLACE over a sorted set the index serves, and a hash keeping its field order",
			cmds: [][]string{
				eval("redis.call('RPUSH','l','a') local d = redis.call('DUMP','l') redis.call('RESTORE','l2',0,d) return {redis.call('TYPE','l2'), redis.call('LRANGE','l2',0,-1)}"),
				eval("redis.call('ZADD','z',1,'a') local d = redis.call('DUMP','z') redis.call('RESTORE','z2',0,d) return {redis.call('TYPE','z2'), redis.call('ZRANGE','z2',0,-1,'WITHSCORES')}"),
				{"ZADD", "q", "1", "x", "2", "y"}, {"ZRANGE", "q", "0", "-1"}, {"ZADD", "src", "5", "n", "-1", "m"},
				eval("return redis.call('RESTORE', 'q', 0, redis.call('DUMP', 'src'), 'REPLACE')"), {"ZRANGE", "q", "0", "-1", "WITHSCORES"}, {"ZPOPMIN", "q"}, {"ZRANK", "q", "n"},
				{"HSET", "row", "state", "active", "lease", "9", "attempts", "2"}, evalKeys(roundTrip, []string{"row", "row2"}), {"HGETALL", "row2"},
				eval("redis.call('SET','k','junk') return redis.pcall('RESTORE','k',0,'junk','REPLACE')"), {"GET", "k"}}},
		{id: "commands/dump-stream", desc: "DUMP of a stream",
			cmds: [][]string{{"XADD", "st", "1-1", "f", "v"}, {"DUMP", "st"}}},
	}
}
