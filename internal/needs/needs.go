// Package needs finds the programs a test needs from the machine (node,
// redis-cli). Without one the test is skipped, except in CI (CI=true),
// where a missing program is a failure: CI must run every test, and a
// skip there would pass without testing anything.
package needs

import (
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// InCI reports whether the tests run in CI: the environment variable CI is true.
func InCI() bool {
	ci, _ := strconv.ParseBool(os.Getenv("CI"))
	return ci
}

// Program is the path of the program name in PATH. Without it the test is
// skipped, or failed in CI; install says how to get it (apt-get install ...).
func Program(tb testing.TB, name, install string) string {
	tb.Helper()
	bin, err := exec.LookPath(name)
	if err != nil {
		if InCI() {
			tb.Fatalf("%s not found in PATH: %v (%s)", name, err, install)
		}
		tb.Skipf("%s not found in PATH, skipping: %v (%s)", name, err, install)
	}
	return bin
}
