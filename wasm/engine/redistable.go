package engine

import (
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"echomq.dev/playground/wasm/ascii"
)

// Redis 7.0's own command table, as far as the engine needs it to refuse
// a command before running it the way Redis does: which names Redis knows,
// each one's arity, which ones a script may not call ("noscript"), which
// ones Redis refuses while its memory is past maxmemory ("denyoom"), and,
// for a container command (CLIENT, CONFIG, OBJECT...), its subcommands,
// each with an arity and a flag of its own. miniredis's table cannot
// answer these: it lacks commands Redis has, and has no flags.

// arityText is the table, one command or subcommand a line: "name arity",
// then its flags of noscript and denyoom ("get 2", "client|setname 3
// noscript", "set -3 denyoom"). It is
// data that wasm/fidelity's TestArityTableIsRedis writes from a real
// server and holds to it, kept as text and read on first use so that a
// module that starts pays nothing for it.
//
//go:embed arity.txt
var arityText string

// redisCommand is one command, or one subcommand, of Redis's table.
type redisCommand struct {
	name     string // as COMMAND spells it: "get", "client|setname"
	arity    int    // n: exactly n arguments with the name; -n: at least n
	noscript bool   // a script may not call it
	denyoom  bool   // refused while used memory is past maxmemory (see maxmemory.go)
	// movable: its keys are found from its arguments (EVAL's numkeys...);
	// keys: COMMAND's first key, last key (negative: from the end) and
	// step, all 0 for a command without keys (see commandgetkeys.go).
	movable bool
	keys    [3]int
	// subs are a container's subcommands, by upper-case name; nil for a
	// command that has none.
	subs map[string]*redisCommand
}

// arityOK reports whether a call of n arguments (the name included, and a
// subcommand's name too) has the arity Redis asks of c.
func (c *redisCommand) arityOK(n int) bool {
	if c.arity > 0 {
		return n == c.arity
	}
	return n >= -c.arity
}

// entryFor is the entry of Redis's table that a call of args meets: c
// itself, or, for a container called with a subcommand, that subcommand's
// entry, nil when Redis has no such subcommand.
func (c *redisCommand) entryFor(args []string) *redisCommand {
	if c == nil || c.subs == nil || len(args) < 2 {
		return c
	}
	return c.subs[ascii.Upper(args[1])]
}

// redisTable is arityText's table by upper-case command name, read on
// first use.
var redisTable = sync.OnceValue(func() map[string]*redisCommand { return readRedisTable(arityText) })

// readRedisTable reads a table as arity.txt holds it.
func readRedisTable(text string) map[string]*redisCommand {
	table := map[string]*redisCommand{}
	entry := func(upper string) *redisCommand {
		if table[upper] == nil {
			table[upper] = &redisCommand{name: ascii.Lower(upper)}
		}
		return table[upper]
	}
	for line := range strings.Lines(text) {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		var n int
		var err error
		if len(f) >= 2 {
			n, err = strconv.Atoi(f[1])
		}
		var keys [3]int
		bad := len(f) < 2 || err != nil
		for _, fl := range f[min(len(f), 2):] {
			switch {
			case fl == "noscript" || fl == "denyoom" || fl == "movablekeys":
			case strings.HasPrefix(fl, "keys="):
				parts := strings.Split(fl[len("keys="):], ",")
				bad = bad || len(parts) != 3
				for i := range min(len(parts), 3) {
					var perr error
					keys[i], perr = strconv.Atoi(parts[i])
					bad = bad || perr != nil
				}
			default:
				bad = true
			}
		}
		if bad {
			panic("engine: arity.txt: a line is not \"name arity [noscript] [denyoom] [movablekeys] [keys=first,last,step]\": " + line)
		}
		base, sub, isSub := strings.Cut(ascii.Upper(f[0]), "|")
		c := entry(base)
		if isSub {
			if c.subs == nil {
				c.subs = map[string]*redisCommand{}
			}
			c = &redisCommand{name: ascii.Lower(f[0])}
			table[base].subs[sub] = c
		}
		c.arity = n
		c.noscript = slices.Contains(f[2:], "noscript")
		c.denyoom = slices.Contains(f[2:], "denyoom")
		c.movable = slices.Contains(f[2:], "movablekeys")
		c.keys = keys
	}
	return table
}

// arityError is Redis's error for a command it would refuse before running
// it because of its argument count, or for an unknown subcommand of a
// container command; "" when there is none. A command Redis does not know
// is not this function's to judge.
func arityError(upper string, args []string) string {
	c := redisTable()[upper]
	if c == nil {
		return ""
	}
	if c = c.entryFor(args); c == nil {
		s := args[1]
		if len(s) > 128 {
			s = s[:128]
		}
		return "ERR unknown subcommand '" + s + "'. Try " + upper + " HELP."
	}
	if !c.arityOK(len(args)) {
		return "ERR wrong number of arguments for '" + c.name + "' command"
	}
	return ""
}

// CommandArity is Redis 7.0's arity for a command ("get") or a subcommand
// ("client|setname"), as COMMAND reports it, and its flags as arity.txt
// holds them (" noscript", " denyoom", both or ""), and whether Redis knows
// it. It is there so a test can hold the table to a real server.
func CommandArity(name string) (arity int, flags string, known bool) {
	base, sub, isSub := strings.Cut(ascii.Upper(name), "|")
	c := redisTable()[base]
	if c != nil && isSub {
		c = c.subs[sub]
	}
	if c == nil {
		return 0, "", false
	}
	if c.noscript {
		flags += " noscript"
	}
	if c.denyoom {
		flags += " denyoom"
	}
	if c.movable {
		flags += " movablekeys"
	}
	if c.keys[0] != 0 {
		flags += fmt.Sprintf(" keys=%d,%d,%d", c.keys[0], c.keys[1], c.keys[2])
	}
	return c.arity, flags, true
}

// CommandNames lists every command and subcommand in the table, in
// COMMAND's spelling ("get", "client|setname").
func CommandNames() []string {
	var out []string
	for _, c := range redisTable() {
		out = append(out, c.name)
		for _, sub := range c.subs {
			out = append(out, sub.name)
		}
	}
	return out
}
