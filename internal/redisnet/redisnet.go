// Package redisnet is a minimal RESP2 client for talking to a real Redis
// over TCP from tests and benchmarks. It sends a command as an array of bulk
// strings and hands back the reply as a resp.Reply, exactly as the server
// sent it: a Redis error is a reply, not a Go error.
package redisnet

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	"echomq.dev/playground/wasm/resp"
)

// DialTimeout bounds how long Dial waits for the TCP connection.
const DialTimeout = 5 * time.Second

// ReplyWait bounds how long a call waits for its replies. Without it a
// reply that never comes (a stream one reply out of step) hung the
// fidelity suite's live run for good, twice in three runs, with no word
// of where; past it the call fails and the client is broken.
const ReplyWait = 2 * time.Minute

const (
	readBufferSize = 64 << 10
	// A write buffer that grew past this (a large SET) is not kept around.
	keepWriteBuffer = 64 << 10
)

// ErrClosed is returned by calls on a client after Close.
var ErrClosed = errors.New("redisnet: client closed")

// Client is one connection to a Redis server. Calls are serialized by a
// mutex, so it is safe to share, but commands from several goroutines take
// turns rather than overlap.
//
// After a network or protocol error the connection's position in the reply
// stream is unknown, so the client is broken: every later call returns that
// first error. Dial a new one.
type Client struct {
	conn net.Conn

	mu     sync.Mutex // guards everything below and the use of conn
	r      *bufio.Reader
	wbuf   []byte
	broken error

	closeOnce sync.Once
	closeErr  error
}

// Dial connects to the Redis server at addr ("host:port").
func Dial(addr string) (*Client, error) {
	conn, err := net.DialTimeout("tcp", addr, DialTimeout)
	if err != nil {
		return nil, fmt.Errorf("redisnet: dial %s: %w", addr, err)
	}
	return &Client{conn: conn, r: bufio.NewReaderSize(conn, readBufferSize)}, nil
}

// Do sends one command and returns its reply. The error is non-nil only for
// failures of the connection or the protocol; an error reply from Redis is
// returned as a Reply of Kind resp.Error with a nil error.
func (c *Client) Do(args ...string) (resp.Reply, error) {
	if len(args) == 0 {
		return resp.Reply{}, errors.New("redisnet: empty command")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken != nil {
		return resp.Reply{}, c.broken
	}
	c.wbuf = resp.AppendCommand(c.wbuf[:0], args)
	if err := c.write(); err != nil {
		return resp.Reply{}, err
	}
	return c.read()
}

// Pipeline writes every command, then reads one reply per command, in order.
// Error replies are in the slice like any other reply; the error is for the
// connection. It relies on the server buffering replies while it reads the
// rest of the batch, which Redis does for ordinary clients.
func (c *Client) Pipeline(cmds [][]string) ([]resp.Reply, error) {
	replies := make([]resp.Reply, len(cmds))
	err := c.exchange(cmds, func(i int) (err error) {
		replies[i], err = resp.Read(c.r)
		return err
	})
	if err != nil {
		return nil, err
	}
	return replies, nil
}

// exchange writes cmds, then calls read once per command, in order, with
// c.mu held; a failed read breaks the client.
func (c *Client) exchange(cmds [][]string, read func(i int) error) error {
	for i, args := range cmds {
		if len(args) == 0 {
			return fmt.Errorf("redisnet: empty command at index %d", i)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.broken != nil {
		return c.broken
	}
	c.wbuf = c.wbuf[:0]
	for _, args := range cmds {
		c.wbuf = resp.AppendCommand(c.wbuf, args)
	}
	if err := c.write(); err != nil {
		return err
	}
	for i := range cmds {
		if err := read(i); err != nil {
			return fmt.Errorf("reply %d of %d: %w", i+1, len(cmds), c.fail(fmt.Errorf("redisnet: read: %w", err)))
		}
	}
	return nil
}

// DoWire is Do that returns the reply exactly as it came over the wire, its
// RESP type bytes and all: RESP3's null, a null array and a push stay what
// they are, where a resp.Reply folds them together. The comparisons with
// real Redis (internal/redisdiff) judge these bytes.
func (c *Client) DoWire(args ...string) ([]byte, error) {
	rs, err := c.PipelineWire([][]string{args})
	if err != nil {
		return nil, err
	}
	return rs[0], nil
}

// PipelineWire is Pipeline with each reply's exact bytes, as DoWire.
func (c *Client) PipelineWire(cmds [][]string) ([][]byte, error) {
	out := make([][]byte, len(cmds))
	err := c.exchange(cmds, func(i int) (err error) {
		out[i], err = readWire(c.r, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// readWire appends one reply's bytes to buf: it follows the lengths of
// bulks and aggregates, and leaves the reading of what they hold to the
// caller.
func readWire(r *bufio.Reader, buf []byte) ([]byte, error) {
	line, err := resp.ReadLine(r)
	if err != nil {
		return nil, err
	}
	if len(line) < 1 {
		return nil, fmt.Errorf("%w: empty line", resp.ErrProtocol)
	}
	buf = append(append(buf, line...), '\r', '\n')
	body := string(line[1:])
	switch line[0] {
	case '$', '=', '!':
		n, err := strconv.Atoi(body)
		if err != nil || n < -1 || n > resp.MaxBulkLen {
			return nil, fmt.Errorf("%w: bad length %q", resp.ErrProtocol, body)
		}
		if n == -1 {
			return buf, nil
		}
		start := len(buf)
		if buf, err = resp.AppendBlock(buf, r, n); err != nil {
			return nil, err
		}
		if buf[start+n] != '\r' || buf[start+n+1] != '\n' {
			return nil, fmt.Errorf("%w: string not terminated", resp.ErrProtocol)
		}
		return buf, nil
	case '*', '%', '~', '>', '|':
		n, err := strconv.Atoi(body)
		if err != nil || n < -1 || n > resp.MaxAggregateLen/2 {
			return nil, fmt.Errorf("%w: bad length %q", resp.ErrProtocol, body)
		}
		if line[0] == '%' || line[0] == '|' {
			n *= 2
		}
		for range max(n, 0) {
			if buf, err = readWire(r, buf); err != nil {
				return nil, err
			}
		}
		if line[0] == '|' { // an attribute comes before the reply it describes
			return readWire(r, buf)
		}
	}
	return buf, nil
}

// Close closes the connection. A call in progress on another goroutine is
// interrupted and fails with a network error; later calls return ErrClosed.
// Calling Close again is harmless.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.closeErr = c.conn.Close()
		c.mu.Lock()
		if c.broken == nil {
			c.broken = ErrClosed
		}
		c.mu.Unlock()
	})
	return c.closeErr
}

// write sends c.wbuf, and gives the call ReplyWait to be answered; c.mu is
// held.
func (c *Client) write() error {
	if err := c.conn.SetDeadline(time.Now().Add(ReplyWait)); err != nil {
		return c.fail(fmt.Errorf("redisnet: deadline: %w", err))
	}
	_, err := c.conn.Write(c.wbuf)
	if cap(c.wbuf) > keepWriteBuffer {
		c.wbuf = nil
	}
	if err != nil {
		return c.fail(fmt.Errorf("redisnet: write: %w", err))
	}
	return nil
}

// read reads one reply; c.mu is held.
func (c *Client) read() (resp.Reply, error) {
	rep, err := resp.Read(c.r)
	if err != nil {
		return resp.Reply{}, c.fail(fmt.Errorf("redisnet: read: %w", err))
	}
	return rep, nil
}

// fail marks the client broken with err and returns it; c.mu is held.
func (c *Client) fail(err error) error {
	if c.broken == nil {
		c.broken = err
	}
	return c.broken
}
