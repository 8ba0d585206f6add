package redisnet

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"echomq.dev/playground/wasm/resp"
)

// maxRedirects bounds the MOVED and ASK replies one command may follow.
const maxRedirects = 5

// ClusterClient talks to a Redis Cluster the way a cluster-aware client
// does: it sends a command to the node it believes serves the command's
// key, and when the node answers MOVED (the slot lives elsewhere) it goes
// to the node the reply names, remembers it, and sends the command again.
// ASK is followed for that one command. A node is remembered per hash tag
// (the whole key when it has none), since keys with one tag share a slot.
//
// Like Client, it hands back Redis errors as replies: CROSSSLOT, say,
// reaches the caller as it is.
type ClusterClient struct {
	mu    sync.Mutex
	seeds []string
	conns map[string]*Client
	where map[string]string // hash tag -> node address
}

// DialCluster connects to the cluster's nodes at addrs.
func DialCluster(addrs []string) (*ClusterClient, error) {
	if len(addrs) == 0 {
		return nil, errors.New("redisnet: a cluster needs at least one node address")
	}
	c := &ClusterClient{seeds: addrs, conns: map[string]*Client{}, where: map[string]string{}}
	for _, a := range addrs {
		if _, err := c.node(a); err != nil {
			c.Close()
			return nil, err
		}
	}
	return c, nil
}

// node is the connection to addr, dialled on first use.
func (c *ClusterClient) node(addr string) (*Client, error) {
	if n := c.conns[addr]; n != nil {
		return n, nil
	}
	n, err := Dial(addr)
	if err != nil {
		return nil, err
	}
	c.conns[addr] = n
	return n, nil
}

// Do sends one command to the node of its key, following redirections.
func (c *ClusterClient) Do(args ...string) (resp.Reply, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	tag, hasKey := hashTagOf(args)
	addr := c.seeds[0]
	if hasKey {
		if a, ok := c.where[tag]; ok {
			addr = a
		}
	}
	asking := false
	for range maxRedirects + 1 {
		n, err := c.node(addr)
		if err != nil {
			return resp.Reply{}, err
		}
		if asking {
			if r, err := n.Do("ASKING"); err != nil || r.IsError() {
				return r, err
			}
		}
		r, err := n.Do(args...)
		if err != nil || r.Kind != resp.Error {
			return r, err
		}
		kind, target, ok := redirect(r.Str)
		if !ok {
			return r, nil
		}
		addr, asking = target, kind == "ASK"
		if kind == "MOVED" && hasKey {
			c.where[tag] = target
		}
	}
	return resp.Reply{}, fmt.Errorf("redisnet: %s redirected more than %d times", strings.ToUpper(args[0]), maxRedirects)
}

// Each sends one command to every node the client knows, in the order of
// the seed addresses: for FLUSHALL, SCRIPT FLUSH or KEYS, which a cluster
// runs node by node.
func (c *ClusterClient) Each(args ...string) ([]resp.Reply, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]resp.Reply, 0, len(c.seeds))
	for _, a := range c.seeds {
		n, err := c.node(a)
		if err != nil {
			return nil, err
		}
		r, err := n.Do(args...)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// Close closes every node's connection.
func (c *ClusterClient) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for _, n := range c.conns {
		if err := n.Close(); err != nil && !errors.Is(err, ErrClosed) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// redirect reads a MOVED or ASK error: "MOVED 11958 127.0.0.1:30002".
func redirect(msg string) (kind, addr string, ok bool) {
	f := strings.Fields(msg)
	if len(f) != 3 || (f[0] != "MOVED" && f[0] != "ASK") {
		return "", "", false
	}
	if _, err := strconv.Atoi(f[1]); err != nil {
		return "", "", false
	}
	return f[0], f[2], true
}

// hashTagOf is the hash tag of the command's first key (the whole key when
// it has no tag), and whether the command names a key at all: a script's
// first declared key, else the first argument, except for the commands
// that take none.
func hashTagOf(args []string) (string, bool) {
	if len(args) < 2 {
		return "", false
	}
	key := args[1]
	switch strings.ToUpper(args[0]) {
	case "EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO":
		if len(args) < 4 {
			return "", false
		}
		if n, err := strconv.Atoi(args[2]); err != nil || n < 1 {
			return "", false
		}
		key = args[3]
	case "TIME", "PING", "SCRIPT", "INFO", "FLUSHALL", "FLUSHDB", "KEYS", "SCAN", "DBSIZE", "CLUSTER", "HELLO", "CONFIG", "COMMAND":
		return "", false
	}
	if open := strings.IndexByte(key, '{'); open >= 0 {
		if n := strings.IndexByte(key[open+1:], '}'); n > 0 {
			return key[open+1 : open+1+n], true
		}
	}
	return key, true
}
