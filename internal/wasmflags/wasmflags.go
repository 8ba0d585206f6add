// Package wasmflags gives the go build flags of the browser module, so that
// ./build.sh, the benchmark (bench) and Redis's suite (internal/suite)
// build the same module the site ships:
//   - the lines of wasm/gcflags.txt, which say where inlining is left out
//     and why;
//   - an -overlay that puts wasm/notls in crypto/tls's place (that
//     package's doc comment says why).
//
// An overlay names files by their path on disk, and the standard library's
// files are wherever this machine's Go is, so the overlay is written per
// machine, into the checkout's .cache, when the flags are asked for.
package wasmflags

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// GcflagsFile is the file of compiler flags, relative to the checkout.
const GcflagsFile = "wasm/gcflags.txt"

// StubFile is what crypto/tls compiles from in the browser module.
const StubFile = "wasm/notls/tls.go"

// OverlayFile is where the overlay is written, relative to the checkout.
const OverlayFile = ".cache/wasm-overlay.json"

// Flags returns the build flags of the browser module for the checkout at
// root: gcflags.txt's lines, then -overlay= with the overlay it writes.
func Flags(root string) ([]string, error) {
	flags, err := Gcflags(root)
	if err != nil {
		return nil, err
	}
	path, err := WriteOverlay(root)
	if err != nil {
		return nil, err
	}
	return append(flags, "-overlay="+path), nil
}

// Gcflags reads gcflags.txt: one flag a line, # comments and blank lines
// left out.
func Gcflags(root string) ([]string, error) {
	b, err := os.ReadFile(filepath.Join(root, GcflagsFile))
	if err != nil {
		return nil, err
	}
	var flags []string
	for line := range strings.Lines(string(b)) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			flags = append(flags, line)
		}
	}
	return flags, nil
}

// Overlay maps each non-test Go file of goroot's crypto/tls to nothing
// (go build's overlay leaves a file mapped to "" out) and the package's
// tls.go to the stub of the checkout at root.
func Overlay(root, goroot string) (map[string]string, error) {
	dir := filepath.Join(goroot, "src", "crypto", "tls")
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	replace := map[string]string{}
	for _, n := range names {
		if !strings.HasSuffix(n, "_test.go") {
			replace[n] = ""
		}
	}
	if len(replace) == 0 {
		return nil, fmt.Errorf("wasmflags: no Go files in %s: is GOROOT right?", dir)
	}
	stub, err := filepath.Abs(filepath.Join(root, StubFile))
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(stub); err != nil {
		return nil, err
	}
	replace[filepath.Join(dir, "tls.go")] = stub
	return replace, nil
}

// WriteOverlay writes the overlay for this machine's Go (go env GOROOT)
// into root's .cache and returns its absolute path.
func WriteOverlay(root string) (string, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("wasmflags: go env GOROOT: %v", err)
	}
	replace, err := Overlay(root, strings.TrimSpace(string(out)))
	if err != nil {
		return "", err
	}
	// encoding/json writes a map's keys in order: the file is the same
	// every time on one machine.
	b, err := json.MarshalIndent(struct{ Replace map[string]string }{replace}, "", "\t")
	if err != nil {
		return "", err
	}
	path, err := filepath.Abs(filepath.Join(root, OverlayFile))
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	// Written whole and renamed, so that two builds at once never read
	// half of it.
	tmp, err := os.CreateTemp(filepath.Dir(path), "overlay-*.json")
	if err != nil {
		return "", err
	}
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return path, os.Rename(tmp.Name(), path)
}
