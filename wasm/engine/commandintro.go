package engine

import (
	"slices"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// commandIntrospection answers COMMAND COUNT and COMMAND LIST [FILTERBY
// PATTERN p | MODULE m] from Redis 7.0's own table, subcommands too (arity.txt), so they
// count and name Redis 7.0's commands, not miniredis's. ok is false for
// the rest of COMMAND, which miniredis answers its own way (INFO,
// GETKEYS and COMMAND alone: a known difference), and for LIST FILTERBY
// ACLCAT, which needs the categories the table does not hold.
func commandIntrospection(args []string) (resp.Reply, bool) {
	if len(args) < 2 {
		return resp.Reply{}, false
	}
	switch ascii.Upper(args[1]) {
	case "COUNT":
		return resp.IntReply(int64(len(redisTable()))), true
	case "LIST":
		var pattern string
		switch {
		case len(args) == 2:
		case len(args) == 5 && ascii.EqualFold(args[2], "FILTERBY"):
			switch ascii.Upper(args[3]) {
			case "PATTERN":
				pattern = ascii.Lower(args[4])
			case "MODULE":
				return resp.ArrayReply(), true // no module is loaded
			case "ACLCAT":
				return resp.Reply{}, false
			default:
				return resp.ErrorReply("ERR syntax error"), true
			}
		default:
			return resp.ErrorReply("ERR syntax error"), true
		}
		var names []string
		for _, c := range redisTable() {
			names = append(names, c.name)
			for _, sub := range c.subs {
				names = append(names, sub.name)
			}
		}
		slices.Sort(names) // Redis lists them in its dictionary's order
		out := []resp.Reply{}
		for _, n := range names {
			if pattern == "" || globMatch(pattern, n) {
				out = append(out, resp.BulkReply(n))
			}
		}
		return resp.ArrayReply(out...), true
	}
	return resp.Reply{}, false
}
