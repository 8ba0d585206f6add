package page

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestJSUnits runs the modules' own unit tests, web/assets/test/*.test.mjs,
// under Node's test runner (node --test), so that `go test ./web/...`
// covers the page's pure modules (diff.js, permalink.js, options.js) as
// TestFormatting covers format.js. They live in a subdirectory, which the
// renderer does not copy into the site. Without node it is skipped, except
// in CI.
func TestJSUnits(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is not installed")
		}
		t.Skip("node is not installed")
	}
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
