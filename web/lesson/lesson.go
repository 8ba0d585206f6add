package lesson

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"echomq.dev/playground/web/page"
)

// Inputs are the files the lesson is made of.
type Inputs struct {
	Assets   fs.FS  // web/assets: the stylesheets, the modules, worker.js, favicon.svg
	Wasm     []byte // static/echomq.wasm
	WasmExec []byte // Go's wasm_exec.js
}

// closers are the end tags that would end an inline element early: inline
// text must not contain them, whatever the case.
var closers = regexp.MustCompile(`(?i)</(script|style)`)

// Render returns static/lesson.html.
func Render(in Inputs) ([]byte, error) {
	var css strings.Builder
	for _, name := range page.Styles {
		b, err := fs.ReadFile(in.Assets, name)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&css, "/* ---- %s ---- */\n%s\n", name, b)
	}
	js, err := Bundle(in.Assets, "app.js")
	if err != nil {
		return nil, err
	}
	worker, err := fs.ReadFile(in.Assets, "worker.js")
	if err != nil {
		return nil, err
	}
	icon, err := fs.ReadFile(in.Assets, "favicon.svg")
	if err != nil {
		return nil, err
	}
	packed, err := gzipped(in.Wasm)
	if err != nil {
		return nil, err
	}
	// The worker runs from a blob: Go's runtime first, then the worker, so
	// it never needs importScripts (a blob worker has no directory to fetch from).
	workerText := string(in.WasmExec) + "\n;\n" + string(worker)
	for what, text := range map[string]string{"the stylesheets": css.String(), "the modules": js, "the worker": workerText} {
		if loc := closers.FindStringIndex(text); loc != nil {
			return nil, fmt.Errorf("%s contain %q, which would end the inline element early", what, text[loc[0]:loc[1]])
		}
	}

	var head, payload strings.Builder
	fmt.Fprintf(&head, `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml;base64,%s">`, base64.StdEncoding.EncodeToString(icon))
	fmt.Fprintf(&head, "<style>\n%s</style>", css.String())
	fmt.Fprintf(&head, "<script type=\"module\">\n%s</script>", js)
	fmt.Fprintf(&payload, "<script type=\"text/plain\" id=\"engine-worker\">\n%s</script>", workerText)
	fmt.Fprintf(&payload, "<script type=\"application/octet-stream\" id=\"engine-gzip\" data-bytes=\"%d\">\n%s\n</script>",
		len(in.Wasm), base64.StdEncoding.EncodeToString(packed))

	v := page.Lesson{Index: page.DefaultIndex(), Head: head.String(), Payload: payload.String()}
	v.Site.Title = page.Title + " (offline)"
	v.Site.WasmBytes = int64(len(in.Wasm))
	var out bytes.Buffer
	if err := page.LessonPage(v).Render(context.Background(), &out); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// gzipped compresses at the best level: the page is written once and
// opened many times.
func gzipped(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	w, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
