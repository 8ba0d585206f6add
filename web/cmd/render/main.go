// Command render writes the playground's pages into a site directory and
// the files they load next to them: index.html with every widget,
// embed/<widget>.html with one widget each, for iframes in course pages,
// lesson.html for offline use, and the bundles of web/assets (web/bundle):
// app.js (every module), app.css (every stylesheet) and echomq-worker.js
// (the engine's worker with Go's wasm_exec.js), each also under its
// content's hash.
//
//	go run ./web/cmd/render -out /abs/static -assets /abs/web/assets [-wasm /abs/static/echomq.wasm] [-site-url https://course.example/echomq/]
//
// Every path comes from a flag; nothing is read relative to the working
// directory unless a flag says so. -wasm names the built Go program so the
// page can carry its uncompressed size (the progress bar's total when the
// server compresses it); it defaults to echomq.wasm inside -out, and a
// missing file only means the page has no size hint. -site-url is where
// the site will be served from; with it, each widget gets an oEmbed
// description (embed/<widget>.json, which names the iframe by its full
// URL) and its embed page the link that finds it.
//
// This is a host program: it imports templ, and nothing under wasm/ may
// import it.
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/a-h/templ"

	"echomq.dev/playground/internal/cmdline"
	"echomq.dev/playground/internal/sitefile"
	"echomq.dev/playground/web/bundle"
	"echomq.dev/playground/web/lesson"
	"echomq.dev/playground/web/page"
	"echomq.dev/playground/web/recording"
)

func main() {
	cmdline.Main("render", 2, run)
}

func run(args []string, stdout, stderr io.Writer) error {
	fl := cmdline.Flags("render", stderr)
	out := fl.String("out", "", "site directory to write into (required)")
	assets := fl.String("assets", "", "directory whose files are copied into -out (required)")
	wasm := fl.String("wasm", "", "the built echomq.wasm, for its size and the offline lesson (default: echomq.wasm in -out)")
	wasmExec := fl.String("wasm-exec", "", "Go's wasm_exec.js, for the engine's worker (default: wasm_exec.js in -out)")
	siteURL := fl.String("site-url", "", "the absolute URL the site is served from (https://course.example/echomq/), for the widgets' oEmbed descriptions; none without it")
	if err := cmdline.Parse(fl, args, "out", "assets"); err != nil {
		return err
	}
	if *wasm == "" {
		*wasm = filepath.Join(*out, "echomq.wasm")
	}
	if *wasmExec == "" {
		*wasmExec = filepath.Join(*out, "wasm_exec.js")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}

	site := page.DefaultSite()
	switch fi, err := os.Stat(*wasm); {
	case err == nil && fi.Mode().IsRegular():
		site.WasmBytes = fi.Size()
	case err == nil:
		return fmt.Errorf("%s is not a regular file", *wasm)
	case errors.Is(err, fs.ErrNotExist):
		fmt.Fprintf(stderr, "render: %s does not exist yet; the pages will have no size hint\n", *wasm)
	default:
		return err
	}

	if *siteURL != "" && !validSiteURL(*siteURL) {
		return fmt.Errorf("-site-url %q: give an absolute http(s) URL ending in /", *siteURL)
	}
	built, err := buildBundles(*assets, *wasmExec, *out, stdout, stderr)
	if err != nil {
		return err
	}
	files := []hashedAsset{{*wasm, "echomq.wasm"}, {filepath.Join(*assets, "favicon.svg"), "favicon.svg"}}
	for _, name := range []string{page.ScriptFile, page.StyleFile, page.WorkerFile} {
		files = append(files, hashedAsset{filepath.Join(*out, name), name})
	}
	names, err := hashNames(files, *out, stdout)
	if err != nil {
		return err
	}
	site = site.Renamed(names)

	pages := []struct {
		name string // relative to -out, slash-separated
		c    templ.Component
	}{}
	index := page.Index{Site: site, Widgets: page.DefaultWidgets()}
	rec, err := recording.Page(index.Queue, index.Stepper.Payload, index.Verdicts.Payload)
	if err != nil {
		return fmt.Errorf("recording the lesson's runs: %w", err)
	}
	if index.Recording, err = rec.JSON(); err != nil {
		return err
	}
	pages = append(pages, struct {
		name string
		c    templ.Component
	}{"index.html", page.IndexPage(index)})
	for _, w := range page.WidgetNames {
		e := page.DefaultEmbed(w)
		// The embed's own title and role, the site's (hashed) files.
		s := site.Under("../")
		s.Title, s.Embedded = e.Title, e.Embedded
		if *siteURL != "" {
			s.OEmbedURL = *siteURL + "embed/" + w + ".json"
		}
		e.Site = s
		var rec recording.Recording
		var err error
		switch w {
		case page.WidgetStepper:
			rec, err = recording.Stepper(e.Queue, e.Stepper.Payload)
		case page.WidgetVerdicts:
			rec, err = recording.Verdicts(e.Queue, e.Verdicts.Payload)
		}
		if err != nil {
			return fmt.Errorf("recording the %s's runs: %w", w, err)
		}
		if rec.Widget != "" {
			if e.Recording, err = rec.JSON(); err != nil {
				return err
			}
		}
		pages = append(pages, struct {
			name string
			c    templ.Component
		}{"embed/" + w + ".html", page.EmbedPage(e)})
	}
	for _, p := range pages {
		var buf bytes.Buffer
		if err := p.c.Render(context.Background(), &buf); err != nil {
			return fmt.Errorf("rendering %s: %w", p.name, err)
		}
		path := filepath.Join(*out, filepath.FromSlash(p.name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := sitefile.Replace(path, buf.Bytes()); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "wrote", path)
	}

	if *siteURL != "" {
		if err := writeOEmbeds(*siteURL, *out, stdout); err != nil {
			return err
		}
	}
	copied, err := copyAssets(*assets, *out)
	if err != nil {
		return err
	}
	for _, name := range copied {
		fmt.Fprintln(stdout, "copied", filepath.Join(*out, name))
	}
	return writeLesson(built, *wasm, *out, stdout, stderr)
}

// buildBundles writes the bundles the pages load into out under their
// plain names (web/bundle) and returns them for the offline lesson. A
// site built before Go's wasm_exec.js is copied in gets a worker without
// it, and says so: its engine cannot start.
func buildBundles(assets, wasmExec, out string, stdout, stderr io.Writer) (lesson.Bundles, error) {
	var b lesson.Bundles
	src := os.DirFS(assets)
	var err error
	if b.Script, err = bundle.Script(src, page.Entry); err != nil {
		return b, fmt.Errorf("bundling the page's modules: %w", err)
	}
	if b.Style, err = bundle.Style(src, page.Styles); err != nil {
		return b, fmt.Errorf("bundling the stylesheets: %w", err)
	}
	worker, err := bundle.Classic(src, page.WorkerEntry, nil)
	if err != nil {
		return b, fmt.Errorf("bundling %s: %w", page.WorkerEntry, err)
	}
	bridge, err := bundle.CommonJS(src, page.BridgeEntry)
	if err != nil {
		return b, fmt.Errorf("bundling %s: %w", page.BridgeEntry, err)
	}
	goRuntime, err := os.ReadFile(wasmExec)
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stderr, "render: no %s yet, so the engine's worker has no Go runtime\n", wasmExec)
	} else if err != nil {
		return b, err
	}
	if b.Worker, err = bundle.Worker(goRuntime, worker); err != nil {
		return b, fmt.Errorf("bundling the engine's worker: %w", err)
	}
	if b.Icon, err = os.ReadFile(filepath.Join(assets, "favicon.svg")); err != nil {
		return b, err
	}
	host, err := bundle.Classic(src, page.EmbedFile, page.EmbedDefines())
	if err != nil {
		return b, fmt.Errorf("bundling %s: %w", page.EmbedFile, err)
	}
	files := map[string][]byte{page.ScriptFile: b.Script, page.StyleFile: b.Style, page.WorkerFile: b.Worker, page.EmbedFile: host, page.BridgeFile: bridge}
	for name, data := range files {
		path := filepath.Join(out, name)
		if have, err := os.ReadFile(path); err == nil && bytes.Equal(have, data) {
			continue // unchanged: its precompressed siblings stay current
		}
		if err := sitefile.Replace(path, data); err != nil {
			return b, err
		}
		fmt.Fprintln(stdout, "wrote", path)
	}
	return b, nil
}

// writeLesson writes lesson.html, the single-file offline lesson, when the
// engine has been built; the pages alone (as the renderer's tests make
// them) do not need it.
func writeLesson(b lesson.Bundles, wasm, out string, stdout, stderr io.Writer) error {
	module, err := os.ReadFile(wasm)
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stderr, "render: no %s, so no lesson.html\n", wasm)
		return nil
	}
	if err != nil {
		return err
	}
	b.Wasm = module
	html, err := lesson.Render(b)
	if err != nil {
		return fmt.Errorf("rendering lesson.html: %w", err)
	}
	path := filepath.Join(out, "lesson.html")
	if err := sitefile.Replace(path, html); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "wrote", path)
	return nil
}

// copyAssets copies the files of src that the site serves as they are
// into dst and returns their names: the favicon. The modules, the
// classic entries (embed.js, worker.js) and the stylesheets reach the
// site only as bundles.
func copyAssets(src, dst string) ([]string, error) {
	entries, err := os.ReadDir(src)
	if err != nil {
		return nil, fmt.Errorf("reading assets: %w", err)
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || !e.Type().IsRegular() {
			continue
		}
		if ext := filepath.Ext(name); ext == ".js" || ext == ".css" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			return nil, err
		}
		if err := sitefile.Replace(filepath.Join(dst, name), data); err != nil {
			return nil, err
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no assets found in %s", src)
	}
	return names, nil
}
