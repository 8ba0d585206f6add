//go:build !js

package luasyntax

import (
	"math/rand/v2"
	"strings"
	"testing"

	"echomq.dev/playground/internal/redisserver"
	"echomq.dev/playground/wasm/resp"
)

// compileError is how Redis 7.0 starts the reply to a script that does
// not compile, under EVAL and SCRIPT LOAD alike.
const compileError = "ERR Error compiling script (new function): "

// mutants is how many broken versions of the repository's Lua the
// differential test makes.
const mutants = 2000

// TestAgainstRedis compiles chunks with redis-server and with Check and
// compares the verdicts: the same message for a chunk Redis refuses,
// nil for one it compiles. The chunks are the hand-written cases and
// random mutations of the repository's Lua, from a fixed seed. They go to
// SCRIPT LOAD, which compiles without running, so a chunk that happens to
// loop forever costs nothing.
func TestAgainstRedis(t *testing.T) {
	c := redisserver.Connect(t)

	var chunks []string
	for _, sc := range append(syntaxCases, limitCases()...) {
		chunks = append(chunks, sc.chunk)
	}
	hand := len(chunks)
	chunks = append(chunks, mutate(corpus(t), mutants, rand.New(rand.NewPCG(1, 1)))...)

	matched, refused := 0, 0
	for i, chunk := range chunks {
		r, err := c.Do("SCRIPT", "LOAD", chunk)
		if err != nil {
			t.Fatalf("redis-server: %v", err)
		}
		want := ""
		if r.Kind == resp.Error {
			msg, ok := strings.CutPrefix(r.Str, compileError)
			if !ok {
				t.Fatalf("SCRIPT LOAD %s: unexpected error %q", show(chunk), r.Str)
			}
			want = msg
			refused++
		}
		if got := verdict(chunk); got != want {
			kind := "hand-written"
			if i >= hand {
				kind = "mutated"
			}
			t.Errorf("%s chunk %s\n Check: %q\n redis: %q", kind, show(chunk), got, want)
			continue
		}
		matched++
	}
	t.Logf("%d chunks (%d hand-written, %d mutated), %d refused by Redis; %d verdicts match",
		len(chunks), hand, len(chunks)-hand, refused, matched)
}

// pieces are what the mutations insert: tokens, half tokens, and the
// kinds of mistake a learner makes.
var pieces = []string{
	"(", ")", "[", "]", "{", "}", "=", "==", ",", ";", ":", ".", "..", "...",
	"end", "then", "do", "local", "function", "return", "break", "if", "else",
	"elseif", "until", "repeat", "while", "for", "in", "goto", "nil", "not",
	"and", "or", "+", "-", "*", "/", "//", "%", "^", "#", "~", "~=", "!=",
	"&", "|", "<<", "<", ">=", "'", "\"", "[[", "]]", "[=[", "--[[", "--",
	"1e", "0x", "3..4", "1.2.3", "0x1p4", "5x", ".5", "'\\400'", "'\\9'",
	"\"a\\\nb\"", "x", "1", "'s'", "\n", "\r\n", "@", "$", "\x00", "\x01",
	"\xff", "::l::", "f(", "f\n(", "a.b:c", "local x <const>", "+=", "x =",
	"(f)", "x.y", "...", "function(...) return ... end", "function() return ... end",
	"local function g() end", "do end", "do break end", "return;", "break;",
	"while x do break end", "repeat until x", "for i = 1, 2 do end", "\n(f)()",
	"a, b = 1, 2", "(a) = 1", "f() = 1", "x[1]", "{x = 1, [2] = 3; 4}", "{f\n(1)}",
}

// mutate makes n chunks from the sources by random edits: tokens deleted,
// doubled, swapped or replaced, pieces inserted, bytes inserted anywhere
// (into strings and comments too), and truncation.
func mutate(sources []string, n int, rng *rand.Rand) []string {
	var out []string
	for len(out) < n {
		src := sources[rng.IntN(len(sources))]
		for range 1 + rng.IntN(2) {
			src = mutation(src, rng)
		}
		if strings.HasPrefix(src, "#!") { // a shebang line, not Lua
			continue
		}
		out = append(out, src)
	}
	return out
}

func mutation(src string, rng *rand.Rand) string {
	toks := tokens(src)
	piece := pieces[rng.IntN(len(pieces))]
	if len(toks) == 0 {
		return src + piece
	}
	t := toks[rng.IntN(len(toks))]
	switch rng.IntN(7) {
	case 0: // delete a token
		return src[:t.start] + src[t.end:]
	case 1: // double a token
		return src[:t.end] + " " + src[t.start:]
	case 2: // insert a piece before a token
		return src[:t.start] + piece + " " + src[t.start:]
	case 3: // replace a token with a piece
		return src[:t.start] + piece + src[t.end:]
	case 4: // swap two tokens
		u := toks[rng.IntN(len(toks))]
		if u.start < t.start {
			t, u = u, t
		}
		if t.end > u.start {
			return src
		}
		return src[:t.start] + src[u.start:u.end] + src[t.end:u.start] + src[t.start:t.end] + src[u.end:]
	case 5: // insert a byte anywhere
		i := rng.IntN(len(src) + 1)
		return src[:i] + piece[:1] + src[i:]
	default: // cut the chunk short
		return src[:rng.IntN(len(src)+1)]
	}
}

// tokens are the spans of src's tokens, as far as it lexes.
func tokens(src string) (toks []token) {
	defer func() { _ = recover() }()
	lx := lexer{src: src, line: 1}
	for t := lx.next(); t.kind != tkEOS; t = lx.next() {
		toks = append(toks, t)
	}
	return toks
}
