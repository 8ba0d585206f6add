package redisdiff

import (
	"strings"

	"echomq.dev/playground/wasm/resp"
)

// EngineConn is one connection to the engine (an *engine.Client), RESP2 or
// RESP3, answering as the real server's connections do: with the reply as
// it would travel. (The package does not import the engine, so that the
// engine's own packages can test with it.)
type EngineConn struct {
	C     Doer
	RESP3 bool
}

// Node sends one command. After HELLO the connection speaks the protocol
// HELLO named.
func (c *EngineConn) Node(args ...string) Node {
	r, _ := c.C.Do(args...)
	n := FromReply(r, c.RESP3)
	if strings.EqualFold(args[0], "HELLO") && n.IsAggregate() {
		for i := 0; i+1 < len(n.Elems); i += 2 {
			if n.Elems[i].S == "proto" {
				c.RESP3 = n.Elems[i+1].S == "3"
			}
		}
	}
	return n
}

// Nodes sends each command in turn.
func (c *EngineConn) Nodes(cmds [][]string) ([]Node, error) {
	out := make([]Node, len(cmds))
	for i, args := range cmds {
		out[i] = c.Node(args...)
	}
	return out, nil
}

// Doer is a connection that answers with a resp.Reply: the engine, a
// handle's emq.Conn, a cluster client.
type Doer interface {
	Do(args ...string) (resp.Reply, error)
}

// Replies reads a dump through a Doer, over RESP2.
type Replies struct{ C Doer }

// Nodes sends each command in turn.
func (r Replies) Nodes(cmds [][]string) ([]Node, error) {
	out := make([]Node, len(cmds))
	for i, args := range cmds {
		rep, err := r.C.Do(args...)
		if err != nil {
			return nil, err
		}
		out[i] = FromReply(rep, false)
	}
	return out, nil
}
