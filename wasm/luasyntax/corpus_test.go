//go:build !js

package luasyntax

import (
	"go/ast"
	goparser "go/parser"
	gotoken "go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	emqlua "echomq.dev/playground/lua"
)

// snippetSources are the test files whose Lua the corpus collects: the
// fidelity cases and the engine's tests.
var snippetSources = []string{"../fidelity/cases_test.go", "../engine/*_test.go"}

// deliberatelyInvalid are the chunks those files send to get a compile
// error on purpose.
var deliberatelyInvalid = []string{
	// errors/compile-wording in wasm/fidelity
	"local 1 = 2", "end", "return 'abc", "for", "goto continue", "return 0x",
	"local t = {1, 2", "if true then", "return [[never closed", "return 1 & 2",
	"--[[ unclosed comment", "return function", "a.b:c = 1",
	"while true do break x = 1 end", "x = 1;;", "local x = y\n(f)()",
	"function f() return ... end", "if x then\n  y = 1\nelse\n  z = 2\n",
	"local function f()\n  return {1,\n    2\nend",
	// errors/compile, sandbox/shebang and cache/failed-run-is-cached in
	// wasm/fidelity, and the engine's tests
	"return 1 +", "return (", "x = = 1", "\n\n\n\nreturn +", "return 1 ++ 2",
	"x = 1 // 2", "return )", "local x = 1 1", "\nreturn 1 +", "return ((",
}

// corpus is the Lua the repository runs and expects to compile: its
// protocol scripts and the snippets its tests send to EVAL, as far as they
// are string literals in the source.
func corpus(t testing.TB) []string {
	var out []string
	for _, s := range emqlua.All() {
		out = append(out, s.Source)
	}
	for _, pattern := range snippetSources {
		files, err := filepath.Glob(pattern)
		if err != nil || len(files) == 0 {
			t.Fatalf("no files match %s (%v)", pattern, err)
		}
		for _, file := range files {
			for _, s := range snippets(t, file) {
				// Redis compiles a script with a "#!" line as if that line
				// were empty, and refuses one without a line break.
				if strings.HasPrefix(s, "#!") {
					_, rest, ok := strings.Cut(s, "\n")
					if !ok {
						continue
					}
					s = "\n" + rest
				}
				out = append(out, s)
			}
		}
	}
	return out
}

// snippets finds the Lua in a Go test file: the first argument of calls to
// eval, evalKeys and evalsha, each expression of each(...) as the function
// body it becomes, the argument after "EVAL" or "EVAL_RO" in any call or
// composite literal, and src: fields.
func snippets(t testing.TB, file string) []string {
	f, err := goparser.ParseFile(gotoken.NewFileSet(), file, nil, goparser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	add := func(e ast.Expr) {
		if s, ok := stringConstant(e); ok {
			out = append(out, s)
		}
	}
	afterEval := func(list []ast.Expr) {
		for i := 0; i+1 < len(list); i++ {
			// A list of command names ({"EVAL", "EVAL_RO"}) holds no Lua.
			if s, ok := stringConstant(list[i]); ok && (s == "EVAL" || s == "EVAL_RO") {
				if next, _ := stringConstant(list[i+1]); next != "EVAL_RO" {
					add(list[i+1])
				}
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			name := ""
			switch fun := n.Fun.(type) {
			case *ast.Ident:
				name = fun.Name
			case *ast.SelectorExpr:
				name = fun.Sel.Name
			}
			switch {
			case slices.Contains([]string{"eval", "evalKeys", "evalsha"}, name) && len(n.Args) > 0:
				add(n.Args[0])
			case name == "each":
				for _, a := range n.Args {
					if s, ok := stringConstant(a); ok {
						out = append(out, "return "+s)
					}
				}
			}
			afterEval(n.Args)
		case *ast.CompositeLit:
			afterEval(n.Elts)
		case *ast.KeyValueExpr:
			if k, ok := n.Key.(*ast.Ident); ok && k.Name == "src" {
				add(n.Value)
			}
		}
		return true
	})
	return out
}

// stringConstant is the value of a string literal or a sum of them.
func stringConstant(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == gotoken.STRING {
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		}
	case *ast.BinaryExpr:
		if e.Op == gotoken.ADD {
			x, ok1 := stringConstant(e.X)
			y, ok2 := stringConstant(e.Y)
			return x + y, ok1 && ok2
		}
	case *ast.ParenExpr:
		return stringConstant(e.X)
	}
	return "", false
}

// TestAcceptsTheRepositorysLua checks that every script and snippet the
// repository compiles is accepted, but for the ones sent to fail.
func TestAcceptsTheRepositorysLua(t *testing.T) {
	chunks := corpus(t)
	if len(chunks) < 100 {
		t.Fatalf("found only %d chunks; has the way the tests spell EVAL changed?", len(chunks))
	}
	for _, chunk := range chunks {
		err := Check("user_script", chunk)
		if err != nil && !slices.Contains(deliberatelyInvalid, chunk) {
			t.Errorf("Check(%s) = %v; the repository expects it to compile", show(chunk), err)
		}
	}
}
