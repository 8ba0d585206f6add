package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"echomq.dev/playground/internal/sitefile"
)

// unhashed are the assets that keep only their plain names: embed.js is
// the one file a course host links to by name (it must show a new build at
// once, so it is served no-cache), and it loads nothing of ours by name.
var unhashed = map[string]bool{"embed.js": true}

// moduleImport finds the relative specifiers of a module's static imports,
// `from "./dom.js"` (also across lines), which must point at the hashed
// names once the modules have them.
var moduleImport = regexp.MustCompile(`(\bfrom\s+|\bimport\s+)"\./([\w.-]+\.js)"`)

// hashedAsset is one file to write under its content's hash: where its
// plain bytes come from and its name in the site.
type hashedAsset struct {
	src, name string
}

// hashNames writes the files the pages load a second time, under names
// that carry their content's hash (echomq.<hash>.wasm, app.<hash>.js,
// app.<hash>.css...), and returns the plain name → hashed name of each.
// A name that changes whenever the bytes do can be cached for good (the
// server marks such names immutable), so a repeat visit neither downloads
// nor asks, and the browser can reuse the code it compiled from the
// module's response. An ES module's imports are rewritten to its
// dependencies' hashed names before it is hashed itself, so a change in
// dom.js gives every module that imports it, and the page, a new name.
// The plain names stay for tools and tests; older hashed copies go. Files
// not built yet keep their plain names.
func hashNames(assets, wasm, wasmExec, out string, stdout io.Writer) (map[string]string, error) {
	files := []hashedAsset{{wasm, "echomq.wasm"}, {wasmExec, "wasm_exec.js"}}
	entries, err := os.ReadDir(assets)
	if err != nil {
		return nil, fmt.Errorf("reading assets: %w", err)
	}
	for _, e := range entries {
		if n := e.Name(); !strings.HasPrefix(n, ".") && e.Type().IsRegular() && !unhashed[n] {
			files = append(files, hashedAsset{filepath.Join(assets, n), n})
		}
	}
	h := &hasher{src: map[string]string{}, names: map[string]string{}, bytes: map[string][]byte{}, busy: map[string]bool{}}
	for _, f := range files {
		h.src[f.name] = f.src
	}
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	for _, f := range files {
		name, err := h.hash(f.name)
		if err != nil {
			return nil, err
		}
		if name == "" {
			continue // not built yet
		}
		if err := removeStale(out, f.name, name); err != nil {
			return nil, err
		}
		path := filepath.Join(out, name)
		if have, err := os.ReadFile(path); err == nil && bytes.Equal(have, h.bytes[f.name]) {
			// Left as it is: a rewrite would make its precompressed
			// siblings look stale to the server and change its ETag.
			continue
		}
		if err := sitefile.Replace(path, h.bytes[f.name]); err != nil {
			return nil, err
		}
		fmt.Fprintln(stdout, "wrote", path)
	}
	return h.names, nil
}

// hasher names each file after its bytes, with a module's imports
// rewritten first (depth first, so dependencies are named before the
// modules that import them).
type hasher struct {
	src   map[string]string // plain name → the file to read
	names map[string]string // plain name → hashed name
	bytes map[string][]byte // plain name → the bytes written under the hashed name
	busy  map[string]bool   // modules being hashed: an import cycle if met again
}

// hash returns the hashed name of the file with the plain name name, or
// "" when it does not exist (yet).
func (h *hasher) hash(name string) (string, error) {
	if n, ok := h.names[name]; ok {
		return n, nil
	}
	data, err := os.ReadFile(h.src[name])
	if errors.Is(err, fs.ErrNotExist) {
		h.names[name] = ""
		return "", nil
	}
	if err != nil {
		return "", err
	}
	if filepath.Ext(name) == ".js" {
		if h.busy[name] {
			return "", fmt.Errorf("%s imports itself through its imports: the modules cannot be named by their content", name)
		}
		h.busy[name] = true
		var failed error
		data = moduleImport.ReplaceAllFunc(data, func(m []byte) []byte {
			sub := moduleImport.FindSubmatch(m)
			dep := string(sub[2])
			if _, ok := h.src[dep]; !ok || unhashed[dep] {
				return m
			}
			n, err := h.hash(dep)
			if err != nil && failed == nil {
				failed = err
			}
			if n == "" {
				return m
			}
			return []byte(string(sub[1]) + `"./` + n + `"`)
		})
		delete(h.busy, name)
		if failed != nil {
			return "", failed
		}
	}
	sum := sha256.Sum256(data)
	ext := filepath.Ext(name)
	hashed := strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:6]) + ext
	h.names[name], h.bytes[name] = hashed, data
	return hashed, nil
}

// removeStale removes the hashed copies of name (and their precompressed
// siblings) that earlier builds left, all but keep's.
func removeStale(out, name, keep string) error {
	ext := filepath.Ext(name)
	base := strings.TrimSuffix(name, ext)
	old, err := filepath.Glob(filepath.Join(out, base+".*"+ext+"*"))
	if err != nil {
		return err
	}
	for _, o := range old {
		if b := filepath.Base(o); hashedName(b, base, ext) && !strings.HasPrefix(b, keep) {
			if err := os.Remove(o); err != nil {
				return err
			}
		}
	}
	return nil
}

// hashedName reports whether name is base.<12 hex digits>ext, or such a
// file's precompressed sibling (.br, .gz).
func hashedName(name, base, ext string) bool {
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".br"), ".gz")
	mid, ok := strings.CutPrefix(name, base+".")
	if !ok {
		return false
	}
	mid, ok = strings.CutSuffix(mid, ext)
	if !ok || len(mid) != 12 {
		return false
	}
	_, err := hex.DecodeString(mid)
	return err == nil
}
