package engine

import (
	"strconv"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
	"echomq.dev/playground/wasm/stream"
)

// Streams are Redis 7.0's (wasm/stream), not miniredis's: miniredis trims
// "~" exactly, ignores COUNT and min-idle-time, drops deleted entries from
// the PEL, and keeps none of XINFO's counters, and none of that can be
// put right from outside it.
//
// miniredis still holds the key, so that TYPE, EXISTS, DEL, EXPIRE, TTL,
// RENAME, MOVE, COPY, SWAPDB, SCAN TYPE and the flushes work on a stream as
// on any key. What it holds there is a stream of one entry whose value is
// a token; the token names the engine's stream.Stream. A token found at
// another key than the one it was made for was moved there (RENAME, MOVE,
// SWAPDB) when its old key no longer holds it, or copied (COPY) when it
// still does: a copy gets a stream and a token of its own on first sight.

// streamTokenField names the one field of miniredis's placeholder entry.
const streamTokenField = "echomq-stream"

// streamHome is one stream and the key it was last seen at.
type streamHome struct {
	s   *stream.Stream
	db  int
	key string
}

type streamStore struct {
	byToken map[string]*streamHome
	next    uint64
	made    int // since the last sweep
	// cfg is stream-node-max-entries and stream-node-max-bytes, Redis
	// 7.0's defaults until StreamNodeConfig changes them (CONFIG SET, when
	// the engine serves it, and Redis's suite sets both).
	cfg stream.Config
}

func (e *Engine) streamStore() *streamStore {
	if e.streams == nil {
		e.streams = &streamStore{byToken: map[string]*streamHome{}, cfg: stream.Defaults}
	}
	return e.streams
}

// StreamNodeConfig sets stream-node-max-entries and stream-node-max-bytes
// for the streams' next writes, as CONFIG SET does in Redis (a negative
// value leaves that setting as it is). The engine lock must be held.
func (e *Engine) StreamNodeConfig(maxEntries, maxBytes int64) {
	st := e.streamStore()
	if maxEntries >= 0 {
		st.cfg.NodeMaxEntries = maxEntries
	}
	if maxBytes >= 0 {
		st.cfg.NodeMaxBytes = maxBytes
	}
}

// streamToken is the token miniredis holds at key; ok is false for a
// missing key, wrong for a key of another type.
func streamToken(d *miniredis.RedisDB, key string) (token string, ok, wrong bool) {
	entries, err := d.Stream(key)
	if err != nil {
		return "", false, true
	}
	if len(entries) == 0 || len(entries[0].Values) != 2 {
		return "", false, false
	}
	return entries[0].Values[1], true, false
}

// streamAt is the stream at key in db: nil for a missing key, wrong for a
// key of another type.
func (e *Engine) streamAt(db int, key string) (s *stream.Stream, wrong bool) {
	d := e.db(db)
	token, ok, wrong := streamToken(d, key)
	if !ok {
		return nil, wrong
	}
	st := e.streamStore()
	home := st.byToken[token]
	switch {
	case home == nil:
		// A stream the engine never made (none should be): an empty one.
		return e.newStreamAt(db, key, stream.New()), false
	case home.db == db && home.key == key:
		return home.s, false
	}
	if old, ok, _ := streamToken(e.db(home.db), home.key); ok && old == token {
		return e.newStreamAt(db, key, home.s.Clone()), false // copied
	}
	home.db, home.key = db, key // moved
	return home.s, false
}

// newStreamAt puts s at key under a fresh token, keeping the key's TTL.
func (e *Engine) newStreamAt(db int, key string, s *stream.Stream) *stream.Stream {
	st := e.streamStore()
	st.next++
	token := strconv.FormatUint(st.next, 10)
	d := e.db(db)
	ttl := d.TTL(key)
	d.Del(key)
	if _, err := d.XAdd(key, "0-1", []string{streamTokenField, token}); err != nil {
		panic("engine: a stream's placeholder: " + err.Error())
	}
	if ttl > 0 {
		d.SetTTL(key, ttl)
	}
	st.byToken[token] = &streamHome{s: s, db: db, key: key}
	if st.made++; st.made >= 1024 && 2*st.made >= len(st.byToken) { // amortized: as many made as live
		e.sweepStreams()
	}
	return s
}

// sweepStreams forgets the streams no key holds any more (deleted,
// expired, flushed, overwritten).
func (e *Engine) sweepStreams() {
	st := e.streamStore()
	st.made = 0
	for token, home := range st.byToken {
		if t, ok, _ := streamToken(e.db(home.db), home.key); !ok || t != token {
			delete(st.byToken, token)
		}
	}
}

// streamCopied gives a key that COPY wrote its own stream, at once: the
// source may change before the copy is next read.
func (e *Engine) streamCopied(db int, key string) {
	if e.db(db).Type(key) == "stream" {
		e.streamAt(db, key)
	}
}

// streamKeyspace is one command's view of the keyspace.
type streamKeyspace struct {
	e  *Engine
	db int
}

func (k streamKeyspace) Lookup(key string) (*stream.Stream, bool) { return k.e.streamAt(k.db, key) }
func (k streamKeyspace) Create(key string) *stream.Stream {
	return k.e.newStreamAt(k.db, key, stream.New())
}
func (k streamKeyspace) Now() int64            { return k.e.now }
func (k streamKeyspace) Config() stream.Config { return k.e.streamStore().cfg }

// streamCommand serves the X commands from wasm/stream.
func streamCommand(e *Engine, peer *server.Peer, args []string) resp.Reply {
	name := ascii.Upper(args[0])
	if msg := arityError(name, args); msg != "" {
		return resp.ErrorReply(msg)
	}
	a := append([]string{name}, args[1:]...)
	return stream.Run(streamKeyspace{e, e.dbOf[peer]}, a)
}

// streamFingerprint is a stream's state for WATCH: its token and version.
func (e *Engine) streamFingerprint(db int, key string) string {
	s, _ := e.streamAt(db, key)
	if s == nil {
		return ""
	}
	token, _, _ := streamToken(e.db(db), key)
	return token + ":" + strconv.FormatUint(s.Version, 10)
}
