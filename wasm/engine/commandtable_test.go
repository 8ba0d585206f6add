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
		if r.mayReplicate {
			parts = append(parts, "(a write to scripts and WATCH)")
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
	describeScriptGate(&b)
	return b.String()
}

// describeScriptGate lists what a script's redis.call meets at the gate
// (scriptgate.go), from Redis's table: the commands and subcommands it
// refuses as noscript, the ones the playground refuses to clients that a
// script may call, and the ones Redis lets a script call that miniredis
// lacks, which a script is told are unknown.
func describeScriptGate(b *strings.Builder) {
	e := MustNew()
	var noscript, allowed, lacking []string
	for name, c := range redisTable() {
		if c.noscript {
			noscript = append(noscript, c.name)
		}
		for _, sub := range c.subs {
			if sub.noscript {
				noscript = append(noscript, sub.name)
			}
		}
		switch cmd := e.lookup(name); {
		case c.noscript:
		case cmd.refused:
			allowed = append(allowed, name)
		case !cmd.registered:
			lacking = append(lacking, name)
		}
	}
	for _, l := range [][]string{noscript, allowed, lacking} {
		slices.Sort(l)
	}
	b.WriteString("\n# In scripts (scriptgate.go), from Redis 7.0's table (arity.txt)\n")
	b.WriteString("noscript: " + strings.Join(noscript, " ") + "\n")
	b.WriteString("refused to clients, past the gate from scripts (see refusedCall): " + strings.Join(allowed, " ") + "\n")
	b.WriteString("Redis runs them from scripts, miniredis lacks them (unknown): " + strings.Join(lacking, " ") + "\n")
}
