package engine

import (
	"strings"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/hll"
	"echomq.dev/playground/wasm/resp"
)

// The HyperLogLog commands, PFADD, PFCOUNT, PFMERGE, PFDEBUG and
// PFSELFTEST, served over Redis 7.0's own HyperLogLog (wasm/hll) in a
// plain string key of miniredis's. miniredis's own PF commands keep a
// type of their own ("hll") with another algorithm: TYPE and GET disagreed
// with Redis, and so did every count. Here the string is read and written
// with miniredis's direct calls, keeping the key's TTL, as Redis changes
// the string in place; a string that APPEND or SETRANGE damaged is found
// by the next PF command as Redis finds it.

var (
	errHLLWrongType = resp.ErrorReply("WRONGTYPE Operation against a key holding the wrong kind of value")
	errNotHLL       = resp.ErrorReply(hll.ErrNotHLL.Error())
	errHLLCorrupt   = resp.ErrorReply(hll.ErrCorrupt.Error())
)

// hllAt reads key as a HyperLogLog: found is false for a missing key, and
// bad is the error for a key that is not one.
func hllAt(db *miniredis.RedisDB, key string) (s string, found bool, bad resp.Reply) {
	s, err := db.Get(key)
	switch {
	case err == miniredis.ErrKeyNotFound:
		return "", false, resp.Reply{}
	case err != nil:
		return "", false, errHLLWrongType
	case !hll.Valid(s):
		return "", false, errNotHLL
	}
	return s, true, resp.Reply{}
}

// putHLL writes h as key's string, keeping the key's TTL.
func putHLL(db *miniredis.RedisDB, key string, h []byte) {
	ttl := db.TTL(key)
	db.Set(key, string(h))
	if ttl > 0 {
		db.SetTTL(key, ttl)
	}
}

func hllCommand(run func(e *Engine, db *miniredis.RedisDB, args []string) resp.Reply) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		if msg := arityError(strings.ToUpper(args[0]), args); msg != "" {
			return resp.ErrorReply(msg)
		}
		return run(e, e.db(e.dbOf[peer]), args)
	}
}

// pfadd: 1 when the key was made or a register rose, else 0. Elements
// added before one that a damaged string cannot place stay added, as in
// Redis.
func pfadd(_ *Engine, db *miniredis.RedisDB, args []string) resp.Reply {
	s, found, bad := hllAt(db, args[1])
	if bad.IsError() {
		return bad
	}
	h := hll.New()
	if found {
		h = []byte(s)
	}
	h, changed, err := hll.Add(h, args[2:], hll.SparseMaxBytes)
	if changed || !found {
		putHLL(db, args[1], h)
	}
	switch {
	case err != nil:
		return errHLLCorrupt
	case changed || !found:
		return resp.IntReply(1)
	}
	return resp.IntReply(0)
}

// pfcount of one key answers its cached count, or counts and writes the
// count back into the string; of several keys, the count of their union,
// cached nowhere.
func pfcount(_ *Engine, db *miniredis.RedisDB, args []string) resp.Reply {
	if len(args) > 2 {
		u := new(hll.Union)
		for _, key := range args[1:] {
			s, found, bad := hllAt(db, key)
			switch {
			case bad.IsError():
				return bad
			case found && u.Add(s) != nil:
				return errHLLCorrupt
			}
		}
		return resp.IntReply(int64(u.Count()))
	}
	s, found, bad := hllAt(db, args[1])
	if !found {
		return orZero(bad)
	}
	if n, ok := hll.Cached(s); ok {
		return resp.IntReply(int64(n))
	}
	n, err := hll.Count(s)
	if err != nil {
		return errHLLCorrupt
	}
	h := []byte(s)
	hll.SetCached(h, n)
	putHLL(db, args[1], h)
	return resp.IntReply(int64(n))
}

// orZero is bad, or 0 for a missing key.
func orZero(bad resp.Reply) resp.Reply {
	if bad.IsError() {
		return bad
	}
	return resp.IntReply(0)
}

// pfmerge stores the union of every key it names, the destination
// included, in the destination: dense when any of them is.
func pfmerge(_ *Engine, db *miniredis.RedisDB, args []string) resp.Reply {
	u := new(hll.Union)
	dense := false
	var dest string
	for i, key := range args[1:] {
		s, found, bad := hllAt(db, key)
		switch {
		case bad.IsError():
			return bad
		case !found:
			continue
		case u.Add(s) != nil:
			return errHLLCorrupt
		}
		dense = dense || hll.IsDense(s)
		if i == 0 {
			dest = s
		}
	}
	h := hll.New()
	if dest != "" {
		h = []byte(dest)
	}
	h, _ = u.Store(h, dense, hll.SparseMaxBytes) // every input was read whole
	putHLL(db, args[1], h)
	return resp.StatusReply("OK")
}

// pfdebug serves PFDEBUG's GETREG, DECODE, ENCODING and TODENSE. GETREG
// and TODENSE leave a sparse key dense, as in Redis.
func pfdebug(_ *Engine, db *miniredis.RedisDB, args []string) resp.Reply {
	s, found, bad := hllAt(db, args[2])
	if !found {
		if bad.IsError() {
			return bad
		}
		return resp.ErrorReply("ERR The specified key does not exist")
	}
	switch sub := strings.ToLower(args[1]); sub {
	case "getreg", "todense":
		if hll.IsDense(s) {
			if sub == "todense" {
				return resp.IntReply(0)
			}
		} else {
			h, err := hll.ToDense([]byte(s))
			if err != nil {
				return errHLLCorrupt
			}
			putHLL(db, args[2], h)
			if sub == "todense" {
				return resp.IntReply(1)
			}
			s = string(h)
		}
		regs := make([]resp.Reply, hll.Registers)
		for i := range regs {
			regs[i] = resp.IntReply(int64(hll.Register(s, i)))
		}
		return resp.ArrayReply(regs...)
	case "decode":
		if hll.IsDense(s) {
			return resp.ErrorReply("ERR HLL encoding is not sparse")
		}
		return resp.BulkReply(hll.Decode(s))
	case "encoding":
		if hll.IsDense(s) {
			return resp.StatusReply("dense")
		}
		return resp.StatusReply("sparse")
	}
	return resp.ErrorReply("ERR Unknown PFDEBUG subcommand '" + cut(args[1]) + "'")
}

// cut is s as C reads it: up to its first NUL byte.
func cut(s string) string {
	s, _, _ = strings.Cut(s, "\x00")
	return s
}

// pfselftest runs wasm/hll's self-test: OK, or what failed.
func pfselftest(_ *Engine, _ *miniredis.RedisDB, _ []string) resp.Reply {
	if err := hll.SelfTest(); err != nil {
		return resp.ErrorReply("ERR " + err.Error())
	}
	return resp.StatusReply("OK")
}
