// Package lua holds the EchoMQ protocol: the Lua scripts the course teaches,
// embedded once. Everything that shows or runs a script (the engine, the
// wasm API, the page, the tests) reads it from here, so there is exactly one
// copy of each script in the program.
package lua

import (
	"crypto/sha1"
	"embed"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

//go:embed *.lua
var files embed.FS

// Script is one protocol script as Redis sees it: its source and the SHA1
// that EVALSHA names it by.
type Script struct {
	Name   string // "enqueue", "claim": the file name without .lua
	Source string
	SHA    string // lower-case hex SHA1 of Source, as SCRIPT LOAD answers
	Moves  []Move
}

// Move is one marked step of a script: the lines from its "-- @move N name"
// marker up to the next marker (or the end of the script).
type Move struct {
	N     int
	Name  string
	First int // line of the marker, 1-based
	Last  int // last line before the next marker
}

var (
	scripts = map[string]*Script{}
	names   []string
)

func init() {
	entries, err := files.ReadDir(".")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		src, err := files.ReadFile(e.Name())
		if err != nil {
			panic(err)
		}
		name := strings.TrimSuffix(e.Name(), ".lua")
		scripts[name] = Parse(name, string(src))
		names = append(names, name)
	}
	sort.Strings(names)
}

// Enqueue is the @enqueue script.
func Enqueue() *Script { return mustGet("enqueue") }

// Claim is the flat @claim script.
func Claim() *Script { return mustGet("claim") }

// Get returns the embedded script with the given name.
func Get(name string) (*Script, bool) {
	s, ok := scripts[name]
	return s, ok
}

// All returns every embedded script, sorted by name.
func All() []*Script {
	out := make([]*Script, len(names))
	for i, n := range names {
		out[i] = scripts[n]
	}
	return out
}

func mustGet(name string) *Script {
	s, ok := scripts[name]
	if !ok {
		panic(fmt.Sprintf("lua: no embedded script %q", name))
	}
	return s
}

// SHA1Hex is the digest Redis names a script by.
func SHA1Hex(src string) string {
	sum := sha1.Sum([]byte(src))
	return hex.EncodeToString(sum[:])
}

// moveMarker reads a "-- @move 3 row" line (anything may follow the name):
// blanks, "--", blanks, "@move", blanks, a number, blanks, and a name of a
// letter then letters, digits, "_" or "-". It is written out rather than a
// regexp because it runs as the program starts, where, in WebAssembly,
// compiling a regexp and first running Go's regexp code cost tens of
// milliseconds of a learner's page load.
func moveMarker(line string) (n int, name string, ok bool) {
	rest, found := strings.CutPrefix(strings.TrimLeft(line, blanks), "--")
	if !found {
		return 0, "", false
	}
	if rest, found = strings.CutPrefix(strings.TrimLeft(rest, blanks), "@move"); !found {
		return 0, "", false
	}
	digits, rest, found := field(rest, func(c byte, _ int) bool { return c >= '0' && c <= '9' })
	if !found {
		return 0, "", false
	}
	name, _, found = field(rest, func(c byte, i int) bool {
		letter := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		return letter || i > 0 && (c >= '0' && c <= '9' || c == '_' || c == '-')
	})
	if !found {
		return 0, "", false
	}
	n, err := strconv.Atoi(digits)
	return n, name, err == nil
}

// blanks are the characters a regexp's \s matches.
const blanks = " \t\n\f\r"

// field skips at least one blank, then takes the longest run of bytes that
// in accepts (given each byte and its place in the run), which must not be
// empty. It returns the run and what follows it.
func field(s string, in func(c byte, i int) bool) (run, rest string, ok bool) {
	trimmed := strings.TrimLeft(s, blanks)
	if len(trimmed) == len(s) {
		return "", s, false
	}
	i := 0
	for i < len(trimmed) && in(trimmed[i], i) {
		i++
	}
	return trimmed[:i], trimmed[i:], i > 0
}

// Parse builds a Script from any source, embedded or written by a learner,
// reading its move markers. A script without markers has no moves; it still
// runs and traces, its steps just carry no move name.
func Parse(name, src string) *Script {
	s := &Script{Name: name, Source: src, SHA: SHA1Hex(src)}
	lines := strings.Split(src, "\n")
	for i, line := range lines {
		n, moveName, ok := moveMarker(line)
		if !ok {
			continue
		}
		if k := len(s.Moves); k > 0 {
			s.Moves[k-1].Last = i
		}
		s.Moves = append(s.Moves, Move{N: n, Name: moveName, First: i + 1})
	}
	if k := len(s.Moves); k > 0 {
		last := len(lines)
		for last > s.Moves[k-1].First && strings.TrimSpace(lines[last-1]) == "" {
			last--
		}
		s.Moves[k-1].Last = last
	}
	return s
}

// MoveAt returns the move whose lines hold line, if any.
func (s *Script) MoveAt(line int) (Move, bool) {
	for _, m := range s.Moves {
		if line >= m.First && line <= m.Last {
			return m, true
		}
	}
	return Move{}, false
}
