package engine

import (
	"fmt"
	"sync"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
	"echomq.dev/playground/wasm/stream"
)

// The command table: for every command the engine treats specially, the
// steps it goes through on dispatch, before miniredis's own handler or
// instead of it. It is built in one place, buildCommands, in the order
// written there, the first time an engine looks a command up; nothing else
// registers commands. Each step carries a name, and TestCommandTable
// compares the whole table with testdata/commands.golden, so that a change
// to any command's path shows in review.
//
// A command not in the table goes to miniredis as it is.

// step is one layer of a command's path, as the golden list names it.
type step struct {
	kind string // one of the kinds below
	what string // what it does, in a few words
	file string // where it lives
}

// The kinds of step, from the outside in.
const (
	// wrapped: works on the reply of the steps inside it (or miniredis's),
	// or keeps the engine's own state up to date after them.
	wrapped = "wraps"
	// corrected: checks or rewrites what miniredis reads or answers, and
	// leaves the command itself to miniredis.
	corrected = "fixup"
	// fast: answered from the engine's state or miniredis's keyspace
	// directly, without a trip through miniredis's command table.
	fast = "fast path"
	// own: the engine's own implementation; miniredis's is not used.
	own = "own"
	// connection: served before dispatch, for the connection that sent
	// it (do); a script cannot reach it.
	connection = "connection"
)

// route is one command's path.
type route struct {
	// session serves the command for the connection that sent it, before
	// dispatch; ok is false when it leaves the command to dispatch (COMMAND
	// other than COMMAND DOCS).
	session func(e *Engine, peer *server.Peer, args []string) (r resp.Reply, ok bool)
	steps   []step // outermost first
	run     fixup  // the steps composed (miniredis itself for a command with a RESP3 shape only)
	// shape gives a RESP3 connection's reply the shape Redis 7.0 gives it
	// (see fixups_resp3.go); the steps themselves work on RESP2 replies.
	shape     func(args []string, r resp.Reply) resp.Reply
	shapeWhat string
	// indexed: served from the engine's sorted-set index (zsetcmds.go), so
	// zsetsAfter has nothing to bring up to date after it.
	indexed bool
	// absent: miniredis lacks the command; the engine alone serves it.
	absent bool
	// readOnly: Redis flags the command read-only, where miniredis lacks it.
	readOnly bool
	// mayReplicate: Redis flags the command read-only and may-replicate,
	// and counts it a write (a read-only script may not call it, and it
	// touches the keys it changes): PFCOUNT, which writes its count back.
	mayReplicate bool
	// lua: what the command does with Lua, for a link's review (see
	// luagate.go). The commands that run a script are the ones whose
	// session is the runner's.
	lua luaKind
}

var (
	buildOnce sync.Once
	routes    map[string]*route
)

// commandRoutes is the table, built on first use. (A package variable
// initialised with buildCommands would be an initialisation cycle: the
// steps dispatch commands, and dispatch reads the table.)
func commandRoutes() map[string]*route {
	buildOnce.Do(func() { routes = buildCommands() })
	return routes
}

// buildCommands builds the command table. The order matters where a step
// wraps another, and is this:
//
//  0. the commands a connection's do serves itself: scripts, HELLO, SCRIPT
//     and COMMAND DOCS (the transaction commands, and the queueing of any
//     command inside MULTI, come before even these: see multi.go);
//  1. fixups of miniredis's own commands, one per command;
//  2. fast paths for the commands the queue scripts call on every run;
//  3. the sorted-set commands the engine serves from its index, and the
//     score fixups of the ones miniredis still answers;
//  4. steps that wrap what is there already: the hash field order around
//     every hash write (HINCRBY's and HINCRBYFLOAT's fixups inside it),
//     HSCAN's order and ZSCAN's scores around their MATCH filter;
//  5. the RESP3 shapes, applied after everything else.
//
// A command given two innermost steps (or two RESP3 shapes) is a mistake,
// and panics here, at the first command any engine runs: every test meets
// it, TestCommandTable first.
func buildCommands() map[string]*route {
	t := commandTable{}

	// 0. Served for the connection.
	for _, name := range []string{"EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO"} {
		t.session(name, "the engine's Lua runner", "runner.go", func(e *Engine, peer *server.Peer, args []string) (resp.Reply, bool) {
			return e.runner.eval(peer, name, args[1:]), true
		})
		t[name].lua = luaEval
	}
	for _, name := range []string{"FCALL", "FCALL_RO"} {
		t.session(name, "the runner's functions", "functions.go", func(e *Engine, peer *server.Peer, args []string) (resp.Reply, bool) {
			return e.runner.fcall(peer, name, args[1:]), true
		})
		t[name].lua = luaFcall
	}
	t.session("HELLO", "the connection's protocol", "hello.go", func(e *Engine, peer *server.Peer, args []string) (resp.Reply, bool) {
		return e.helloConn(peer, args), true
	})
	t.session("SCRIPT", "the runner's script cache", "runner.go", func(e *Engine, _ *server.Peer, args []string) (resp.Reply, bool) {
		return e.runner.scriptCommand(args[1:]), true
	})
	t["SCRIPT"].lua = luaScript
	t.session("FUNCTION", "the runner's function libraries", "functions.go", func(e *Engine, peer *server.Peer, args []string) (resp.Reply, bool) {
		return e.functionCommand(peer, args), true
	})
	// A script reaches FUNCTION HELP alone (the rest are noscript).
	t.serve("FUNCTION", own, "HELP, for a script", "functions.go", func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		return e.functionCommand(peer, args)
	})
	t["FUNCTION"].absent = true
	t["FUNCTION"].lua = luaFunction
	t.session("COMMAND", "DOCS from the engine's docs, GETKEYS and INFO from Redis's table, the rest dispatched", "commanddocs.go", func(e *Engine, peer *server.Peer, args []string) (resp.Reply, bool) {
		if len(args) >= 2 {
			switch ascii.Upper(args[1]) {
			case "DOCS":
				return commandDocs(peer, args[2:]), true
			case "GETKEYS":
				return commandGetkeys(args[2:]), true
			case "GETKEYSANDFLAGS":
				// The flags of each key need Redis's key specifications,
				// which the playground does not hold: say so, rather than
				// answer as miniredis does, with its whole table.
				return resp.ErrorReply("ERR COMMAND GETKEYSANDFLAGS is not available in the playground (COMMAND GETKEYS is)"), true
			case "INFO":
				return commandInfo(e.raw(peer, []string{"COMMAND"}), args[2:]), true
			}
		}
		if r, ok := commandIntrospection(args); ok {
			return r, true
		}
		return resp.Reply{}, false
	})

	// 1. Fixups.
	t.serve("KEYS", corrected, "pattern matched byte by byte", "fixups.go", keysFixup)
	t.serve("SCAN", corrected, "MATCH matched byte by byte", "fixups.go", scanFixup(2, 1))
	t.serve("HSCAN", corrected, "MATCH matched byte by byte", "fixups.go", scanFixup(3, 2))
	t.serve("SSCAN", corrected, "MATCH matched byte by byte", "fixups.go", scanFixup(3, 1))
	t.serve("ZSCAN", corrected, "MATCH matched byte by byte", "fixups.go", scanFixup(3, 2))
	t.serve("HINCRBY", corrected, "Redis's checks, order and words", "fixups.go", hincrbyFixup)
	t.serve("CLUSTER", corrected, "KEYSLOT answered as a cluster node", "cluster.go", clusterFixup)
	for _, name := range []string{"INCR", "DECR", "INCRBY", "DECRBY"} {
		t.serve(name, corrected, "integers read as string2ll, no overflow", "fixups_commands.go", incrFixup(name))
	}
	t.serve("SETRANGE", corrected, "empty write, size caps", "fixups_commands.go", setrangeFixup)
	t.serve("SETEX", corrected, "expire error wording", "fixups_commands.go", expireWording("setex"))
	t.serve("PSETEX", corrected, "expire error wording", "fixups_commands.go", expireWording("psetex"))
	t.serve("ZUNIONSTORE", corrected, "WRONGTYPE first, empty result deletes", "fixups_commands.go", zstoreFixup("zunionstore"))
	t.serve("ZINTERSTORE", corrected, "WRONGTYPE first, empty result deletes", "fixups_commands.go", zstoreFixup("zinterstore"))
	t.serve("COPY", corrected, "REPLACE drops the old value", "fixups_commands.go", copyFixup)
	t.serve("INCRBYFLOAT", corrected, "long double sum and print", "fixups_float.go", incrbyfloatFixup)
	t.serve("HINCRBYFLOAT", corrected, "long double sum and print", "fixups_float.go", hincrbyfloatFixup)
	t.serve("HGETALL", corrected, "fields in insertion order", "fixups_hash.go", orderedHash(2, 0))
	t.serve("HKEYS", corrected, "fields in insertion order", "fixups_hash.go", orderedHash(1, 0))
	t.serve("HVALS", corrected, "values in insertion order", "fixups_hash.go", orderedHash(1, 1))
	t.serve("SET", corrected, "options read as Redis 7.0 does", "fixups_set.go", setOptionsFixup)
	t.serve("OBJECT", corrected, "ENCODING, FREQ, REFCOUNT and HELP, which miniredis lacks", "object.go", objectFixup)
	t.serve("INFO", own, "Redis 7.0's sections and fields, the engine's counts", "info.go", infoCommand)
	t.serve("LMOVE", corrected, "both ends read before anything moves", "fixups_commands.go", lmoveFixup)
	t.serve("BITCOUNT", corrected, "a BIT|BYTE range", "bitrange.go", bitcountFixup)
	t.serve("BITPOS", corrected, "a BIT|BYTE range", "bitrange.go", bitposFixup)
	t.serve("LMPOP", corrected, "nothing to pop is a null array", "blocking.go", nullArrayFixup)
	t.serve("ZMPOP", corrected, "nothing to pop is a null array", "blocking.go", nullArrayFixup)
	// Streams are Redis 7.0's own (wasm/stream), behind a token in miniredis's key.
	for _, name := range stream.Commands {
		t.serve(name, own, "wasm/stream: nodes, groups, PEL as Redis 7.0", "streamcmds.go", streamCommand)
	}
	t["XSETID"].absent = true
	t.serve("DUMP", own, "Redis 7.0's payload, byte for byte", "dump.go", dumpCommand)
	t.serve("RESTORE", own, "Redis 7.0's payload checked and read", "dump.go", restoreCommand)
	// HyperLogLogs are Redis's own, in a string (wasm/hll).
	t.serve("PFADD", own, "Redis 7.0's HyperLogLog in a string", "hllcmds.go", hllFixup)
	t.serve("PFCOUNT", own, "Redis 7.0's estimate, cached in the string", "hllcmds.go", hllFixup)
	t.serve("PFMERGE", own, "the registers' union in a string", "hllcmds.go", hllFixup)
	t.serve("PFDEBUG", own, "GETREG, DECODE, ENCODING, TODENSE", "hllcmds.go", hllFixup)
	t.serve("PFSELFTEST", own, "wasm/hll's self-test", "hllcmds.go", hllFixup)
	t["PFCOUNT"].mayReplicate = true
	t["PFDEBUG"].absent = true
	t["PFSELFTEST"].absent, t["PFSELFTEST"].readOnly = true, true

	// GEO is Redis's own (wasm/geo): its cells, over the sorted-set index.
	for _, name := range geoCommands {
		t.serve(name, own, "wasm/geo: Redis 7.0's geohash cells and replies", "geocmds.go", geoCommand(name))
	}
	t["GEOADD"].indexed = true // the ZADD it stands for keeps the index
	t["GEOHASH"].absent, t["GEOHASH"].readOnly = true, true
	t["GEOSEARCHSTORE"].absent = true

	t.serve("ZINTERCARD", own, "the intersection's size, up to LIMIT", "zsetops.go", zintercardCommand)
	t["ZINTERCARD"].absent, t["ZINTERCARD"].readOnly = true, true

	serverCommands(t)

	// 2. Fast paths.
	t.serve("TIME", fast, "the server clock", "fastpath.go", timeCommand)
	t.serve("PING", fast, "answered without miniredis", "fastpath.go", pingCommand)
	t.serve("EXISTS", fast, "miniredis's keyspace read directly", "fastpath.go", existsCommand)
	t.serve("HGET", fast, "miniredis's keyspace read directly", "fastpath.go", hgetCommand)
	t.serve("HSET", fast, "miniredis's keyspace written directly", "fastpath.go", hsetCommand)
	for _, c := range extraCommands() {
		t.serve(c.name, own, c.what, "wasm/extracmds", extraFixup(c))
		t[c.name].absent, t[c.name].readOnly = true, c.readOnly
	}

	// 3. Sorted sets.
	for _, c := range zsetCommands() {
		t.serve(c.name, own, "from the sorted-set index", "zsetcmds.go", c.run)
		t[c.name].indexed = true
		t[c.name].absent = c.absent
	}
	// Redis flags ZDIFF read-only, and miniredis, which lacks it, cannot
	// say so: without this a read-only script could not call it.
	t["ZDIFF"].readOnly = true
	t.serve("ZSCORE", corrected, "scores printed as %.17g", "fixups_zset.go", scoresAt(everyElement))
	t.serve("ZMSCORE", corrected, "scores printed as %.17g", "fixups_zset.go", scoresAt(everyElement))
	for _, name := range []string{"ZUNION", "ZINTER"} {
		t.serve(name, corrected, "scores printed as %.17g", "fixups_zset.go", withScores)
	}
	t.serve("ZRANDMEMBER", corrected, "scores printed as %.17g, a syntax error past WITHSCORES", "fixups_zset.go", zrandmemberFixup)

	// 4. Wrappers.
	capArguments(t) // argcaps.go: counts and offsets checked before miniredis allocates for them
	for _, name := range []string{"HSET", "HMSET", "HSETNX", "HINCRBY", "HINCRBYFLOAT", "HDEL"} {
		t.wrap(name, "hash field order kept", "fixups_hash.go", func(next fixup) fixup { return trackHashOrder(name, next) })
	}
	t.wrap("HSCAN", "fields in insertion order", "fixups_hash.go", hscanInOrder)
	for name, intset := range map[string]func(*Engine, *server.Peer, []string, []resp.Reply) bool{
		"SMEMBERS": theKey, "SUNION": theResult, "SINTER": smallest, "SDIFF": diffBuild,
		"SRANDMEMBER": wholeSet, "SPOP": wholeSet, "SORT": noSort,
	} {
		t.wrap(name, "an intset's members in numeric order", "intsets.go", inIntsetOrder(intset))
	}
	t.wrap("SSCAN", "an intset walked whole, in numeric order", "intsets.go", sscanIntset)
	for _, name := range []string{"ZUNION", "ZINTER"} {
		t.wrap(name, "a NaN score counts as 0", "zsetnan.go", nanAsZero)
	}
	for _, name := range []string{"ZUNIONSTORE", "ZINTERSTORE"} {
		t.wrap(name, "a NaN score is stored as 0", "zsetnan.go", nanStoredAsZero)
	}
	for _, name := range []string{"SDIFFSTORE", "SINTERSTORE", "SUNIONSTORE"} {
		t.wrap(name, "an empty result deletes the destination", "setstore.go", emptyStoreDeletes)
	}
	for name, at := range map[string]int{"ZUNION": 1, "ZINTER": 1, "ZUNIONSTORE": 2, "ZINTERSTORE": 2} {
		t.wrap(name, "numkeys and WEIGHTS read as Redis reads them", "zsetops.go", zsetOpArgs(name, at))
	}
	t.wrap("ZSCAN", "scores printed as %.17g", "fixups_zset.go", zscanScores)

	// 5. RESP3 shapes.
	for _, name := range []string{"ZSCORE", "ZINCRBY"} {
		t.shape(name, "a score as a double", asDouble)
	}
	t.shape("ZMSCORE", "each score as a double", eachDouble)
	t.shape("ZADD", "a score as a double with INCR", zaddShape)
	for _, name := range []string{"ZPOPMIN", "ZPOPMAX"} {
		t.shape(name, "[member, score] pairs", popShape)
	}
	for _, name := range []string{"ZRANGE", "ZREVRANGE", "ZRANGEBYSCORE", "ZREVRANGEBYSCORE", "ZRANDMEMBER", "ZUNION", "ZINTER", "ZDIFF"} {
		t.shape(name, "WITHSCORES as [member, score] pairs", pairsWithScores)
	}
	t.shape("HGETALL", "a map", asMap)
	for _, name := range []string{"SMEMBERS", "SINTER", "SUNION", "SDIFF"} {
		t.shape(name, "a set", asSet)
	}
	t.shape("SPOP", "with a count, a set", spopShape)
	t.shape("GEOPOS", "coordinates as doubles", coordsShape)
	for _, name := range []string{"GEORADIUS", "GEORADIUS_RO", "GEORADIUSBYMEMBER", "GEORADIUSBYMEMBER_RO", "GEOSEARCH"} {
		t.shape(name, "WITHCOORD's coordinates as doubles", withCoordShape)
	}
	t.shape("HRANDFIELD", "WITHVALUES as [field, value] pairs", fieldValuePairs)
	t.shape("XREAD", "a map of streams", streamsMap)
	t.shape("XREADGROUP", "a map of streams", streamsMap)
	t.shape("ZMPOP", "[member, score] pairs", mpopShape)
	t.shape("INFO", "a verbatim string", asVerbatim)
	t.shape("LCS", "IDX as a map", asMap)
	// Streams (wasm/stream): XINFO's maps, and XREAD's map of streams
	// unless a shape of the blocking commands' serves it already.
	for _, name := range []string{"XINFO", "XREAD", "XREADGROUP"} {
		if r := t[name]; r == nil || r.shape == nil {
			t.shape(name, "maps where Redis 7.0 sends them", stream.Shape)
		}
	}
	return t
}

// commandTable is the table while buildCommands builds it.
type commandTable map[string]*route

func (t commandTable) route(name string) *route {
	if t[name] == nil {
		t[name] = &route{}
	}
	return t[name]
}

// session gives name its connection step.
func (t commandTable) session(name, what, file string, serve func(e *Engine, peer *server.Peer, args []string) (resp.Reply, bool)) {
	r := t.route(name)
	r.session = serve
	r.steps = append(r.steps, step{connection, what, file})
}

// serve gives name its innermost step.
func (t commandTable) serve(name, kind, what, file string, run fixup) {
	r := t.route(name)
	if r.run != nil {
		panic(fmt.Sprintf("engine: %s is served twice in the command table", name))
	}
	r.run = run
	r.steps = append(r.steps, step{kind, what, file})
}

// wrap puts a step around what name has (miniredis itself, if nothing).
func (t commandTable) wrap(name, what, file string, around func(next fixup) fixup) {
	r := t.route(name)
	r.run = around(r.run)
	r.steps = append([]step{{wrapped, what, file}}, r.steps...)
}

func (t commandTable) shape(name, what string, shape func(args []string, r resp.Reply) resp.Reply) {
	r := t.route(name)
	if r.shape != nil {
		panic(fmt.Sprintf("engine: %s has two RESP3 shapes in the command table", name))
	}
	r.shape, r.shapeWhat = shape, what
	if r.run == nil {
		// A shape works on the RESP2 reply, so a command miniredis answers
		// as it is still needs a step that asks it in RESP2 (runCommand).
		r.run = func(e *Engine, peer *server.Peer, args []string) resp.Reply { return e.raw(peer, args) }
	}
}

// runFixup runs a wrapped step's next: the steps inside it, or miniredis.
func runFixup(f fixup, e *Engine, peer *server.Peer, args []string) resp.Reply {
	if f == nil {
		return e.raw(peer, args)
	}
	return f(e, peer, args)
}
