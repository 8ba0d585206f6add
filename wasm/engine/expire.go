package engine

import (
	"math"
	"strconv"
	"time"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// Expiry as Redis 7.0 reads it, for every command that takes a time to
// live: EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT (with NX, XX, GT, LT), SET
// EX/PX/EXAT/PXAT, GETEX, SETEX and PSETEX. Redis turns each time into
// absolute milliseconds and refuses one that would overflow on the way
// ("ERR invalid expire time in 'expire' command"); miniredis wrapped
// around, or took 2^63-1 seconds as a negative TTL and deleted the key.
// A time that is already past deletes the key, as Redis does. TTL and
// EXPIRETIME round to the nearest second, as Redis does ((ms+500)/1000),
// where miniredis truncated.
//
// miniredis keeps a TTL as a time.Duration, which ends 292 years on: a
// TTL past that is kept as that, the one place the engine's TTL reads
// differ from Redis's.

// maxTTLms is the longest TTL miniredis can keep, in milliseconds.
const maxTTLms = math.MaxInt64 / int64(time.Millisecond)

// expireSpec is how one command reads its time.
type expireSpec struct {
	seconds  bool // the time is in seconds
	absolute bool // a Unix time, not one from now
}

func expireCommands(t commandTable) {
	for name, spec := range map[string]expireSpec{
		"EXPIRE": {true, false}, "PEXPIRE": {false, false},
		"EXPIREAT": {true, true}, "PEXPIREAT": {false, true},
	} {
		t.serve(name, own, "Redis 7.0's limits, NX/XX/GT/LT, a past time deletes", "expire.go", expireCommand(ascii.Lower(name), spec))
	}
	for _, name := range []string{"TTL", "EXPIRETIME"} {
		t.serve(name, corrected, "rounded to the nearest second", "expire.go", roundedTTL)
	}
	t.serve("GETEX", own, "Redis 7.0's limits, a past time deletes", "expire.go", getexCommand)
	t.wrap("SET", "EX/PX/EXAT/PXAT held to Redis 7.0's limits", "expire.go", setExpiry)
	t.wrap("SETEX", "the TTL held to Redis 7.0's limits", "expire.go", setexExpiry("setex", true))
	t.wrap("PSETEX", "the TTL held to Redis 7.0's limits", "expire.go", setexExpiry("psetex", false))
}

// expireWhen turns n, read as spec says, into absolute Unix milliseconds,
// or reports that Redis refuses it as an invalid expire time.
func expireWhen(n int64, spec expireSpec, now int64) (int64, bool) {
	if spec.seconds {
		if n > math.MaxInt64/1000 || n < math.MinInt64/1000 {
			return 0, false
		}
		n *= 1000
	}
	if !spec.absolute {
		if n > math.MaxInt64-now {
			return 0, false
		}
		n += now
	}
	return n, true
}

func invalidExpire(cmd string) resp.Reply {
	return resp.ErrorReply("ERR invalid expire time in '" + cmd + "' command")
}

// setTTL gives key (which exists) the absolute expiry when: it deletes
// the key when that is past.
func (e *Engine) setTTL(peer *server.Peer, key string, when int64) {
	if when <= e.now {
		e.raw(peer, []string{"DEL", key})
		return
	}
	e.raw(peer, []string{"PEXPIRE", key, strconv.FormatInt(min(when-e.now, maxTTLms), 10)})
}

// expireCommand serves EXPIRE, PEXPIRE, EXPIREAT and PEXPIREAT key time
// [NX|XX|GT|LT ...]: the options first, then the time, then the key.
func expireCommand(cmd string, spec expireSpec) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		if len(args) < 3 {
			return resp.ErrorReply("ERR wrong number of arguments for '" + cmd + "' command")
		}
		var nx, xx, gt, lt bool
		for _, o := range args[3:] {
			switch ascii.Upper(o) {
			case "NX":
				nx = true
			case "XX":
				xx = true
			case "GT":
				gt = true
			case "LT":
				lt = true
			default:
				return resp.ErrorReply("ERR Unsupported option " + o)
			}
		}
		if nx && (xx || gt || lt) {
			return resp.ErrorReply("ERR NX and XX, GT or LT options at the same time are not compatible")
		}
		if gt && lt {
			return resp.ErrorReply("ERR GT and LT options at the same time are not compatible")
		}
		n, ok := parseRedisInt(args[2])
		if !ok {
			return resp.ErrorReply("ERR value is not an integer or out of range")
		}
		when, ok := expireWhen(n, spec, e.now)
		if !ok {
			return invalidExpire(cmd)
		}
		db := e.db(e.dbOf[peer])
		key := args[1]
		if !db.Exists(key) {
			return resp.IntReply(0)
		}
		ttl := db.TTL(key)
		cur := e.now + ttl.Milliseconds() // meaningful when ttl > 0
		switch {
		case nx && ttl > 0, xx && ttl <= 0,
			gt && (ttl <= 0 || when <= cur),
			lt && ttl > 0 && when >= cur:
			return resp.IntReply(0)
		}
		e.setTTL(peer, key, when)
		return resp.IntReply(1)
	}
}

// roundedTTL serves TTL and EXPIRETIME from their milliseconds forms,
// rounded to the nearest second.
func roundedTTL(e *Engine, peer *server.Peer, args []string) resp.Reply {
	if len(args) != 2 {
		return e.raw(peer, args)
	}
	ms := "PTTL"
	if ascii.EqualFold(args[0], "EXPIRETIME") {
		ms = "PEXPIRETIME"
	}
	r := e.raw(peer, []string{ms, args[1]})
	if r.Kind == resp.Int && r.Int >= 0 {
		r.Int = (r.Int + 500) / 1000
	}
	return r
}

// expiryOption finds a SET's or GETEX's one expiry option among its
// options (from args[from] on): the index of EX, PX, EXAT or PXAT and how
// it reads its time. ok is false when the options are anything else than
// one such and the flags that go with it (other, named, words), which the
// command itself then judges.
func expiryOption(args []string, from int, other ...string) (at int, spec expireSpec, ok bool) {
	at = -1
	for i := from; i < len(args); i++ {
		o := ascii.Upper(args[i])
		switch o {
		case "EX", "PX", "EXAT", "PXAT":
			if at >= 0 || i+1 >= len(args) {
				return -1, spec, false
			}
			at = i
			spec = expireSpec{seconds: o == "EX" || o == "EXAT", absolute: o == "EXAT" || o == "PXAT"}
			i++
			continue
		}
		known := false
		for _, w := range other {
			known = known || o == w
		}
		if !known || o == "NX" && hasWord(args[from:], "XX") {
			return -1, spec, false // a syntax error, the command's to give
		}
	}
	return at, spec, at >= 0
}

// expiryValue reads a SET-style time (which must be above 0) as absolute
// milliseconds; ok is false for a time that is not an integer, left to the
// command, and valid false for one Redis refuses.
func (e *Engine) expiryValue(s string, spec expireSpec) (when int64, ok, valid bool) {
	n, ok := parseRedisInt(s)
	if !ok {
		return 0, false, false
	}
	if n <= 0 {
		return 0, true, false
	}
	when, valid = expireWhen(n, spec, e.now)
	return when, true, valid
}

// setExpiry holds SET's expiry to Redis's limits, and makes a past
// EXAT/PXAT set the value and then delete it, as Redis does.
func setExpiry(next fixup) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		at, spec, ok := expiryOption(args, 3, "NX", "XX", "GET")
		if !ok || len(args) < 3 {
			return runFixup(next, e, peer, args)
		}
		when, ok, valid := e.expiryValue(args[at+1], spec)
		switch {
		case !ok:
			return runFixup(next, e, peer, args)
		case !valid:
			return invalidExpire("set")
		}
		sent := append([]string(nil), args...)
		if when > e.now {
			sent[at], sent[at+1] = "PX", strconv.FormatInt(min(when-e.now, maxTTLms), 10)
			return runFixup(next, e, peer, sent)
		}
		// A past time: set as if without it, then delete what was set.
		sent = append(sent[:at], sent[at+2:]...)
		existed := e.db(e.dbOf[peer]).Exists(args[1])
		r := runFixup(next, e, peer, sent)
		if r.IsError() {
			return r
		}
		nx, xx := false, false
		for _, o := range sent[3:] {
			nx = nx || ascii.EqualFold(o, "NX")
			xx = xx || ascii.EqualFold(o, "XX")
		}
		if !(nx && existed) && !(xx && !existed) {
			e.raw(peer, []string{"DEL", args[1]})
		}
		return r
	}
}

// getexCommand serves GETEX key [EX|PX|EXAT|PXAT time|PERSIST]: with a
// time, it reads the value and then sets the TTL itself, under Redis's
// limits; a past time deletes the key after reading it.
func getexCommand(e *Engine, peer *server.Peer, args []string) resp.Reply {
	at, spec, ok := expiryOption(args, 2)
	if !ok || len(args) < 2 {
		return e.raw(peer, args)
	}
	when, ok, valid := e.expiryValue(args[at+1], spec)
	switch {
	case !ok:
		return e.raw(peer, args)
	case !valid:
		return invalidExpire("getex")
	}
	r := e.raw(peer, []string{"GET", args[1]})
	if r.Kind == resp.Bulk {
		e.setTTL(peer, args[1], when)
	}
	return r
}

// setexExpiry holds SETEX's and PSETEX's TTL to Redis's limits.
func setexExpiry(cmd string, seconds bool) func(next fixup) fixup {
	return func(next fixup) fixup {
		return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
			if len(args) != 4 {
				return runFixup(next, e, peer, args)
			}
			when, ok, valid := e.expiryValue(args[2], expireSpec{seconds: seconds})
			switch {
			case !ok:
				return runFixup(next, e, peer, args)
			case !valid:
				return invalidExpire(cmd)
			}
			return e.raw(peer, []string{"PSETEX", args[1], strconv.FormatInt(min(when-e.now, maxTTLms), 10), args[3]})
		}
	}
}
