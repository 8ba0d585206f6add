// The script cache, and the commands that reach it: EVAL, EVALSHA and
// their _RO forms, SCRIPT LOAD, EXISTS, FLUSH and KILL.

package engine

import (
	"strings"
	"sync"

	"github.com/alicebob/miniredis/v2/server"

	emqlua "echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// eval serves EVAL, EVALSHA and their _RO forms for the caller's
// connection, whose protocol the reply is shaped for and whose database the
// script starts in.
func (r *runner) eval(caller *server.Peer, cmd string, args []string) resp.Reply {
	keys, argv, bad := evalArgs(cmd, args)
	if bad != nil {
		return *bad
	}
	var c *compiled
	if strings.HasPrefix(cmd, "EVALSHA") {
		if c = r.byHash(args[0]); c == nil {
			return resp.ErrorReply("NOSCRIPT No matching script. Please use EVAL.")
		}
	} else {
		var errRep resp.Reply
		if c, errRep = r.load(args[0]); c == nil {
			return errRep
		}
	}
	ro := strings.HasSuffix(cmd, "_RO")
	if ro && c.flags.shebang && !c.flags.noWrites {
		return resp.ErrorReply("ERR Can not execute a script with write flag using *_ro command.")
	}
	return forProtocol(r.run(c, r.e.dbOf[caller], keys, argv, ro || c.flags.noWrites, nil), caller.Resp3)
}

// evalArgs checks EVAL's arguments after its name (the script or its SHA1,
// numkeys, then the keys and the arguments) as Redis does before it looks
// for the script, and cuts out KEYS and ARGV; bad is the error reply of
// arguments that do not pass, and then no script runs. The review of a
// link (ScriptReview) asks it too.
func evalArgs(cmd string, args []string) (keys, argv []string, bad *resp.Reply) {
	fail := func(r resp.Reply) ([]string, []string, *resp.Reply) { return nil, nil, &r }
	if len(args) < 2 {
		return fail(resp.Errorf("ERR wrong number of arguments for '%s' command", ascii.Lower(cmd)))
	}
	n, ok := smallCount(args[1])
	if !ok {
		n, ok = parseRedisInt(args[1])
	}
	switch {
	case !ok:
		return fail(resp.ErrorReply(errNotInt))
	case n < 0:
		return fail(resp.ErrorReply("ERR Number of keys can't be negative"))
	case n > int64(len(args)-2):
		return fail(resp.ErrorReply("ERR Number of keys can't be greater than number of args"))
	}
	return args[2 : 2+n], args[2+n:], nil
}

// smallCount reads a numkeys of one digit, which is what a script is
// called with nearly always, without the general parse.
func smallCount(s string) (int64, bool) {
	if len(s) == 1 && s[0] >= '0' && s[0] <= '9' {
		return int64(s[0] - '0'), true
	}
	return 0, false
}

// byHash is EVALSHA's lookup in the cache. The protocol scripts are called
// in turn by the same SHA1s, so the two scripts found last are compared
// first: a hit is a comparison of the strings, where the cache's is a
// scan for upper case and a hash of forty bytes, slow in WebAssembly.
func (r *runner) byHash(sha string) *compiled {
	if r.e.plain(RecentScripts) {
		return r.cache[strings.ToLower(sha)]
	}
	for _, c := range r.recent {
		if c != nil && c.sha == sha {
			return c
		}
	}
	c := r.cache[scriptKey(sha)]
	if c != nil {
		r.recent = [2]*compiled{c, r.recent[0]}
	}
	return c
}

// scriptCommand serves SCRIPT LOAD, EXISTS, FLUSH and KILL.
func (r *runner) scriptCommand(args []string) resp.Reply {
	if len(args) == 0 {
		return resp.ErrorReply("ERR wrong number of arguments for 'script' command")
	}
	sub, _ := scriptSubcommand(args)
	switch {
	case sub == "LOAD" && len(args) == 2:
		c, errRep := r.load(args[1])
		if c == nil {
			return errRep
		}
		return resp.BulkReply(c.sha)
	case sub == "EXISTS" && len(args) >= 2:
		out := make([]resp.Reply, len(args)-1)
		for i, sha := range args[1:] {
			if r.cache[scriptKey(sha)] != nil {
				out[i] = resp.IntReply(1)
			} else {
				out[i] = resp.IntReply(0)
			}
		}
		return resp.ArrayReply(out...)
	case sub == "FLUSH" && (len(args) == 1 || len(args) == 2 && isFlushMode(args[1])):
		r.flush()
		return resp.OK()
	case sub == "KILL" && len(args) == 1:
		return resp.ErrorReply(notBusyError)
	case sub == "FLUSH" && len(args) >= 2:
		return resp.ErrorReply("ERR SCRIPT FLUSH only support SYNC|ASYNC option")
	case sub == "LOAD" || sub == "EXISTS" || sub == "FLUSH" || sub == "KILL":
		return resp.Errorf("ERR wrong number of arguments for 'script|%s' command", ascii.Lower(sub))
	}
	return resp.Errorf("ERR unknown subcommand '%s'. Try SCRIPT HELP.", args[0])
}

// scriptSubcommand is SCRIPT's subcommand as the runner reads it, in
// upper case, and the arguments after it ("" and none for a bare SCRIPT).
func scriptSubcommand(args []string) (sub string, rest []string) {
	if len(args) == 0 {
		return "", nil
	}
	return ascii.Upper(args[0]), args[1:]
}

// scriptKey is a SHA1 as the script cache files it: in lower case, as
// Redis reads EVALSHA's and SCRIPT EXISTS's.
func scriptKey(sha string) string { return ascii.Lower(sha) }

func isFlushMode(s string) bool {
	s = ascii.Upper(s)
	return s == "SYNC" || s == "ASYNC"
}

// load compiles src and caches it under its SHA1, as EVAL and SCRIPT LOAD
// do. A script that compiles stays cached even if it later fails at run time.
func (r *runner) load(src string) (*compiled, resp.Reply) {
	sha := emqlua.SHA1Hex(src)
	if c := r.cache[sha]; c != nil {
		return c, resp.Reply{}
	}
	var c *compiled
	var errRep resp.Reply
	if r.e.plain(SharedProtos) {
		c, errRep = compile(src)
	} else {
		c, errRep = compileShared(src, sha)
	}
	if c == nil {
		return nil, errRep
	}
	r.cache[sha] = c
	return c, resp.Reply{}
}

// protocolCompiled holds the protocol scripts (lua/, @enqueue and @claim),
// compiled once for every engine in the process, by SHA1. A course page's
// shared worker runs one engine per embed, and each used to parse and
// compile both scripts again on its first call (about a third of a new
// keyspace's first enqueue and claim). A FunctionProto is read-only once
// compile has finished, so engines share it; each runner still makes its
// own function of it in its own Lua state, and keeps its own KEYS and ARGV.
// Other scripts (a learner's, the console's) are compiled per engine as
// before, so the map holds two entries at most.
var protocolCompiled sync.Map

// compileShared is compile, shared between engines for a protocol script.
func compileShared(src, sha string) (*compiled, resp.Reply) {
	if v, ok := protocolCompiled.Load(sha); ok {
		return v.(*compiled).copy(), resp.Reply{}
	}
	c, errRep := compile(src)
	if c != nil && isProtocolScript(sha) {
		protocolCompiled.Store(sha, c.copy())
	}
	return c, errRep
}

// copy is a fresh cache entry for the same compiled script: the proto is
// shared, the runner's function and last tables are not.
func (c *compiled) copy() *compiled {
	return &compiled{sha: c.sha, src: c.src, flags: c.flags, proto: c.proto, argsStayPut: c.argsStayPut}
}

// isProtocolScript reports whether sha names one of the embedded protocol
// scripts.
func isProtocolScript(sha string) bool {
	for _, s := range emqlua.All() {
		if s.SHA == sha {
			return true
		}
	}
	return false
}
