// Command render writes the playground's pages into a site directory and
// copies the page assets (the ES modules and the stylesheet) next to them:
// index.html with every widget, and embed/<widget>.html with one widget
// each, for iframes in course pages.
//
//	go run ./web/cmd/render -out /abs/static -assets /abs/web/assets [-wasm /abs/static/echomq.wasm]
//
// Every path comes from a flag; nothing is read relative to the working
// directory unless a flag says so. -wasm names the built Go program so the
// page can carry its uncompressed size (the progress bar's total when the
// server compresses it); it defaults to echomq.wasm inside -out, and a
// missing file only means the page has no size hint.
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
	wasmExec := fl.String("wasm-exec", "", "Go's wasm_exec.js, for the offline lesson (default: wasm_exec.js in -out)")
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

	names, err := hashNames(*assets, *wasm, *wasmExec, *out, stdout)
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

	copied, err := copyAssets(*assets, *out)
	if err != nil {
		return err
	}
	for _, name := range copied {
		fmt.Fprintln(stdout, "copied", filepath.Join(*out, name))
	}
	return writeLesson(*assets, *wasm, *wasmExec, *out, stdout, stderr)
}

// writeLesson writes lesson.html, the single-file offline lesson, when the
// engine has been built; the pages alone (as the renderer's tests make
// them) do not need it.
func writeLesson(assets, wasm, wasmExec, out string, stdout, stderr io.Writer) error {
	module, err := os.ReadFile(wasm)
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(stderr, "render: no %s, so no lesson.html\n", wasm)
		return nil
	}
	if err != nil {
		return err
	}
	runtime, err := os.ReadFile(wasmExec)
	if err != nil {
		return fmt.Errorf("the offline lesson needs Go's wasm_exec.js: %w", err)
	}
	html, err := lesson.Render(lesson.Inputs{Assets: os.DirFS(assets), Wasm: module, WasmExec: runtime})
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

// copyAssets copies the regular files directly inside src (not its
// subdirectories, not dotfiles) into dst and returns their names.
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
