package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
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
	filetest.Write(t, filepath.Join(assets, "worker-bridge.js"), "export function publish() {}\n")
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
			if !strings.Contains(index, `data-wasm-url="`+wasmName+`"`) || !regexp.MustCompile(`data-worker-url="echomq-worker\.[0-9a-f]{12}\.js"`).MatchString(index) {
				t.Errorf("index.html does not load the hashed engine files (%s, echomq-worker.<hash>.js)", wasmName)
			}
			// The page's script is one bundle: dom.js's code is inside it,
			// and nothing is imported.
			if got := filetest.Read(t, filepath.Join(out, "app.js")); strings.Contains(got, "import") || !strings.Contains(got, "console.log(") {
				t.Errorf("app.js = %q, want the bundle of app.js and dom.js", got)
			}
			if tc.wasm != "" && !strings.Contains(filetest.Read(t, filepath.Join(out, page.WorkerFile)), "globalThis.Go") {
				t.Errorf("%s does not carry Go's wasm_exec.js", page.WorkerFile)
			}
			// Every file the pages load has a hashed name; embed.js, which
			// course hosts link to by name, and worker.js, the plain bridge
			// for Node, have only theirs; the modules and stylesheets are
			// only in the bundles.
			for _, plain := range []string{"app.js", "app.css", page.WorkerFile, "favicon.svg"} {
				if names[plain] == "" {
					t.Errorf("%s has no hashed copy (hashed: %v)", plain, names)
				}
			}
			for _, plain := range []string{"embed.js", "worker.js"} {
				if n := names[plain]; n != "" {
					t.Errorf("%s has a hashed copy %s; want only its plain name", plain, n)
				}
				if _, err := os.Stat(filepath.Join(out, plain)); err != nil {
					t.Errorf("%s was not copied: %v", plain, err)
				}
			}
			for _, gone := range []string{"dom.js", "console.css"} {
				if _, err := os.Stat(filepath.Join(out, gone)); err == nil {
					t.Errorf("%s was copied; it belongs in a bundle only", gone)
				}
			}
			for _, want := range []string{`src="` + names["app.js"] + `"`, `href="` + names["app.css"] + `"`, `href="` + names["favicon.svg"] + `"`} {
				if !strings.Contains(index, want) {
					t.Errorf("index.html lacks %s", want)
				}
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

// TestHashedNamesFollowBytes: a changed file gets a new name and its old
// copy goes; an unchanged one is left as it is, so its precompressed
// siblings stay current.
func TestHashedNamesFollowBytes(t *testing.T) {
	src, out := t.TempDir(), t.TempDir()
	filetest.Write(t, filepath.Join(src, "app.js"), "console.log(1);\n")
	filetest.Write(t, filepath.Join(src, "app.css"), "body{}\n")
	files := []hashedAsset{{filepath.Join(src, "app.js"), "app.js"}, {filepath.Join(src, "app.css"), "app.css"}, {filepath.Join(src, "none.wasm"), "echomq.wasm"}}
	before, err := hashNames(files, out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := before["echomq.wasm"]; ok {
		t.Errorf("a file not built yet got a name: %v", before)
	}
	kept, err := os.Stat(filepath.Join(out, before["app.css"]))
	if err != nil {
		t.Fatal(err)
	}
	filetest.Write(t, filepath.Join(src, "app.js"), "console.log(2);\n")
	after, err := hashNames(files, out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	for name, changed := range map[string]bool{"app.js": true, "app.css": false} {
		if got := before[name] != after[name]; got != changed {
			t.Errorf("%s: %s before, %s after the change in app.js; want renamed %v", name, before[name], after[name], changed)
		}
	}
	if now, err := os.Stat(filepath.Join(out, after["app.css"])); err != nil || !now.ModTime().Equal(kept.ModTime()) {
		t.Errorf("%s was rewritten (%v) though its bytes did not change", after["app.css"], err)
	}
	if got := hashedFiles(t, out); got["app.js"] != after["app.js"] {
		t.Errorf("the directory holds %v; want only the new copies %v", got, after)
	}
}

// TestOEmbed: with the site's URL, each widget has an oEmbed description
// whose iframe names the embed by its full address, sandboxed, and the
// embed page links to it; without one, neither is written.
func TestOEmbed(t *testing.T) {
	assets := t.TempDir()
	filetest.Write(t, filepath.Join(assets, "app.js"), "console.log(1);\n")
	for _, css := range page.Styles {
		filetest.Write(t, filepath.Join(assets, css), "body{}\n")
	}
	filetest.Write(t, filepath.Join(assets, "worker.js"), "self.onmessage = null;\n")
	filetest.Write(t, filepath.Join(assets, "worker-bridge.js"), "export function publish() {}\n")
	filetest.Write(t, filepath.Join(assets, "favicon.svg"), "<svg/>\n")
	filetest.Write(t, filepath.Join(assets, "embed.js"), "console.log(__ECHOMQ_WIDGETS__);\n")
	for _, tc := range []struct {
		desc, site string
		want       bool
	}{
		{"no site URL", "", false},
		{"a site URL", "https://course.example/echomq/", true},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			out := t.TempDir()
			args := []string{"-out", out, "-assets", assets}
			if tc.site != "" {
				args = append(args, "-site-url", tc.site)
			}
			if err := run(args, io.Discard, io.Discard); err != nil {
				t.Fatal(err)
			}
			embed := filetest.Read(t, filepath.Join(out, "embed", "stepper.html"))
			link := `<link rel="alternate" type="application/json+oembed" href="https://course.example/echomq/embed/stepper.json"`
			if got := strings.Contains(embed, link); got != tc.want {
				t.Errorf("the stepper's page has the oEmbed link: %v, want %v", got, tc.want)
			}
			data, err := os.ReadFile(filepath.Join(out, "embed", "stepper.json"))
			if !tc.want {
				if err == nil {
					t.Error("embed/stepper.json was written without a site URL")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got oEmbed
			if err := json.Unmarshal(data, &got); err != nil {
				t.Fatal(err)
			}
			if got.Version != "1.0" || got.Type != "rich" || got.Width <= 0 || got.Height <= 0 || got.Title != page.WidgetTitle("stepper") {
				t.Errorf("embed/stepper.json = %+v; want a rich oEmbed 1.0 with a title and a size", got)
			}
			for _, want := range []string{`src="https://course.example/echomq/embed/stepper.html"`, `sandbox="` + page.EmbedSandbox + `"`, `title="Step the @enqueue moves"`} {
				if !strings.Contains(got.HTML, want) {
					t.Errorf("the oEmbed html %q lacks %s", got.HTML, want)
				}
			}
		})
	}
	if err := run([]string{"-out", t.TempDir(), "-assets", assets, "-site-url", "/echomq/"}, io.Discard, io.Discard); err == nil {
		t.Error("a relative -site-url was taken")
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
