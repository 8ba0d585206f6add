package page

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// assetsDir is web/assets, next to this package. Tests run in the
// package's directory, so the path is fixed.
const assetsDir = "../assets"

func readAssets(t *testing.T, ext string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(assetsDir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ext) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(assetsDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

var importRE = regexp.MustCompile(`(?m)^\s*import\b[^;]*?from\s+"\./([\w.-]+)"`)

// TestEveryModuleIsInTheBundle: every module in web/assets is reached from
// an entry a bundle starts at (the page's, or a classic script's: the
// worker's parts are in its bundle), so none is left out unseen (nor kept
// when nothing uses it).
func TestEveryModuleIsInTheBundle(t *testing.T) {
	js := readAssets(t, ".js")
	seen := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		src, ok := js[name]
		if !ok {
			t.Errorf("a module imports ./%s, which is not in web/assets", name)
			return
		}
		for _, m := range importRE.FindAllStringSubmatch(src, -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				visit(m[1])
			}
		}
	}
	visit(Entry)
	for name := range ClassicScripts {
		visit(name)
	}
	for name := range js {
		if name != Entry && !seen[name] && !ClassicScripts[name] {
			t.Errorf("web/assets/%s is not loaded by %s nor by a classic script", name, Entry)
		}
	}
}

// TestAssetsStayOnThePage guards two promises of the module: engine data
// (ids and payloads are untrusted) never goes through an HTML parser, and
// nothing is fetched from another origin.
func TestAssetsStayOnThePage(t *testing.T) {
	banned := []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"}
	for name, src := range readAssets(t, ".js") {
		for _, b := range banned {
			if strings.Contains(src, b) {
				t.Errorf("%s uses %s", name, b)
			}
		}
	}
	for ext, files := range map[string]map[string]string{".js": readAssets(t, ".js"), ".css": readAssets(t, ".css")} {
		for name, src := range files {
			for _, origin := range []string{"http://", "https://", "url(//"} {
				if strings.Contains(src, origin) {
					t.Errorf("%s (%s) names another origin: %s", name, ext, origin)
				}
			}
		}
	}
}

// maxScriptLines is the most lines a script in web/assets may have. Past
// it a file holds several jobs, and a widget splits into named parts
// (widget.js's header says how): issue 25's line for JS, as 800 is for Go.
const maxScriptLines = 450

// TestNoScriptIsTooLong: every script in web/assets (all of them written
// by hand: the bundles and wasm_exec.js are made into static/, and the
// Node tests live in test/) is at most maxScriptLines lines, counted as
// wc -l counts them.
func TestNoScriptIsTooLong(t *testing.T) {
	js := readAssets(t, ".js")
	if len(js) == 0 {
		t.Fatal("no scripts in web/assets")
	}
	for name, src := range js {
		if n := strings.Count(src, "\n"); n > maxScriptLines {
			t.Errorf("web/assets/%s has %d lines, over %d: split it by job (widget.js's header)", name, n, maxScriptLines)
		}
	}
}
