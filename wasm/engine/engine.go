// Package engine is the in-memory Redis the playground runs on: miniredis
// with no network listener, a server clock the page controls, and our own
// Lua script runner in place of miniredis's EVAL.
//
// A caller outside the package sends a command one way: Client.Do, on a
// connection of its own (NewClient) or on the engine's first one (an
// Engine is that Client too, so e.Do is the same method). Inside, a
// connection's command goes through do (transactions, EVAL, HELLO, the
// commands clients may not use), and every command that runs, a script's
// redis.call included, reaches miniredis through one path: dispatch, which
// applies the command's fixups (the commands whose miniredis answer differs
// from Redis 7.0's, see commandtable.go) and hands the arguments to
// miniredis's command table over an in-memory peer, then parses the RESP it
// writes. There are no sockets
// and no goroutines on that path, so it runs the same on the host and inside
// a browser tab. (A few fixups also read miniredis's state directly to check
// a command before it runs; they never write that way.)
package engine

import (
	"bufio"
	"bytes"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/hll"
	"echomq.dev/playground/wasm/rdb"
	"echomq.dev/playground/wasm/resp"
)

// seamMiniredis is the miniredis release the engine's seams into it were
// written against: the state it reads directly (a sorted set's live map, a
// kept *RedisDB, Peer.Ctx) and the direct API its fast paths write through.
// README's "Seams" lists each with its test (seams_test.go), and a test
// fails when go.mod names another release.
const seamMiniredis = "v2.40.0"

// Start is where the server clock stands when an engine is made or reset:
// 2026-01-01T00:00:00Z, in Unix milliseconds. A fixed start makes every
// trace, deadline and permalink repeatable; the page moves the clock on
// purpose (SetNow, Advance) and never by itself.
const Start int64 = 1767225600000

// Engine is one in-memory Redis server. It is safe for concurrent use:
// every command and every script runs under one lock, so a script is atomic
// to every other caller, as in Redis.
type Engine struct {
	// Client is the engine's own first connection: e.Do sends a command
	// on it, and an Engine serves wherever a connection is wanted (the
	// handles' Conn). It is the same Do as every other connection's.
	*Client

	// undefined gathers, while a command runs, what its reply depends on
	// that Redis leaves open (see undefined.go and Client.LastUndefined).
	undefined Undefined

	mu      sync.Mutex
	m       *miniredis.Miniredis
	srv     *server.Server
	clients []*Client    // every connection, so Reset can reset them
	script  *server.Peer // the fake client scripts call through, as in Redis
	watch   *server.Peer // reads the keyspace for traces and views
	out     bytes.Buffer // where both peers write their RESP
	now     int64        // server clock, Unix ms
	// time is TIME's reply at the clock's reading at (see timeCommand).
	time struct {
		at    int64
		reply resp.Reply
	}
	runner *runner

	// hashOrder is each hash's field order, which miniredis does not keep
	// (see fixups_hash.go).
	hashOrder hashOrders
	orderBuf  fieldOrder // scratch for the next small order (see trackHashOrder)
	// hashBefore is what trackHashOrder read of the key the hash write now
	// running names (see existed).
	hashBefore existence
	lastOrder  *fieldOrder // the small order stored last (see internOrder)

	// dbOf is each connection's selected database when it is not 0,
	// learned from SELECT: miniredis keeps it out of reach, and the fixups'
	// direct reads (db), the hash orders and the scripts' connection
	// need it.
	dbOf map[*server.Peer]int

	// cmds caches what each command name needs looked up (see commands.go),
	// and recent the names looked up lately, by their bytes (see lookup).
	cmds   map[string]*command
	recent [64]recentName
	// dbs caches miniredis's databases for the engine's direct reads and
	// writes (see db).
	dbs [databases]*miniredis.RedisDB

	// zsets is the ordered index of the sorted sets, by key name (see
	// zsets.go).
	zsets map[string]*zkeys
	// streams holds every stream's value (wasm/stream), found from the
	// token miniredis keeps at its key (see streamcmds.go).
	streams *streamStore
	// zgen moves on with every command that may change a sorted set
	// behind the index, and every move of the clock (see zentryOf).
	zgen uint64
	// tx is the transaction state of each connection that has one (see
	// multi.go); inWatched is set while watchedWrite runs its command, and
	// probe reads the watched keys.
	tx        map[*server.Peer]*transaction
	inWatched bool
	probe     *server.Peer
	// hllSparseMax is hll-sparse-max-bytes, past which a sparse
	// HyperLogLog turns dense (see hllcmds.go): Redis's default until a
	// CONFIG SET of it is served.
	hllSparseMax int
	// maxmemory is CONFIG SET maxmemory's limit in bytes, 0 for none (see
	// maxmemory.go).
	maxmemory int64
	// janitor drops what is kept beside keys that are gone (janitor.go).
	janitor janitor

	// block is the blocking commands' state (see blocking.go).
	block blockState
	// config is what CONFIG SET stored, by parameter (see config.go);
	// stats what INFO counts (see info.go), and conns each connection's
	// CLIENT state (see clientcmds.go).
	config map[string]string
	stats  serverStats
	conns  map[*server.Peer]*connState
	nextID int64
	// limits are the small encodings' limits CONFIG SET changed; nil
	// while they are Redis's defaults.
	limits *rdb.Limits

	// off is the shortcuts this engine does without, and lastResort how
	// long a script may run whatever its work (see Options).
	off        Shortcut
	lastResort time.Duration
	work       uint64 // the work a script may do: Options.WorkBudget, or WorkBudget
}

// New returns an engine with an empty keyspace, an empty script cache and
// the clock at Start. It refuses, with Ready's reason, when the Lua 5.1 hook
// cannot be installed, rather than run scripts without the limits and the
// behaviour it promises: the caller that has a page says why there (see
// api.Start), instead of the module crashing.
func New() (*Engine, error) { return NewWith(Options{}) }

// MustNew is New for tests, benchmarks and build tools, where an engine
// that cannot start has nobody to explain it to and the run must stop: it
// panics with New's error. The hook either installs in every engine of a
// process or in none, so a test run fails at its first engine.
func MustNew() *Engine {
	e, err := New()
	if err != nil {
		panic(err)
	}
	return e
}

// Client is one connection to the engine. Like a Redis connection it has
// its own protocol (RESP2, or RESP3 after HELLO 3) and selected database,
// so a learner's console switching to RESP3 does not change the replies
// the handles read on theirs.
type Client struct {
	e    *Engine
	peer *server.Peer
	// lastStop is why the engine stopped the last script this connection's
	// last command ran, if it did (see LastStop).
	lastStop Stop
	// lastUndefined is what the last command's reply depends on that
	// Redis leaves open (see LastUndefined).
	lastUndefined Undefined
	// lastUnwaited is the timeout its last command did not wait for.
	lastUnwaited int64
}

// NewClient opens another connection to the engine.
func (e *Engine) NewClient() *Client {
	c := &Client{e: e, peer: server.NewPeer(bufio.NewWriter(&e.out))}
	e.mu.Lock()
	e.clients = append(e.clients, c)
	e.conn(c.peer) // its CLIENT ID, in the order connections open
	e.mu.Unlock()
	return c
}

// Do runs one command on this connection, as a client would send it, and
// returns the reply; a Redis error is a reply of kind resp.Error. It is the
// one way in from outside the package. The error is always nil: it is
// there so that a Client is a connection like any other (see the Conn
// interface of the handles).
func (c *Client) Do(args ...string) (resp.Reply, error) {
	c.e.mu.Lock()
	defer c.e.mu.Unlock()
	c.e.undefined = 0
	r := c.e.do(c.peer, args)
	c.e.countCommand(c.peer, args, r)
	c.lastStop = c.e.runner.takeStop()
	c.lastUndefined = c.e.undefined
	c.lastUnwaited = c.e.takeUnwaited()
	return r, nil
}

// LastUndefined says what the reply of the last command Do sent on this
// connection depends on that Redis leaves open (an order of its hash
// tables, a random pick, a script's walk of a table): 0 when nothing, and
// then the reply is the one Redis 7.0 gives. See undefined.go.
func (c *Client) LastUndefined() Undefined {
	c.e.mu.Lock()
	defer c.e.mu.Unlock()
	return c.lastUndefined
}

// LastUnwaited is the timeout, in milliseconds, that the last command Do
// sent on this connection would have waited in Redis for another client's
// write, and that the engine answered at once instead (see blocking.go):
// 0 when it waited for nothing.
func (c *Client) LastUnwaited() int64 {
	c.e.mu.Lock()
	defer c.e.mu.Unlock()
	return c.lastUnwaited
}

// LastStop says whether the engine stopped a script that the last command
// Do sent on this connection ran (an EVAL, or an EXEC with one queued), and
// why: NotStopped when it did not. A script's reply cannot tell, since a
// script may return the budget's words itself.
func (c *Client) LastStop() Stop {
	c.e.mu.Lock()
	defer c.e.mu.Unlock()
	return c.lastStop
}

// Protocol is the RESP version the connection speaks: 2, or 3 after HELLO
// 3. A reply from Do is already in its shapes; a writer of bytes needs it
// for the one thing a Reply leaves open, how a null is written.
func (c *Client) Protocol() int {
	c.e.mu.Lock()
	defer c.e.mu.Unlock()
	if c.peer.Resp3 {
		return 3
	}
	return 2
}

// InMulti reports whether the connection is between MULTI and EXEC, where
// a command is queued rather than run. A writer of bytes needs it for the
// commands it serves itself (CLIENT REPLY), which Redis queues like any
// other there.
func (c *Client) InMulti() bool {
	c.e.mu.Lock()
	defer c.e.mu.Unlock()
	t := c.e.tx[c.peer]
	return t != nil && t.multi
}

// Close ends the connection, as a client hanging up ends it in Redis: its
// transaction is discarded, its watched keys are unwatched, and the engine
// forgets it. A closed Client must not be used again.
func (c *Client) Close() {
	e := c.e
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.tx, c.peer)
	delete(e.dbOf, c.peer)
	delete(e.conns, c.peer)
	e.stats.connections++
	if i := slices.Index(e.clients, c); i >= 0 {
		e.clients = slices.Delete(e.clients, i, i+1)
	}
}

func (e *Engine) reset() {
	if e.m != nil {
		e.m.Close()
	}
	e.m = miniredis.NewMiniRedis()
	// Dial starts miniredis on an in-memory server with no listener; the
	// pipe it returns is not needed, since commands go through Dispatch.
	conn, err := e.m.Dial()
	if err != nil {
		panic("engine: miniredis would not start: " + err.Error())
	}
	conn.Close()
	e.srv = e.m.Server()
	// Key TTLs follow the server clock, so PEXPIRE and Advance agree.
	e.m.ClockTTL(true)
	w := bufio.NewWriter(&e.out)
	for _, c := range e.clients {
		c.peer.Ctx, c.peer.Resp3 = nil, false // a fresh server has no session state
	}
	e.script = server.NewPeer(w)
	e.watch = server.NewPeer(w)
	e.setClock(Start)
	e.runner.reset()
	e.hashOrder = hashOrders{}
	e.lastOrder = nil
	e.dbOf = map[*server.Peer]int{}
	e.forget(engineReset)
	e.streams = nil
	e.tx, e.probe = nil, nil // a fresh server has no transactions either
	e.hllSparseMax = hll.SparseMaxBytes
	e.maxmemory = 0 // with the configuration it comes from
	e.block = blockState{}
	e.janitor = janitor{}
	e.config, e.stats = nil, serverStats{}
	e.conns, e.nextID, e.limits = nil, 0, nil
}

// Reset empties the keyspace and the script cache and puts the clock back
// at Start: the state of a fresh engine.
func (e *Engine) Reset() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.reset()
}

// Now is the server clock in Unix milliseconds: what TIME answers, inside
// scripts and out.
func (e *Engine) Now() int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.now
}

// SetNow moves the server clock to ms (Unix milliseconds).
func (e *Engine) SetNow(ms int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.setClock(ms)
}

// Advance moves the server clock forward by ms milliseconds and returns the
// new time. Keys with a TTL that ends on the way expire.
func (e *Engine) Advance(ms int64) int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.setClock(e.now + ms)
	return e.now
}

func (e *Engine) setClock(ms int64) {
	e.now = ms
	e.m.SetTime(time.UnixMilli(ms).UTC())
	e.forget(clockMoved) // keys may expire, and the next db expires what the move ended
}

// db is miniredis's database n, for the engine's direct reads and writes
// (the fast paths, the fixups' checks, the sorted-set index). m.DB takes
// miniredis's lock, expires the keys whose TTL the clock has passed, and
// looks the database up in a map; a plain SET or EXISTS from a script
// paid that on every call, a few percent of a 100,000-SET script in
// WebAssembly. The pointer it gives stays good until the clock moves (the
// first m.DB after a move expires keys, in every database) or SWAPDB
// trades two databases' places, and both empty this cache.
func (e *Engine) db(n int) *miniredis.RedisDB {
	if n < 0 || n >= databases || e.plain(DBCache) {
		return e.m.DB(n)
	}
	if d := e.dbs[n]; d != nil {
		return d
	}
	d := e.m.DB(n)
	e.dbs[n] = d
	return d
}

// do runs one command a connection sent: it may be queued by MULTI, be a
// script (EVAL), change the connection (HELLO), or be one clients may not
// use; anything else is dispatched. The engine lock must be held.
func (e *Engine) do(peer *server.Peer, args []string) resp.Reply {
	if len(args) == 0 {
		return resp.ErrorReply("ERR empty command")
	}
	c := e.lookup(args[0])
	// Only a transaction command, or a connection in a transaction or
	// watching keys, has anything for transaction to do.
	if c.tx || len(e.tx) > 0 || e.plain(TxGuard) {
		if r, ok := e.transaction(peer, c, args); ok {
			return r
		}
	}
	// Redis refuses a container's unknown subcommand, and a call with the
	// wrong number of arguments, before the command sees it.
	if rc := c.redis; rc != nil && (rc.subs != nil || !rc.arityOK(len(args))) {
		if msg := arityError(c.upper, args); msg != "" {
			return resp.ErrorReply(msg)
		}
	}
	// Past maxmemory Redis refuses a denyoom command before it runs; not
	// one EXEC runs, whose queue was judged as it was made.
	if e.maxmemory > 0 && e.block.execDepth == 0 {
		if msg := e.oomRefusal(c, args); msg != "" {
			return resp.ErrorReply(msg)
		}
	}
	if c.session != nil {
		if r, ok := c.session(e, peer, args); ok {
			return r
		}
	}
	if c.refused {
		if r, ok := e.blockingFront(peer, c, args); ok {
			return r
		}
		return resp.ErrorReply(c.refusedMsg)
	}
	return e.dispatch(peer, c, args)
}

// raw runs one command on miniredis as it is. It is the only place the
// engine talks to miniredis's command table.
func (e *Engine) raw(peer *server.Peer, args []string) (r resp.Reply) {
	defer func() {
		if v := recover(); v != nil {
			// miniredis takes its lock without defer, so a command that
			// panics leaves it held and every later command would hang.
			// Nothing else uses miniredis while the engine lock is held,
			// so a held lock here is the panicking command's: release it.
			e.m.TryLock() // held already, or taken now: either way, ours
			e.m.Unlock()
			peer.Flush() // drop whatever half-reply was written
			e.out.Reset()
			r = resp.Errorf("ERR the playground's engine failed on %s: %v", ascii.Upper(args[0]), v)
		}
	}()
	if miniredisScripting(args[0]) {
		return unknownCommand(args)
	}
	e.out.Reset()
	sent := unfoldOptions(args)
	e.srv.Dispatch(peer, sent)
	peer.Flush()
	r, err := resp.Parse(e.out.Bytes())
	if err != nil {
		return resp.ErrorReply("ERR engine: unreadable reply from miniredis: " + err.Error())
	}
	if r.Kind == resp.Error && &sent[0] != &args[0] {
		r.Str = refold(r.Str, args, sent) // an error that quotes the word quotes it as sent
	}
	return r
}

// miniredisScripting reports whether miniredis would take name for one of
// its own scripting commands, reading it as it does (with Go's Unicode
// upper case). Those run Lua in miniredis's interpreter, with none of the
// runner's limits and past its guard (GuardScripts). The engine serves
// every spelling Redis knows of them itself (commandtable.go), so raw
// never hands one on: a name that reached here spelt some other way
// ("EVALſHA") is one Redis does not know.
func miniredisScripting(name string) bool {
	switch strings.ToUpper(name) {
	case "EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "SCRIPT", "FUNCTION", "FCALL", "FCALL_RO":
		return true
	}
	return false
}

// refusedFromClient lists commands the playground's clients cannot use.
// They would wait for another client's write that cannot come while the
// engine is busy waiting (blocking pops, pub/sub, MONITOR), or would stop
// the server under the page. Each gets an error that
// says why, instead of a tab that hangs.
var refusedFromClient = func() map[string]string {
	m := map[string]string{}
	blocking := "ERR a blocking command would wait forever here: in the playground no other client can write while it waits; use the non-blocking form"
	for _, c := range []string{"BLPOP", "BRPOP", "BRPOPLPUSH", "BLMOVE", "BLMPOP", "BZPOPMIN", "BZPOPMAX", "BZMPOP", "XREAD", "XREADGROUP", "WAIT", "WAITAOF"} {
		m[c] = blocking
	}
	pubsub := "ERR pub/sub is not available in the playground: a subscribed connection has nobody to hear from"
	for _, c := range []string{"SUBSCRIBE", "PSUBSCRIBE", "SSUBSCRIBE", "UNSUBSCRIBE", "PUNSUBSCRIBE", "SUNSUBSCRIBE", "MONITOR"} {
		m[c] = pubsub
	}
	for _, c := range []string{"SHUTDOWN", "QUIT", "DEBUG"} {
		m[c] = "ERR " + ascii.Lower(c) + " is not available in the playground"
	}
	return m
}()

// useDB puts peer on database db, unless it is there already.
func (e *Engine) useDB(peer *server.Peer, db int) {
	if e.dbOf[peer] == db {
		return
	}
	n := strconv.Itoa(db)
	e.raw(peer, []string{"SELECT", n})
	e.noteSelect(peer, n)
}

// noteSelect records the database a connection selected.
func (e *Engine) noteSelect(peer *server.Peer, db string) {
	if n, err := strconv.Atoi(db); err == nil && n != 0 {
		e.dbOf[peer] = n
	} else {
		delete(e.dbOf, peer)
	}
}
