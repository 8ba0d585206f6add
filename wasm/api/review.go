package api

import (
	"slices"

	"echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/cli"
)

// A permalink's calls were recorded by somebody else, and some of them
// can run Lua: an EVAL at the console or in exec, a script loaded with
// SCRIPT LOAD and run by EVALSHA, an edited script traced. Before the
// page replays a link it asks review which Lua the calls would run, and
// shows exactly that; then it replays each call through replay, which
// lets the engine run only the lesson's scripts and the ones the learner
// was shown and chose to run. review reads each call the way the call
// itself will be read (the console's splitter, the engine's command
// lookup, the runner's argument checks; see engine.ScriptReview), and
// replay holds to the result even where review were wrong.

// linkScript is one script a link's calls would run or load, with the
// calls that do.
type linkScript struct {
	sha, source string
	commands    []string // how each call names it: "EVAL", "SCRIPT LOAD", "trace"
	ops         []int    // the calls, by their place in the link (from 0)
}

// review answers review(ops): {lua: [{sha, source, commands, ops}]}, the
// scripts other than the lesson's own that the calls would run or load,
// each once, in the order the calls first name them. A call whose
// arguments are not the method's is passed over: replayed, it fails with
// an args error and runs nothing.
func (p *Playground) review(a *params) (any, error) {
	ops, ok := a.args[0].([]any)
	if !ok {
		return nil, argsf("ops must be an array of calls, as a link holds them, got %s", typeName(a.args[0]))
	}
	v := p.engine.ReviewScripts()
	var found []*linkScript
	note := func(i int, command, sha, source string) {
		if lessonScript(sha) {
			return
		}
		at := slices.IndexFunc(found, func(s *linkScript) bool { return s.sha == sha })
		if at < 0 {
			found = append(found, &linkScript{sha: sha, source: source})
			at = len(found) - 1
		}
		s := found[at]
		if s.source == "" {
			s.source = source
		}
		s.commands, s.ops = append(s.commands, command), append(s.ops, i)
	}
	for i, op := range ops {
		call, ok := op.([]any)
		if !ok || len(call) == 0 {
			continue
		}
		method, _ := call[0].(string)
		args := call[1:]
		switch method {
		case "exec", "cli":
			cmd, ok := commandOf(method, args)
			if !ok {
				continue
			}
			for _, use := range v.Uses(cmd) {
				note(i, use.Command, use.SHA, use.Source)
			}
		case "trace":
			if len(args) == 0 {
				continue
			}
			if script, err := text(args[0], "script"); err == nil {
				use := v.Trace(traceSource(script))
				note(i, "trace", use.SHA, use.Source)
			}
		}
	}
	out := make([]Object, len(found))
	for i, s := range found {
		out[i] = Object{"sha": s.sha, "source": s.source, "commands": s.commands, "ops": s.ops}
	}
	return Object{"lua": out}, nil
}

// commandOf is the command an exec or cli call sends, read as exec and cli
// read it; false when it sends none.
func commandOf(method string, args []any) ([]string, bool) {
	if len(args) == 0 {
		return nil, false
	}
	if method == "exec" {
		cmd, err := stringList(args[0], "args")
		return cmd, err == nil && len(cmd) > 0
	}
	line, err := text(args[0], "line")
	if err != nil {
		return nil, false
	}
	cmd, err := cli.Split(line)
	if err != nil || len(cmd) == 0 || isHelp(cmd) {
		return nil, false
	}
	return cmd, true
}

// lessonScript reports whether sha names one of the lesson's own scripts,
// which the page shows and every learner has seen.
func lessonScript(sha string) bool {
	for _, s := range lua.All() {
		if s.SHA == sha {
			return true
		}
	}
	return false
}

// replay answers replay(op, allowed): the call op ([method, ...args], as a
// link holds it) run as call would run it, with the engine refusing every
// script but the lesson's and those whose SHA1 allowed names (the ones
// review found and the learner chose to run). The refusal is the script's
// reply, so the rest of the link replays as it would.
func (p *Playground) replay(a *params) (any, error) {
	call, ok := a.args[0].([]any)
	if !ok || len(call) == 0 {
		return nil, argsf("op must be a call as a link holds it, [method, ...args], got %s", typeName(a.args[0]))
	}
	method, ok := call[0].(string)
	if !ok {
		return nil, argsf("op[0] must name a method, got %s", typeName(call[0]))
	}
	if method == "replay" {
		return nil, argsf("replay(op, allowed): op cannot be another replay")
	}
	shas := a.strings(1)
	if a.err != nil {
		return nil, a.err
	}
	allow := map[string]bool{}
	for _, s := range lua.All() {
		allow[s.SHA] = true
	}
	for _, sha := range shas {
		allow[sha] = true
	}
	p.engine.GuardScripts(allow)
	defer p.engine.GuardScripts(nil)
	return replayed(p, method, call[1:])
}

// replayed is Playground.call, for replay: the methods table names replay,
// and replay runs a method of the table, so the link between them is made
// when the package starts rather than in the table itself.
var replayed func(p *Playground, method string, args []any) (any, error)

func init() { replayed = (*Playground).call }
