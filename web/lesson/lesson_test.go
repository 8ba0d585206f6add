package lesson

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"echomq.dev/playground/web/bundle"
	"echomq.dev/playground/web/page"
)

// bundles are the real site's bundles, as the renderer makes them.
func bundles(t *testing.T) Bundles {
	t.Helper()
	src := os.DirFS(assetsDir(t))
	var b Bundles
	var err error
	if b.Script, err = bundle.Script(src, page.Entry); err != nil {
		t.Fatal(err)
	}
	if b.Style, err = bundle.Style(src, page.Styles); err != nil {
		t.Fatal(err)
	}
	worker, err := bundle.Classic(src, page.WorkerEntry, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b.Worker, err = bundle.Worker([]byte("globalThis.Go = class {};"), worker); err != nil {
		t.Fatal(err)
	}
	if b.Icon, err = os.ReadFile(filepath.Join(assetsDir(t), "favicon.svg")); err != nil {
		t.Fatal(err)
	}
	return b
}

func assetsDir(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Skip("no source path")
	}
	return filepath.Join(filepath.Dir(file), "..", "assets")
}

// TestRenderIsSelfContained renders the lesson from the real assets and a
// stand-in module: nothing in it points at another file, and the inline
// parts cannot end early.
func TestRenderIsSelfContained(t *testing.T) {
	in := bundles(t)
	in.Wasm = []byte("\x00asm\x01\x00\x00\x00")
	html, err := Render(in)
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
	in.Worker = []byte("var s = '</script>';")
	_, err = Render(in)
	if err == nil {
		t.Error("a worker text with </script> in it was inlined")
	}
}
