package fidelity

import (
	"strconv"
	"strings"
)

// Cases for HyperLogLogs (wasm/hll, wasm/engine/hllcmds.go): Redis's own
// algorithm in Redis's own string, so the counts are exact and TYPE, GET,
// APPEND, COPY and DUMP see the bytes Redis writes. TestHyperLogLogsMatchRedis
// (hll_random_test.go) runs thousands more, at random.

// pfadd is PFADD of key with the elements prefix0 ... prefix<n-1>, from.
func pfadd(key, prefix string, from, n int) []string {
	cmd := []string{"PFADD", key}
	for i := from; i < n; i++ {
		cmd = append(cmd, prefix+strconv.Itoa(i))
	}
	return cmd
}

// hllHeader is a HyperLogLog's header: "HYLL", the encoding, three unused
// bytes and the cached count, here fresh and n.
func hllHeader(enc byte, n uint64) string {
	b := []byte{'H', 'Y', 'L', 'L', enc, 0, 0, 0}
	for range 8 {
		b = append(b, byte(n))
		n >>= 8
	}
	return string(b)
}

const (
	staleDense  = "HYLL\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80"
	staleSparse = "HYLL\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80"
	allZeros    = "\x7f\xff" // one XZERO over all 16,384 registers
)

// denseOf is a dense HyperLogLog's stale header and its registers, each
// the value reg gives.
func denseOf(reg func(i int) int) string {
	regs := make([]byte, 12288)
	for i := range 16384 {
		bit := i * 6
		v := uint16(reg(i)) << (bit % 8)
		regs[bit/8] |= byte(v)
		if bit/8+1 < len(regs) {
			regs[bit/8+1] |= byte(v >> 8)
		}
	}
	return staleDense + string(regs)
}

func init() {
	known["commands/object-encoding-hll"] = "A short HyperLogLog that SET (or RESTORE) wrote is embstr in Redis, and the " +
		"PF commands leave it raw; the engine does not follow a string's history, and answers raw for any string that " +
		"is a HyperLogLog, as every PF command leaves one."
}

func hllCases() []fcase {
	var steps [][]string
	prev := 0
	for _, n := range []int{1, 10, 100, 1000, 10000, 100000} {
		steps = append(steps, pfadd("visits", "user:", prev, n), []string{"PFCOUNT", "visits"}, []string{"STRLEN", "visits"},
			[]string{"PFDEBUG", "ENCODING", "visits"}, []string{"GET", "visits"})
		prev = n
	}
	// The elements before the edge go in one PFADD, which adds them one by
	// one, as the script does after it (a script of 1,800 would run past
	// the engine's budget in a busy tab).
	edge := "local out = {} for i = 1660, 1799 do redis.call('PFADD', KEYS[1], ARGV[1] .. i) " +
		"local n = redis.call('STRLEN', KEYS[1]) if n > 2980 then out[#out + 1] = i .. ':' .. n end end return out"
	high := denseOf(func(i int) int { return 63 })
	mixed := denseOf(func(i int) int { return []int{0, 1, 2, 52, 63, 5}[i%6] })
	third51 := denseOf(func(i int) int { return map[bool]int{true: 51, false: 7}[i%3 == 0] })
	return []fcase{
		{id: "hll/issue-examples", desc: "The issue's examples: PFCOUNT of two keys counts their union (4), TYPE of a HyperLogLog is string, and GET returns its HYLL bytes",
			cmds: [][]string{{"PFADD", "a", "x", "y", "z"}, {"PFADD", "b", "z", "w"}, {"PFCOUNT", "a", "b"}, {"TYPE", "a"}, {"GET", "a"},
				{"PFCOUNT", "a"}, {"PFCOUNT", "b"}, {"GET", "a"}, {"PFCOUNT", "a", "b", "nokey"}}},
		{id: "hll/exact-counts", desc: "Counts after 1, 10, 100, 1,000, 10,000 and 100,000 distinct elements are Redis's to the unit (98,893 at 100,000), with the string's bytes, length and encoding after each step",
			cmds: steps},
		{id: "hll/learner", desc: "What a learner tries first: unique visitors counted, a visitor seen again adds nothing (0), a new one adds 1, and two days merged",
			cmds: [][]string{{"PFADD", "visitors:mon", "alice", "bob", "carol"}, {"PFCOUNT", "visitors:mon"}, {"PFADD", "visitors:mon", "alice"},
				{"PFADD", "visitors:mon", "dave"}, {"PFCOUNT", "visitors:mon"}, {"PFADD", "visitors:tue", "alice", "erin"},
				{"PFCOUNT", "visitors:mon", "visitors:tue"}, {"PFMERGE", "visitors:week", "visitors:mon", "visitors:tue"}, {"PFCOUNT", "visitors:week"},
				{"KEYS", "visitors:*"}, {"STRLEN", "visitors:week"}, {"OBJECT", "ENCODING", "visitors:week"}, {"pfadd", "visitors:mon", "ALICE"},
				{"PFCOUNT", "visitors:none"}, {"EXISTS", "visitors:none"}}},
		{id: "hll/union", desc: "PFCOUNT of several keys counts the union of their registers, sparse and dense alike, a missing key as empty and a key named twice once, and caches nothing",
			cmds: [][]string{pfadd("s1", "e", 0, 50), pfadd("s2", "e", 25, 90), pfadd("big", "e", 0, 5000), {"PFCOUNT", "s1", "s2"}, {"PFCOUNT", "s1", "s1"},
				{"PFCOUNT", "s1", "big"}, {"PFCOUNT", "s2", "nokey", "s1"}, {"PFCOUNT", "nokey", "nokey2"}, {"GET", "s1"}, {"GET", "s2"},
				{"PFCOUNT", "s1"}, {"PFCOUNT", "s2"}, {"PFCOUNT", "big"}}},
		{id: "hll/pfmerge", desc: "PFMERGE into a new key and into an existing one (its own registers count), of sparse sources (sparse stays) and with a dense one (the result is dense); PFMERGE of the destination alone marks its count stale",
			cmds: [][]string{pfadd("a", "e", 0, 30), pfadd("b", "e", 20, 60), {"PFMERGE", "new", "a", "b"}, {"GET", "new"}, {"PFDEBUG", "ENCODING", "new"},
				{"PFCOUNT", "new"}, pfadd("c", "f", 0, 40), {"PFMERGE", "c", "a"}, {"GET", "c"}, {"PFCOUNT", "c"},
				pfadd("d", "g", 0, 3000), {"PFMERGE", "c", "d"}, {"PFDEBUG", "ENCODING", "c"}, {"PFCOUNT", "c"}, {"GET", "c"},
				{"PFMERGE", "alone"}, {"GET", "alone"}, {"PFCOUNT", "a"}, {"GETRANGE", "a", "15", "15"}, {"PFMERGE", "a"}, {"GETRANGE", "a", "15", "15"},
				{"GET", "a"}, {"PFMERGE", "e", "nokey"}, {"GET", "e"}, {"PFMERGE"}}},
		{id: "hll/promotion-edge", desc: "A sparse string turns dense past hll-sparse-max-bytes (3,000): elements added one by one, the length after each near the edge, where it jumps from 2,999 to 12,304 bytes, and a run that stays sparse at exactly 3,000",
			cmds: [][]string{pfadd("h", "el:", 0, 1660), evalKeys(edge, []string{"h"}, "el:"), {"PFDEBUG", "ENCODING", "h"}, {"PFCOUNT", "h"}, {"GET", "h"},
				pfadd("e", "e0:", 0, 1660), evalKeys(edge, []string{"e"}, "e0:"), {"GET", "e"}}},
		{id: "hll/promotion-by-value", desc: "One element whose hash has 32 zeros past the register bits (run:3298066719, value 33) is more than a sparse VAL holds: the string turns dense at once, and so does a sparse one it is merged into",
			cmds: [][]string{{"PFADD", "big", "run:3298066719"}, {"PFDEBUG", "ENCODING", "big"}, {"STRLEN", "big"}, {"PFCOUNT", "big"},
				{"PFADD", "sp", "a"}, {"PFMERGE", "sp", "big"}, {"PFDEBUG", "ENCODING", "sp"}, {"PFCOUNT", "sp"}, {"GET", "sp"},
				{"PFADD", "sp2", "a"}, {"PFMERGE", "sp3", "sp2"}, {"PFADD", "sp3", "run:3298066719"}, {"GET", "sp3"}}},
		{id: "hll/cache", desc: "The cached count in bytes 8-15: PFADD that changes a register sets the stale bit (byte 15 is \\x80), PFCOUNT writes the count back, and PFADD of elements already counted leaves it",
			cmds: [][]string{{"PFADD", "hll", "a", "b", "c"}, {"GETRANGE", "hll", "8", "15"}, {"PFCOUNT", "hll"}, {"GETRANGE", "hll", "8", "15"},
				{"PFADD", "hll", "a", "b", "c"}, {"GETRANGE", "hll", "15", "15"}, {"PFADD", "hll", "1", "2", "3"}, {"GETRANGE", "hll", "15", "15"},
				{"SET", "fake", hllHeader(1, 42) + "\x00"}, {"PFCOUNT", "fake"}, {"PFCOUNT", "fake", "nokey"}, {"GET", "fake"}}},
		{id: "hll/pfadd-no-elements", desc: "PFADD with no elements makes an empty HyperLogLog (1) and leaves an existing one (0); its count is 0",
			cmds: [][]string{{"PFADD", "hll"}, {"EXISTS", "hll"}, {"GET", "hll"}, {"PFCOUNT", "hll"}, {"GET", "hll"}, {"PFADD", "hll"}, {"PFADD", "hll", ""},
				{"PFADD", "hll", ""}, {"PFCOUNT", "hll"}, {"SET", "s", "x"}, {"PFADD", "s"}}},
		{id: "hll/append-then-count", desc: "APPEND to a HyperLogLog: opcodes past the last register make PFCOUNT answer INVALIDOBJ, while PFADD still places what it finds",
			cmds: [][]string{{"PFADD", "hll", "a", "b", "c"}, {"APPEND", "hll", "hello"}, {"TYPE", "hll"}, {"PFCOUNT", "hll"}, {"PFCOUNT", "hll", "nokey"},
				{"PFADD", "hll", "d"}, {"GET", "hll"}, {"PFMERGE", "m", "hll"}, {"EXISTS", "m"}, {"PFDEBUG", "TODENSE", "hll"},
				{"PFADD", "v", "a"}, {"APPEND", "v", "\x80"}, {"PFCOUNT", "v"}, {"PFCOUNT", "v", "nokey"},
				{"PFADD", "z", "a"}, {"APPEND", "z", "\x00"}, {"PFCOUNT", "z"}, {"PFADD", "z", "b", "c"}, {"GET", "z"}}},
		{id: "hll/corrupt-headers", desc: "Strings that are not HyperLogLogs: a broken magic, an encoding past 1, a sparse one marked dense (the wrong length), a dense one a byte long or short, shorter than the header, an integer: WRONGTYPE, as the tests of Redis's own suite check",
			cmds: [][]string{{"PFADD", "hll", "a", "b", "c"}, {"SETRANGE", "hll", "0", "0123"}, {"PFCOUNT", "hll"}, {"PFADD", "hll", "x"},
				{"DEL", "hll"}, {"PFADD", "hll", "a", "b", "c"}, {"SETRANGE", "hll", "4", "x"}, {"PFCOUNT", "hll"},
				{"DEL", "hll"}, {"PFADD", "hll", "a", "b", "c"}, {"SETRANGE", "hll", "4", "\x00"}, {"PFCOUNT", "hll"}, {"PFMERGE", "d", "hll"}, {"EXISTS", "d"},
				{"SET", "long", high + "x"}, {"PFCOUNT", "long"}, {"SET", "short", high[:len(high)-1]}, {"PFCOUNT", "short"},
				{"SET", "tiny", "HYLL\x01"}, {"PFCOUNT", "tiny"}, {"SET", "int", "12345678901234567"}, {"PFADD", "int", "a"},
				{"SET", "hdr", staleSparse}, {"PFCOUNT", "hdr"}, {"PFADD", "hdr", "a"}, {"GET", "hdr"}}},
		{id: "hll/corrupt-registers", desc: "Sparse opcodes that stop short, run past the last register or are missing: INVALIDOBJ; dense registers no hash can give (past 51) count as Redis counts them, -9223372036854775808 when nothing is left to divide by",
			cmds: [][]string{{"SET", "short", staleSparse + "\x7f\xfe"}, {"PFCOUNT", "short"}, {"PFCOUNT", "short", "nokey"}, {"PFADD", "short", "a"}, {"GET", "short"},
				{"SET", "over", staleSparse + "\x7f\xfe\x83"}, {"PFCOUNT", "over"}, {"PFDEBUG", "GETREG", "over"}, {"PFMERGE", "d", "over"},
				{"SET", "cut", staleSparse + "\x7f\xfe\x40"}, {"PFCOUNT", "cut"}, {"PFDEBUG", "DECODE", "cut"}, {"PFADD", "cut", "a"}, {"GET", "cut"},
				{"SET", "high", high}, {"PFCOUNT", "high"}, {"GETRANGE", "high", "8", "15"}, {"PFCOUNT", "high"}, {"PFCOUNT", "high", "nokey"},
				{"SET", "mixed", mixed}, {"PFCOUNT", "mixed"}, {"PFMERGE", "m", "mixed", "short"}, {"PFMERGE", "m2", "mixed"}, {"PFCOUNT", "m2"},
				{"SET", "third", third51}, {"PFCOUNT", "third"}, {"PFADD", "s", "a", "b"}, {"PFMERGE", "s", "third"}, {"PFDEBUG", "ENCODING", "s"}, {"PFCOUNT", "s"}}},
		{id: "hll/wrongtype", desc: "PFADD, PFCOUNT, PFMERGE and PFDEBUG on keys of other types and on plain strings, and PFMERGE into or from one (nothing is written)",
			cmds: [][]string{{"SET", "foo", "bar"}, {"PFADD", "foo", "1"}, {"PFCOUNT", "foo"}, {"PFMERGE", "bar", "foo"}, {"EXISTS", "bar"}, {"PFMERGE", "foo", "bar"},
				{"RPUSH", "l", "a"}, {"PFADD", "l", "1"}, {"PFCOUNT", "l"}, {"PFCOUNT", "nokey", "l"}, {"PFMERGE", "l"}, {"PFDEBUG", "ENCODING", "l"},
				{"HSET", "h", "f", "v"}, {"PFADD", "h"}, {"ZADD", "z", "1", "a"}, {"PFADD", "z", "a"}, {"PFMERGE", "z", "nokey"}, {"ZRANGE", "z", "0", "-1"},
				{"PFADD", "ok", "a"}, {"PFCOUNT", "ok", "foo"}, {"PFMERGE", "ok", "foo"}, {"GET", "ok"}, {"PFADD"}, {"PFCOUNT"}}},
		{id: "hll/pfdebug", desc: "PFDEBUG GETREG (the 16,384 registers; it leaves the key dense), DECODE (sparse opcodes, an error on a dense key), ENCODING, TODENSE (1, then 0), an unknown subcommand and a missing key",
			cmds: [][]string{{"PFADD", "hll", "a", "b", "c"}, {"PFDEBUG", "DECODE", "hll"}, {"PFDEBUG", "encoding", "hll"}, {"PFDEBUG", "GETREG", "hll"},
				{"PFDEBUG", "ENCODING", "hll"}, {"PFDEBUG", "DECODE", "hll"}, {"STRLEN", "hll"}, {"PFCOUNT", "hll"}, {"PFADD", "h2", "x"}, {"PFDEBUG", "TODENSE", "h2"},
				{"PFDEBUG", "TODENSE", "h2"}, {"GET", "h2"}, {"PFDEBUG", "bogus", "hll"}, {"PFDEBUG", "GETREG", "nokey"}, {"PFDEBUG", "bogus", "nokey"},
				{"PFDEBUG", "GETREG"}, {"PFDEBUG", "GETREG", "hll", "x"}, {"PFADD", "e"}, {"PFDEBUG", "DECODE", "e"}}},
		{id: "hll/selftest-arity", desc: "PFSELFTEST takes no arguments (it answers OK, outside DEBUG, as Redis 7.0 does: Redis's run takes seconds, so wasm/engine's tests check that)",
			cmds: [][]string{{"PFSELFTEST", "x"}}},
		{id: "hll/redis-suite", desc: "The checks of Redis's own hyperloglog unit: 5 then 10 with a repeat, the union of three sets (5), a dense and a sparse HyperLogLog of the same elements count alike, GETREG's 16,384 registers",
			cmds: [][]string{{"PFADD", "hll", "1", "2", "3", "4", "5"}, {"PFCOUNT", "hll"}, {"PFADD", "hll", "6", "7", "8", "8", "9", "10"}, {"PFCOUNT", "hll"},
				{"PFADD", "hll1{t}", "a", "b", "c"}, {"PFADD", "hll2{t}", "b", "c", "d"}, {"PFADD", "hll3{t}", "c", "d", "e"},
				{"PFMERGE", "hll{t}", "hll1{t}", "hll2{t}", "hll3{t}"}, {"PFCOUNT", "hll{t}"},
				{"PFADD", "d"}, {"PFDEBUG", "TODENSE", "d"}, pfadd("s", "0.", 0, 90), pfadd("d", "0.", 0, 90), {"PFDEBUG", "ENCODING", "s"}, {"PFDEBUG", "ENCODING", "d"},
				{"PFCOUNT", "s"}, {"PFCOUNT", "d"}, {"EVAL", "return #redis.call('PFDEBUG', 'GETREG', KEYS[1])", "1", "s"}}},
		{id: "hll/string-commands", desc: "A HyperLogLog is a string to every other command: STRLEN, GETRANGE, COPY, RENAME, DUMP and RESTORE (sparse and dense), OBJECT ENCODING raw, and PFADD keeps a TTL",
			cmds: [][]string{pfadd("h", "e", 0, 20), {"STRLEN", "h"}, {"GETRANGE", "h", "0", "4"}, {"OBJECT", "ENCODING", "h"}, {"COPY", "h", "c"}, {"PFCOUNT", "c"},
				{"GET", "c"}, {"DUMP", "h"}, evalKeys(roundTrip, []string{"h", "r"}), {"PFCOUNT", "r"}, pfadd("d", "e", 0, 3000), {"DUMP", "d"},
				evalKeys(roundTrip, []string{"d", "dr"}), {"PFCOUNT", "dr"}, {"OBJECT", "ENCODING", "d"}, {"RENAME", "d", "d2"}, {"PFADD", "d2", "new"},
				{"EXPIRE", "h", "100"}, {"PFADD", "h", "x1", "x2"}, {"TTL", "h"}, {"PFCOUNT", "h"}, {"TTL", "h"}, {"SET", "h", "plain"}, {"TTL", "h"}, {"PFCOUNT", "h"}}},
		{id: "hll/scripts", desc: "PF commands from a script: replies as Lua sees them; a read-only script may not call PFCOUNT (it may write its count back, and Redis counts it a write) nor PFADD",
			cmds: [][]string{evalKeys("redis.call('PFADD', KEYS[1], 'a', 'b') return {redis.call('PFCOUNT', KEYS[1]), redis.call('PFADD', KEYS[1], 'a'), redis.pcall('PFCOUNT', 'x', KEYS[1], 'y')}", []string{"h"}),
				{"PFADD", "h", "c"}, {"EVAL_RO", "return redis.call('PFCOUNT', KEYS[1])", "1", "h"}, {"GETRANGE", "h", "15", "15"},
				{"EVAL_RO", "return redis.call('PFADD', KEYS[1], 'z')", "1", "h"}, {"SET", "s", "x"}, evalKeys("return redis.call('PFADD', KEYS[1], 'a')", []string{"s"}),
				evalKeys("return redis.pcall('PFDEBUG', 'ENCODING', KEYS[1])", []string{"h"}), eval("return redis.call('PFSELFTEST')")}},
		{id: "hll/transactions", desc: "PF commands queued in MULTI, and WATCH: a PFCOUNT that writes its count back and a PFMERGE touch the key, a PFADD that raises nothing and a cached PFCOUNT do not",
			cmds: append([][]string{{"MULTI"}, {"PFADD", "q", "a"}, {"PFCOUNT", "q"}, {"PFMERGE", "q2", "q"}, {"EXEC"}}, watchEach([]aWrite{
				{[][]string{{"PFADD", "k", "a"}}, []string{"PFCOUNT", "k"}},
				{[][]string{{"PFADD", "k", "a"}, {"PFCOUNT", "k"}}, []string{"PFCOUNT", "k"}},
				{[][]string{{"PFADD", "k", "a"}}, []string{"PFADD", "k", "a"}},
				{[][]string{{"PFADD", "k", "a"}}, []string{"PFADD", "k", "b"}},
				{[][]string{{"PFADD", "k", "a"}}, []string{"PFMERGE", "k"}},
				{[][]string{{"PFADD", "k", "a"}, {"PFCOUNT", "k"}}, []string{"PFCOUNT", "k", "nokey"}},
				{nil, []string{"PFADD", "k"}},
			})...)},
		{id: "commands/object-encoding-hll", desc: "OBJECT ENCODING of a short HyperLogLog written with SET",
			cmds: [][]string{{"SET", "h", staleSparse + allZeros}, {"OBJECT", "ENCODING", "h"}}},
		{id: "hll/elements", desc: "Elements of every shape land where Redis puts them: empty, binary, multi-byte, long, numbers, and hash tails of every length",
			cmds: [][]string{{"PFADD", "e", "", "\x00", "\xff\xfe\xfd", "队列", strings.Repeat("long", 100), "1", "-1", "3.14", "abcdefg", "abcdefgh", "abcdefghi"},
				{"PFDEBUG", "DECODE", "e"}, {"PFCOUNT", "e"}, {"GET", "e"}}},
	}
}
