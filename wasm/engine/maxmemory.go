package engine

import (
	"strconv"
	"strings"
	"sync"

	emqlua "echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// maxmemory as Redis 7.0 honours it with its default policy, noeviction:
// while the used memory is past the limit, a command flagged denyoom
// (SET, HSET, FUNCTION LOAD...) is refused with errOOM before it runs, a
// transaction refuses every command it would queue, and a script may read
// but not make its first write. A learner who tries CONFIG SET maxmemory 1
// sees what Redis does, not a limit stored and ignored.
//
// The used memory is the figure INFO reports, an idle redis-server's: the
// playground has no allocator to measure, and the keyspace's own bytes are
// not counted. So a limit under about 1 MB refuses as Redis would, and a
// limit above it never does; Redis, counting the data too, would refuse
// somewhere above it. No policy evicts keys: under allkeys-lru Redis would
// first delete keys to get under the limit, here the command is refused as
// under noeviction.

// errOOM is Redis's reply to a command refused for memory.
const errOOM = "OOM command not allowed when used memory > 'maxmemory'."

// usedMemory is the used_memory field of INFO's template.
var usedMemory = sync.OnceValue(func() int64 {
	for line := range strings.Lines(infoTemplate) {
		if v, ok := strings.CutPrefix(line, "used_memory:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
})

// outOfMemory reports whether Redis would find itself past maxmemory.
func (e *Engine) outOfMemory() bool {
	return e.maxmemory > 0 && usedMemory() > e.maxmemory
}

// oomRefusal is errOOM when Redis would refuse the call of c with args
// from a client for memory, "" when it would run it. The engine lock must
// be held; e.maxmemory is set (the caller looks first, so a command pays
// one comparison while there is no limit).
func (e *Engine) oomRefusal(c *command, args []string) string {
	if !e.outOfMemory() {
		return ""
	}
	var deny bool
	switch c.lua {
	case luaEval, luaFcall:
		deny = e.runner.scriptDeniesOOM(c.upper, args)
	default:
		rc := c.redis.entryFor(args)
		deny = rc != nil && rc.denyoom
	}
	if deny {
		return errOOM
	}
	return ""
}

// execRefusal is errOOM for an EXEC Redis would refuse for memory: one
// whose queue holds a denyoom command. Inside MULTI every command is
// refused while out of memory, so such a queue was made before the limit
// was met (by another connection's CONFIG SET).
func (e *Engine) execRefusal(queue [][]string) string {
	if !e.outOfMemory() {
		return ""
	}
	for _, q := range queue {
		if e.oomRefusal(e.lookup(q[0]), q) != "" {
			return errOOM
		}
	}
	return ""
}

// scriptDeniesOOM reports whether Redis counts the call of EVAL, FCALL or
// their forms as denyoom: a script that declares its flags (a "#!lua"
// line, or any function) is, unless it declares allow-oom or no-writes. A
// script without the line keeps EVAL's own flags, which are not, and is
// stopped at its first write instead (oomAtWrite). A script or function
// the engine cannot find is left to the command to refuse.
func (r *runner) scriptDeniesOOM(upper string, args []string) bool {
	if len(args) < 2 {
		return false
	}
	var flags scriptFlags
	switch upper {
	case "FCALL", "FCALL_RO":
		f := r.funcs.fns[ascii.Lower(args[1])]
		if f == nil {
			return false
		}
		flags = f.c.flags
		flags.shebang = true // a function always declares its flags
	case "EVALSHA", "EVALSHA_RO":
		if len(args[1]) != 40 {
			return false
		}
		c := r.cache[strings.ToLower(args[1])]
		if c == nil {
			return false
		}
		flags = c.flags
	default:
		if c := r.cache[emqlua.SHA1Hex(args[1])]; c != nil {
			flags = c.flags
		} else {
			var bad *resp.Reply
			if flags, _, bad = parseShebang(args[1]); bad != nil {
				return false // EVAL refuses the line itself
			}
		}
	}
	return flags.shebang && !flags.allowOOM && !flags.noWrites
}

// oomAtWrite is errOOM for a script's call of c when Redis would refuse it
// for memory: the script was started past maxmemory, declares no
// allow-oom, has made no write yet, and c is denyoom. Once a script has
// written, Redis lets it finish rather than stop it halfway.
func (r *runner) oomAtWrite(c *command, args []string) string {
	if !r.oomAtStart || r.wrote {
		return ""
	}
	if rc := c.redis.entryFor(args); rc != nil && rc.denyoom {
		return errOOM
	}
	return ""
}

// startOOM notes, as script c starts, whether Redis would be past
// maxmemory for the rest of the run (Redis decides this once, before the
// script, so that the script's own allocations do not count), and is
// errOOM when Redis would not run c at all: c declares its flags, and
// neither allow-oom nor no-writes. A client's call of such a script was
// refused already (oomRefusal); this is the one EXEC runs.
func (r *runner) startOOM(c *compiled) string {
	r.wrote = false
	r.oomAtStart = r.e.maxmemory > 0 && !c.flags.allowOOM && r.e.outOfMemory()
	if r.oomAtStart && (c.flags.shebang || c.function) && !c.flags.noWrites {
		return errOOM
	}
	return ""
}
