package engine

import (
	"math"
	"math/big"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// The blocking commands' front: BLPOP, BRPOP, BRPOPLPUSH, BLMOVE, BLMPOP,
// BZPOPMIN, BZPOPMAX, BZMPOP, WAIT, and XREAD and XREADGROUP with BLOCK.
//
// Redis answers a blocking command at once when it can: an element is
// there to pop, a stream has entries past the ID, enough replicas have
// acknowledged (WAIT 0 0). The engine does the same, with the command's
// non-blocking form (LPOP, LMOVE, ZPOPMIN, XREAD without BLOCK) on the
// usual dispatch path, so fixups, WATCH and the sorted-set index see the
// pop as any other write.
//
// Only the wait itself is out of reach: nothing else can write while the
// engine waits, since every connection is served under one lock. So
//   - inside MULTI (and scripts, which Redis refuses or runs without
//     blocking: see scriptgate.go) Redis never blocks, and neither does the
//     engine: the command answers what Redis answers then;
//   - with a timeout, the engine answers what Redis answers when the
//     timeout passes with nothing written, and says so (Client.LastUnwaited)
//     so the console can note that the wait was not waited;
//   - with timeout 0, which waits for ever, it keeps the refusal that says
//     why (refusedFromClient).

// blockState is the engine's part in the front.
type blockState struct {
	// execDepth is above 0 while EXEC runs a transaction's commands, where
	// Redis never blocks.
	execDepth int
	// unwaited is the timeout, in milliseconds, of the last blocking
	// command that timed out without waiting (see takeUnwaited).
	unwaited int64
}

// takeUnwaited is the timeout the last command did not wait for, or 0.
func (e *Engine) takeUnwaited() int64 {
	ms := e.block.unwaited
	e.block.unwaited = 0
	return ms
}

// blockingFront serves one blocking command a connection sent. ok is false
// for a command it does not serve (pub/sub, and the other refusals).
func (e *Engine) blockingFront(peer *server.Peer, c *command, args []string) (resp.Reply, bool) {
	f := blockingFronts[c.upper]
	if f == nil {
		return resp.Reply{}, false
	}
	r, ms, blocks := f(e, peer, c, args)
	if !blocks {
		return r, true
	}
	switch {
	case e.block.execDepth > 0:
		// Redis answers at once inside MULTI: BRPOPLPUSH and BLMOVE a null
		// string, the others a null array (WAIT, its count: see waitFront).
		if c.upper == "BRPOPLPUSH" || c.upper == "BLMOVE" {
			return resp.NilReply(), true
		}
		return resp.NilArrayReply(), true
	case ms == 0:
		return resp.ErrorReply(c.refusedMsg), true
	}
	e.block.unwaited = ms
	return r, true
}

// A front reads a blocking command's arguments as Redis does and runs its
// non-blocking form. blocks is true when Redis would wait now: nothing to
// pop or read. Then ms is the timeout (0: for ever) and r what Redis
// answers when the timeout passes (a null array; WAIT, its count).
type front func(e *Engine, peer *server.Peer, c *command, args []string) (r resp.Reply, ms int64, blocks bool)

var blockingFronts = map[string]front{
	"BLPOP":      popFront("LPOP"),
	"BRPOP":      popFront("RPOP"),
	"BZPOPMIN":   popFront("ZPOPMIN"),
	"BZPOPMAX":   popFront("ZPOPMAX"),
	"BRPOPLPUSH": moveFront,
	"BLMOVE":     moveFront,
	"BLMPOP":     mpopFront,
	"BZMPOP":     mpopFront,
	"WAIT":       waitFront,
	"XREAD":      xreadFront,
	"XREADGROUP": xreadFront,
}

// refuse, answered and timedOut are a front's three outcomes.
func refuse(msg string) (resp.Reply, int64, bool) { return resp.ErrorReply(msg), 0, false }

func answered(r resp.Reply) (resp.Reply, int64, bool) { return r, 0, false }

func timedOut(ms int64) (resp.Reply, int64, bool) { return resp.NilArrayReply(), ms, true }

// popFront is BLPOP, BRPOP, BZPOPMIN and BZPOPMAX key [key ...] timeout:
// the timeout first, then each key in turn, a key of another type refused
// on the way, and the first that has an element popped, with its name in
// front.
func popFront(pop string) front {
	return func(e *Engine, peer *server.Peer, c *command, args []string) (resp.Reply, int64, bool) {
		ms, msg := blockTimeout(args[len(args)-1])
		if msg != "" {
			return refuse(msg)
		}
		pc := e.lookup(pop)
		for _, key := range args[1 : len(args)-1] {
			r := e.dispatch(peer, pc, []string{pop, key})
			switch {
			case r.IsError():
				return answered(r)
			case r.Kind == resp.Bulk:
				return answered(resp.ArrayReply(resp.BulkReply(key), r))
			case r.Kind == resp.Array && len(r.Elems) == 2:
				return answered(resp.ArrayReply(resp.BulkReply(key), r.Elems[0], r.Elems[1]))
			}
		}
		return timedOut(ms)
	}
}

// moveFront is BRPOPLPUSH source destination timeout and BLMOVE source
// destination LEFT|RIGHT LEFT|RIGHT timeout: BLMOVE's ends are read before
// its timeout, and the move is LMOVE's.
func moveFront(e *Engine, peer *server.Peer, c *command, args []string) (resp.Reply, int64, bool) {
	move := []string{"LMOVE", args[1], args[2], "RIGHT", "LEFT"}
	if c.upper == "BLMOVE" {
		for _, end := range args[3:5] {
			if !ascii.EqualFold(end, "LEFT") && !ascii.EqualFold(end, "RIGHT") {
				return refuse(errSyntax)
			}
		}
		move[3], move[4] = args[3], args[4]
	}
	ms, msg := blockTimeout(args[len(args)-1])
	if msg != "" {
		return refuse(msg)
	}
	if r := e.dispatch(peer, e.lookup("LMOVE"), move); r.Kind != resp.Nil {
		return answered(r)
	}
	return timedOut(ms)
}

// mpopFront is BLMPOP and BZMPOP timeout numkeys key [key ...] ...: the
// timeout, then LMPOP's or ZMPOP's reading of the rest and its pop.
func mpopFront(e *Engine, peer *server.Peer, c *command, args []string) (resp.Reply, int64, bool) {
	ms, msg := blockTimeout(args[1])
	if msg != "" {
		return refuse(msg)
	}
	pop := append([]string{c.upper[1:]}, args[2:]...)
	if r := e.dispatch(peer, e.lookup(pop[0]), pop); r.Kind != resp.Nil {
		return answered(r)
	}
	return timedOut(ms)
}

// waitFront is WAIT numreplicas timeout. The playground's server has no
// replicas, so the count is 0, and Redis answers it at once when that is
// enough (numreplicas 0 or less, or inside MULTI), or after the timeout,
// in milliseconds here.
func waitFront(e *Engine, peer *server.Peer, c *command, args []string) (resp.Reply, int64, bool) {
	n, ok := parseRedisInt(args[1])
	if !ok {
		return refuse(errNotInt)
	}
	ms, ok := parseRedisInt(args[2])
	switch {
	case !ok:
		return refuse("ERR timeout is not an integer or out of range")
	case ms < 0:
		return refuse("ERR timeout is negative")
	case n <= 0 || e.block.execDepth > 0:
		return answered(resp.IntReply(0))
	}
	return resp.IntReply(0), ms, true
}

// xreadFront is XREAD and XREADGROUP: without BLOCK, the command as it is;
// with it, the command without its BLOCK options, which Redis would answer
// at once unless it reads nothing (a null). BLOCK's milliseconds are read
// where Redis reads them, in order among the options before STREAMS; an
// error in another option is the command's own, found when it runs, but
// for the two a command without BLOCK could not show as Redis does: a bad
// COUNT, and a STREAMS list that is not in pairs.
func xreadFront(e *Engine, peer *server.Peer, c *command, args []string) (resp.Reply, int64, bool) {
	rest := make([]string, 0, len(args))
	rest = append(rest, args[0])
	ms, blocking := int64(0), false
	for i := 1; i < len(args); i++ {
		if ascii.EqualFold(args[i], "STREAMS") {
			if n := len(args) - i - 1; n == 0 || n%2 == 1 {
				return refuse(errUnbalanced)
			}
			rest = append(rest, args[i:]...)
			break
		}
		if ascii.EqualFold(args[i], "COUNT") && i+1 < len(args) {
			if _, ok := parseRedisInt(args[i+1]); !ok {
				return refuse(errNotInt)
			}
		}
		if ascii.EqualFold(args[i], "BLOCK") && i+1 < len(args) {
			v, ok := parseRedisInt(args[i+1])
			switch {
			case !ok:
				return refuse("ERR timeout is not an integer or out of range")
			case v < 0:
				return refuse("ERR timeout is negative")
			}
			ms, blocking = v, true
			i++
			continue
		}
		rest = append(rest, args[i])
	}
	r := e.dispatch(peer, c, rest)
	if !blocking || r.Kind != resp.Nil {
		return answered(r)
	}
	return timedOut(ms)
}

// errUnbalanced is Redis's word for a STREAMS list that is not keys and
// IDs in pairs, XREADGROUP's too.
const errUnbalanced = "ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified."

// blockTimeout reads a blocking pop's timeout in seconds as Redis 7.0
// does: a long double, times 1000, rounded up to whole milliseconds and
// cast to a long long, where a product past its range (1e16 seconds, inf)
// comes out negative. ms is 0 for a timeout that waits for ever.
func blockTimeout(s string) (ms int64, msg string) {
	f, ok := parseLongDouble(s)
	if !ok {
		return 0, "ERR timeout is not a float or out of range"
	}
	prod := new(big.Float).SetPrec(longDoubleBits).Mul(f, big.NewFloat(1000))
	if prod.IsInf() || prod.Cmp(big.NewFloat(math.MaxInt64)) >= 0 || prod.Cmp(big.NewFloat(-1)) <= 0 {
		return 0, "ERR timeout is negative"
	}
	v, acc := prod.Int64()
	if acc == big.Below && prod.Sign() > 0 {
		v++ // rounded up: 0.0001 s waits one millisecond, not for ever
	}
	return v, ""
}

// nullArrayFixup gives LMPOP's and ZMPOP's "nothing to pop" as Redis
// writes it, a null array, where miniredis writes a null string.
func nullArrayFixup(e *Engine, peer *server.Peer, args []string) resp.Reply {
	r := e.raw(peer, args)
	if r.Kind == resp.Nil {
		return resp.NilArrayReply()
	}
	return r
}
