// Package filetest writes and reads the small files a command's test lays
// out (a site to render, compress or serve), failing the test on any error
// so the test itself reads as what it checks.
package filetest

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes data to path, making the directories it needs.
func Write(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Read returns what path holds.
func Read(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
