package page

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

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
	all := regexp.MustCompile("(?m)^\\| `([^`]+)` \\|[^\\n]*\\| known difference \\|").FindAllSubmatch(doc, -1)
	if len(all) == 0 {
		t.Fatal("FIDELITY.md has no known-difference rows: has its table changed shape?")
	}
	// A commands/ row is a server command the playground answers otherwise
	// (CLUSTER KEYSLOT, as a cluster node; SETRANGE past the string cap):
	// the page names the command among the server's differences, in an
	// entry whose topic begins the row's name (SETRANGE for setrange-cap).
	// A row of another of the server's families (expire/, stream/...) is
	// named the same way with its family in front (EXPIRE for
	// expire/beyond-292-years). Every other row is the Lua's.
	var rows [][]byte
	for _, m := range all {
		family, name, _ := strings.Cut(string(m[1]), "/")
		cmd := name
		switch {
		case family == "commands":
		case serverFamilies[family]:
			cmd = family + "-" + name
		default:
			rows = append(rows, m[0])
			continue
		}
		topic := strings.ToUpper(strings.ReplaceAll(cmd, "-", " "))
		found := false
		for _, d := range DefaultConsole().Server {
			t := strings.ToUpper(d.Topic)
			found = found || topic == t || strings.HasPrefix(topic, t+" ")
		}
		if !found {
			t.Errorf("FIDELITY.md's %s is a known difference the page's server list has no %q entry for", m[1], topic)
		}
	}
	if got := len(DefaultConsole().Lua); got != len(rows) {
		t.Errorf("the page lists %d Lua differences; FIDELITY.md has %d known-difference rows:\n%s", got, len(rows), rows)
	}
}

// serverFamilies are the fidelity cases' families that are about the
// server's commands rather than the Lua inside scripts (besides commands/).
var serverFamilies = map[string]bool{
	"server": true, "expire": true, "stream": true, "dump": true, "block": true, "hll": true,
	"intset": true, "hash": true, "set": true, "zset": true, "bits": true, "tx": true, "type": true,
	"geo": true,
}

// TestRunawayEntryNamesTheEngineLimits keeps the page's word on runaway
// scripts in step with the limits the engine enforces: the work budget and
// the page's last resort,
// the memory budget and the longest string.
func TestRunawayEntryNamesTheEngineLimits(t *testing.T) {
	text := DefaultConsole().Runaway[0].Text
	for _, want := range []string{
		fmt.Sprintf("%.1f billion steps of work", float64(engine.WorkBudget)/1e9),
		fmt.Sprintf("after %d minutes", engine.LastResort/time.Minute),
		fmt.Sprintf("%d MiB more memory", engine.MemoryBudget>>20),
		fmt.Sprintf("string may pass %d MiB", engine.MaxStringBytes>>20),
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the runaway entry does not say %q:\n%s", want, text)
		}
	}
}
