package api

import (
	"bytes"
	"strings"

	"echomq.dev/playground/wasm/engine"
)

// The note beside a reply that Redis leaves open (engine.Undefined): the
// order of a hash table, a random pick, a script's walk of a table in an
// order Lua 5.1 leaves to its internals. The playground cannot give
// Redis's answer there, and says so, where a learner comparing it with a
// real server would otherwise meet a silent difference. cli, exec and
// trace carry it as "note".

// undefinedNote words u for a learner, or "" for a reply Redis defines.
func undefinedNote(u engine.Undefined) string {
	var says []string
	if u&engine.UndefinedOrder != 0 {
		says = append(says, "Redis may order these differently: it lists a hash table's members in the order of its internals, which no other engine reproduces.")
	}
	if u&engine.UndefinedPick != 0 {
		says = append(says, "Redis picks at random here: its pick will not be this one.")
	}
	if u&engine.UndefinedWalk != 0 {
		says = append(says, "Redis may order these differently: the script walked a table with pairs or next, "+
			"and for its keys (a table or a function as a key, or numbers other than 1, 2, 3 ...) the order of that walk depends on Lua's internals.")
	}
	return strings.Join(says, " ")
}

// joinNotes puts two notes side by side.
func joinNotes(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + " " + b
}

// withNote adds note to a reply as exec returns it, for the contract's
// {type, value, note}. A reply written as text already (replyValue) gets
// the key where encoding/json would put it, before "type", so the text is
// the one the plain path (an Object) gives byte for byte.
func withNote(reply any, note string) any {
	if note == "" {
		return reply
	}
	switch r := reply.(type) {
	case Object:
		r["note"] = note
		return r
	case replyValue:
		at := bytes.Index(r, []byte(`"type":`))
		if at < 0 {
			return reply
		}
		out := make(replyValue, 0, len(r)+len(note)+16)
		out = append(out, r[:at]...)
		out = appendField(out, `"note":`, note)
		out = append(out, ',')
		return append(out, r[at:]...)
	}
	return reply
}
