// Package stock is the benchmark's reference A: miniredis v2 exactly as it
// ships, with its own EVAL (a fresh Lua state per call), driven in-process.
//
// Commands reach miniredis the way the playground's engine sends them, by
// handing the arguments to the server's command table (Server.Dispatch) and
// parsing the RESP it writes, so the only difference between this and the
// engine is who runs the scripts. There is no socket and no goroutine on
// the path, which lets the same code run natively and inside js/wasm.
package stock

import (
	"bufio"
	"bytes"
	"fmt"
	"sync"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/resp"
)

// Conn is one client of a stock miniredis. It satisfies emq.Conn.
type Conn struct {
	mu   sync.Mutex
	m    *miniredis.Miniredis
	srv  *server.Server
	peer *server.Peer
	out  bytes.Buffer
}

// New starts a stock miniredis with no listener and returns a client of it.
func New() (*Conn, error) {
	m := miniredis.NewMiniRedis()
	// Dial starts the server without a listener; commands then go through
	// Dispatch, so the pipe it hands back is not needed.
	pipe, err := m.Dial()
	if err != nil {
		return nil, fmt.Errorf("stock: start miniredis: %w", err)
	}
	pipe.Close()
	c := &Conn{m: m, srv: m.Server()}
	c.peer = server.NewPeer(bufio.NewWriter(&c.out))
	return c, nil
}

// Do runs one command and returns the reply miniredis wrote.
func (c *Conn) Do(args ...string) (resp.Reply, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.out.Reset()
	c.srv.Dispatch(c.peer, args)
	c.peer.Flush()
	r, err := resp.Parse(c.out.Bytes())
	if err != nil {
		return resp.Reply{}, fmt.Errorf("stock: unreadable reply to %s: %w", args[0], err)
	}
	return r, nil
}

// Close stops the server.
func (c *Conn) Close() { c.m.Close() }
