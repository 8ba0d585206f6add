package engine

import (
	"strconv"
	"strings"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// The server and connection commands Redis 7.0 has and miniredis lacks or
// answers its own way: CONFIG (config.go), INFO (info.go), CLIENT, RESET
// and COMMAND COUNT|LIST. A connection's CLIENT state (its id, its name,
// NO-EVICT, the command it last sent) is the engine's, kept by peer.

// serverCommands puts these commands in the table (see buildCommands).
func serverCommands(t commandTable) {
	t.serve("CONFIG", own, "Redis 7.0's parameters, checked, stored and read back", "config.go", configCommand)
	t["CONFIG"].absent = true
	t.shape("CONFIG", "GET as a map", func(args []string, r resp.Reply) resp.Reply {
		if len(args) > 1 && ascii.EqualFold(args[1], "GET") {
			return asMap(args, r)
		}
		return r
	})
	// Every CLIENT subcommand a script could call is flagged noscript.
	t.session("CLIENT", "ID, names, LIST and INFO from the engine's connections", "clientcmds.go", func(e *Engine, peer *server.Peer, args []string) (resp.Reply, bool) {
		return clientCommand(e, peer, args), true
	})
	t.session("RESET", "the connection back to its first state", "clientcmds.go", func(e *Engine, peer *server.Peer, _ []string) (resp.Reply, bool) {
		return e.resetConnection(peer), true
	})
	// Persistence, replication and the slow log: the playground keeps
	// nothing on disk, is its own master and logs nothing slow.
	status := func(text string) fixup {
		return func(*Engine, *server.Peer, []string) resp.Reply { return resp.StatusReply(text) }
	}
	for name, text := range map[string]string{"SAVE": "OK", "BGSAVE": "Background saving started", "BGREWRITEAOF": "Background append only file rewriting started"} {
		t.serve(name, own, "nothing to write", "clientcmds.go", status(text))
		t[name].absent = true
	}
	t.serve("ROLE", own, "a master with no replicas", "clientcmds.go", func(*Engine, *server.Peer, []string) resp.Reply {
		return resp.ArrayReply(resp.BulkReply("master"), resp.IntReply(0), resp.ArrayReply())
	})
	t.serve("SLOWLOG", own, "an empty slow log", "clientcmds.go", func(_ *Engine, _ *server.Peer, args []string) resp.Reply {
		switch ascii.Upper(args[1]) {
		case "LEN":
			return resp.IntReply(0)
		case "GET":
			return resp.ArrayReply()
		}
		return resp.OK()
	})
	for _, name := range []string{"ROLE", "SLOWLOG"} {
		t[name].absent = true
	}
	for _, name := range []string{"READONLY", "READWRITE", "ASKING"} {
		t.serve(name, own, "cluster support disabled", "clientcmds.go", func(*Engine, *server.Peer, []string) resp.Reply {
			return resp.ErrorReply("ERR This instance has cluster support disabled")
		})
		t[name].absent = true
	}
	dbRangeCommands(t)
	expireCommands(t)
}

// connState is one connection's CLIENT state.
type connState struct {
	id      int64
	name    string
	noEvict bool
	lastCmd string // as CLIENT LIST's cmd= names it: "get", "client|list"
	killed  bool   // CLIENT KILL ended it: its connection is to be closed
}

// Killed reports whether a CLIENT KILL ended the connection: whoever
// holds its socket closes it (wasm/wire), after writing the reply to the
// command that killed it, if that was its own.
func (c *Client) Killed() bool {
	c.e.mu.Lock()
	defer c.e.mu.Unlock()
	s := c.e.conns[c.peer]
	return s != nil && s.killed
}

// conn is peer's state, made on first use. Ids follow the order the
// connections were opened in: every open connection without one gets its
// id then, so the engine's first connection is 1, the next 2...
func (e *Engine) conn(peer *server.Peer) *connState {
	if s := e.conns[peer]; s != nil {
		return s
	}
	if e.conns == nil {
		e.conns = map[*server.Peer]*connState{}
	}
	for _, c := range e.clients {
		if e.conns[c.peer] == nil {
			e.nextID++
			e.conns[c.peer] = &connState{id: e.nextID, lastCmd: "NULL"}
		}
	}
	if e.conns[peer] == nil { // a script's or the engine's inner peer
		e.nextID++
		e.conns[peer] = &connState{id: e.nextID, lastCmd: "NULL"}
	}
	return e.conns[peer]
}

// clientCommand serves CLIENT's subcommands (arity is checked before).
func clientCommand(e *Engine, peer *server.Peer, args []string) resp.Reply {
	s := e.conn(peer)
	switch ascii.Upper(args[1]) {
	case "ID":
		return resp.IntReply(s.id)
	case "GETNAME":
		if s.name == "" {
			return resp.NilReply()
		}
		return resp.BulkReply(s.name)
	case "SETNAME":
		if !validClientName(args[2]) {
			return resp.ErrorReply(errClientName)
		}
		s.name = args[2]
		return resp.OK()
	case "INFO":
		return forProtocol(resp.Reply{Kind: resp.Verbatim, Format: "txt", Str: e.clientLine(peer, s, "client|info", args) + "\n"}, peer.Resp3)
	case "LIST":
		return e.clientList(peer, args)
	case "NO-EVICT":
		switch {
		case ascii.EqualFold(args[2], "ON"):
			s.noEvict = true
		case ascii.EqualFold(args[2], "OFF"):
			s.noEvict = false
		default:
			return resp.ErrorReply("ERR syntax error")
		}
		return resp.OK()
	case "KILL":
		return e.clientKill(peer, args[2:])
	case "GETREDIR":
		return resp.IntReply(-1)
	case "TRACKINGINFO":
		return forProtocol(resp.Reply{Kind: resp.Map, Elems: []resp.Reply{
			resp.BulkReply("flags"), {Kind: resp.Set, Elems: []resp.Reply{resp.BulkReply("off")}},
			resp.BulkReply("redirect"), resp.IntReply(-1),
			resp.BulkReply("prefixes"), resp.ArrayReply(),
		}}, peer.Resp3)
	case "TRACKING", "CACHING":
		return resp.ErrorReply("ERR client-side caching is not available in the playground: there is no other client to invalidate")
	case "UNPAUSE", "PAUSE":
		return resp.OK()
	case "UNBLOCK":
		if _, ok := parseRedisInt(args[2]); !ok {
			return resp.ErrorReply("ERR value is not an integer or out of range")
		}
		return resp.IntReply(0) // no connection is ever blocked here
	case "REPLY":
		return resp.OK() // served by wasm/wire, where replies are written
	case "HELP":
		return helpReply(clientHelp...)
	}
	return resp.ErrorReply("ERR unknown subcommand '" + args[1] + "'. Try CLIENT HELP.")
}

// clientKill serves CLIENT KILL addr and CLIENT KILL [ID id] [TYPE type]
// [USER user] [ADDR addr] [LADDR addr] [SKIPME yes|no]: it marks the
// connections that match (all but the caller's, unless SKIPME no) killed.
func (e *Engine) clientKill(peer *server.Peer, opts []string) resp.Reply {
	e.conn(peer)
	line := func(c *Client) map[string]string {
		f := map[string]string{}
		for _, kv := range strings.Fields(e.clientLine(c.peer, e.conns[c.peer], "", nil)) {
			k, v, _ := strings.Cut(kv, "=")
			f[k] = v
		}
		return f
	}
	want := map[string]string{}
	skipMe, oldForm := true, len(opts) == 1
	if oldForm {
		want["addr"], skipMe = opts[0], false
	} else {
		if len(opts)%2 != 0 {
			return resp.ErrorReply("ERR syntax error")
		}
		for i := 0; i < len(opts); i += 2 {
			v := opts[i+1]
			switch ascii.Upper(opts[i]) {
			case "ID":
				if n, ok := parseRedisInt(v); !ok || n <= 0 {
					return resp.ErrorReply("ERR client-id should be greater than 0")
				}
				want["id"] = v
			case "TYPE":
				switch ascii.Lower(v) {
				case "normal":
				case "master", "replica", "slave", "pubsub":
					want["id"] = "none" // no connection is of these types
				default:
					return resp.ErrorReply("ERR Unknown client type '" + v + "'")
				}
			case "USER":
				if v != "default" {
					return resp.ErrorReply("ERR No such user '" + v + "'")
				}
			case "ADDR":
				want["addr"] = v
			case "LADDR":
				want["laddr"] = v
			case "SKIPME":
				switch {
				case ascii.EqualFold(v, "yes"):
					skipMe = true
				case ascii.EqualFold(v, "no"):
					skipMe = false
				default:
					return resp.ErrorReply("ERR syntax error")
				}
			default:
				return resp.ErrorReply("ERR syntax error")
			}
		}
	}
	n := 0
	for _, c := range e.clients {
		s := e.conns[c.peer]
		if s == nil || s.killed || skipMe && c.peer == peer {
			continue
		}
		f, match := line(c), true
		for k, v := range want {
			match = match && f[k] == v
		}
		if match {
			s.killed = true
			n++
		}
	}
	if oldForm {
		if n == 0 {
			return resp.ErrorReply("ERR No such client")
		}
		return resp.OK()
	}
	return resp.IntReply(int64(n))
}

// clientList serves CLIENT LIST [TYPE type] [ID id ...].
func (e *Engine) clientList(peer *server.Peer, args []string) resp.Reply {
	opts := args[2:]
	var ids map[int64]bool
	switch {
	case len(opts) == 0:
	case len(opts) == 2 && ascii.EqualFold(opts[0], "TYPE"):
		switch ascii.Lower(opts[1]) {
		case "normal":
		case "master", "replica", "slave", "pubsub":
			return forProtocol(resp.Reply{Kind: resp.Verbatim, Format: "txt"}, peer.Resp3)
		default:
			return resp.ErrorReply("ERR Unknown client type '" + opts[1] + "'")
		}
	case len(opts) >= 2 && ascii.EqualFold(opts[0], "ID"):
		ids = map[int64]bool{}
		for _, a := range opts[1:] {
			n, ok := parseRedisInt(a)
			if !ok || n <= 0 {
				return resp.ErrorReply("ERR Invalid client ID")
			}
			ids[n] = true
		}
	default:
		return resp.ErrorReply("ERR syntax error")
	}
	e.conn(peer)
	var b strings.Builder
	for _, c := range e.clients {
		s := e.conns[c.peer]
		if s == nil || s.killed || ids != nil && !ids[s.id] {
			continue
		}
		cmd, sent := s.lastCmd, []string(nil)
		if c.peer == peer {
			cmd, sent = "client|list", args
		}
		b.WriteString(e.clientLine(c.peer, s, cmd, sent) + "\n")
	}
	return forProtocol(resp.Reply{Kind: resp.Verbatim, Format: "txt", Str: b.String()}, peer.Resp3)
}

// clientLine is one connection's line of CLIENT LIST, with Redis 7.0's
// fields in its order. The playground has no sockets: the addresses and
// the file descriptor are made up from the id, and the buffers are those
// of an idle Redis connection. sent is the command the line answers, for
// the caller's line.
func (e *Engine) clientLine(peer *server.Peer, s *connState, cmd string, sent []string) string {
	id := strconv.FormatInt(s.id, 10)
	// qbuf: the command being served is still in the caller's buffer, as
	// RESP, when Redis writes the line.
	qbuf := 0
	if len(sent) > 0 {
		qbuf = len(strconv.Itoa(len(sent))) + 3
		for _, a := range sent {
			qbuf += len(strconv.Itoa(len(a))) + len(a) + 5
		}
	}
	flags, multi := "", "-1"
	if t := e.tx[peer]; t != nil && t.multi {
		flags, multi = "x", strconv.Itoa(len(t.queue))
	}
	if s.noEvict {
		flags += "e"
	}
	if flags == "" {
		flags = "N"
	}
	protocol := "2"
	if peer.Resp3 {
		protocol = "3"
	}
	return "id=" + id + " addr=127.0.0.1:" + strconv.FormatInt(40000+s.id, 10) + " laddr=127.0.0.1:" + e.configValue("port") +
		" fd=" + strconv.FormatInt(7+s.id, 10) + " name=" + s.name + " age=0 idle=0 flags=" + flags +
		" db=" + strconv.Itoa(e.dbOf[peer]) + " sub=0 psub=0 ssub=0 multi=" + multi +
		" qbuf=" + strconv.Itoa(qbuf) + " qbuf-free=0 argv-mem=0 multi-mem=0 rbs=1024 rbp=0 obl=0 oll=0 omem=0 tot-mem=1024 events=r cmd=" + cmd +
		" user=default redir=-1 resp=" + protocol
}

// resetConnection serves RESET as Redis 7.0 does: the connection leaves
// its transaction and its watched keys, goes back to RESP2 and database
// 0, and loses its name and NO-EVICT.
func (e *Engine) resetConnection(peer *server.Peer) resp.Reply {
	if t := e.tx[peer]; t != nil {
		e.discard(t)
		delete(e.tx, peer)
	}
	peer.Resp3 = false
	e.useDB(peer, 0)
	if s := e.conns[peer]; s != nil {
		s.name, s.noEvict = "", false
	}
	return resp.StatusReply("RESET")
}

// helloConn serves HELLO for the connection: hello's reply with the
// connection's own id, and SETNAME's name checked and taken.
func (e *Engine) helloConn(peer *server.Peer, args []string) resp.Reply {
	was := peer.Resp3
	r := hello(peer, args)
	if r.IsError() {
		return r
	}
	s := e.conn(peer)
	for i := 2; i+1 < len(args); i++ {
		if ascii.EqualFold(args[i], "SETNAME") {
			if !validClientName(args[i+1]) {
				peer.Resp3 = was
				return resp.ErrorReply(errClientName)
			}
			s.name = args[i+1]
			break
		}
	}
	for i := 0; i+1 < len(r.Elems); i += 2 {
		if r.Elems[i].Str == "id" {
			r.Elems[i+1] = resp.IntReply(s.id)
		}
	}
	return r
}

const errClientName = "ERR Client names cannot contain spaces, newlines or special characters."

// validClientName: Redis takes a name of the printable ASCII characters
// but space, or none.
func validClientName(name string) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < '!' || c > '~' {
			return false
		}
	}
	return true
}

// noteCommand remembers the command a connection sent last, for CLIENT
// LIST's cmd=.
func (e *Engine) noteCommand(peer *server.Peer, name string) {
	if s := e.conns[peer]; s != nil && name != "" {
		s.lastCmd = name
	}
}

var clientHelp = []string{
	"CLIENT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
	"CACHING (YES|NO)",
	"    Enable/disable tracking of the keys for next command in OPTIN/OPTOUT modes.",
	"GETREDIR",
	"    Return the client ID we are redirecting to when tracking is enabled.",
	"GETNAME",
	"    Return the name of the current connection.",
	"ID",
	"    Return the ID of the current connection.",
	"INFO",
	"    Return information about the current client connection.",
	"KILL <ip:port>",
	"    Kill connection made from <ip:port>.",
	"KILL <option> <value> [<option> <value> [...]]",
	"    Kill connections. Options are:",
	"    * ADDR (<ip:port>|<unixsocket>:0)",
	"      Kill connections made from the specified address",
	"    * LADDR (<ip:port>|<unixsocket>:0)",
	"      Kill connections made to specified local address",
	"    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
	"      Kill connections by type.",
	"    * USER <username>",
	"      Kill connections authenticated by <username>.",
	"    * SKIPME (YES|NO)",
	"      Skip killing current connection (default: yes).",
	"LIST [options ...]",
	"    Return information about client connections. Options:",
	"    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
	"      Return clients of specified type.",
	"UNPAUSE",
	"    Stop the current client pause, resuming traffic.",
	"PAUSE <timeout> [WRITE|ALL]",
	"    Suspend all, or just write, clients for <timeout> milliseconds.",
	"REPLY (ON|OFF|SKIP)",
	"    Control the replies sent to the current connection.",
	"SETNAME <name>",
	"    Assign the name <name> to the current connection.",
	"UNBLOCK <clientid> [TIMEOUT|ERROR]",
	"    Unblock the specified blocked client.",
	"TRACKING (ON|OFF) [REDIRECT <id>] [BCAST] [PREFIX <prefix> [...]]",
	"         [OPTIN] [OPTOUT] [NOLOOP]",
	"    Control server assisted client side caching.",
	"TRACKINGINFO",
	"    Report tracking status for the current connection.",
	"NO-EVICT (ON|OFF)",
	"    Protect current client connection from eviction.",
	"HELP",
	"    Prints this help.",
}
