package fidelity

// known lists the cases where the engine does not answer as Redis 7.0
// does, and why. A known case still runs and must still differ: once the
// engine is fixed, the test fails until the entry is removed. A difference
// that is not listed here fails the test.
//
// Each known case holds the commands of one difference and nothing else,
// so that an entry here cannot hide a new difference elsewhere.
var known = map[string]string{
	"errors/missing-argument": "gopher-lua reports a missing argument as nil; Lua 5.1 tells a missing argument " +
		"from a nil one ('got no value').",
	"errors/method-argument-number": "gopher-lua does not tell a method call (s:rep(...)) from a plain one, so it " +
		"counts self as argument #1, where Lua 5.1 does not (wasm/lualib knows this one too).",
	"errors/c-caller-position": "Lua 5.1 puts user_script:N: in front of a message only when the function that " +
		"raised it was called from a line of the script; when pcall or table.sort called it, there is no line and " +
		"no position. The engine always adds the script's line. (pcall(string.rep) also shows Lua 5.1's '?' for " +
		"a function without a name, and 'got no value'.)",
	"numbers/negated-nan": "gopher-lua folds -(0/0) at compile time; the engine cannot tell that NaN constant " +
		"from a folded 0/0, which x86 prints as -nan, so it prints -nan where Redis prints nan.",
	"numbers/zero-constants": "Lua 5.1 keeps one constant per number in a function, and 0 equals -0.0, so once " +
		"-0.0 is written the 0 of 1/0 is -0.0 and 1/0 is -inf; gopher-lua keeps the two constants apart.",
	"commands/cluster-keyslot": "On purpose. A plain Redis refuses CLUSTER KEYSLOT (cluster support is disabled); " +
		"the playground answers it as a node of a Redis Cluster does, with the key's hash slot (CRC16 of its {tag}, " +
		"mod 16384), so a learner can see every key of a queue land in one slot. wasm/emq's cluster test holds " +
		"these slots to a real three-master cluster.",
}

// knownRESP3 is known for differences seen only under RESP3.
// It is empty: the fixups now shape their replies for RESP3 too.
var knownRESP3 = map[string]string{}
