package api

import (
	"echomq.dev/playground/wasm/engine"
	"echomq.dev/playground/wasm/resp"
	"echomq.dev/playground/wasm/wire"
)

// The module's RESP side: the bytes of client connections in, the bytes a
// Redis server would write back out, for a listener outside the module
// (wasm/listen.mjs, under Node) that moves them between TCP connections
// and the module. It is how Redis's own test suite measures the module the
// site ships (internal/suite), and any RESP client can use it the same way.
//
// Its connections are clients of one engine of their own, apart from the
// page's keyspaces, whose clock follows the wall clock as a server's does
// (wire.Server); the page never calls it.

// wires is the module's RESP server and its open connections, by the
// number the listener gave each.
type wires struct {
	server *wire.Server
	conns  map[int32]*wire.Conn
}

// Wire feeds in, bytes that connection conn sent, to the module's RESP
// server, and appends what the server writes back to out. A number not
// seen before opens a connection. closed reports that the listener is to
// close the connection once out is written (QUIT, a protocol error); the
// module has forgotten it by then.
func (m *Module) Wire(out []byte, conn int32, in []byte) (_ []byte, closed bool) {
	if m.failed != nil {
		return resp.Append(out, resp.ErrorReply("ERR "+m.failed.Error())), true
	}
	w := &m.wires
	if w.server == nil {
		w.server = wire.NewServer(engine.MustNew(), true)
		w.conns = map[int32]*wire.Conn{}
	}
	c := w.conns[conn]
	if c == nil {
		c = w.server.Open()
		w.conns[conn] = c
	}
	out, closed = c.Feed(out, in)
	if closed {
		m.WireClose(conn)
	}
	return out, closed
}

// WireClose forgets connection conn, whose client hung up.
func (m *Module) WireClose(conn int32) {
	if c := m.wires.conns[conn]; c != nil {
		c.Close()
		delete(m.wires.conns, conn)
	}
}

// WireAnswer is Wire as the bridge calls it: connection conn is fed the n
// bytes JS wrote into the buffer Request handed out, and what the server
// writes back is the result JS reads in place, held like Answer's until
// the next call. A request Request refused (past MaxRequestBytes) ends
// the connection with Redis's protocol error, as a query buffer past
// Redis's own limit does.
func (m *Module) WireAnswer(conn int32, n int) (out []byte, closed bool) {
	if cap(m.out) > keep {
		m.out = nil
	}
	if m.refused || n > len(m.in) || n < 0 {
		m.refused = false
		m.WireClose(conn)
		m.out = resp.Append(m.out[:0], resp.ErrorReply("ERR Protocol error: too big request"))
		return m.out, true
	}
	m.out, closed = m.Wire(m.out[:0], conn, m.in[:n])
	return m.out, closed
}
