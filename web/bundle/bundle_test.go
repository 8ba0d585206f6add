package bundle

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
)

func assets(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Skip("no source path")
	}
	return filepath.Join(filepath.Dir(file), "..", "assets")
}

// TestScriptIsOneModule bundles the real page: one module with no import
// left (the browser would fetch it), and the code of a module deep in the
// graph inside it.
func TestScriptIsOneModule(t *testing.T) {
	js, err := Script(os.DirFS(assets(t)), "app.js")
	if err != nil {
		t.Fatal(err)
	}
	text := string(js)
	for _, bad := range []string{`from"./`, `from "./`, `import("./`} {
		if strings.Contains(text, bad) {
			t.Errorf("the bundle still imports a file: %q", bad)
		}
	}
	// Strings survive minification: one from stepper.js, one from permalink.js.
	for _, want := range []string{"Starts when you scroll to it", "echomq:resize"} {
		if !strings.Contains(text, want) {
			t.Errorf("the bundle lacks %q", want)
		}
	}
	src, _ := os.ReadFile(filepath.Join(assets(t), "app.js"))
	if len(js) >= len(src)*4 {
		t.Logf("bundle %d B", len(js))
	}
}

// TestStyleKeepsTheCascade: one stylesheet, the files in the order given,
// so print rules still come last and win.
func TestStyleKeepsTheCascade(t *testing.T) {
	fsys := fstest.MapFS{
		"a.css": {Data: []byte(".x { content: \"first\"; }\n")},
		"b.css": {Data: []byte(".x { content: \"second\"; }\n")},
	}
	css, err := Style(fsys, []string{"a.css", "b.css"})
	if err != nil {
		t.Fatal(err)
	}
	got := string(css)
	if strings.Contains(got, "@import") || strings.Index(got, "first") > strings.Index(got, "second") || strings.Index(got, "first") < 0 {
		t.Errorf("the stylesheet is %q; want a's rule, then b's, no @import", got)
	}
}

// TestImportsStayInside: an import of a package or of a path out of the
// assets fails the build with the name, never bundles something else.
func TestImportsStayInside(t *testing.T) {
	for desc, src := range map[string]string{
		"a bare package": `import { x } from "lodash"; console.log(x);`,
		"out of assets":  `import { x } from "../secret.js"; console.log(x);`,
		"a missing file": `import { x } from "./gone.js"; console.log(x);`,
	} {
		_, err := Script(fstest.MapFS{"main.js": {Data: []byte(src)}}, "main.js")
		if err == nil {
			t.Errorf("%s: bundled without an error", desc)
		}
	}
}

// TestWorkerCarriesGo: the worker defines Go's class itself, before its
// own code runs.
func TestWorkerCarriesGo(t *testing.T) {
	w, err := Worker([]byte("globalThis.Go = class { run() {} };\n"), []byte("\"use strict\";\nif (typeof self.Go !== \"function\") throw new Error(\"no Go\");\n"))
	if err != nil {
		t.Fatal(err)
	}
	if i, j := strings.Index(string(w), "globalThis.Go"), strings.Index(string(w), "no Go"); i < 0 || j < i {
		t.Errorf("the worker is %q; want Go's class first", w)
	}
}

// TestClassicTakesDefines: the course page's script is one function that
// runs as it loads, with the build's values put in.
func TestClassicTakesDefines(t *testing.T) {
	fsys := fstest.MapFS{
		"main.js": {Data: []byte("import { f } from \"./lib.js\";\nf(WIDGETS);\n")},
		"lib.js":  {Data: []byte("export function f(w) { console.log(w.join()); }\n")},
	}
	js, err := Classic(fsys, "main.js", map[string]any{"WIDGETS": []string{"stepper", "beats"}})
	if err != nil {
		t.Fatal(err)
	}
	got := string(js)
	if !strings.HasPrefix(got, "(()=>{") || strings.Contains(got, "import") || !strings.Contains(got, `"stepper","beats"`) {
		t.Errorf("the classic bundle is %q; want one arrow function with the widgets in it", got)
	}
}
