package engine

import (
	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// Redis 7.0's functions: libraries of Lua functions loaded with FUNCTION
// LOAD and called with FCALL and FCALL_RO. They run in the runner's Lua
// state, under the same budget and with the same redis.* API as EVAL's
// scripts; what is theirs alone (the library registry, the load-time
// sandbox, the DUMP payload) lives in the functions*.go files.

// functionCommand serves FUNCTION and its subcommands for a connection.
// Redis has checked the subcommand and its arity before (see do).
func (e *Engine) functionCommand(peer *server.Peer, args []string) resp.Reply {
	sub, rest := ascii.Upper(args[1]), args[2:]
	switch sub {
	case "HELP":
		return functionHelp()
	case "FLUSH":
		if len(rest) > 1 {
			return subcommandSyntax(args[1], "FUNCTION")
		}
		if len(rest) == 1 && !isFlushMode(rest[0]) {
			return resp.ErrorReply("ERR FUNCTION FLUSH only supports SYNC|ASYNC option")
		}
		e.runner.flushFunctions()
		return resp.OK()
	}
	return resp.Errorf("ERR function %s is not available in the playground yet", ascii.Lower(sub))
}

// subcommandSyntax is Redis's reply to a subcommand whose arguments its
// own code refuses, past the arity the command table checked.
func subcommandSyntax(sub, cmd string) resp.Reply {
	return resp.Errorf("ERR unknown subcommand or wrong number of arguments for '%s'. Try %s HELP.", sub, cmd)
}

// flushFunctions deletes every library, as FUNCTION FLUSH does.
func (r *runner) flushFunctions() {}
