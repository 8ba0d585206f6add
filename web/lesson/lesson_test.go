package lesson

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
)

func assetsDir(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Skip("no source path")
	}
	return filepath.Join(filepath.Dir(file), "..", "assets")
}

// TestBundleReadsEveryModule bundles the real page: every module the page
// imports ends up in one script with no import or export left, each
// module's scope before the modules that use it.
func TestBundleReadsEveryModule(t *testing.T) {
	js, err := Bundle(os.DirFS(assetsDir(t)), "app.js")
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`(?m)^(import|export)\b`).FindString(js); m != "" {
		t.Errorf("the bundle still has a module statement: %q", m)
	}
	for _, name := range []string{"dom.js", "engine.js", "permalink.js", "stepper.js"} {
		if !strings.Contains(js, `__modules["`+name+`"] = (() => {`) {
			t.Errorf("the bundle has no scope for %s", name)
		}
	}
	if strings.Index(js, `__modules["dom.js"] =`) > strings.Index(js, `__modules["stepper.js"] =`) {
		t.Error("dom.js comes after stepper.js, which imports it")
	}
}

// TestBundleRewrites checks the rewriting on a small graph: renamed
// imports, async functions, classes and constants.
func TestBundleRewrites(t *testing.T) {
	fsys := fstest.MapFS{
		"main.js": {Data: []byte("import { a, b as bee } from \"./lib.js\";\nconsole.log(a(), bee, C);\n")},
		"lib.js":  {Data: []byte("export async function a() {}\nexport const b = 1;\nexport class K {}\nconst hidden = 2;\n")},
	}
	js, err := Bundle(fsys, "main.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`const { a, b: bee } = __modules["lib.js"];`,
		"async function a() {}",
		"return { a, b, K };",
	} {
		if !strings.Contains(js, want) {
			t.Errorf("the bundle lacks %q:\n%s", want, js)
		}
	}
}

// TestBundleRefusesWhatItCannotRead: a default export, a namespace import
// or a cycle is an error that names the file, never a broken page.
func TestBundleRefusesWhatItCannotRead(t *testing.T) {
	for name, fsys := range map[string]fstest.MapFS{
		"default export":   {"main.js": {Data: []byte("export default 1;\n")}},
		"namespace import": {"main.js": {Data: []byte("import * as x from \"./x.js\";\n")}, "x.js": {Data: []byte("")}},
		"cycle": {
			"main.js": {Data: []byte("import { b } from \"./b.js\";\n")},
			"b.js":    {Data: []byte("import { c } from \"./main.js\";\nexport const b = 1;\n")},
		},
		"missing module": {"main.js": {Data: []byte("import { b } from \"./b.js\";\n")}},
	} {
		if _, err := Bundle(fsys, "main.js"); err == nil {
			t.Errorf("%s: bundled without an error", name)
		}
	}
}

// TestRenderIsSelfContained renders the lesson from the real assets and a
// stand-in module: nothing in it points at another file, and the inline
// parts cannot end early.
func TestRenderIsSelfContained(t *testing.T) {
	html, err := Render(Inputs{
		Assets:   os.DirFS(assetsDir(t)),
		Wasm:     []byte("\x00asm\x01\x00\x00\x00"),
		WasmExec: []byte("globalThis.Go = class {};"),
	})
	if err != nil {
		t.Fatal(err)
	}
	page := string(html)
	for _, re := range []string{`\ssrc="`, `rel="stylesheet"`, `rel="modulepreload"`} {
		if m := regexp.MustCompile(re).FindString(page); m != "" {
			t.Errorf("the lesson refers to another file: %q", m)
		}
	}
	// Links out to the commands' official pages are for a reader who is
	// online; they are never loaded. Any other href would be a file.
	for _, m := range regexp.MustCompile(`href="([^"#d][^"]*)"`).FindAllStringSubmatch(page, -1) {
		if !strings.HasPrefix(m[1], "https://") {
			t.Errorf("the lesson refers to another file: %q", m[0])
		}
	}
	for _, id := range []string{`id="engine-worker"`, `id="engine-gzip"`, `<script type="module">`} {
		if !strings.Contains(page, id) {
			t.Errorf("the lesson lacks %s", id)
		}
	}
	_, err = Render(Inputs{
		Assets:   os.DirFS(assetsDir(t)),
		Wasm:     []byte("x"),
		WasmExec: []byte("var s = '</script>';"),
	})
	if err == nil {
		t.Error("a worker text with </script> in it was inlined")
	}
}
