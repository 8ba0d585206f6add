package fidelity

import (
	"strconv"
	"strings"
)

// Cases for streams (wasm/stream, wasm/engine/streamcmds.go): Redis 7.0's
// macro nodes, so "~" trims where Redis trims; consumer groups with their
// counters and pending entries lists; XINFO's fields; and every ID and
// option error word for word. TestStreamsMatchRedis (stream_random_test.go)
// runs thousands more, at random.
//
// Idle times run on two clocks (the engine's is frozen, Redis's is not),
// so no case prints one: min-idle-time and IDLE are compared with
// thresholds far from either, and the scripts below blank what is left.

// xadds is n XADDs to key with IDs from-1 ... from+n-1 at sequence 1, each
// with the fields given.
func xadds(key string, from, n int, fields ...string) [][]string {
	var out [][]string
	for i := from; i < from+n; i++ {
		out = append(out, append([]string{"XADD", key, strconv.Itoa(i) + "-1"}, fields...))
	}
	return out
}

// noIdle runs cmd in a script and replaces, in each element of its reply,
// the integer at position at (1-based) with whether it is under a minute.
func noIdle(at int, cmd ...string) []string {
	src := "local r = redis.call(unpack(ARGV)) if type(r) ~= 'table' then return r end " +
		"for _, e in ipairs(r) do if type(e) == 'table' and type(e[" + strconv.Itoa(at) + "]) == 'number' then " +
		"e[" + strconv.Itoa(at) + "] = e[" + strconv.Itoa(at) + "] < 60000 and 'fresh' or 'old' end end return r"
	return eval(src, cmd...)
}

// noTimes runs XINFO STREAM FULL in a script with every number past
// 10^12 (a time in Unix ms) blanked.
func noTimes(cmd ...string) []string {
	src := "local function walk(t) for i, v in ipairs(t) do if type(v) == 'table' then walk(v) " +
		"elseif type(v) == 'number' and v > 1e12 then t[i] = 'time' end end end " +
		"local r = redis.call(unpack(ARGV)) walk(r) return r"
	return eval(src, cmd...)
}

// watchGroupCmds runs each command between WATCH of s and mk and an EXEC, on a
// stream s with a group g.
func watchGroupCmds(cmds [][]string) [][]string {
	out := [][]string{{"XADD", "s", "1-1", "a", "b"}, {"XGROUP", "CREATE", "s", "g", "0"}}
	for _, c := range cmds {
		out = append(out, []string{"WATCH", "s", "mk"}, c, []string{"MULTI"}, []string{"PING"}, []string{"EXEC"})
	}
	return out
}

func streamCases() []fcase {
	big := strings.Repeat("v", 1000)
	return []fcase{
		{id: "stream/range-count", desc: "XRANGE and XREVRANGE with COUNT 0 (nil), a negative COUNT, exclusive bounds, incomplete IDs and a missing key",
			cmds: append(xadds("s", 1, 5, "f", "v"),
				[]string{"XRANGE", "s", "-", "+", "COUNT", "0"}, []string{"XRANGE", "s", "-", "+", "COUNT", "-1"},
				[]string{"XRANGE", "s", "-", "+", "COUNT", "2"}, []string{"XREVRANGE", "s", "+", "-", "COUNT", "2"},
				[]string{"XRANGE", "s", "(2-1", "4"}, []string{"XREVRANGE", "s", "(5-1", "(2-1"}, []string{"XRANGE", "s", "2", "3"},
				[]string{"XRANGE", "s", "(-", "+"}, []string{"XRANGE", "s", "(18446744073709551615-18446744073709551615", "+"},
				[]string{"XRANGE", "s", "-", "(0-0"}, []string{"XRANGE", "s", "-", "+", "COUNT"}, []string{"XRANGE", "s", "-", "+", "COUNT", "x"},
				[]string{"XRANGE", "s", "-", "+", "LIMIT", "1"}, []string{"XRANGE", "nokey", "-", "+"}, []string{"XRANGE", "nokey", "-", "+", "COUNT", "0"},
				[]string{"XREVRANGE", "s", "+", "-", "COUNT", "0"}, []string{"XRANGE", "s", "5", "1"})},
		{id: "stream/id-parsing", desc: "Stream IDs as Redis reads them: <ms>-<seq>, <ms>, <ms>-*, 0-0, spaces and signs, overflow, and the errors",
			cmds: [][]string{{"XADD", "s", "0-0", "f", "v"}, {"XADD", "s", "0", "f", "v"}, {"XADD", "s", "0-*", "f", "v"}, {"XADD", "s", "1-x", "f", "v"},
				{"XADD", "s", "1-", "f", "v"}, {"XADD", "s", "-1", "f", "v"}, {"XADD", "s", "+", "f", "v"}, {"XADD", "s", "5", "f", "v"},
				{"XADD", "s", "5-*", "f", "v"}, {"XADD", "s", "5-3", "f", "v"}, {"XADD", "s", "5-3", "f", "v"}, {"XADD", "s", "4-9", "f", "v"},
				{"XADD", "s", "5-18446744073709551615", "f", "v"}, {"XADD", "s", "5-*", "f", "v"}, {"XADD", "s", "18446744073709551616-1", "f", "v"},
				{"XADD", "s", " 7-1", "f", "v"}, {"XADD", "s", "8- 1", "f", "v"}, {"XADD", "s", "+9-1", "f", "v"}, {"XADD", "s", "09-1", "f", "v"},
				{"XADD", "s", "10-01", "f", "v"}, {"XADD", "s", "11-*x", "f", "v"}, {"XADD", "s", "*-1", "f", "v"},
				{"XADD", "s", "18446744073709551615-18446744073709551615", "f", "v"}, {"XADD", "s", "*", "f", "v"},
				{"XADD", "s", "18446744073709551615-*", "f", "v"}, {"XRANGE", "s", "-", "+"}, {"XDEL", "s", "bad"}, {"XDEL", "nokey", "bad"},
				{"XRANGE", "s", "1-x", "+"}, {"XADD", "e", "0-0", "f", "v"}, {"EXISTS", "e"}, {"XADD", "s2", "1-1", "f"}, {"XADD", "s2", "1-1"}}},
		{id: "stream/approx-trim-nodes", desc: "XADD MAXLEN ~ and MINID ~ remove whole nodes of 100 entries only; = and exact trimming remove entries; LIMIT",
			cmds: append(xadds("s", 1, 250, "f", "v"),
				[]string{"XADD", "s", "MAXLEN", "~", "200", "251-1", "f", "v"}, []string{"XLEN", "s"}, []string{"XRANGE", "s", "-", "+", "COUNT", "1"},
				[]string{"XTRIM", "s", "MAXLEN", "~", "100"}, []string{"XLEN", "s"}, []string{"XRANGE", "s", "-", "+", "COUNT", "1"},
				[]string{"XTRIM", "s", "MAXLEN", "=", "140"}, []string{"XLEN", "s"}, []string{"XINFO", "STREAM", "s"},
				[]string{"XTRIM", "s", "MINID", "~", "210"}, []string{"XLEN", "s"}, []string{"XTRIM", "s", "MINID", "220"}, []string{"XLEN", "s"},
				[]string{"XTRIM", "s", "MAXLEN", "~", "0", "LIMIT", "10"}, []string{"XLEN", "s"},
				[]string{"XTRIM", "s", "MAXLEN", "~", "0", "LIMIT", "0"}, []string{"XLEN", "s"}, []string{"XINFO", "STREAM", "s"})},
		{id: "stream/nodes-by-bytes", desc: "A node ends at 4096 listpack bytes as well as at 100 entries: entries of 1000-byte values, and entries whose fields differ from the first's",
			cmds: append(append(xadds("b", 1, 12, "f", big), xadds("b", 20, 30, "a", "1", "b", "two")...),
				[]string{"XINFO", "STREAM", "b"}, []string{"XTRIM", "b", "MAXLEN", "~", "30"}, []string{"XLEN", "b"},
				[]string{"XADD", "b", "99-1", "x", "-5", "y", "123456789012"}, []string{"XINFO", "STREAM", "b"})},
		{id: "stream/node-config", desc: "CONFIG SET stream-node-max-entries and stream-node-max-bytes draw the nodes that ~ trims whole, as Redis's suite sets them",
			cmds: append(append(append([][]string{{"CONFIG", "SET", "stream-node-max-entries", "2"}}, xadds("s", 1, 5, "f", "v")...),
				[]string{"XTRIM", "s", "MAXLEN", "~", "2"}, []string{"XLEN", "s"}, []string{"XINFO", "STREAM", "s"},
				[]string{"CONFIG", "SET", "stream-node-max-entries", "0", "stream-node-max-bytes", "1kb"}),
				append(xadds("b", 1, 6, "f", strings.Repeat("x", 300)),
					[]string{"XTRIM", "b", "MAXLEN", "~", "1"}, []string{"XLEN", "b"}, []string{"XINFO", "STREAM", "b"}, configRestore)...)},
		{id: "stream/trim-errors", desc: "XADD and XTRIM option errors: MAXLEN with MINID, LIMIT without ~, negative values, NOMKSTREAM",
			cmds: [][]string{{"XADD", "s", "MAXLEN", "5", "LIMIT", "10", "1-1", "f", "v"}, {"XADD", "s", "LIMIT", "5", "*", "f", "v"},
				{"XADD", "s", "MAXLEN", "1", "MINID", "1", "*", "f", "v"}, {"XADD", "s", "MAXLEN", "-1", "*", "f", "v"},
				{"XADD", "s", "MAXLEN", "~", "1", "LIMIT", "-1", "*", "f", "v"}, {"XADD", "s", "MAXLEN", "x", "*", "f", "v"},
				{"XADD", "s", "NOMKSTREAM", "1-1", "f", "v"}, {"EXISTS", "s"}, {"XADD", "s", "MAXLEN", "~", "5", "LIMIT", "10", "2-1", "f", "v"},
				{"XADD", "s", "NOMKSTREAM", "3-1", "f", "v"}, {"XTRIM", "s", "FOO", "1"}, {"XTRIM", "s", "MAXLEN", "-1"}, {"XTRIM", "nokey", "MAXLEN", "1"},
				{"XTRIM", "s", "LIMIT", "1", "MAXLEN", "1"}, {"XTRIM", "s", "MINID", "bad"}, {"XTRIM", "s", "MAXLEN", "0"}, {"XINFO", "STREAM", "s"},
				{"SET", "str", "x"}, {"XADD", "str", "*", "f", "v"}, {"XTRIM", "str", "MAXLEN", "1"}, {"XLEN", "str"}, {"XRANGE", "str", "-", "+"}}},
		{id: "stream/xdel-xinfo", desc: "XDEL and XINFO STREAM's counters: max-deleted-entry-id, entries-added, recorded-first-entry-id, radix-tree nodes; FULL",
			cmds: append(xadds("s", 1, 3, "a", "1"),
				[]string{"XINFO", "STREAM", "s"}, []string{"XDEL", "s", "1-1", "1-1", "9-9"}, []string{"XINFO", "STREAM", "s"},
				[]string{"XINFO", "STREAM", "s", "FULL"}, []string{"XINFO", "STREAM", "s", "FULL", "COUNT", "1"}, []string{"XDEL", "s", "2-1", "3-1"},
				[]string{"XINFO", "STREAM", "s"}, []string{"XINFO", "STREAM", "s", "FOO"}, []string{"XINFO", "STREAM", "s", "FULL", "COUNT"}, []string{"XINFO", "STREAM", "s", "FULL", "FOO", "1"},
				[]string{"XINFO", "STREAM", "s", "FULL", "COUNT", "x"}, []string{"XINFO", "STREAM", "s", "FULL", "COUNT", "-1"},
				[]string{"XINFO", "STREAM", "nokey"}, []string{"XINFO", "STREAM"}, []string{"XINFO", "BOGUS", "s"}, []string{"XINFO", "HELP"},
				[]string{"XINFO", "HELP", "x"}, []string{"XLEN", "s"}, []string{"TYPE", "s"}, []string{"OBJECT", "ENCODING", "s"})},
		{id: "stream/xsetid", desc: "XSETID with ENTRIESADDED and MAXDELETEDID, and its errors in Redis's order",
			cmds: append(xadds("s", 1, 2, "a", "1"),
				[]string{"XSETID", "s", "1-1"}, []string{"XSETID", "nokey", "1-1"}, []string{"XSETID", "s", "9-9", "ENTRIESADDED", "1"},
				[]string{"XSETID", "s", "9-9", "MAXDELETEDID", "10-0"}, []string{"XSETID", "s", "9-9", "ENTRIESADDED", "-1"},
				[]string{"XSETID", "s", "9-9", "ENTRIESADDED", "10", "MAXDELETEDID", "9-0"}, []string{"XINFO", "STREAM", "s"},
				[]string{"XSETID", "s", "9-8"}, []string{"XSETID", "s", "bad"}, []string{"XSETID", "s", "10-0", "FOO"}, []string{"XADD", "s", "9-9", "f", "v"},
				[]string{"XADD", "s", "9-*", "f", "v"}, []string{"XSETID", "s", "18446744073709551615-18446744073709551615"}, []string{"XADD", "s", "*", "f", "v"},
				[]string{"XINFO", "STREAM", "s"})},
		{id: "stream/groups", desc: "XGROUP CREATE, SETID with ENTRIESREAD, CREATECONSUMER, DELCONSUMER and DESTROY, their replies and errors; XINFO GROUPS' entries-read and lag",
			cmds: append(xadds("s", 1, 3, "a", "1"),
				[]string{"XGROUP", "CREATE", "s", "g", "bad"}, []string{"XGROUP", "CREATE", "s", "g", "$"}, []string{"XGROUP", "CREATE", "s", "g", "0"},
				[]string{"XGROUP", "CREATE", "s", "g0", "0"}, []string{"XGROUP", "CREATE", "s", "g2", "2-1", "ENTRIESREAD", "2"},
				[]string{"XGROUP", "CREATE", "s", "g3", "0", "ENTRIESREAD", "-2"}, []string{"XGROUP", "CREATE", "s", "g3", "0", "FOO"},
				[]string{"XGROUP", "CREATE", "nokey", "g", "0"}, []string{"XGROUP", "CREATE", "mk", "g", "$", "MKSTREAM"}, []string{"XINFO", "STREAM", "mk"},
				[]string{"XINFO", "GROUPS", "s"}, []string{"XGROUP", "SETID", "s", "g0", "2-1", "ENTRIESREAD", "2"}, []string{"XGROUP", "SETID", "s", "nog", "0"},
				[]string{"XGROUP", "SETID", "s", "g", "+"}, []string{"XGROUP", "SETID", "s", "g2", "$"}, []string{"XINFO", "GROUPS", "s"},
				[]string{"XGROUP", "CREATECONSUMER", "s", "g", "c"}, []string{"XGROUP", "CREATECONSUMER", "s", "g", "c"},
				[]string{"XGROUP", "CREATECONSUMER", "s", "nog", "c"}, []string{"XGROUP", "DELCONSUMER", "s", "g", "c"}, []string{"XGROUP", "DELCONSUMER", "s", "g", "c"},
				[]string{"XGROUP", "DESTROY", "s", "g"}, []string{"XGROUP", "DESTROY", "s", "g"}, []string{"XGROUP", "BOGUS", "s", "g"},
				[]string{"XGROUP", "CREATE", "s"}, []string{"XGROUP", "HELP"}, []string{"XGROUP", "HELP", "x"}, []string{"XGROUP"}, []string{"XINFO", "GROUPS", "s"},
				[]string{"XDEL", "s", "2-1"}, []string{"XINFO", "GROUPS", "s"}, []string{"XINFO", "GROUPS", "nokey"}, []string{"XINFO", "CONSUMERS", "s", "nog"})},
		{id: "stream/readgroup", desc: "XREADGROUP with COUNT 1 delivers one entry; > and history; NOACK; a deleted entry in the PEL comes back with a nil body; XACK",
			cmds: append(xadds("s", 1, 4, "a", "1"),
				[]string{"XGROUP", "CREATE", "s", "g", "0"}, []string{"XREADGROUP", "GROUP", "g", "c1", "COUNT", "1", "STREAMS", "s", ">"},
				[]string{"XREADGROUP", "GROUP", "g", "c2", "COUNT", "2", "STREAMS", "s", ">"}, []string{"XINFO", "GROUPS", "s"},
				[]string{"XDEL", "s", "2-1"}, []string{"XREADGROUP", "GROUP", "g", "c2", "STREAMS", "s", "0"},
				[]string{"XREADGROUP", "GROUP", "g", "c2", "COUNT", "1", "STREAMS", "s", "2-1"}, []string{"XPENDING", "s", "g"},
				[]string{"XREADGROUP", "GROUP", "g", "c3", "NOACK", "STREAMS", "s", ">"}, []string{"XREADGROUP", "GROUP", "g", "c3", "STREAMS", "s", ">"},
				[]string{"XACK", "s", "g", "1-1", "1-1", "9-9"}, []string{"XACK", "s", "g", "bad"}, []string{"XACK", "s", "nog", "1-1"}, []string{"XACK", "nokey", "g", "1-1"},
				[]string{"XPENDING", "s", "g"}, []string{"XINFO", "GROUPS", "s"}, noIdle(6, "XINFO", "CONSUMERS", "s", "g"),
				[]string{"XREADGROUP", "GROUP", "g", "c1", "STREAMS", "s", "$"}, []string{"XREADGROUP", "GROUP", "nog", "c1", "STREAMS", "s", ">"},
				[]string{"XREADGROUP", "GROUP", "g", "c1", "STREAMS", "nokey", ">"}, []string{"XREADGROUP", "STREAMS", "s", ">"},
				[]string{"XREADGROUP", "GROUP", "g", "c1", "STREAMS", "s"}, []string{"XREAD", "STREAMS", "s", ">"}, []string{"XREAD", "COUNT", "2", "STREAMS", "s", "nokey", "0", "0"},
				[]string{"XREAD", "STREAMS", "s", "$"}, []string{"XREAD", "GROUP", "g", "c", "STREAMS", "s", "0"}, []string{"XREAD", "NOACK", "STREAMS", "s", "0"},
				[]string{"XREAD", "STREAMS", "s"}, []string{"XREAD", "COUNT", "-5", "STREAMS", "s", "3"}, []string{"XREAD", "FOO", "STREAMS", "s", "0"})},
		{id: "stream/claim", desc: "XCLAIM honours min-idle-time; JUSTID leaves the delivery count; RETRYCOUNT, IDLE, TIME, FORCE, LASTID; a deleted entry leaves the PEL",
			cmds: append(xadds("s", 1, 4, "a", "1"),
				[]string{"XGROUP", "CREATE", "s", "g", "0"}, []string{"XREADGROUP", "GROUP", "g", "c1", "STREAMS", "s", ">"},
				[]string{"XCLAIM", "s", "g", "c2", "3600000", "1-1"}, []string{"XCLAIM", "s", "g", "c2", "0", "1-1", "JUSTID"},
				[]string{"XCLAIM", "s", "g", "c2", "0", "2-1"}, noIdle(3, "XPENDING", "s", "g", "-", "+", "10"),
				[]string{"XCLAIM", "s", "g", "c3", "0", "3-1", "RETRYCOUNT", "7", "IDLE", "7200000"},
				[]string{"XCLAIM", "s", "g", "c4", "3600000", "3-1", "JUSTID"}, []string{"XPENDING", "s", "g", "IDLE", "3600000", "-", "+", "10"},
				[]string{"XCLAIM", "s", "g", "c3", "0", "4-1", "TIME", "1000", "JUSTID"}, noIdle(3, "XPENDING", "s", "g", "IDLE", "3600000", "-", "+", "10", "c3"),
				[]string{"XDEL", "s", "4-1"}, []string{"XCLAIM", "s", "g", "c2", "0", "4-1"}, []string{"XPENDING", "s", "g"},
				[]string{"XCLAIM", "s", "g", "c2", "0", "9-1", "FORCE"}, []string{"XADD", "s", "9-1", "a", "9"}, []string{"XCLAIM", "s", "g", "c2", "0", "9-1", "FORCE", "JUSTID"},
				[]string{"XCLAIM", "s", "g", "c5", "0", "1-1", "LASTID", "100-0", "JUSTID"}, []string{"XINFO", "GROUPS", "s"},
				[]string{"XCLAIM", "s", "g", "c2", "x", "1-1"}, []string{"XCLAIM", "s", "g", "c2", "0", "1-1", "BOGUS"}, []string{"XCLAIM", "s", "g", "c2", "0", "1-1", "IDLE", "x"},
				[]string{"XCLAIM", "s", "g", "c2", "0", "1-1", "LASTID", "bad"}, []string{"XCLAIM", "s", "nog", "c2", "0", "1-1"}, []string{"XCLAIM", "nokey", "g", "c2", "0", "1-1"},
				[]string{"XCLAIM", "s", "g", "c9", "0", "bad"}, noIdle(6, "XINFO", "CONSUMERS", "s", "g"), []string{"XPENDING", "s", "g"})},
		{id: "stream/autoclaim", desc: "XAUTOCLAIM's three-element reply in 7.0: the cursor, the claimed entries and the deleted IDs; COUNT, JUSTID, min-idle-time",
			cmds: append(xadds("s", 1, 6, "a", "1"),
				[]string{"XGROUP", "CREATE", "s", "g", "0"}, []string{"XREADGROUP", "GROUP", "g", "c1", "STREAMS", "s", ">"},
				[]string{"XDEL", "s", "2-1", "4-1"}, []string{"XAUTOCLAIM", "s", "g", "c2", "3600000", "0"},
				[]string{"XAUTOCLAIM", "s", "g", "c2", "0", "0", "COUNT", "2"}, []string{"XAUTOCLAIM", "s", "g", "c2", "0", "3-1", "COUNT", "2", "JUSTID"},
				[]string{"XAUTOCLAIM", "s", "g", "c2", "0", "(5-1"}, []string{"XPENDING", "s", "g"}, noIdle(3, "XPENDING", "s", "g", "-", "+", "10", "c2"),
				[]string{"XAUTOCLAIM", "s", "g", "c2", "0", "0", "COUNT", "0"}, []string{"XAUTOCLAIM", "s", "g", "c2", "0", "bad"},
				[]string{"XAUTOCLAIM", "s", "g", "c2", "x", "0"}, []string{"XAUTOCLAIM", "s", "g", "c2", "0", "0", "FOO"}, []string{"XAUTOCLAIM", "s", "nog", "c2", "0", "0"},
				[]string{"XAUTOCLAIM", "s", "g", "c2", "0", "(18446744073709551615-18446744073709551615"})},
		{id: "stream/pending", desc: "XPENDING's summary (consumer counts as strings) and extended form with IDLE, a consumer, exclusive bounds and its errors",
			cmds: append(xadds("s", 1, 4, "a", "1"),
				[]string{"XGROUP", "CREATE", "s", "g", "0"}, []string{"XPENDING", "s", "g"}, []string{"XPENDING", "s", "g", "-", "+", "10"},
				[]string{"XREADGROUP", "GROUP", "g", "c1", "COUNT", "1", "STREAMS", "s", ">"}, []string{"XREADGROUP", "GROUP", "g", "c2", "STREAMS", "s", ">"},
				[]string{"XPENDING", "s", "g"}, noIdle(3, "XPENDING", "s", "g", "(1-1", "+", "2"), noIdle(3, "XPENDING", "s", "g", "-", "+", "10", "c1"),
				[]string{"XPENDING", "s", "g", "-", "+", "10", "nobody"}, []string{"XPENDING", "s", "g", "IDLE", "3600000", "-", "+", "10"},
				[]string{"XPENDING", "s", "g", "-", "+"}, []string{"XPENDING", "s", "g", "IDLE", "1", "-", "+"}, []string{"XPENDING", "s", "g", "-", "+", "x"},
				[]string{"XPENDING", "s", "g", "bad", "+", "1"}, []string{"XPENDING", "s", "nog"}, []string{"XPENDING", "nokey", "g"},
				[]string{"XPENDING", "s", "g", "-", "+", "0"}, []string{"XPENDING", "s", "g", "-", "+", "-1"})},
		{id: "stream/keyspace", desc: "A stream is a key like any other: TYPE, RENAME, COPY (each copy its own), EXPIRE, DEL, SCAN TYPE stream, OBJECT ENCODING, WATCH",
			cmds: append(xadds("s", 1, 2, "a", "1"),
				[]string{"XGROUP", "CREATE", "s", "g", "0"}, []string{"RENAME", "s", "t"}, []string{"XINFO", "GROUPS", "t"}, []string{"EXISTS", "s"},
				[]string{"COPY", "t", "u"}, []string{"XADD", "u", "3-1", "b", "2"}, []string{"XLEN", "t"}, []string{"XLEN", "u"}, []string{"XINFO", "GROUPS", "u"},
				[]string{"EXPIRE", "t", "100"}, []string{"TTL", "t"}, []string{"XADD", "t", "5-1", "c", "3"}, []string{"TTL", "t"},
				[]string{"SCAN", "0", "TYPE", "stream"}, []string{"OBJECT", "ENCODING", "u"}, []string{"DEL", "t"}, []string{"XLEN", "t"},
				[]string{"XADD", "t", "1-1", "d", "4"}, []string{"XINFO", "STREAM", "t"}, []string{"SET", "u", "x"}, []string{"XLEN", "u"},
				[]string{"MOVE", "t", "1"}, []string{"SELECT", "1"}, []string{"XRANGE", "t", "-", "+"}, []string{"SELECT", "0"},
				evalKeys("redis.call('XADD', KEYS[1], '1-1', 'f', 'v') return redis.call('XRANGE', KEYS[1], '-', '+')", []string{"lua"}))},
		{id: "stream/watch", desc: "WATCH on a stream sees XADD, XDEL, XTRIM and XSETID",
			cmds: append(xadds("s", 1, 3, "a", "1"),
				[]string{"WATCH", "s"}, []string{"XDEL", "s", "1-1"}, []string{"MULTI"}, []string{"XLEN", "s"}, []string{"EXEC"},
				[]string{"WATCH", "s"}, []string{"XTRIM", "s", "MAXLEN", "1"}, []string{"MULTI"}, []string{"XLEN", "s"}, []string{"EXEC"},
				[]string{"WATCH", "s"}, []string{"XLEN", "s"}, []string{"MULTI"}, []string{"XLEN", "s"}, []string{"EXEC"})},
		{id: "stream/dump", desc: "DUMP of a stream, byte for byte: several nodes, deleted and trimmed entries, fields unlike the master entry's, long values compressed, groups without consumers",
			cmds: append(append(append(xadds("d", 1, 130, "f", "v"), xadds("d", 200, 5, "a", "1", "b", big)...), xadds("d", 300, 3, "x", "-7", "y", "123456789012345")...),
				[]string{"DUMP", "d"}, []string{"XDEL", "d", "3-1", "120-1", "201-1"}, []string{"XTRIM", "d", "MAXLEN", "120"}, []string{"DUMP", "d"},
				[]string{"XGROUP", "CREATE", "d", "g", "0"}, []string{"XGROUP", "CREATE", "d", "h", "$", "ENTRIESREAD", "3"}, []string{"XSETID", "d", "900-9", "MAXDELETEDID", "800-1"},
				[]string{"DUMP", "d"}, []string{"XADD", "e", "MAXLEN", "0", "1-1", "f", "v"}, []string{"DUMP", "e"}, []string{"XGROUP", "CREATE", "m", "g", "$", "MKSTREAM"}, []string{"DUMP", "m"})},
		{id: "stream/restore", desc: "RESTORE of a stream's DUMP: entries, nodes, counters, groups, pending entries and consumers come back; REPLACE, a TTL, a damaged payload",
			cmds: append(append(xadds("d", 1, 130, "f", "v"), xadds("d", 200, 3, "a", "1", "b", big)...),
				[]string{"XDEL", "d", "3-1", "201-1"}, []string{"XGROUP", "CREATE", "d", "g", "0"}, []string{"XREADGROUP", "GROUP", "g", "c1", "COUNT", "3", "STREAMS", "d", ">"},
				[]string{"XREADGROUP", "GROUP", "g", "c2", "COUNT", "2", "STREAMS", "d", ">"}, []string{"XGROUP", "CREATE", "d", "h", "$"},
				evalKeys("return redis.call('RESTORE', KEYS[2], 0, redis.call('DUMP', KEYS[1]))", []string{"d", "r"}), []string{"XINFO", "STREAM", "r"},
				[]string{"XINFO", "GROUPS", "r"}, []string{"XPENDING", "r", "g"}, []string{"XRANGE", "r", "-", "+", "COUNT", "3"}, []string{"XREVRANGE", "r", "+", "-", "COUNT", "2"},
				[]string{"XADD", "r", "300-1", "f", "v"}, []string{"XTRIM", "r", "MAXLEN", "~", "10"}, []string{"XLEN", "r"}, []string{"XINFO", "STREAM", "r"},
				evalKeys("return redis.call('RESTORE', KEYS[2], 0, redis.call('DUMP', KEYS[1]))", []string{"d", "r"}),
				evalKeys("return redis.call('RESTORE', KEYS[2], 100000, redis.call('DUMP', KEYS[1]), 'REPLACE')", []string{"d", "r"}),
				[]string{"XLEN", "r"}, eval("return redis.call('PTTL', 'r') > 90000"),
				eval("local p = redis.call('DUMP', 'd') return redis.pcall('RESTORE', 'bad', 0, string.sub(p, 1, 30) .. string.sub(p, 32))"), []string{"EXISTS", "bad"})},
		{id: "stream/watch-groups", desc: "The group commands do not touch a watched stream (XGROUP, XREADGROUP, XACK, XCLAIM, XAUTOCLAIM); MKSTREAM making the key does",
			cmds: watchGroupCmds([][]string{{"XGROUP", "CREATE", "s", "g2", "0"}, {"XREADGROUP", "GROUP", "g", "c", "STREAMS", "s", ">"}, {"XACK", "s", "g", "1-1"},
				{"XGROUP", "CREATECONSUMER", "s", "g", "c9"}, {"XGROUP", "SETID", "s", "g", "0"}, {"XCLAIM", "s", "g", "c2", "0", "1-1"},
				{"XGROUP", "DESTROY", "s", "g2"}, {"XREADGROUP", "GROUP", "g", "c", "STREAMS", "s", "0"}, {"XAUTOCLAIM", "s", "g", "c3", "0", "0"},
				{"XGROUP", "DELCONSUMER", "s", "g", "c9"}, {"XGROUP", "CREATE", "mk", "g", "$", "MKSTREAM"}})},
	}
}
