package engine

import (
	"errors"
	"strconv"
	"strings"
	"unsafe"

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
	errHLLWrongType = errors.New(errWrongType.Str)
	errHLLNoKey     = errors.New("ERR The specified key does not exist")
)

// hllFixup serves the five commands, each checked for its arity first.
// (The commands answer Go errors, which become error replies here: a
// reply is a large value to copy about in WebAssembly.)
func hllFixup(e *Engine, peer *server.Peer, args []string) resp.Reply {
	name := strings.ToUpper(args[0])
	if msg := arityError(name, args); msg != "" {
		return resp.ErrorReply(msg)
	}
	db := e.db(e.dbOf[peer])
	var n int64
	var err error
	switch name {
	case "PFADD":
		n, err = pfadd(db, args[1], args[2:], e.hllSparseMax)
	case "PFCOUNT":
		n, err = pfcount(db, args[1:])
	case "PFMERGE":
		err = pfmerge(db, args[1:], e.hllSparseMax)
		n = -1
	case "PFDEBUG":
		return pfdebug(db, args[1], args[2])
	default:
		if err = hll.SelfTest(); err != nil {
			err = errors.New("ERR " + err.Error())
		}
		n = -1
	}
	switch {
	case err != nil:
		return resp.ErrorReply(err.Error())
	case n < 0 && name == "PFCOUNT":
		return resp.IntReply(n) // a count past 1<<63 (registers made by hand)
	case n < 0:
		return resp.StatusReply("OK")
	}
	return resp.IntReply(n)
}

// hllAt reads key as a HyperLogLog: "" for a missing key.
func hllAt(db *miniredis.RedisDB, key string) (string, error) {
	s, err := db.Get(key)
	switch {
	case err == miniredis.ErrKeyNotFound:
		return "", nil
	case err != nil:
		return "", errHLLWrongType
	case !hll.Valid(s):
		return "", hll.ErrNotHLL
	}
	return s, nil
}

// putHLL writes h as key's string, keeping the key's TTL. The string is
// h's own bytes, not a copy: h is made for the write and never used after.
func putHLL(db *miniredis.RedisDB, key string, h []byte) {
	ttl := db.TTL(key)
	db.Set(key, unsafe.String(unsafe.SliceData(h), len(h)))
	if ttl > 0 {
		db.SetTTL(key, ttl)
	}
}

// pfadd: 1 when the key was made or a register rose, else 0. Elements
// added before one that a damaged string cannot place stay added, as in
// Redis.
func pfadd(db *miniredis.RedisDB, key string, elems []string, sparseMax int) (int64, error) {
	s, err := hllAt(db, key)
	if err != nil {
		return 0, err
	}
	h := hll.New()
	if s != "" {
		h = []byte(s)
	}
	h, changed, err := hll.Add(h, elems, sparseMax)
	if !changed && s != "" {
		return 0, err
	}
	putHLL(db, key, h)
	return 1, err
}

// pfcount of one key answers its cached count, or counts and writes the
// count back into the string; of several keys, the count of their union,
// cached nowhere.
func pfcount(db *miniredis.RedisDB, keys []string) (int64, error) {
	if len(keys) > 1 {
		u, _, _, err := unionOf(db, keys)
		if err != nil {
			return 0, err
		}
		return int64(u.Count()), nil
	}
	s, err := hllAt(db, keys[0])
	if err != nil || s == "" {
		return 0, err
	}
	n, fresh := hll.Cached(s)
	if !fresh {
		if n, err = hll.Count(s); err != nil {
			return 0, err
		}
		h := []byte(s)
		hll.SetCached(h, n)
		putHLL(db, keys[0], h)
	}
	return int64(n), nil
}

// pfmerge stores the union of every key it names, the destination
// included, in the destination: dense when any of them is.
func pfmerge(db *miniredis.RedisDB, keys []string, sparseMax int) error {
	u, dense, dest, err := unionOf(db, keys)
	if err != nil {
		return err
	}
	h := hll.New()
	if dest != "" {
		h = []byte(dest)
	}
	putHLL(db, keys[0], u.Store(h, dense, sparseMax))
	return nil
}

// unionOf merges the HyperLogLogs at keys, a missing key as an empty one;
// dense says whether any was dense, and first is the first key's string.
// The error is the first key's, in order.
func unionOf(db *miniredis.RedisDB, keys []string) (u *hll.Union, dense bool, first string, err error) {
	u = new(hll.Union)
	for i, key := range keys {
		s, err := hllAt(db, key)
		if err == nil && s != "" {
			err = u.Add(s)
		}
		if err != nil {
			return nil, false, "", err
		}
		if s != "" {
			dense = dense || hll.IsDense(s)
		}
		if i == 0 {
			first = s
		}
	}
	return u, dense, first, nil
}

// pfdebug serves PFDEBUG's GETREG, DECODE, ENCODING and TODENSE. GETREG
// and TODENSE leave a sparse key dense, as in Redis.
func pfdebug(db *miniredis.RedisDB, sub, key string) resp.Reply {
	s, err := hllAt(db, key)
	if err == nil && s == "" {
		err = errHLLNoKey
	}
	if err != nil {
		return resp.ErrorReply(err.Error())
	}
	dense := hll.IsDense(s)
	switch strings.ToLower(sub) {
	case "getreg", "todense":
		if !dense {
			h, err := hll.ToDense([]byte(s))
			if err != nil {
				return resp.ErrorReply(err.Error())
			}
			putHLL(db, key, h)
			s, _ = db.Get(key)
		}
		if strings.EqualFold(sub, "todense") {
			if dense {
				return resp.IntReply(0)
			}
			return resp.IntReply(1)
		}
		// Written as RESP and read back: 16,384 replies built in Go take
		// the module more code.
		b := []byte("*16384\r\n")
		for i := range hll.Registers {
			b = append(strconv.AppendInt(append(b, ':'), int64(hll.Register(s, i)), 10), '\r', '\n')
		}
		regs, _ := resp.Parse(b)
		return regs
	case "decode":
		if dense {
			return resp.ErrorReply("ERR HLL encoding is not sparse")
		}
		return resp.BulkReply(hll.Decode(s))
	case "encoding":
		if dense {
			return resp.StatusReply("dense")
		}
		return resp.StatusReply("sparse")
	}
	sub, _, _ = strings.Cut(sub, "\x00") // C reads up to a NUL
	return resp.ErrorReply("ERR Unknown PFDEBUG subcommand '" + sub + "'")
}
