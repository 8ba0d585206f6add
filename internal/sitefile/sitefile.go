// Package sitefile writes the files of a built site (static/) for the
// commands that build it, web/cmd/render and web/cmd/compress. The dev
// server may be reading the directory while a build runs, so a file is
// never written in place: a half-written page, module or wasm would be
// served, and a browser could cache it.
package sitefile

import (
	"os"
	"path/filepath"
)

// Replace writes data to path atomically: into a hidden temporary file
// next to it, then renamed over path, so a reader sees the old bytes or the
// new ones and nothing between. The file is world-readable (0644), as a
// server's files are, whatever the umask made of the temporary one.
func Replace(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
