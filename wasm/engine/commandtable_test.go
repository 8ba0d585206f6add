package engine

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"echomq.dev/playground/internal/redisdiff"
)

const commandsGolden = "testdata/commands.golden"

// TestCommandTable lists, for every command the engine treats specially,
// what it goes through, outermost first, and compares the list with
// testdata/commands.golden: a change to the table is a change to that
// file, which a reviewer reads. Rewrite it with go test -run
// TestCommandTable -update.
func TestCommandTable(t *testing.T) {
	got := describeCommands()
	if redisdiff.Update() {
		if err := os.WriteFile(commandsGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(commandsGolden)
	if err != nil {
		t.Fatalf("%v (write it with go test -run TestCommandTable -update)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for _, l := range wl {
			if !slices.Contains(gl, l) {
				t.Errorf("gone: %s", l)
			}
		}
		for _, l := range gl {
			if !slices.Contains(wl, l) {
				t.Errorf("new:  %s", l)
			}
		}
		t.Errorf("the command table differs from %s: if that is intended, rewrite it with go test -run TestCommandTable -update", commandsGolden)
	}
}

// describeCommands is the table as text, one command a line, in name
// order, followed by the commands clients and scripts may not send.
func describeCommands() string {
	var b strings.Builder
	b.WriteString("# What each command the engine treats specially goes through on dispatch,\n")
	b.WriteString("# outermost first (see commandtable.go). Written by TestCommandTable -update.\n")
	table := commandRoutes()
	names := make([]string, 0, len(table))
	for name := range table {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		r := table[name]
		var parts []string
		for _, s := range r.steps {
			parts = append(parts, fmt.Sprintf("%s: %s (%s)", s.kind, s.what, s.file))
		}
		if n := len(r.steps); n > 0 && (r.steps[n-1].kind == wrapped || r.steps[n-1].kind == corrected) {
			parts = append(parts, "miniredis")
		}
		if r.shape != nil {
			parts = append(parts, "RESP3: "+r.shapeWhat)
		}
		if r.absent {
			parts = append(parts, "(miniredis lacks it)")
		}
		fmt.Fprintf(&b, "%-17s %s\n", name, strings.Join(parts, " > "))
	}
	b.WriteString("\n# Refused to clients (engine.go), by reason\n")
	byReason := map[string][]string{}
	for name, msg := range refusedFromClient {
		byReason[msg] = append(byReason[msg], name)
	}
	reasons := make([]string, 0, len(byReason))
	for msg := range byReason {
		reasons = append(reasons, msg)
	}
	slices.Sort(reasons)
	for _, msg := range reasons {
		slices.Sort(byReason[msg])
		fmt.Fprintf(&b, "%s: %s\n", strings.Join(byReason[msg], " "), msg)
	}
	b.WriteString("\n# Refused in scripts (redislib.go)\n")
	var noscript []string
	for name := range refusedInScript {
		noscript = append(noscript, name)
	}
	slices.Sort(noscript)
	b.WriteString(strings.Join(noscript, " ") + "\n")
	return b.String()
}
