package sitefile

import (
	"os"
	"path/filepath"
	"testing"

	"echomq.dev/playground/internal/filetest"
)

// TestReplace: the new bytes replace the old ones, the file is readable by
// a server (the temporary file it was is 0600), and no temporary file is
// left next to it.
func TestReplace(t *testing.T) {
	path := filepath.Join(t.TempDir(), "index.html")
	filetest.Write(t, path, "old")
	if err := Replace(path, []byte("new page")); err != nil {
		t.Fatalf("Replace: %v", err)
	}
	if got := filetest.Read(t, path); got != "new page" {
		t.Errorf("the file holds %q, want %q", got, "new page")
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v (%v), want 0644", info.Mode().Perm(), err)
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the directory holds %q, want only index.html", names)
	}
}

// TestReplaceMissingDir: a directory that is not there is an error, and
// nothing is written anywhere.
func TestReplaceMissingDir(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "app.js")
	if err := Replace(path, []byte("x")); err == nil {
		t.Errorf("Replace into a missing directory succeeded")
	}
	if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) {
		t.Errorf("the missing directory exists now (%v)", err)
	}
}
