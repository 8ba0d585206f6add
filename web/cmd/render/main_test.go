package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"echomq.dev/playground/internal/filetest"
	"echomq.dev/playground/web/page"
)

func TestRender(t *testing.T) {
	assets := t.TempDir()
	out := filepath.Join(t.TempDir(), "static") // created by render
	const appJS = "import { h } from \"./dom.js\";\nconsole.log(h);\n"
	filetest.Write(t, filepath.Join(assets, "app.js"), appJS)
	filetest.Write(t, filepath.Join(assets, "dom.js"), "export const h = 1;\n")
	filetest.Write(t, filepath.Join(assets, "embed.js"), "/* the course host's */\n")
	for _, css := range page.Styles {
		filetest.Write(t, filepath.Join(assets, css), "body{}\n")
	}
	filetest.Write(t, filepath.Join(assets, "worker.js"), "self.onmessage = null;\n")
	filetest.Write(t, filepath.Join(assets, "favicon.svg"), "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n")
	filetest.Write(t, filepath.Join(assets, ".swp"), "editor junk")
	if err := os.Mkdir(filepath.Join(assets, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		desc     string
		wasm     string // content of out/echomq.wasm, or "" for none
		wantHint string
	}{
		{desc: "before the wasm exists", wasm: "", wantHint: ""},
		{desc: "with the wasm built", wasm: strings.Repeat("x", 4321), wantHint: `data-wasm-bytes="4321"`},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			wasmName := "echomq.wasm"
			if tc.wasm != "" {
				filetest.Write(t, filepath.Join(out, "echomq.wasm"), tc.wasm)
				filetest.Write(t, filepath.Join(out, "wasm_exec.js"), "globalThis.Go = class {};\n")
				// A hashed copy from an earlier build, and its brotli sibling.
				filetest.Write(t, filepath.Join(out, "echomq.0123456789ab.wasm"), "old")
				filetest.Write(t, filepath.Join(out, "echomq.0123456789ab.wasm.br"), "old")
				sum := sha256.Sum256([]byte(tc.wasm))
				wasmName = "echomq." + hex.EncodeToString(sum[:6]) + ".wasm"
			}
			var stdout bytes.Buffer
			if err := run([]string{"-out", out, "-assets", assets}, &stdout, io.Discard); err != nil {
				t.Fatal(err)
			}
			index := filetest.Read(t, filepath.Join(out, "index.html"))
			names := hashedFiles(t, out)
			if !strings.HasPrefix(index, "<!doctype html>") {
				t.Errorf("index.html starts %.40q", index)
			}
			if tc.wantHint == "" && strings.Contains(index, "data-wasm-bytes") {
				t.Errorf("index.html has a size hint, want none")
			}
			if tc.wantHint != "" && !strings.Contains(index, tc.wantHint) {
				t.Errorf("index.html lacks %s", tc.wantHint)
			}
			for _, w := range page.WidgetNames {
				embed := filetest.Read(t, filepath.Join(out, "embed", w+".html"))
				if !strings.HasPrefix(embed, "<!doctype html>") {
					t.Errorf("embed/%s.html starts %.40q", w, embed)
				}
				// An embed page lives one level down: everything it loads climbs up.
				for _, want := range []string{`src="../` + names["app.js"] + `"`, `href="../` + names["app.css"] + `"`, `data-wasm-url="../` + wasmName + `"`, `id="` + w + `"`} {
					if !strings.Contains(embed, want) {
						t.Errorf("embed/%s.html lacks %s", w, want)
					}
				}
				if tc.wantHint != "" && !strings.Contains(embed, tc.wantHint) {
					t.Errorf("embed/%s.html lacks %s", w, tc.wantHint)
				}
			}
			// The engine's files are also written under their content's
			// hash, which the pages load; older hashed copies go.
			if tc.wasm != "" {
				if got := filetest.Read(t, filepath.Join(out, wasmName)); got != tc.wasm {
					t.Errorf("%s holds %d bytes, not the program's", wasmName, len(got))
				}
				for _, stale := range []string{"echomq.0123456789ab.wasm", "echomq.0123456789ab.wasm.br"} {
					if _, err := os.Stat(filepath.Join(out, stale)); err == nil {
						t.Errorf("the earlier build's %s is still there", stale)
					}
				}
			}
			if !strings.Contains(index, `data-wasm-url="`+wasmName+`"`) || !regexp.MustCompile(`data-worker-url="worker\.[0-9a-f]{12}\.js"`).MatchString(index) {
				t.Errorf("index.html does not load the hashed engine files (%s, worker.<hash>.js)", wasmName)
			}
			if got := filetest.Read(t, filepath.Join(out, "app.js")); got != appJS {
				t.Errorf("app.js = %q, want %q", got, appJS)
			}
			// Every file the pages load has a hashed name, but embed.js,
			// which course hosts link to by name; a module imports the
			// hashed names of its dependencies.
			for _, plain := range append([]string{"app.js", "dom.js", "worker.js", "favicon.svg"}, page.Styles...) {
				if names[plain] == "" {
					t.Errorf("%s has no hashed copy (hashed: %v)", plain, names)
				}
			}
			if n := names["embed.js"]; n != "" {
				t.Errorf("embed.js has a hashed copy %s; course hosts link to its plain name", n)
			}
			for _, want := range []string{`src="` + names["app.js"] + `"`, `href="` + names["app.css"] + `"`, `href="` + names["favicon.svg"] + `"`} {
				if !strings.Contains(index, want) {
					t.Errorf("index.html lacks %s", want)
				}
			}
			if app := filetest.Read(t, filepath.Join(out, names["app.js"])); !strings.Contains(app, `from "./`+names["dom.js"]+`"`) {
				t.Errorf("%s = %q; want it to import %s", names["app.js"], app, names["dom.js"])
			}
			// The offline lesson needs the engine, so it comes with it.
			lesson, err := os.ReadFile(filepath.Join(out, "lesson.html"))
			switch {
			case tc.wasm == "" && err == nil:
				t.Error("lesson.html was written before the engine was built")
			case tc.wasm != "" && err != nil:
				t.Errorf("no lesson.html with the engine built: %v", err)
			case tc.wasm != "" && !strings.Contains(string(lesson), `id="engine-gzip" data-bytes="4321"`):
				t.Error("lesson.html does not carry the built engine")
			}
			for _, name := range []string{".swp", "sub"} {
				if _, err := os.Stat(filepath.Join(out, name)); err == nil {
					t.Errorf("%s was copied", name)
				}
			}
		})
	}
}

// hashedFiles maps the plain name of each file in dir that has a copy
// under a hashed name (app.0123456789ab.js) to that name.
func hashedFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`^(.+)\.[0-9a-f]{12}(\.[a-z]+)$`)
	names := map[string]string{}
	for _, e := range entries {
		if m := re.FindStringSubmatch(e.Name()); m != nil {
			if old, dup := names[m[1]+m[2]]; dup {
				t.Errorf("%s has two hashed copies: %s and %s", m[1]+m[2], old, e.Name())
			}
			names[m[1]+m[2]] = e.Name()
		}
	}
	return names
}

// TestHashedNamesFollowImports: a change in a module that another imports
// renames both, so a page never loads a new module beside an old one.
func TestHashedNamesFollowImports(t *testing.T) {
	assets, out := t.TempDir(), t.TempDir()
	filetest.Write(t, filepath.Join(assets, "app.js"), "import { h } from \"./dom.js\";\n")
	filetest.Write(t, filepath.Join(assets, "dom.js"), "export const h = 1;\n")
	filetest.Write(t, filepath.Join(assets, "other.js"), "export const o = 1;\n")
	before, err := hashNames(assets, filepath.Join(out, "none.wasm"), filepath.Join(out, "none.js"), out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	// Unchanged files are left alone, so their precompressed siblings stay current.
	kept, err := os.Stat(filepath.Join(out, before["other.js"]))
	if err != nil {
		t.Fatal(err)
	}
	filetest.Write(t, filepath.Join(assets, "dom.js"), "export const h = 2;\n")
	after, err := hashNames(assets, filepath.Join(out, "none.wasm"), filepath.Join(out, "none.js"), out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for name, changed := range map[string]bool{"dom.js": true, "app.js": true, "other.js": false} {
		if got := before[name] != after[name]; got != changed {
			t.Errorf("%s: %s before, %s after the change in dom.js; want renamed %v", name, before[name], after[name], changed)
		}
	}
	if now, err := os.Stat(filepath.Join(out, after["other.js"])); err != nil || !now.ModTime().Equal(kept.ModTime()) {
		t.Errorf("%s was rewritten (%v) though its bytes did not change", after["other.js"], err)
	}
	if got := hashedFiles(t, out); got["dom.js"] != after["dom.js"] || got["app.js"] != after["app.js"] {
		t.Errorf("the directory holds %v; want only the new copies %v", got, after)
	}
	filetest.Write(t, filepath.Join(assets, "dom.js"), "import { h } from \"./app.js\";\n")
	if _, err := hashNames(assets, filepath.Join(out, "none.wasm"), filepath.Join(out, "none.js"), out, io.Discard); err == nil || !strings.Contains(err.Error(), "imports itself") {
		t.Errorf("modules that import each other: err = %v; want one that says so", err)
	}
}

func TestRenderFlags(t *testing.T) {
	tests := []struct {
		desc string
		args []string
	}{
		{desc: "no flags", args: nil},
		{desc: "no assets", args: []string{"-out", t.TempDir()}},
		{desc: "no out", args: []string{"-assets", t.TempDir()}},
		{desc: "stray argument", args: []string{"-out", t.TempDir(), "-assets", t.TempDir(), "extra"}},
		{desc: "empty assets", args: []string{"-out", t.TempDir(), "-assets", t.TempDir()}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			if err := run(tc.args, io.Discard, io.Discard); err == nil {
				t.Errorf("run(%q) succeeded, want an error", tc.args)
			}
		})
	}
}
