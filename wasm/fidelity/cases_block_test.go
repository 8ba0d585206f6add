package fidelity

import "strings"

// Cases for the blocking commands (wasm/engine/blocking.go). Redis answers
// a blocking command at once when there is something to pop or read, and
// the engine must too; with nothing there and a short timeout, both answer
// what Redis answers when the timeout passes (the engine without waiting
// it). A timeout of 0 with nothing there would wait for ever on a real
// server, so no case sends one outside MULTI.

// words splits a command written as one line.
func words(lines ...string) [][]string {
	out := make([][]string, len(lines))
	for i, l := range lines {
		out[i] = strings.Fields(l)
	}
	return out
}

func blockCases() []fcase {
	return []fcase{
		{id: "block/pops-with-data", desc: "BLPOP, BRPOP, BRPOPLPUSH, BLMOVE and BLMPOP answer at once when a list has an element, from the first key that has one, and refuse a key of another type met on the way",
			cmds: words("RPUSH l a b c d e f", "SET s str", "BLPOP none l 1", "BRPOP l 1", "BLPOP s l 1", "BLPOP none s 1",
				"BRPOPLPUSH l l2 1", "BRPOPLPUSH l s 1", "BLMOVE l l2 LEFT RIGHT 1", "BLMOVE l l2 right left 0",
				"BLMPOP 1 2 none l LEFT COUNT 5", "BLMPOP 1 1 s LEFT", "LRANGE l2 0 -1", "EXISTS l")},
		{id: "block/zpops-with-data", desc: "BZPOPMIN, BZPOPMAX and BZMPOP answer at once when a sorted set has a member: the key, the member and its score",
			cmds: words("ZADD z 1 a 2 b 3 c 4 d", "SET s str", "BZPOPMIN none z 1", "BZPOPMAX z 0", "BZPOPMIN s 1",
				"BZMPOP 1 2 none z MIN COUNT 5", "EXISTS z", "ZADD z 1.5 x", "BZMPOP 0 1 z MAX")},
		{id: "block/timeouts", desc: "With nothing to pop, a short timeout answers what Redis answers when it passes: a null array (the engine does not wait it)",
			cmds: words("BLPOP none 0.01", "BRPOP a b 0.01", "BRPOPLPUSH none dst 0.01", "BLMOVE none dst LEFT LEFT 0.01",
				"BLMPOP 0.01 1 none LEFT", "BZPOPMIN none 0.01", "BZPOPMAX none 0.01", "BZMPOP 0.01 1 none MIN",
				"BLPOP none 0.0001", "WAIT 1 10", "LMPOP 1 none LEFT", "ZMPOP 1 none MIN", "EXISTS dst")},
		{id: "block/timeout-errors", desc: "A timeout is read as Redis reads it: a long double in seconds (hex too), negative below -1 ms or past a long long's range, and an integer of milliseconds for WAIT and XREAD",
			cmds: words("RPUSH l a b c d e f g h", "BLPOP l -1", "BLPOP l -0.999", "BLPOP l -0.0001", "BLPOP l abc", "BLPOP l inf",
				"BLPOP l nan", "BLPOP l 0x10", "BLPOP l 1e16", "BLPOP l 9.2e15", "BRPOP l 1e3", "BLMOVE l l2 LEFT RIGHT -1",
				"BLMOVE l l2 MIDDLE RIGHT -1", "BLMOVE l l2 LEFT RIGHT abc", "BLMPOP -1 1 l LEFT", "BLMPOP abc 1 l LEFT",
				"BLMPOP 1 0 l LEFT", "BLMPOP 1 1 l MIDDLE", "BZPOPMIN z -1", "BZMPOP 1 1 z BAD", "BZMPOP x 1 z MIN",
				"WAIT 0 -1", "WAIT 0 abc", "WAIT 0 1.5", "WAIT abc 0", "WAIT 0 0", "WAIT -1 0", "WAIT 0 9223372036854775807",
				"BLPOP l", "WAIT 0")},
		{id: "block/xread-block", desc: "XREAD and XREADGROUP with BLOCK answer at once when there are entries, and with nothing new a null once the timeout passes; BLOCK's value is read in order among the options",
			cmds: words("XADD st 1-1 f v", "XREAD BLOCK 10 STREAMS st 0", "XREAD BLOCK 10 STREAMS st $", "XREAD BLOCK 10 STREAMS st 1-1",
				"XREAD COUNT 1 BLOCK 10 STREAMS st 0", "XREAD BLOCK 10 BLOCK 20 STREAMS st 0", "XREAD BLOCK -1 STREAMS st 0",
				"XREAD BLOCK abc STREAMS st 0", "XREAD BLOCK 1.5 STREAMS st 0", "XREAD COUNT x BLOCK abc STREAMS st 0",
				"XREAD BLOCK abc COUNT x STREAMS st 0", "XREAD BLOCK 10 STREAMS st", "XGROUP CREATE st g 0",
				"XREADGROUP GROUP g c BLOCK 10 STREAMS st >", "XREADGROUP GROUP g c BLOCK 10 STREAMS st >",
				"XREADGROUP GROUP g c BLOCK 10 STREAMS st 0", "XREADGROUP GROUP g c BLOCK 0 STREAMS st 0", "XLEN st")},
		{id: "block/inside-multi", desc: "Inside MULTI Redis never blocks: with nothing there, even timeout 0 answers at EXEC (a null string for BRPOPLPUSH and BLMOVE, a null array for the rest, 0 for WAIT)",
			cmds: words("MULTI", "BLPOP none 0", "BRPOP none 0", "BRPOPLPUSH none x 0", "BLMOVE none x LEFT LEFT 0",
				"BLMPOP 0 1 none LEFT", "BZPOPMIN none 0", "BZPOPMAX none 0", "BZMPOP 0 1 none MIN", "WAIT 1 0",
				"RPUSH l a", "BLPOP l 0", "BLPOP l -1", "XREAD BLOCK 0 STREAMS none 0", "XREAD BLOCK 0 STREAMS none $",
				"XREADGROUP GROUP g c BLOCK 0 STREAMS none >", "EXEC")},
		{id: "block/in-scripts", desc: "A script may not call the blocking pops, WAIT or XREAD with BLOCK (Redis's words); BLMPOP and BZMPOP run as the non-blocking pops",
			cmds: [][]string{{"RPUSH", "l", "a"}, {"ZADD", "z", "1", "m"},
				eval("return redis.pcall('BLPOP', 'l', 1)"), eval("return redis.pcall('WAIT', 0, 0)"),
				eval("return redis.pcall('BLMPOP', 1, 1, 'l', 'LEFT')"), eval("return redis.pcall('BZMPOP', 0, 1, 'z', 'MIN')"),
				eval("return redis.pcall('BLMPOP', 0, 1, 'l', 'LEFT')"), eval("return redis.pcall('XREAD', 'BLOCK', 0, 'STREAMS', 's', '$')")}},
	}
}
