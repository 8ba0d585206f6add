package lua

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestEmbeddedScriptsHaveTheirMoves(t *testing.T) {
	for _, tc := range []struct {
		script *Script
		moves  []string
	}{
		{Enqueue(), []string{"gate", "idempotency", "row", "pending"}},
		{Claim(), []string{"pop", "attempt", "state", "lease"}},
	} {
		var got []string
		for i, m := range tc.script.Moves {
			if m.N != i+1 {
				t.Errorf("%s: move %q is numbered %d, want %d", tc.script.Name, m.Name, m.N, i+1)
			}
			if m.Last < m.First {
				t.Errorf("%s: move %q spans %d..%d", tc.script.Name, m.Name, m.First, m.Last)
			}
			got = append(got, m.Name)
		}
		if strings.Join(got, ",") != strings.Join(tc.moves, ",") {
			t.Errorf("%s moves = %v, want %v", tc.script.Name, got, tc.moves)
		}
	}
}

func TestSHAIsTheSHA1OfTheSource(t *testing.T) {
	// The SHA1 of the empty string, as every SHA1 implementation gives it.
	if got := SHA1Hex(""); got != "da39a3ee5e6b4b0d3255bfef95601890afd80709" {
		t.Fatalf("SHA1Hex(\"\") = %s", got)
	}
	for _, s := range All() {
		if s.SHA != SHA1Hex(s.Source) {
			t.Errorf("%s: SHA %s does not match its source", s.Name, s.SHA)
		}
	}
}

func TestMovesSpanTheRightLines(t *testing.T) {
	s := Parse("t", "local a = 1\n-- @move 1 first\nx()\n\n-- @move 2 second: more words\ny()\nreturn 1\n\n")
	want := []Move{{N: 1, Name: "first", First: 2, Last: 4}, {N: 2, Name: "second", First: 5, Last: 7}}
	if len(s.Moves) != 2 || s.Moves[0] != want[0] || s.Moves[1] != want[1] {
		t.Fatalf("moves = %+v, want %+v", s.Moves, want)
	}
	if _, ok := s.MoveAt(1); ok {
		t.Error("line 1 is before any move")
	}
	if m, _ := s.MoveAt(6); m.Name != "second" {
		t.Errorf("line 6 is in %q", m.Name)
	}
}

func TestScriptWithoutMarkersHasNoMoves(t *testing.T) {
	if s := Parse("t", "return 1"); len(s.Moves) != 0 {
		t.Fatalf("moves = %+v", s.Moves)
	}
}

// TestNoOtherCopyOfTheScripts guards "embedded once": no other file in the
// repository carries a line of the protocol's code.
func TestNoOtherCopyOfTheScripts(t *testing.T) {
	_, self, _, _ := runtime.Caller(0)
	root := filepath.Dir(filepath.Dir(self))
	var lines []string
	for _, s := range All() {
		for _, l := range strings.Split(s.Source, "\n") {
			l = strings.TrimSpace(l)
			if strings.Contains(l, "redis.call(") || strings.Contains(l, "redis.error_reply(") {
				lines = append(lines, l)
			}
		}
	}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "static", "node_modules", "artifacts":
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".js", ".mjs", ".ts", ".templ", ".html", ".css", ".md", ".sh", ".lua", ".txt", ".json":
		default:
			return nil // build outputs and binaries are not copies anyone keeps
		}
		if filepath.Dir(path) == filepath.Join(root, "lua") && strings.HasSuffix(path, ".lua") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, l := range lines {
			if strings.Contains(string(data), l) {
				t.Errorf("%s holds a copy of the script line %q", path, l)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestMoveMarkerReadsWhatTheGrammarSays checks the hand-written marker
// reader against the grammar written as a regexp, on lines near and far
// from markers.
func TestMoveMarkerReadsWhatTheGrammarSays(t *testing.T) {
	grammar := regexp.MustCompile(`^\s*--\s*@move\s+(\d+)\s+([A-Za-z][\w-]*)`)
	for _, line := range []string{
		"-- @move 1 gate", "  --  @move  12  row-write  and more", "\t--\t@move\t3\tpending_set",
		"--@move 1 gate", "-- @move1 gate", "-- @move 1gate", "-- @move x gate", "-- @move 1 9gate",
		"-- @move 1 g", "-- @move 1 ", "-- @move 1", "-- @movex 1 gate", "--- @move 1 gate", "- @move 1 gate",
		"local x = 1 -- @move 1 gate", "", "--", "-- @move", "-- @move 007 zero-padded", "-- @move 1 a-b_c9!",
		"\r-- @move 2 carriage", "-- @move 99999999999999999999 overflow", "-- @move 1 é",
	} {
		m := grammar.FindStringSubmatch(line)
		wantN, wantName, wantOK := 0, "", false
		if m != nil {
			var err error
			wantN, err = strconv.Atoi(m[1])
			wantName, wantOK = m[2], err == nil
		}
		if n, name, ok := moveMarker(line); ok != wantOK || ok && (n != wantN || name != wantName) {
			t.Errorf("%q: moveMarker = %d, %q, %v; the grammar says %q", line, n, name, ok, m)
		}
	}
}

// TestLibraryHoldsTheScripts: the library is the scripts, each unchanged,
// as the body of a function registered under its name.
func TestLibraryHoldsTheScripts(t *testing.T) {
	lib := Library()
	if !strings.HasPrefix(lib, "#!lua name="+LibraryName+"\n") {
		t.Fatalf("the library does not start with its shebang:\n%s", lib)
	}
	for _, s := range All() {
		want := "redis.register_function('" + s.Name + "', function(KEYS, ARGV)\n" + s.Source
		if !strings.Contains(lib, want) {
			t.Errorf("the library does not hold %s.lua unchanged as the body of function %s", s.Name, s.Name)
		}
	}
}
