package api

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"echomq.dev/playground/lua"
)

// A link's review and replay, as links.js uses them: review(ops) names the
// Lua the calls would run, after the console's unescaping and the engine's
// reading of names; replay(op, allowed) runs a call with every other
// script refused. The property that closes the hole: for every spelling
// generated here, if replaying the calls ran a script, the review showed
// that script's text; and replayed with nothing allowed, none ran.

// ranScript writes the key "ran": the mark that Lua ran.
const ranScript = "redis.call('SET', KEYS[1], 'ran') return 'ran'"

var ranSHA = lua.SHA1Hex(ranScript)

// op is one call as a link holds it.
func op(method string, args ...any) []any { return append([]any{method}, args...) }

// reviewOf is review(ops)'s scripts, decoded.
func reviewOf(t *testing.T, p *Playground, ops ...[]any) []map[string]any {
	t.Helper()
	list := make([]any, len(ops))
	for i, o := range ops {
		list[i] = o
	}
	got := call(t, p, "review", list)
	lua, ok := got["lua"].([]any)
	if !ok {
		t.Fatalf("review: %v", got)
	}
	out := make([]map[string]any, len(lua))
	for i, s := range lua {
		out[i] = s.(map[string]any)
	}
	return out
}

// shows reports whether a review showed ranScript, with its text.
func shows(scripts []map[string]any) bool {
	for _, s := range scripts {
		if s["sha"] == ranSHA && s["source"] == ranScript {
			return true
		}
	}
	return false
}

// ran reports whether the key "ran" exists.
func ran(t *testing.T, p *Playground) bool {
	t.Helper()
	return call(t, p, "exec", []any{"EXISTS", "ran"})["value"] == "1"
}

// replayAll replays ops on a fresh playground, each through replay with
// allowed, and reports whether a script wrote "ran".
func replayAll(t *testing.T, allowed []any, ops ...[]any) bool {
	t.Helper()
	p := New()
	for _, o := range ops {
		p.Call("replay", []any{o, allowed})
	}
	return ran(t, p)
}

// escapeEach writes name as a console argument in double quotes with byte
// i written as \xHH (hex in the case given).
func escapeEach(name string, i int, hex string) string {
	return `"` + name[:i] + fmt.Sprintf(`\x`+hex, name[i]) + name[i+1:] + `"`
}

// consoleSpellings are ways to type name at the console that redis-cli's
// splitter may turn into name: each byte, and every byte, as \xHH in
// either case of hex; each letter behind a backslash (which stands for
// itself, except \a \b \n \r \t); single quotes; quotes that start inside
// the argument; and, spelt plainly, each case and each Unicode character
// Go's case mapping takes for one of its letters.
func consoleSpellings(name string) []string {
	var out []string
	all := `"`
	for i := range len(name) {
		out = append(out, escapeEach(name, i, "%02x"), escapeEach(name, i, "%02X"))
		out = append(out, `"`+name[:i]+`\`+name[i:i+1]+name[i+1:]+`"`)
		out = append(out, `"`+name[:i]+`\`+strings.ToLower(name[i:i+1])+name[i+1:]+`"`)
		out = append(out, name[:i]+`"`+name[i:]+`"`, name[:i]+`'`+name[i:]+`'`)
		all += fmt.Sprintf(`\x%02x`, name[i])
	}
	out = append(out, all+`"`, `'`+name+`'`, `'`+strings.ToLower(name)+`'`)
	return append(out, foldSpellings(name)...)
}

// foldSpellings are name in upper and lower case, and with each letter
// that a character of Go's Unicode case mapping stands for (s, i, k)
// written as that character, one at a time and all at once.
func foldSpellings(name string) []string {
	folds := map[byte][]string{'S': {"\u017f"}, 'I': {"\u0131", "\u0130"}, 'K': {"\u212a"}}
	out := []string{name, strings.ToLower(name)}
	all := ""
	for i := range len(name) {
		f := folds[name[i]]
		for _, r := range f {
			out = append(out, name[:i]+r+name[i+1:])
		}
		if len(f) > 0 {
			all += f[0]
		} else {
			all += name[i : i+1]
		}
	}
	return append(out, all)
}

// linkSequences are the calls of the links the property is checked on:
// each console spelling of each command that runs Lua, with the script's
// own text escaped too; each spelling sent by exec, alone and on a named
// connection; SCRIPT LOAD then EVALSHA, each spelt every way with the
// other spelt plainly and folded; and an EVAL queued in MULTI, at the
// console and on a named connection, run by EXEC.
func linkSequences() [][][]any {
	script := `"redis.call('SET', KEYS[1], 'ran')\x20return 'ran'"` // \x20 is the space
	var seqs [][][]any
	for _, name := range []string{"EVAL", "EVAL_RO"} {
		for _, s := range consoleSpellings(name) {
			seqs = append(seqs, [][]any{{"cli", s + " " + script + " 1 ran"}})
		}
		for _, s := range foldSpellings(name) {
			seqs = append(seqs, [][]any{{"exec", []any{s, ranScript, "1", "ran"}}})
			seqs = append(seqs, [][]any{{"exec", []any{s, ranScript, "1", "ran"}, "worker-A"}})
			seqs = append(seqs, [][]any{
				{"exec", []any{"MULTI"}, "worker-B"},
				{"exec", []any{s, ranScript, "1", "ran"}, "worker-B"},
				{"exec", []any{"EXEC"}, "worker-B"},
			})
		}
	}
	for _, s := range consoleSpellings("EVAL") {
		seqs = append(seqs, [][]any{{"cli", "MULTI"}, {"cli", s + " " + script + " 1 ran"}, {"cli", "EXEC"}})
	}
	loads := []string{"SCRIPT", foldSpellings("SCRIPT")[len(foldSpellings("SCRIPT"))-1]}
	evalshas := []string{"EVALSHA", foldSpellings("EVALSHA")[len(foldSpellings("EVALSHA"))-1]}
	for _, name := range []string{"EVALSHA", "EVALSHA_RO"} {
		for _, s := range consoleSpellings(name) {
			for _, load := range loads {
				seqs = append(seqs, [][]any{{"cli", load + " LOAD " + script}, {"cli", s + " " + ranSHA + " 1 ran"}})
			}
			for _, load := range loads {
				seqs = append(seqs, [][]any{{"exec", []any{load, "LOAD", ranScript}}, {"cli", s + " " + ranSHA + " 1 ran"}})
			}
		}
	}
	for _, s := range append(consoleSpellings("SCRIPT"), consoleSpellings("LOAD")...) {
		line := s + " LOAD " + script
		if !strings.Contains(strings.ToUpper(s), "SCRIPT") && !strings.Contains(s, `\x`) && !strings.Contains(s, `\`) {
			line = "SCRIPT " + s + " " + script // a spelling of LOAD
		}
		for _, evalsha := range evalshas {
			seqs = append(seqs, [][]any{{"cli", line}, {"cli", evalsha + " " + ranSHA + " 1 ran"}})
		}
	}
	for _, s := range consoleSpellings("SCRIPT") {
		seqs = append(seqs, [][]any{{"cli", s + " LOAD " + script}, {"exec", []any{"EVALSHA", ranSHA, "1", "ran"}}})
	}
	return seqs
}

func TestReviewShowsTheLuaOfEverySpelling(t *testing.T) {
	runs := 0
	seqs := linkSequences()
	for _, ops := range seqs {
		p := New()
		scripts := reviewOf(t, p, ops...)
		for _, o := range ops {
			p.Call(o[0].(string), o[1:])
		}
		if ran(t, p) {
			runs++
			if !shows(scripts) {
				t.Errorf("%q ran the script, and review showed %v", ops, scripts)
			}
		}
		if replayAll(t, []any{}, ops...) {
			t.Errorf("%q ran the script, replayed with nothing allowed", ops)
		}
	}
	if runs < len(seqs)/5 {
		t.Errorf("only %d of %d links ran the script: the test sends it wrongly", runs, len(seqs))
	}
}

// TestReviewOfTheFoundSpellings holds the three spellings that got past the
// page's old review, each of which wrote a key on open, to what the page
// shows and does: review names the script with its text and the calls that
// run it; replayed with nothing allowed, the script is refused and the
// keyspace stays empty; replayed with what review found, it runs.
func TestReviewOfTheFoundSpellings(t *testing.T) {
	for _, tc := range []struct {
		desc     string
		ops      [][]any
		commands []any
		ops1     []any
	}{
		{"\\x65val at the console", [][]any{op("cli", `"\x65val" "`+ranScript+`" 1 ran`)}, []any{"EVAL"}, []any{0.0}},
		{"\\x53CRIPT LOAD, then \\x45VALSHA", [][]any{
			op("cli", `"\x53CRIPT" LOAD "`+ranScript+`"`),
			op("cli", `"\x45VALSHA" `+ranSHA+` 1 ran`),
		}, []any{"SCRIPT LOAD", "EVALSHA"}, []any{0.0, 1.0}},
		{"\u017fcript LOAD, then EVAL\u017fHA", [][]any{
			op("exec", []any{"\u017fcript", "LOAD", ranScript}),
			op("exec", []any{"EVAL\u017fHA", ranSHA, "1", "ran"}),
		}, nil, nil},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			p := New()
			scripts := reviewOf(t, p, tc.ops...)
			if tc.commands == nil {
				// Redis knows no command ſcript: neither does the engine,
				// and nothing runs.
				if len(scripts) != 0 {
					t.Errorf("review = %v; want nothing", scripts)
				}
			} else {
				want := []map[string]any{{"sha": ranSHA, "source": ranScript, "commands": tc.commands, "ops": tc.ops1}}
				if !reflect.DeepEqual(scripts, want) {
					t.Errorf("review = %v\nwant %v", scripts, want)
				}
			}
			var replies []any
			for _, o := range tc.ops {
				replies = append(replies, p.Call("replay", []any{o, []any{}}))
			}
			if ran(t, p) {
				t.Errorf("replayed with nothing allowed, the script ran: %v", replies)
			}
			allowed := []any{}
			for _, s := range scripts {
				allowed = append(allowed, s["sha"])
			}
			if got, want := replayAll(t, allowed, tc.ops...), tc.commands != nil; got != want {
				t.Errorf("replayed with what review found, ran = %v; want %v", got, want)
			}
		})
	}
}

// TestReviewPassesOverTheLessonsScripts: the lesson's own scripts, which
// the page shows, need no review, whichever way a call names them; a
// learner's script does, once however many calls run it.
func TestReviewPassesOverTheLessonsScripts(t *testing.T) {
	p := New()
	enq := lua.Enqueue()
	scripts := reviewOf(t, p,
		op("enqueue", "q", "JOB-1", "{}"),
		op("claim", "q", 30000.0),
		op("enqueueMany", "q", 10.0, "{}"),
		op("trace", "enqueue", []any{}, []any{}),
		op("trace", enq.Source),
		op("exec", []any{"EVALSHA", enq.SHA, "0"}),
		op("exec", []any{"EVAL", enq.Source, "0"}),
		op("cli", "EVAL 'return 1' 0"),
		op("trace", "return 1"),
		op("cli", "help EVAL"),
		op("cli", `EVAL "unbalanced`),
		op("exec", "not a list"),
		[]any{7.0},
		[]any{},
	)
	want := []map[string]any{{"sha": lua.SHA1Hex("return 1"), "source": "return 1", "commands": []any{"EVAL", "trace"}, "ops": []any{7.0, 8.0}}}
	if !reflect.DeepEqual(scripts, want) {
		t.Errorf("review = %v\nwant %v", scripts, want)
	}
}

// TestReplayRefusesInTheEnginesWords: a refused script answers with the
// playground's sentence and its SHA1, at the console, through exec and in
// a trace; the lesson's scripts run as ever; and replay takes no replay.
func TestReplayRefusesInTheEnginesWords(t *testing.T) {
	p := New()
	refusal := "ERR the playground refused to run this script: it comes from a link, and it is not the Lua you were shown and chose to run (script " + ranSHA + ")"
	got := call(t, p, "replay", op("cli", `EVAL "`+ranScript+`" 1 ran`), []any{})
	if got["text"] != "(error) "+refusal {
		t.Errorf("cli replayed: %v", got)
	}
	got = call(t, p, "replay", op("trace", ranScript, []any{"ran"}), []any{})
	if reply, _ := got["reply"].(map[string]any); reply["value"] != refusal {
		t.Errorf("trace replayed: %v", got)
	}
	got = call(t, p, "replay", op("enqueue", "q", "JOB-1", "{}"), []any{})
	if got["verdict"] != "enqueued" {
		t.Errorf("enqueue replayed: %v", got)
	}
	if ran(t, p) {
		t.Error("a refused script wrote its key")
	}
	// The guard is down again after each replay.
	if got := call(t, p, "cli", `EVAL "`+ranScript+`" 1 ran`); got["text"] != `"ran"` {
		t.Errorf("the console after a replay: %v", got)
	}
	for _, bad := range [][]any{
		{op("replay", op("now"), []any{}), []any{}},
		{"cli", []any{}},
		{op("now"), "all"},
	} {
		if got := call(t, p, "replay", bad...); got["error"] != "args" {
			t.Errorf("replay(%v) = %v; want an args error", bad, got)
		}
	}
}
