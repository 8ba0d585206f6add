package page

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"echomq.dev/playground/wasm/engine"
)

// TestDifferencesFollowFidelity keeps the page's list of Lua differences
// (shown in the console and the editor) in step with FIDELITY.md, which
// the fidelity suite writes from what it measured: one entry on the page
// per known-difference row. A new known difference that the page does not
// mention would be one a learner meets without being told.
func TestDifferencesFollowFidelity(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "FIDELITY.md")) // go test runs in web/page
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile("(?m)^\\| `[^`]+` \\|[^\\n]*\\| known difference \\|").FindAll(doc, -1)
	if len(rows) == 0 {
		t.Fatal("FIDELITY.md has no known-difference rows: has its table changed shape?")
	}
	if got := len(DefaultConsole().Lua); got != len(rows) {
		t.Errorf("the page lists %d Lua differences; FIDELITY.md has %d known-difference rows:\n%s", got, len(rows), rows)
	}
}

// TestRunawayEntryNamesTheEngineLimits keeps the page's word on runaway
// scripts in step with the limits the engine enforces: the time budget,
// the memory budget and the longest string.
func TestRunawayEntryNamesTheEngineLimits(t *testing.T) {
	text := DefaultConsole().Runaway[0].Text
	for _, want := range []string{
		fmt.Sprintf("%d ms", engine.Budget.Milliseconds()),
		fmt.Sprintf("%d MiB more memory", engine.MemoryBudget>>20),
		fmt.Sprintf("string may pass %d MiB", engine.MaxStringBytes>>20),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the runaway entry does not say %q:\n%s", want, text)
		}
	}
}
