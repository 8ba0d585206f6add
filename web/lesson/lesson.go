package lesson

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"fmt"
	"regexp"
	"strings"

	"echomq.dev/playground/web/page"
)

// Bundles are the files the lesson is made of: the site's own bundles
// (web/bundle), the favicon, and the engine.
type Bundles struct {
	Script []byte // app.js: every module of the page, one ES module
	Style  []byte // app.css: every stylesheet, in cascade order
	Worker []byte // echomq-worker.js: Go's wasm_exec.js and the engine's worker
	Icon   []byte // favicon.svg
	Wasm   []byte // static/echomq.wasm
}

// closers are the end tags that would end an inline element early: inline
// text must not contain them, whatever the case.
var closers = regexp.MustCompile(`(?i)</(script|style)`)

// Render returns static/lesson.html.
func Render(in Bundles) ([]byte, error) {
	css, js, icon := string(in.Style), string(in.Script), in.Icon
	packed, err := gzipped(in.Wasm)
	if err != nil {
		return nil, err
	}
	// The worker runs from a blob, with Go's runtime inside it, so it
	// never needs importScripts (a blob worker has no directory to fetch from).
	workerText := string(in.Worker)
	for what, text := range map[string]string{"the stylesheets": css, "the modules": js, "the worker": workerText} {
		if loc := closers.FindStringIndex(text); loc != nil {
			return nil, fmt.Errorf("%s contain %q, which would end the inline element early", what, text[loc[0]:loc[1]])
		}
	}

	var head, payload strings.Builder
	fmt.Fprintf(&head, `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml;base64,%s">`, base64.StdEncoding.EncodeToString(icon))
	fmt.Fprintf(&head, "<style>\n%s</style>", css)
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
