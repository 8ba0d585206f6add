// The console's method: a line typed at redis-cli's prompt, and the notes
// it gets (help, a stopped script).

package api

import (
	"strings"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/cli"
	"echomq.dev/playground/wasm/docs"
	"echomq.dev/playground/wasm/engine"
)

// cli runs one line typed at the console's prompt, as redis-cli would:
// split into arguments, sent on the console's connection, and the reply
// formatted as redis-cli prints it. A line redis-cli would refuse to send
// comes back as {error:"syntax"} with redis-cli's words; a blank line
// sends nothing and prints nothing, as at redis-cli's prompt.
func (p *Playground) cli(line string) Object {
	args, err := cli.Split(line)
	if err != nil {
		return Object{"error": "syntax", "message": err.Error()}
	}
	if len(args) == 0 {
		return Object{"args": []string{}, "text": ""}
	}
	if isHelp(args) {
		return help(args[1:])
	}
	r, _ := p.console.Do(args...)
	// The depth is checked before the text is made: a deep reply of
	// two-element arrays would print as megabytes of indent.
	reply, err := p.replyJSON(r)
	if err != nil {
		return p.errorObject(err)
	}
	out := Object{"args": args, "reply": reply, "text": cli.Format(r)}
	note := joinNotes(stoppedNote(p.console.LastStop(), p.engine.ScriptWork()), undefinedNote(p.console.LastUndefined()))
	if ms := p.console.LastUnwaited(); ms > 0 {
		note = joinNotes(unwaitedNote(args[0], ms), note)
	}
	if note != "" {
		out["note"] = note
	}
	return out
}

// isHelp reports whether a console line's arguments are redis-cli's help,
// which it answers itself and sends nothing for.
func isHelp(args []string) bool { return ascii.EqualFold(args[0], "help") }

// help answers redis-cli's `help <command>` for the lesson's commands, as
// redis-cli does: on the client, sending nothing (so args is empty and no
// widget needs to look at the keyspace again). command names the card
// the page can open beside it.
func help(topic []string) Object {
	if len(topic) == 0 {
		return Object{"args": []string{}, "text": "To get help about a command the lesson uses, type \"help <command>\", for example \"help ZPOPMIN\".\n" +
			"The console knows: " + strings.Join(docs.Names(), ", ") + "."}
	}
	c, ok := docs.Lookup(strings.Join(topic, " "))
	if !ok {
		return Object{"args": []string{}, "text": "", "note": "The playground's help covers the commands the lesson uses: " + strings.Join(docs.Names(), ", ") + "."}
	}
	return Object{"args": []string{}, "text": docs.Help(c), "command": c.Name}
}

// stoppedNote tells a learner, in plain words, what the SCRIPT KILL error
// of a script the engine stopped means here, or "" when the engine stopped
// none (a script may return those words itself). The engine's runner says
// which budget stopped it, not how long the call took.
// (strconv, not fmt: package init runs on every page load.)
func stoppedNote(why engine.Stop, work uint64) string {
	var what string
	switch why {
	case engine.StoppedByWork:
		what = "once it had done " + inWords(work) + " steps of work (its budget, the same on every machine)"
	case engine.StoppedByClock:
		what = "after " + lastResortInWords() + ", the longest the page waits for a script on a machine too busy to reach its work budget"
	default:
		return ""
	}
	return "The playground stopped this script " + what + ", as Redis's SCRIPT KILL would. " +
		"Anything it wrote before then stays in the keyspace: nothing is rolled back. " +
		"(A real Redis refuses SCRIPT KILL once a script has written; only SHUTDOWN NOSAVE would stop it then.)"
}
