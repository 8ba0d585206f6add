package page

import (
	"os/exec"
	"path/filepath"
	"testing"

	"echomq.dev/playground/internal/needs"
)

// nodeOrSkip is the path of node, for the tests that run the page's
// modules under it (skipped without node, failed in CI).
func nodeOrSkip(t *testing.T) string {
	return needs.Program(t, "node", "apt-get install nodejs")
}

// TestJSUnits runs the modules' own unit tests, web/assets/test/*.test.mjs,
// under Node's test runner (node --test), so that `go test ./web/...`
// covers the page's pure modules (diff.js, permalink.js, options.js) as
// TestFormatting covers format.js. They live in a subdirectory, which the
// renderer does not copy into the site. Without node it is skipped, except
// in CI.
func TestJSUnits(t *testing.T) {
	node := nodeOrSkip(t)
	files, err := filepath.Glob(filepath.Join(assetsDir, "test", "*.test.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no web/assets/test/*.test.mjs: the module tests are missing")
	}
	cmd := exec.Command(node, append([]string{"--test"}, files...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node --test %v: %v\n%s", files, err, out)
	}
}
