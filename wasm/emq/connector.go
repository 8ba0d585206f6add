package emq

import (
	"strconv"

	"echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/resp"
)

// Conn is one connection to a Redis server: it sends one command and
// returns its reply. A Redis error reply is a Reply, not an error; the error
// is for a connection that failed. Do only reads args: the handles send
// the same slice for a command they repeat (the pause check).
type Conn interface {
	Do(args ...string) (resp.Reply, error)
}

// Exchange is one command the connector sent and what came back, kept so
// the page can show the EVALSHA-first dance: NOSCRIPT, then EVAL.
type Exchange struct {
	Command string     // "EVALSHA" or "EVAL"
	SHA     string     // the script's SHA1, for either command
	Reply   resp.Reply // the server's answer
}

// Connector runs protocol scripts the way a production client does: by SHA
// first, so the script text crosses the wire only when the server has not
// seen it yet (after a restart or a SCRIPT FLUSH).
type Connector struct {
	conn Conn
}

// NewConnector wraps conn.
func NewConnector(conn Conn) *Connector { return &Connector{conn: conn} }

// Conn is the connection under the connector, for commands that are not
// scripts (the pause flag, snapshots).
func (c *Connector) Conn() Conn { return c.conn }

// Eval runs s with keys and argv: EVALSHA, and on NOSCRIPT, EVAL, which
// also caches the script so the next EVALSHA hits. It returns the script's
// reply and every exchange it took to get it.
func (c *Connector) Eval(s *lua.Script, keys, argv []string) (resp.Reply, []Exchange, error) {
	args := make([]string, 0, 3+len(keys)+len(argv))
	args = append(args, "EVALSHA", s.SHA, strconv.Itoa(len(keys)))
	args = append(append(args, keys...), argv...)
	r, err := c.conn.Do(args...)
	if err != nil {
		return resp.Reply{}, nil, err
	}
	wire := []Exchange{{Command: "EVALSHA", SHA: s.SHA, Reply: r}}
	if r.Code() != "NOSCRIPT" {
		return r, wire, nil
	}
	args[0], args[1] = "EVAL", s.Source
	r, err = c.conn.Do(args...)
	if err != nil {
		return resp.Reply{}, wire, err
	}
	return r, append(wire, Exchange{Command: "EVAL", SHA: s.SHA, Reply: r}), nil
}
