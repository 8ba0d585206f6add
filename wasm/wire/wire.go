// Package wire serves the engine over the Redis wire protocol, as bytes:
// what a client sends goes in, what Redis 7.0 would write back comes out.
// A Conn is one client connection (an engine.Client of its own), reading
// multibulk and inline requests, pipelined or arriving in pieces, and
// writing each reply in the connection's protocol: RESP2, or RESP3 after
// HELLO 3.
//
// It has no sockets. The native listener (internal/listen) moves bytes
// between a TCP connection and a Conn, and so does the WebAssembly module
// (api.Module.Wire, behind wasm/listen.mjs's Node listener), so the one
// state machine here is what Redis's own test suite measures in both
// (internal/suite).
package wire

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"echomq.dev/playground/wasm/engine"
	"echomq.dev/playground/wasm/resp"
)

// Server is one engine served to many connections.
//
// Its clock follows the host's wall clock when wall is set: before each
// command the engine's clock is moved to the current time (never back), as
// a real server's clock moves on whether anyone looks or not. A client of
// a real Redis (its test suite) waits for a key to expire by sleeping; the
// playground's page, which moves the clock itself, does not use a Server.
type Server struct {
	e    *engine.Engine
	wall bool
	mu   sync.Mutex // orders the clock moves of concurrent connections
	last int64      // the last time the clock was moved to
}

// NewServer serves e. With wall set, the engine's clock is set to the
// host's time now and follows it from then on.
func NewServer(e *engine.Engine, wall bool) *Server {
	s := &Server{e: e, wall: wall}
	if wall {
		s.last = time.Now().UnixMilli()
		e.SetNow(s.last)
	}
	return s
}

// Engine is the engine s serves.
func (s *Server) Engine() *engine.Engine { return s.e }

// tick moves the engine's clock to the wall clock, when it has moved on.
func (s *Server) tick() {
	if !s.wall {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if now := time.Now().UnixMilli(); now > s.last {
		s.last = now
		s.e.SetNow(now)
	}
}

// Conn is one client connection's protocol state.
type Conn struct {
	s      *Server
	client *engine.Client
	in     reader
	closed bool
	// CLIENT REPLY's state: off drops every reply; skipNext drops the
	// next command's, and skip the one running.
	off, skip, skipNext bool
}

// Open opens a connection to the engine: a client of its own, with its
// own protocol, database and transaction.
func (s *Server) Open() *Conn {
	return &Conn{s: s, client: s.e.NewClient(), in: reader{bulk: -1}}
}

// Feed takes bytes the client sent, runs every whole request among the
// bytes sent so far, in order, and appends their replies to out. A request
// cut short waits for the next Feed. close reports that the connection is
// to be closed once out is written: after QUIT, or after a protocol
// error, whose reply is the last thing out holds (Redis answers it and
// hangs up, reading nothing more). Once close has been reported the Conn
// takes no more bytes.
func (c *Conn) Feed(out, in []byte) (_ []byte, close bool) {
	if c.closed || c.client.Killed() {
		return out, true // CLIENT KILL: Redis closes it, answering nothing
	}
	c.in.feed(in)
	defer c.in.compact()
	for {
		args, ok, perr := c.in.next()
		if perr != "" {
			c.closed = true
			return c.reply(out, resp.ErrorReply(perr)), true
		}
		if !ok {
			return out, false
		}
		c.skip, c.skipNext = c.skipNext, false
		switch {
		case strings.EqualFold(args[0], "QUIT"):
			// Redis 7.0 answers QUIT before it looks up any command: OK,
			// in a transaction or not, with any arguments.
			c.closed = true
			return c.reply(out, resp.OK()), true
		case len(args) >= 2 && strings.EqualFold(args[0], "CLIENT") && strings.EqualFold(args[1], "REPLY") && !c.client.InMulti():
			out = c.clientReply(out, args)
		default:
			out = c.reply(out, c.do(args))
		}
		if c.client.Killed() { // by its own CLIENT KILL: after the reply
			c.closed = true
			return out, true
		}
	}
}

// reply appends r unless CLIENT REPLY turned the connection's replies off,
// or this one is skipped.
func (c *Conn) reply(out []byte, r resp.Reply) []byte {
	if c.off || c.skip {
		return out
	}
	return appendReply(out, r, c.client.Protocol() == 3)
}

// clientReply serves CLIENT REPLY ON|OFF|SKIP here, where replies are
// written, since what it changes is which of them reach the client: OFF
// drops every reply from itself on, SKIP its own and the next command's,
// and ON brings them back with its own OK.
func (c *Conn) clientReply(out []byte, args []string) []byte {
	if len(args) != 3 {
		return c.reply(out, resp.ErrorReply("ERR wrong number of arguments for 'client|reply' command"))
	}
	switch strings.ToUpper(args[2]) {
	case "ON":
		c.off, c.skip = false, false
		return c.reply(out, resp.OK())
	case "OFF":
		c.off = true
		return out
	case "SKIP":
		if !c.off {
			c.skipNext = true
		}
		c.skip = true // SKIP itself has no reply
		return out
	}
	return c.reply(out, resp.ErrorReply(resp.SyntaxError))
}

// do runs one command. A panic in the engine is the command's error reply,
// worded like the one the engine gives for a panic inside miniredis, and
// the connection carries on: a listener that died with it would take
// every other client's connection down too.
func (c *Conn) do(args []string) (r resp.Reply) {
	defer func() {
		if v := recover(); v != nil {
			r = resp.Errorf("ERR the playground's engine failed on %s: %v", strings.ToUpper(args[0]), v)
		}
	}()
	c.s.tick()
	r, _ = c.client.Do(args...)
	return r
}

// Close forgets the connection, as Redis forgets a client that hung up:
// its transaction is discarded and its watched keys unwatched.
func (c *Conn) Close() {
	c.closed = true
	c.client.Close()
}

// appendReply writes r as a client on RESP2 or RESP3 reads it. The two
// differ only in the null: RESP3 has one of its own, "_", where RESP2
// writes a null bulk or a null array.
func appendReply(out []byte, r resp.Reply, resp3 bool) []byte {
	if !resp3 || !hasNil(r) {
		return resp.Append(out, r)
	}
	switch r.Kind {
	case resp.Nil:
		return append(out, "_\r\n"...)
	case resp.Array, resp.Set, resp.Map:
		mark, n := byte('*'), len(r.Elems)
		switch r.Kind {
		case resp.Set:
			mark = '~'
		case resp.Map:
			mark, n = '%', n/2
		}
		out = append(strconv.AppendInt(append(out, mark), int64(n), 10), '\r', '\n')
		for _, e := range r.Elems {
			out = appendReply(out, e, true)
		}
		return out
	}
	return resp.Append(out, r)
}

// hasNil reports whether r is or holds a null.
func hasNil(r resp.Reply) bool {
	if r.Kind == resp.Nil {
		return true
	}
	for _, e := range r.Elems {
		if hasNil(e) {
			return true
		}
	}
	return false
}
