package needs

import (
	"os"
	"path/filepath"
	"testing"
)

// A program in PATH is found by name; the skip of a missing one is what
// the other tests rely on, and is checked by running one in a sub-test.
func TestProgram(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "echomq-tool")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	t.Setenv("CI", "")
	if got := Program(t, "echomq-tool", "make it"); got != bin {
		t.Errorf("Program = %q, want %q", got, bin)
	}
	skipped := false
	t.Run("missing", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Program(t, "echomq-no-such-tool", "apt-get install nothing")
		t.Error("Program returned for a program that is not in PATH")
	})
	if !skipped {
		t.Error("a missing program outside CI did not skip the test")
	}
}

func TestInCI(t *testing.T) {
	for v, want := range map[string]bool{"true": true, "1": true, "": false, "false": false, "no": false} {
		t.Setenv("CI", v)
		if got := InCI(); got != want {
			t.Errorf("CI=%q: InCI() = %v, want %v", v, got, want)
		}
	}
}
