package engine

import (
	"strings"
	"testing"

	emqlua "echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/rdb"
)

// TestFunctionFlush: FUNCTION FLUSH, which Redis's own test suite sends
// before every group of tests, answers OK with either mode and refuses
// anything else in Redis 7.0's words.
func TestFunctionFlush(t *testing.T) {
	e := MustNew()
	do(t, e, "OK", "FUNCTION", "FLUSH")
	do(t, e, "OK", "FUNCTION", "FLUSH", "async")
	do(t, e, "OK", "function", "flush", "SYNC")
	do(t, e, "(error) ERR FUNCTION FLUSH only supports SYNC|ASYNC option", "FUNCTION", "FLUSH", "x")
	do(t, e, "(error) ERR unknown subcommand or wrong number of arguments for 'FLuSH'. Try FUNCTION HELP.", "FUNCTION", "FLuSH", "a", "b")
	do(t, e, "(error) ERR unknown subcommand 'foo'. Try FUNCTION HELP.", "FUNCTION", "foo")
	do(t, e, "(error) ERR wrong number of arguments for 'function' command", "FUNCTION")
}

// ranLibrary registers ran, which writes the key "ran" as ranScript does.
const ranLibrary = "#!lua name=ranlib\nredis.register_function('ran', function(keys) redis.call('SET', keys[1], 'ran') return 'ran' end)"

// TestFunctionsPassTheLuaGate: FUNCTION LOAD and FUNCTION RESTORE run a
// library's code, and FCALL runs one of its functions. Spelt any way the
// engine reads them, alone or queued in MULTI, the review names the
// library's code wherever one runs, and with the guard up and nothing
// allowed no library loads and no function runs, not even one loaded
// before the guard went up; allowed, they run.
func TestFunctionsPassTheLuaGate(t *testing.T) {
	e := MustNew()
	e.exec("FUNCTION", "LOAD", ranLibrary)
	payload := e.exec("FUNCTION", "DUMP").Str
	var sequences [][][]string
	for _, fn := range spellings("FUNCTION") {
		for _, sub := range []string{"LOAD", "load"} {
			sequences = append(sequences, [][]string{{"FUNCTION", "FLUSH"}, {fn, sub, ranLibrary}, {"FCALL", "ran", "1", "ran"}})
			sequences = append(sequences, [][]string{{"FUNCTION", "FLUSH"}, {fn, sub, "REPLACE", ranLibrary}, {"FCALL", "ran", "1", "ran"}})
		}
		sequences = append(sequences, [][]string{{"FUNCTION", "FLUSH"}, {fn, "RESTORE", payload}, {"FCALL", "ran", "1", "ran"}})
		sequences = append(sequences, [][]string{{"FUNCTION", "FLUSH"}, {"MULTI"}, {fn, "LOAD", ranLibrary}, {"FCALL", "ran", "1", "ran"}, {"EXEC"}})
	}
	for _, name := range []string{"FCALL", "FCALL_RO"} {
		for _, n := range spellings(name) {
			sequences = append(sequences, [][]string{{n, "ran", "1", "ran"}}, [][]string{{"MULTI"}, {n, "RAN", "1", "ran"}, {"EXEC"}})
		}
	}
	runs := 0
	for _, cmds := range sequences {
		reload := func() {
			e.exec("FUNCTION", "FLUSH")
			e.exec("FUNCTION", "LOAD", ranLibrary)
		}
		reload()
		ran, flagged := reviewedLibrary(e, cmds...)
		if ran {
			runs++
		}
		if ran && !flagged {
			t.Errorf("%q ran the library's function, and the review did not name its code", cmds)
		}
		reload()
		if guarded(e, cmds...) {
			t.Errorf("%q ran the library's function with the guard up", cmds)
		}
	}
	if runs < len(sequences)/2 {
		t.Errorf("only %d of %d sequences ran the function; the test sends it wrongly", runs, len(sequences))
	}
	e.exec("FUNCTION", "FLUSH")
	e.GuardScripts(map[string]bool{})
	do(t, e, "(error) "+errScriptRefused+" (script "+emqlua.SHA1Hex(ranLibrary)+")", "FUNCTION", "LOAD", ranLibrary)
	do(t, e, "(empty array)", "FUNCTION", "LIST")
	e.GuardScripts(map[string]bool{emqlua.SHA1Hex(ranLibrary): true})
	do(t, e, `"ranlib"`, "FUNCTION", "LOAD", ranLibrary)
	do(t, e, `"ran"`, "FCALL", "ran", "1", "ran")
	e.GuardScripts(nil)
}

// reviewedLibrary is reviewed for a library: whether a function wrote
// the key "ran", and whether the review named ranLibrary's code as run.
func reviewedLibrary(e *Engine, cmds ...[]string) (ran, flagged bool) {
	e.exec("DISCARD")
	e.exec("FLUSHALL")
	v := e.ReviewScripts()
	for _, cmd := range cmds {
		for _, use := range v.Uses(cmd) {
			if use.Runs && use.Source == ranLibrary && use.SHA == emqlua.SHA1Hex(ranLibrary) {
				flagged = true
			}
		}
	}
	for _, cmd := range cmds {
		e.exec(cmd...)
	}
	return e.exec("EXISTS", "ran").Int == 1, flagged
}

// TestFunctionsRunUnderTheBudget: a function runs under the runner's
// budget as a script does: one that never ends is stopped with the same
// words, LastStop says why, and the next command (and function) runs; a
// library whose code never ends fails to load as Redis's load timeout
// words it, and is not loaded.
func TestFunctionsRunUnderTheBudget(t *testing.T) {
	withWork(t, 200_000)
	e := MustNew()
	do(t, e, `"spin"`, "FUNCTION", "LOAD", "#!lua name=spin\nredis.register_function('spin', function() while true do end end)\nredis.register_function('ok', function() return 'ok' end)")
	do(t, e, "(error) "+KilledError+" script: spin, on @user_function:2.", "FCALL", "spin", "0")
	if got := e.LastStop(); got != StoppedByWork {
		t.Errorf("LastStop after a runaway function = %v, want StoppedByWork", got)
	}
	do(t, e, `"ok"`, "FCALL", "ok", "0")
	do(t, e, "(error) ERR Error registering functions: ERR FUNCTION LOAD timeout", "FUNCTION", "LOAD", "#!lua name=forever\nwhile true do end")
	if got := e.LastStop(); got != StoppedByWork {
		t.Errorf("LastStop after a runaway load = %v, want StoppedByWork", got)
	}
	do(t, e, "(empty array)", "FUNCTION", "LIST", "LIBRARYNAME", "forever")
}

// TestFunctionsShareTheRunnerButNotItsGlobals: functions and scripts run
// in one Lua state, yet a function sees no KEYS or ARGV left by a script,
// a script cannot reach redis.register_function, SCRIPT FLUSH leaves the
// libraries and Reset removes them.
func TestFunctionsShareTheRunnerButNotItsGlobals(t *testing.T) {
	e := MustNew()
	do(t, e, `"g"`, "FUNCTION", "LOAD", "#!lua name=g\nredis.register_function('keys', function(keys) return keys[1] end)\nredis.register_function('k', function() return KEYS end)")
	do(t, e, `"a"`, "EVAL", "return KEYS[1]", "1", "a")
	do(t, e, `"b"`, "FCALL", "keys", "1", "b")
	do(t, e, "(error) ERR user_function:3: Script attempted to access nonexistent global variable 'KEYS' script: k, on @user_function:3.", "FCALL", "k", "0")
	do(t, e, "(nil)", "EVAL", "return redis.register_function", "0")
	do(t, e, "OK", "SCRIPT", "FLUSH")
	do(t, e, `"b"`, "FCALL", "keys", "1", "b")
	e.Reset()
	do(t, e, "(error) ERR Function not found", "FCALL", "keys", "1", "b")
}

// FuzzFunctionRestore: FUNCTION RESTORE of any payload, with any policy,
// answers OK or an error and never panics; an error leaves the libraries
// as they were, and what it restores FUNCTION DUMP gives back.
func FuzzFunctionRestore(f *testing.F) {
	e := MustNew()
	e.exec("FUNCTION", "LOAD", ranLibrary)
	f.Add(e.exec("FUNCTION", "DUMP").Str, "APPEND")
	f.Add(rdb.DumpFunctions([]string{"#!lua name=other\nredis.register_function('other', function() return 1 end)"}), "FLUSH")
	f.Add(rdb.DumpFunctions([]string{"#!lua name=bad\nreturn (", ranLibrary}), "REPLACE")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, payload, policy string) {
		e := MustNew()
		e.exec("FUNCTION", "LOAD", ranLibrary)
		before := e.exec("FUNCTION", "DUMP").Str
		args := []string{"FUNCTION", "RESTORE", payload}
		if policy != "" {
			args = append(args, policy)
		}
		r := e.exec(args...)
		after := e.exec("FUNCTION", "DUMP").Str
		switch {
		case r.IsError() && after != before:
			t.Fatalf("RESTORE failed (%s) and changed the libraries", r.Str)
		case !r.IsError() && r.Str != "OK":
			t.Fatalf("RESTORE answered %v", r)
		}
		if !r.IsError() {
			e.exec("FUNCTION", "FLUSH")
			if r := e.exec("FUNCTION", "RESTORE", after); r.IsError() {
				t.Fatalf("the DUMP of what RESTORE made does not restore: %s", r.Str)
			}
			if again := e.exec("FUNCTION", "DUMP").Str; again != after {
				t.Fatalf("restored again, the libraries differ")
			}
		}
	})
}

// FuzzLibraryMeta: libraryMeta reads any code without a panic; code it
// takes begins "#!" and ends its first line, and its body is the code
// with that line emptied, so lines keep their numbers.
func FuzzLibraryMeta(f *testing.F) {
	for _, s := range []string{ranLibrary, "#!lua name=a b\n", "#!lua\tNAME=x\r\nreturn 1", "#!lua \"name=q\"\n", "#! lua name=a\n", "#!lua name=a name=b\n", "#!lua", "return 1", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		_, _, body, msg := libraryMeta(code)
		if msg != "" {
			return
		}
		_, rest, ok := strings.Cut(code, "\n")
		if !ok || !strings.HasPrefix(code, "#!") {
			t.Fatalf("libraryMeta(%q) took code with no first line of metadata", code)
		}
		if body != "\n"+rest {
			t.Fatalf("libraryMeta(%q): body %q, want the code with its first line emptied", code, body)
		}
	})
}
