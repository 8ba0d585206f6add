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
	"sort"
	"strings"

	"echomq.dev/playground/internal/sitefile"
)

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
// module's response. The pages load bundles (web/bundle), which import
// nothing, so a file's name follows its own bytes alone. The plain names
// stay for tools and tests; older hashed copies go. Files not built yet
// keep their plain names.
func hashNames(files []hashedAsset, out string, stdout io.Writer) (map[string]string, error) {
	names := map[string]string{}
	sort.Slice(files, func(i, j int) bool { return files[i].name < files[j].name })
	for _, f := range files {
		data, err := os.ReadFile(f.src)
		if errors.Is(err, fs.ErrNotExist) {
			continue // not built yet
		}
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(data)
		ext := filepath.Ext(f.name)
		name := strings.TrimSuffix(f.name, ext) + "." + hex.EncodeToString(sum[:6]) + ext
		names[f.name] = name
		if err := removeStale(out, f.name, name); err != nil {
			return nil, err
		}
		path := filepath.Join(out, name)
		if have, err := os.ReadFile(path); err == nil && bytes.Equal(have, data) {
			// Left as it is: a rewrite would make its precompressed
			// siblings look stale to the server and change its ETag.
			continue
		}
		if err := sitefile.Replace(path, data); err != nil {
			return nil, err
		}
		fmt.Fprintln(stdout, "wrote", path)
	}
	return names, nil
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
