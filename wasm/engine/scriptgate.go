package engine

import (
	"math/big"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// The gate a script's redis.call passes before its command runs, in the
// order Redis 7.0's scriptCall checks it, from Redis's own command table
// (redistable.go), not miniredis's:
//
//  1. the command must be one Redis knows, and so must the subcommand of a
//     container (CLIENT NOSUCH is an unknown command, not an unknown
//     subcommand);
//  2. the call must have its arity, the subcommand's own where there is
//     one;
//  3. it must not be flagged noscript (CLIENT SETNAME, CONFIG GET, BLPOP,
//     SAVE, ...).
//
// So a command Redis refuses is refused with Redis's words whether
// miniredis has it or not, and a command Redis runs is left to the
// command itself, which may refuse it in its own words (PING a b).
const (
	errScriptUnknown  = "ERR Unknown Redis command called from script"
	errScriptArity    = "ERR Wrong number of args calling Redis command from script"
	errScriptNoscript = "ERR This Redis command is not allowed from script"
)

// scriptGate is the gate's verdict on a redis.call of args, whose name is
// c: "" when the call passes. For a command with no subcommands it looks at
// c's fields only; lookup found Redis's entry once for the name.
func scriptGate(c *command, args []string) string {
	rc := c.redis.entryFor(args)
	switch {
	case rc == nil:
		return errScriptUnknown
	case !rc.arityOK(len(args)):
		return errScriptArity
	case rc.noscript:
		return errScriptNoscript
	}
	return ""
}

// refusedCall runs a command a script may call although the playground's
// clients may not (c.refused): the blocking commands Redis lets a script
// call, because from a script they never block. The rest of the playground's
// refusals are all noscript, or unknown to Redis 7.0, so the gate answers
// them first; one that is not is refused with the playground's words.
func (r *runner) refusedCall(c *command, args []string) scriptCall {
	var msg string
	switch c.upper {
	case "BLMPOP", "BZMPOP":
		// Redis reads the timeout, then pops as LMPOP or ZMPOP would: nil
		// when every key is empty.
		if msg = timeoutError(args[1]); msg == "" {
			popArgs := append([]string{c.upper[1:]}, args[2:]...)
			return r.runCall(r.e.lookup(popArgs[0]), args, popArgs)
		}
	case "XREAD", "XREADGROUP":
		if msg = xreadScriptError(c.upper == "XREADGROUP", args); msg == "" {
			return r.runCall(c, args, args)
		}
	default:
		msg = c.refusedMsg
	}
	return scriptCall{args: args, reply: resp.ErrorReply(msg)}
}

// timeoutError is the error Redis gives for a blocking command's timeout
// in seconds, or "": it reads it as a long double and counts it in whole
// milliseconds, so a timeout of -0.0001 is not negative.
func timeoutError(s string) string {
	f, ok := parseLongDouble(s)
	if !ok {
		return "ERR timeout is not a float or out of range"
	}
	ms := new(big.Float).Mul(f, big.NewFloat(1000))
	if ms.Cmp(big.NewFloat(-1)) <= 0 {
		return "ERR timeout is negative"
	}
	return ""
}

// xreadScriptError reads XREAD's or XREADGROUP's options as Redis does, up
// to STREAMS, and returns the first error it finds on the way: BLOCK from
// a script is one, named with the command as the script spelt it. ""
// means there is none before STREAMS, and the command may run.
func xreadScriptError(group bool, args []string) string {
	for i := 1; i < len(args); i++ {
		more := len(args) - i - 1
		switch o := args[i]; {
		case ascii.EqualFold(o, "BLOCK") && more > 0:
			return "ERR " + args[0] + " command is not allowed with BLOCK option from scripts"
		case ascii.EqualFold(o, "COUNT") && more > 0:
			if _, ok := parseRedisInt(args[i+1]); !ok {
				return errNotInt
			}
			i++
		case ascii.EqualFold(o, "STREAMS") && more > 0:
			return ""
		case ascii.EqualFold(o, "GROUP") && more >= 2:
			if !group {
				return "ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead."
			}
			i += 2
		case ascii.EqualFold(o, "NOACK"):
			if !group {
				return "ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead."
			}
		default:
			return errSyntax
		}
	}
	return ""
}
