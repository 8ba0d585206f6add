//go:build !js

package fidelity

// known lists the cases where the engine does not answer as Redis 7.0
// does, and why. A known case still runs and must still differ: once the
// engine is fixed, the test fails until the entry is removed. A difference
// that is not listed here fails the test.
//
// Each known case holds the commands of one difference and nothing else,
// so that an entry here cannot hide a new difference elsewhere.
var known = map[string]string{
	"errors/error-level-2": "gopher-lua's error(msg, 2) puts the position of the function that raised the error " +
		"(line 1) in front of the message; Lua 5.1 puts the position of its caller (line 2).",
	"errors/error-number": "Lua 5.1's error() adds the position to a number message too (it is a string to Lua), " +
		"so Redis says ERR user_script:1: 42; gopher-lua adds it to strings only.",
	"errors/error-table-dash": "Redis keeps the err of a table as written, leading dash and all, whether the " +
		"script returns it or raises it with error() (only redis.error_reply drops the dash), so the reply line " +
		"starts with two dashes; the engine keeps it in a returned table but drops it from a raised one.",
	"errors/error-table-number": "Redis takes a number in err as its text (1); the engine only takes a string " +
		"and falls back to describing the table (ERR table: 0x…).",
	"errors/error-reply-empty": "redis.error_reply('') gets Redis's generic code (ERR ); the engine sends an " +
		"empty error line.",
	"errors/missing-argument": "gopher-lua reports a missing argument as nil; Lua 5.1 tells a missing argument " +
		"from a nil one ('got no value').",
	"errors/method-argument-number": "gopher-lua does not tell a method call (s:rep(...)) from a plain one, so it " +
		"counts self as argument #1, where Lua 5.1 does not (wasm/lualib knows this one too).",
	"errors/pcall-error-table": "Redis 7.0 replaces the global pcall with its own, which hands the script the err " +
		"text of a raised error table, as a string; the engine's pcall hands over the table.",
	"errors/error-without-value": "error() with no value raises nil in Lua 5.1 (pcall returns false, nil); " +
		"gopher-lua's error() demands a value and raises a bad argument instead.",
	"errors/c-caller-position": "Lua 5.1 puts user_script:N: in front of a message only when the function that " +
		"raised it was called from a line of the script; when pcall or table.sort called it, there is no line and " +
		"no position. The engine always adds the script's line. (pcall(string.rep) also shows Lua 5.1's '?' for " +
		"a function without a name, and 'got no value'.)",
	"errors/redis-lib-errors": "Redis raises the errors of its own functions (redis.log, redis.setresp) as error " +
		"tables, with no position, which its pcall turns into their text (ERR ...); the engine raises positioned " +
		"strings.",
	"errors/compile-wording": "The engine compiles with gopher-lua's parser and rewords the commonest messages as " +
		"Lua 5.1 does; these still read otherwise: '<name>' expected, '<eof>' expected, unfinished string, " +
		"malformed number, '}' / 'end' / '(' expected, function arguments expected, and goto, which gopher-lua " +
		"knows (from Lua 5.2) and Lua 5.1 does not.",
	"errors/numkeys-spelling": "Redis reads numkeys with its strict integer parser (no leading zero, no plus " +
		"sign, no -0); the engine reads it with Go's strconv.ParseInt, which takes all three.",
	"numbers/negated-nan": "gopher-lua folds -(0/0) at compile time; the engine cannot tell that NaN constant " +
		"from a folded 0/0, which x86 prints as -nan, so it prints -nan where Redis prints nan.",
	"numbers/nan-argument": "On x86, 0/0 is a NaN with its sign bit set, which Redis's %.17g sends as -nan; " +
		"the engine sends every NaN as nan.",
	"numbers/zero-constants": "Lua 5.1 keeps one constant per number in a function, and 0 equals -0.0, so once " +
		"-0.0 is written the 0 of 1/0 is -0.0 and 1/0 is -inf; gopher-lua keeps the two constants apart.",
	"numbers/nan-range-bound": "Redis refuses nan as a score bound (min or max is not a float); miniredis reads " +
		"it as a number that compares false, and answers.",
	"numbers/decrby-min": "DECRBY negates its argument, and Redis refuses -9223372036854775808, which has no " +
		"positive counterpart; miniredis negates it with wrap-around and goes on.",
	"libs/pattern-errors": "The engine keeps gopher-lua's pattern matcher, which words malformed patterns " +
		"otherwise (unfinished capture at EOS, unexpected EOS) and reads some of them otherwise (a '%' at the " +
		"end of a pattern or a replacement); wasm/lualib knows this one too.",
	"sandbox/gcinfo": "Redis 7.0 leaves Lua 5.1's gcinfo in the base library; gopher-lua has no gcinfo.",
	"sandbox/setresp-arguments": "Redis checks redis.setresp's arguments with its own messages (requires one " +
		"argument; RESP version must be 2 or 3); the engine reports a bad argument, and ignores extra ones.",
	"cache/script-flush-mode": "Redis answers a SCRIPT FLUSH with a mode other than SYNC or ASYNC with ERR " +
		"SCRIPT FLUSH only support SYNC|ASYNC option; the engine calls it a wrong number of arguments.",
	"commands/hello-options": "The engine refuses HELLO's options (SETNAME, AUTH) as a syntax error; Redis takes " +
		"SETNAME, and AUTH as the default user, whose password is not set, with any password.",
}

// knownRESP3 is known for differences seen only under RESP3.
var knownRESP3 = map[string]string{
	"numbers/scores":             resp3Scores,
	"numbers/nan-and-inf-scores": resp3Scores + " And ZINCRBY of -inf onto inf stores a NaN instead of refusing it.",
	"hash/small-order":           resp3Hashes,
	"hash/enqueue-row":           resp3Hashes + " " + resp3Scores,
	"hash/large":                 resp3Hashes,
}

const (
	resp3Scores = "Under RESP3 the engine's score fixups are bypassed and miniredis answers alone: doubles in " +
		"the shortest form (1.7e+12, 0.1) instead of %.17g (1700000000000, 0.10000000000000001), ZRANGE ... " +
		"WITHSCORES and ZPOPMIN/ZPOPMAX as one flat list instead of [member, score] pairs, and ZSCAN's scores " +
		"as doubles instead of bulk strings."
	resp3Hashes = "Under RESP3 the engine's hash fixups are bypassed: HGETALL lists the fields in miniredis's " +
		"sorted order instead of insertion order, and HKEYS and HVALS answer the whole hash as a map instead " +
		"of an array."
)
