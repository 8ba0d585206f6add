package engine

import (
	"strings"

	emqlua "echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/resp"
)

// The Lua gate: which scripts a command would run, and a way to run
// commands with every script but a chosen few refused.
//
// A permalink replays calls that somebody else recorded, and a call can
// run Lua (an EVAL typed at the console, an edited script traced). The
// page shows that Lua and runs nothing until the learner says so. Judging
// the link's text for it cannot work: the console unescapes \x65val into
// EVAL, and the engine reads a command's name its own way. So the verdict
// comes from here, from the same lookup and the same argument checks that
// will run the command (ScriptReview), and while the link replays the
// runner itself refuses any script the learner was not shown (GuardScripts):
// a spelling the review missed still runs nothing.

// ScriptUse is one script a command would run, or load for a later
// EVALSHA to run.
type ScriptUse struct {
	// Command is the command as the engine reads it: "EVAL", "EVALSHA_RO",
	// "SCRIPT LOAD"; "" for a traced run.
	Command string
	SHA     string // the script's SHA1, lower-case hex
	// Source is the script's text; "" for an EVALSHA of a script the
	// engine does not hold, which runs nothing (NOSCRIPT).
	Source string
	// Runs is false for SCRIPT LOAD, which only compiles and caches the
	// script.
	Runs bool
}

// ScriptReview follows a sequence of commands, as a link would send them
// one after another, and says for each which script it would run or load.
// It runs nothing: it only reads the engine's command table and script
// cache, and keeps the scripts that the commands so far would have loaded.
type ScriptReview struct {
	e       *Engine
	loaded  map[string]string // the scripts earlier commands load, by SHA1
	flushed bool              // an earlier SCRIPT FLUSH empties the engine's cache
	// fnsFlushed: an earlier FUNCTION FLUSH deletes the engine's
	// libraries (see functionUses).
	fnsFlushed bool
}

// ReviewScripts starts a review of commands about to be sent to e.
func (e *Engine) ReviewScripts() *ScriptReview {
	return &ScriptReview{e: e, loaded: map[string]string{}}
}

// Command is the script a client's command args would run or load, and
// whether there is one. The command's name is read by the engine's own
// lookup (so any spelling the engine would take for EVAL is EVAL here),
// and its arguments by the checks the runner makes before it runs
// anything. A command queued inside MULTI runs at EXEC, and is judged
// where it is sent, like any other.
func (v *ScriptReview) Command(args []string) (ScriptUse, bool) {
	if len(args) == 0 {
		return ScriptUse{}, false
	}
	if c := v.e.lookupLocked(args[0]); c.lua != luaFcall && c.lua != luaFunction {
		return v.scriptUse(c, args)
	}
	uses := v.Uses(args)
	if len(uses) == 0 {
		return ScriptUse{}, false
	}
	return uses[0], true
}

// Uses is every script a client's command args would run or load: one at
// most for a script, one per library for a FUNCTION RESTORE.
func (v *ScriptReview) Uses(args []string) []ScriptUse {
	if len(args) == 0 {
		return nil
	}
	c := v.e.lookupLocked(args[0])
	if c.lua == luaFcall || c.lua == luaFunction {
		return v.functionUses(c, args)
	}
	if use, ok := v.scriptUse(c, args); ok {
		return []ScriptUse{use}
	}
	return nil
}

// scriptUse is Command for the commands of scripts.
func (v *ScriptReview) scriptUse(c *command, args []string) (ScriptUse, bool) {
	switch c.lua {
	case luaEval:
		if _, _, bad := evalArgs(c.upper, args[1:]); bad != nil {
			return ScriptUse{}, false
		}
		if strings.HasPrefix(c.upper, "EVALSHA") {
			sha := scriptKey(args[1])
			src, ok := v.source(sha)
			return ScriptUse{Command: c.upper, SHA: sha, Source: src, Runs: true}, ok
		}
		return v.load(c.upper, args[1], true), true
	case luaScript:
		switch sub, rest := scriptSubcommand(args[1:]); {
		case sub == "LOAD" && len(rest) == 1:
			return v.load(c.upper+" "+sub, rest[0], false), true
		case sub == "FLUSH":
			v.loaded, v.flushed = map[string]string{}, true
		}
	}
	return ScriptUse{}, false
}

// Trace is the script a traced run of src runs: always src itself, which
// the trace also caches, as EVAL would.
func (v *ScriptReview) Trace(src string) ScriptUse {
	return v.load("", src, true)
}

// load notes that src is cached from here on, and says so.
func (v *ScriptReview) load(command, src string, runs bool) ScriptUse {
	sha := emqlua.SHA1Hex(src)
	v.loaded[sha] = src
	return ScriptUse{Command: command, SHA: sha, Source: src, Runs: runs}
}

// source is the text of the script an EVALSHA of sha would find: one the
// reviewed commands load, or one in the engine's cache now.
func (v *ScriptReview) source(sha string) (string, bool) {
	if src, ok := v.loaded[sha]; ok {
		return src, true
	}
	if v.flushed {
		return "", false
	}
	v.e.mu.Lock()
	defer v.e.mu.Unlock()
	if c := v.e.runner.cache[sha]; c != nil {
		return c.src, true
	}
	return "", false
}

// GuardScripts makes the runner refuse every script whose SHA1 allow does
// not hold, until it is called again with nil. A command that would run
// a refused script answers errScriptRefused and runs none of it; one
// queued in MULTI is refused when EXEC runs it. Loading a script (SCRIPT
// LOAD, or the cache entry an EVAL makes) is not running it and goes on.
func (e *Engine) GuardScripts(allow map[string]bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.runner.allow = allow
}

// errScriptRefused is what a script refused by GuardScripts answers: the
// playground's own words, since Redis has no such refusal.
const errScriptRefused = "ERR the playground refused to run this script: it comes from a link, and it is not the Lua you were shown and chose to run"

// refused is the reply of a script the guard does not let run, if it is.
func (r *runner) refused(c *compiled) (resp.Reply, bool) {
	if r.allow == nil || r.allow[c.sha] && !c.function || c.function && r.allow[emqlua.SHA1Hex(c.src)] {
		return resp.Reply{}, false
	}
	r.threw = false // it raised nothing: a trace shows no problem from an earlier run
	return resp.ErrorReply(errScriptRefused + " (script " + c.sha + ")"), true
}

// luaKind is what a command's route does with Lua, for the review.
type luaKind uint8

const (
	luaNone     luaKind = iota
	luaEval             // EVAL, EVALSHA and their _RO forms: runs a script
	luaScript           // SCRIPT: LOAD caches one, FLUSH empties the cache
	luaFcall            // FCALL and FCALL_RO: runs a function of a library
	luaFunction         // FUNCTION: LOAD and RESTORE run a library's code
)

// lookupLocked is lookup for a caller that does not hold the engine lock.
//
//go:noinline
func (e *Engine) lookupLocked(name string) *command {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.lookup(name)
}
