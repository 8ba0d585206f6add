package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"echomq.dev/playground/internal/filetest"
)

func TestCompress(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"index.html":       "<!doctype html>" + strings.Repeat("<p>hello</p>", 200),
		"app.js":           strings.Repeat("console.log('echomq');\n", 100),
		"app.css":          strings.Repeat("body { color: red }\n", 100),
		"echomq.wasm":      "\x00asm" + strings.Repeat("\x01\x02\x03", 1000),
		"embed/page.html":  strings.Repeat("<i>x</i>", 100),
		"notes.txt":        "not compressed",
		"old.js.br":        "orphan: old.js is gone",
		"old.js.gz":        "orphan: old.js is gone",
		"keep.bin.gz":      "not ours: .bin is not compressible",
		".gitkeep":         "",
		"wasm_exec.js.tmp": "not a compressible extension",
	}
	for name, data := range files {
		filetest.Write(t, filepath.Join(dir, name), data)
	}

	if err := run([]string{"-dir", dir}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}

	for _, name := range []string{"index.html", "app.js", "app.css", "echomq.wasm", "embed/page.html"} {
		want := files[name]
		if got := gunzip(t, filepath.Join(dir, name+".gz")); got != want {
			t.Errorf("%s.gz decompresses to %d bytes, want the %d of the source", name, len(got), len(want))
		}
		if got := unbrotli(t, filepath.Join(dir, name+".br")); got != want {
			t.Errorf("%s.br decompresses to %d bytes, want the %d of the source", name, len(got), len(want))
		}
	}
	tests := []struct {
		desc   string
		name   string
		exists bool
	}{
		{"text files are left alone", "notes.txt.gz", false},
		{"orphan brotli sibling removed", "old.js.br", false},
		{"orphan gzip sibling removed", "old.js.gz", false},
		{"foreign .gz kept", "keep.bin.gz", true},
		{"dotfiles ignored", ".gitkeep.gz", false},
		{"unknown extension ignored", "wasm_exec.js.tmp.br", false},
	}
	for _, tc := range tests {
		_, err := os.Stat(filepath.Join(dir, tc.name))
		if got := err == nil; got != tc.exists {
			t.Errorf("%s: %s exists = %v, want %v", tc.desc, tc.name, got, tc.exists)
		}
	}
}

func TestCompressIsDeterministicAndIncremental(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "app.js")
	filetest.Write(t, src, strings.Repeat("let x = 1;\n", 50))
	if err := run([]string{"-dir", dir}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	first := filetest.Read(t, src+".gz")

	// A second run leaves a sibling that already decodes to the source
	// alone. Replace the gzip sibling with another valid encoding of the
	// same bytes (different level) so we can tell whether it was rewritten.
	var other bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&other, gzip.BestSpeed)
	zw.Write([]byte(filetest.Read(t, src)))
	zw.Close()
	filetest.Write(t, src+".gz", other.String())
	past := time.Now().Add(-time.Hour)
	if err := os.Chtimes(src+".gz", past, past); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"-dir", dir}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if got := filetest.Read(t, src+".gz"); got != other.String() {
		t.Errorf("an up-to-date sibling was rewritten")
	}
	if s, o := modTime(t, src+".gz"), modTime(t, src); s.Before(o) {
		t.Errorf("up-to-date sibling (%v) left older than its source (%v)", s, o)
	}

	// -force rewrites it, with the same bytes as the first run.
	if err := run([]string{"-dir", dir, "-force"}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if got := filetest.Read(t, src+".gz"); got != first {
		t.Errorf("gzip output differs between runs")
	}

	// A changed source is compressed again, and so is a corrupt sibling,
	// whatever the file times say.
	filetest.Write(t, src, "let y = 2;\n")
	filetest.Write(t, src+".br", "corrupt")
	if err := run([]string{"-dir", dir}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if got := gunzip(t, src+".gz"); got != "let y = 2;\n" {
		t.Errorf("stale gzip sibling kept: %q", got)
	}
	if got := unbrotli(t, src+".br"); got != "let y = 2;\n" {
		t.Errorf("corrupt brotli sibling kept: %q", got)
	}
}

func TestCompressFlags(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	filetest.Write(t, file, "x")
	for _, args := range [][]string{nil, {"-dir", file}, {"-dir", filepath.Join(t.TempDir(), "missing")}, {"-dir", t.TempDir(), "extra"}} {
		if err := run(args, io.Discard, io.Discard); err == nil {
			t.Errorf("run(%q) succeeded, want an error", args)
		}
	}
}

func modTime(t *testing.T, path string) time.Time {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.ModTime()
}

func gunzip(t *testing.T, path string) string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader([]byte(filetest.Read(t, path))))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if zr.Name != "" || !zr.ModTime.IsZero() {
		t.Errorf("%s: gzip header has name %q, time %v; want neither", path, zr.Name, zr.ModTime)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return string(b)
}

func unbrotli(t *testing.T, path string) string {
	t.Helper()
	b, err := io.ReadAll(brotli.NewReader(bytes.NewReader([]byte(filetest.Read(t, path)))))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return string(b)
}
