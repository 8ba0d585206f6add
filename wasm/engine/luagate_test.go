package engine

import (
	"slices"
	"strings"
	"testing"

	emqlua "echomq.dev/playground/lua"
)

// The Lua gate's tests: whatever spelling a command's name takes, if the
// engine runs a script for it, the review named that script; and while the
// guard is up, no script it does not allow runs, however it is reached.

// ranScript writes the key "ran" when it runs: the mark a test looks for.
const ranScript = "redis.call('SET', KEYS[1], 'ran') return 'ran'"

var ranSHA = emqlua.SHA1Hex(ranScript)

// goFolds are the characters that Go's Unicode case mapping turns into an
// ASCII letter (strings.ToUpper, ToLower, EqualFold), each with the
// letters it becomes. Redis compares names byte by byte in ASCII, so for
// Redis none of them is that letter.
var goFolds = map[rune]string{
	'\u017f': "sS", // ſ, long s: upper S
	'\u0131': "iI", // ı, dotless i: upper I
	'\u0130': "iI", // İ, dotted capital I: lower i
	'\u212a': "kK", // K, Kelvin sign: lower k
}

// spellings are ways to write name: in upper case, in lower case, with
// every foldable letter written as a character of goFolds that Go takes
// for it, and, on either case, each letter in turn in each of its other
// forms (its other case, each character Go folds to it).
func spellings(name string) []string {
	upper, lower := strings.ToUpper(name), strings.ToLower(name)
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	add(upper)
	add(lower)
	folded := []rune(upper)
	for i, c := range folded {
		if f := foldsTo(c); len(f) > 0 {
			folded[i] = f[0]
		}
	}
	add(string(folded))
	for _, base := range []string{upper, lower} {
		for i, c := range base {
			forms := append([]rune{rune(strings.ToUpper(string(c))[0]), rune(strings.ToLower(string(c))[0])}, foldsTo(c)...)
			for _, f := range forms {
				add(base[:i] + string(f) + base[i+1:])
			}
		}
	}
	return out
}

// foldsTo is the characters of goFolds that Go takes for the letter c, in
// a fixed order.
func foldsTo(c rune) []rune {
	var out []rune
	for r, letters := range goFolds {
		if strings.ContainsRune(letters, c) {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return out
}

func TestSpellingsCoverCaseAndFolds(t *testing.T) {
	got := spellings("Sa")
	want := []string{"SA", "sa", "\u017fA", "sA", "Sa", "\u017fa"}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("spellings(Sa) = %q, want %q", got, want)
	}
}

// reviewed runs cmds on a fresh keyspace of e, one after another, and
// reports whether a script wrote the key "ran", and whether the review of
// the same commands, made first, named ranScript as run.
func reviewed(e *Engine, cmds ...[]string) (ran, flagged bool) {
	fresh(e)
	v := e.ReviewScripts()
	for _, cmd := range cmds {
		if use, ok := v.Command(cmd); ok && use.Runs && use.Source == ranScript {
			flagged = true
		}
	}
	for _, cmd := range cmds {
		e.exec(cmd...)
	}
	return e.exec("EXISTS", "ran").Int == 1, flagged
}

// fresh empties e's keyspace and script cache and ends a transaction left
// open: what Reset does, for less than a new Lua state costs.
func fresh(e *Engine) {
	e.exec("DISCARD")
	e.exec("FLUSHALL")
	e.exec("SCRIPT", "FLUSH")
}

// guarded runs cmds on a fresh keyspace with the guard up and nothing
// allowed, and reports whether a script wrote the key "ran".
func guarded(e *Engine, cmds ...[]string) bool {
	fresh(e)
	e.GuardScripts(map[string]bool{})
	defer e.GuardScripts(nil)
	for _, cmd := range cmds {
		e.exec(cmd...)
	}
	return e.exec("EXISTS", "ran").Int == 1
}

// TestReviewNamesTheScriptOfEverySpelling sends every spelling of every
// command that runs Lua, alone, after a SCRIPT LOAD, inside MULTI, and
// checks the one property that matters: if a script ran, the review said
// it would, with its text; and with the guard up, none ran at all.
func TestReviewNamesTheScriptOfEverySpelling(t *testing.T) {
	e := MustNew()
	var sequences [][][]string
	for _, name := range []string{"EVAL", "EVAL_RO"} {
		for _, n := range spellings(name) {
			sequences = append(sequences, [][]string{{n, ranScript, "1", "ran"}})
		}
	}
	// Each EVALSHA after a SCRIPT LOAD spelt plainly and spelt with every
	// letter Go folds; each SCRIPT LOAD before an EVALSHA spelt either way.
	scripts, evalshas := spellings("SCRIPT"), spellings("EVALSHA")
	plain := func(s []string) []string { return []string{s[0], s[2]} } // upper case, folded
	for _, name := range []string{"EVALSHA", "EVALSHA_RO"} {
		for _, n := range spellings(name) {
			for _, script := range plain(scripts) {
				load := []string{script, "LOAD", ranScript}
				sequences = append(sequences, [][]string{load, {n, ranSHA, "1", "ran"}})
				sequences = append(sequences, [][]string{load, {n, strings.ToUpper(ranSHA), "1", "ran"}})
			}
		}
	}
	for _, n := range scripts {
		for _, sub := range spellings("LOAD") {
			for _, evalsha := range plain(evalshas) {
				sequences = append(sequences, [][]string{{n, sub, ranScript}, {evalsha, ranSHA, "1", "ran"}})
			}
		}
	}
	// Queued in MULTI, the script runs at EXEC.
	for _, n := range spellings("EVAL") {
		sequences = append(sequences, [][]string{{"MULTI"}, {n, ranScript, "1", "ran"}, {"EXEC"}})
	}
	runs := 0
	for _, cmds := range sequences {
		ran, flagged := reviewed(e, cmds...)
		if ran {
			runs++
		}
		if ran && !flagged {
			t.Errorf("%q ran the script, and the review did not say it would", cmds)
		}
		if guarded(e, cmds...) {
			t.Errorf("%q ran the script with the guard up", cmds)
		}
	}
	// The plain spellings run: the test would prove nothing if none did.
	if runs < 100 {
		t.Errorf("only %d of %d sequences ran the script; the test sends it wrongly", runs, len(sequences))
	}
}

// TestNoOtherCommandRunsLua sends every command Redis 7.0 knows, and
// every subcommand, with a script where its arguments begin, and a script
// after a LOAD: if any of them runs it, the review must say so, and with
// the guard up none may.
func TestNoOtherCommandRunsLua(t *testing.T) {
	e := MustNew()
	var names []string
	for name, c := range redisTable() {
		names = append(names, name)
		for sub := range c.subs {
			names = append(names, name+" "+sub)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		switch strings.Fields(name)[0] {
		case "SHUTDOWN", "DEBUG", "MONITOR", "SUBSCRIBE", "PSUBSCRIBE", "SSUBSCRIBE":
			continue // refused before anything runs (see refusedFromClient)
		}
		// Each name also with every letter Go folds written as the
		// character it takes for it ("EVAL\u017fHA"), which miniredis,
		// upper-casing with Go's rules, would read as the name.
		var heads [][]string
		fields := strings.Fields(name)
		for _, f := range [][]string{fields, {spellings(fields[0])[2]}} {
			heads = append(heads, append(f, fields[1:]...))
		}
		for _, head := range heads {
			for _, tail := range [][]string{
				{ranScript, "1", "ran"},
				{"LOAD", ranScript},
				{"LOAD", ranScript, "1", "ran"},
			} {
				for _, then := range []string{"EVALSHA", spellings("EVALSHA")[2], head[0]} {
					cmds := [][]string{append(slices.Clone(head), tail...), {then, ranSHA, "1", "ran"}}
					if ran, flagged := reviewed(e, cmds...); ran && !flagged {
						t.Errorf("%q ran the script, and the review did not say it would", cmds)
					}
					if guarded(e, cmds...) {
						t.Errorf("%q ran the script with the guard up", cmds)
					}
				}
			}
		}
	}
}

// TestGuardAllowsOnlyWhatItHolds: with the guard up, the scripts it allows
// run and every other one is refused in the playground's words, with its
// SHA1, whether sent alone, by EVALSHA, queued in MULTI or traced; loading
// one is not running it. Down again, everything runs.
func TestGuardAllowsOnlyWhatItHolds(t *testing.T) {
	e := MustNew()
	other := "redis.call('SET', KEYS[1], 'other') return 'other'"
	otherSHA := emqlua.SHA1Hex(other)
	refusal := "(error) " + errScriptRefused + " (script " + otherSHA + ")"
	e.GuardScripts(map[string]bool{ranSHA: true})
	do(t, e, `"ran"`, "EVAL", ranScript, "1", "ran")
	do(t, e, refusal, "EVAL", other, "1", "other")
	do(t, e, `"`+otherSHA+`"`, "SCRIPT", "LOAD", other)
	do(t, e, refusal, "EVALSHA", otherSHA, "1", "other")
	do(t, e, "OK", "MULTI")
	do(t, e, "QUEUED", "EVALSHA", otherSHA, "1", "other")
	do(t, e, "1) "+refusal, "EXEC")
	tr := e.Trace(other, []string{"other"}, nil)
	if got, want := tr.Reply.String(), refusal; got != want || tr.Problem != nil {
		t.Errorf("traced under the guard: %s, problem %v; want %s and no problem", got, tr.Problem, want)
	}
	do(t, e, "(integer) 0", "EXISTS", "other")
	e.GuardScripts(nil)
	do(t, e, `"other"`, "EVALSHA", otherSHA, "1", "other")
}

// TestReviewReadsTheCache: an EVALSHA finds the script a reviewed SCRIPT
// LOAD or EVAL loaded, or one the engine holds already; after a reviewed
// SCRIPT FLUSH, only what is loaded after it; and an EVALSHA of a script
// nobody loaded runs nothing, so there is nothing to show.
func TestReviewReadsTheCache(t *testing.T) {
	e := MustNew()
	e.exec("SCRIPT", "LOAD", ranScript)
	for _, tc := range []struct {
		desc   string
		before [][]string
		want   ScriptUse
		ok     bool
	}{
		{"held by the engine", nil, ScriptUse{"EVALSHA", ranSHA, ranScript, true}, true},
		{"after a flush", [][]string{{"SCRIPT", "FLUSH"}}, ScriptUse{"EVALSHA", ranSHA, "", true}, false},
		{"loaded after the flush", [][]string{{"script", "flush"}, {"eval", ranScript, "0"}}, ScriptUse{"EVALSHA", ranSHA, ranScript, true}, true},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			v := e.ReviewScripts()
			for _, cmd := range tc.before {
				v.Command(cmd)
			}
			got, ok := v.Command([]string{"EVALSHA", strings.ToUpper(ranSHA), "0"})
			if got != tc.want || ok != tc.ok {
				t.Errorf("got %+v, %v; want %+v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
	if got, ok := e.ReviewScripts().Command([]string{"EVALSHA", strings.Repeat("0", 40), "0"}); ok {
		t.Errorf("an EVALSHA of a script nobody loaded: %+v; want nothing", got)
	}
	if got, ok := e.ReviewScripts().Command([]string{"EVAL", ranScript, "2", "k"}); ok {
		t.Errorf("an EVAL with more keys than arguments, which runs nothing: %+v; want nothing", got)
	}
}
