package engine

import (
	"math"

	glua "github.com/yuin/gopher-lua"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/lualib"
)

// redis.acl_check_cmd and redis.set_repl, as Redis 7.0 checks their
// arguments. The playground has one user, the default one, who may run
// every command, and no replicas to replicate to: so a known command is
// always allowed, and a valid set of replication flags changes nothing.

// aclCheckCmd is redis.acl_check_cmd(command, ...): true for a command
// (and subcommand) Redis knows, an error for anything else.
func aclCheckCmd(L *glua.LState) int {
	n := L.GetTop()
	if n == 0 {
		raiseRedisError(L, "ERR Please specify at least one argument for this redis lib call")
	}
	args := make([]string, n)
	if !commandArgs(L, args) {
		raiseRedisError(L, errLibArgs)
	}
	if redisTable()[ascii.Upper(args[0])].entryFor(args) == nil {
		raiseRedisError(L, "ERR Invalid command passed to redis.acl_check_cmd()")
	}
	L.Push(glua.LTrue)
	return 1
}

// setRepl is redis.set_repl(flags): one argument, read as lua_tonumber
// reads it (a string that is no number is 0) and cut to a C int, whose
// bits must be REPL_AOF's and REPL_REPLICA's only.
func setRepl(L *glua.LState) int {
	if L.GetTop() != 1 {
		raiseRedisError(L, "ERR redis.set_repl() requires two arguments.")
	}
	var f float64
	switch v := L.Get(1).(type) {
	case glua.LNumber:
		f = float64(v)
	case glua.LString:
		f, _ = lualib.StringToNumber(string(v))
	}
	if t := math.Trunc(f); math.IsNaN(t) || t < 0 || t > replAll {
		raiseRedisError(L, "ERR Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.")
	}
	return 0
}
