package page

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// nodeOrSkip is the path of node, for the tests that run the page's
// modules under it. Without node the test is skipped, except in CI, where
// that is a failure: the modules would go untested.
func nodeOrSkip(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is not installed")
		}
		t.Skip("node is not installed")
	}
	return node
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
