package server

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// site lays out a small built site: plain files, precompressed siblings
// (whose contents say which one was sent), a subdirectory with and without
// an index, a dotfile and a symlink out of the root.
func site(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"index.html":          "<!doctype html>plain index",
		"index.html.br":       "br index",
		"index.html.gz":       "gz index",
		"app.js":              "plain js",
		"app.js.gz":           "gz js",
		"app.css":             "plain css",
		"echomq.wasm":         "\x00asm plain",
		"echomq.wasm.br":      "br wasm",
		"echomq.wasm.gz":      "gz wasm",
		"wasm_exec.js":        "plain wasm_exec",
		"notes.unknown":       "plain unknown",
		".gitkeep":            "",
		"embed/index.html":    "embed index",
		"embed/enqueue.html":  "embed page",
		"assets/logo.svg":     "<svg/>",
		"empty/.gitkeep":      "",
		"embed/.hidden/x.txt": "hidden",
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Siblings are written after their originals, as web/cmd/compress does;
	// make that visible to file times of any resolution.
	later := time.Now().Add(time.Minute)
	for name := range files {
		if strings.HasSuffix(name, ".br") || strings.HasSuffix(name, ".gz") {
			if err := os.Chtimes(filepath.Join(dir, name), later, later); err != nil {
				t.Fatal(err)
			}
		}
	}
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "escape.txt")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func newHandler(t *testing.T, opts Options) *Handler {
	t.Helper()
	h, err := New(site(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func do(h http.Handler, method, target, acceptEncoding string) *http.Response {
	req := httptest.NewRequest(method, target, nil)
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestServe(t *testing.T) {
	h := newHandler(t, Options{})
	tests := []struct {
		desc     string
		path     string
		accept   string // Accept-Encoding
		status   int
		ctype    string
		encoding string // Content-Encoding, "" for none
		body     string // exact body, when status is 200
	}{
		{desc: "root is index.html", path: "/", status: 200, ctype: "text/html; charset=utf-8", body: "<!doctype html>plain index"},
		{desc: "root, brotli", path: "/", accept: "gzip, deflate, br", status: 200, ctype: "text/html; charset=utf-8", encoding: "br", body: "br index"},
		{desc: "wasm type", path: "/echomq.wasm", status: 200, ctype: "application/wasm", body: "\x00asm plain"},
		{desc: "wasm prefers br", path: "/echomq.wasm", accept: "gzip, br", status: 200, ctype: "application/wasm", encoding: "br", body: "br wasm"},
		{desc: "wasm gzip only", path: "/echomq.wasm", accept: "gzip", status: 200, ctype: "application/wasm", encoding: "gzip", body: "gz wasm"},
		{desc: "br refused with q=0", path: "/echomq.wasm", accept: "br;q=0, gzip;q=0.5", status: 200, ctype: "application/wasm", encoding: "gzip", body: "gz wasm"},
		{desc: "wildcard", path: "/echomq.wasm", accept: "*", status: 200, ctype: "application/wasm", encoding: "br", body: "br wasm"},
		{desc: "wildcard but not br", path: "/echomq.wasm", accept: "*;q=1, br;q=0", status: 200, ctype: "application/wasm", encoding: "gzip", body: "gz wasm"},
		{desc: "everything refused", path: "/echomq.wasm", accept: "*;q=0", status: 200, ctype: "application/wasm", body: "\x00asm plain"},
		{desc: "unsupported coding only", path: "/echomq.wasm", accept: "deflate, zstd", status: 200, ctype: "application/wasm", body: "\x00asm plain"},
		{desc: "js falls back to gzip when there is no br", path: "/app.js", accept: "br, gzip", status: 200, ctype: "text/javascript; charset=utf-8", encoding: "gzip", body: "gz js"},
		{desc: "css without siblings", path: "/app.css", accept: "br, gzip", status: 200, ctype: "text/css; charset=utf-8", body: "plain css"},
		{desc: "unknown extension", path: "/notes.unknown", status: 200, ctype: "application/octet-stream", body: "plain unknown"},
		{desc: "svg in a subdirectory", path: "/assets/logo.svg", status: 200, ctype: "image/svg+xml", body: "<svg/>"},
		{desc: "subdirectory index", path: "/embed/", status: 200, ctype: "text/html; charset=utf-8", body: "embed index"},
		{desc: "page in a subdirectory", path: "/embed/enqueue.html", status: 200, ctype: "text/html; charset=utf-8", body: "embed page"},
		{desc: "missing file", path: "/nope.js", status: 404},
		{desc: "missing file, compressed", path: "/nope.js", accept: "br", status: 404},
		{desc: "directory without index is not listed", path: "/assets/", status: 404},
		{desc: "directory without slash or index", path: "/assets", status: 404},
		{desc: "empty directory", path: "/empty/", status: 404},
		{desc: "dotfile", path: "/.gitkeep", status: 404},
		{desc: "dot directory", path: "/embed/.hidden/x.txt", status: 404},
		{desc: "dot-dot cannot climb out", path: "/../../etc/passwd", status: 404},
		{desc: "encoded dot-dot cannot climb out", path: "/%2e%2e/%2e%2e/etc/passwd", status: 404},
		{desc: "symlink out of the root", path: "/escape.txt", status: 404},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			res := do(h, http.MethodGet, tc.path, tc.accept)
			got := body(t, res)
			if res.StatusCode != tc.status {
				t.Fatalf("GET %s: status %d, want %d (body %q)", tc.path, res.StatusCode, tc.status, got)
			}
			if tc.status != http.StatusOK {
				if strings.Contains(got, "<a href") {
					t.Errorf("GET %s: body looks like a listing: %q", tc.path, got)
				}
				return
			}
			if got, want := res.Header.Get("Content-Type"), tc.ctype; got != want {
				t.Errorf("Content-Type = %q, want %q", got, want)
			}
			if got, want := res.Header.Get("Content-Encoding"), tc.encoding; got != want {
				t.Errorf("Content-Encoding = %q, want %q", got, want)
			}
			if got, want := res.Header.Get("Vary"), "Accept-Encoding"; got != want {
				t.Errorf("Vary = %q, want %q", got, want)
			}
			if got, want := res.Header.Get("Cache-Control"), "no-cache"; got != want {
				t.Errorf("Cache-Control = %q, want %q", got, want)
			}
			if got, want := res.Header.Get("Content-Length"), strconv.Itoa(len(tc.body)); got != want {
				t.Errorf("Content-Length = %q, want %q", got, want)
			}
			if got != tc.body {
				t.Errorf("body = %q, want %q", got, tc.body)
			}
		})
	}
}

// A file whose name carries its content's hash is cached for good; the
// same bytes under a plain name, and a name with a word where the hash
// goes, are revalidated.
func TestHashedNamesAreImmutable(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"echomq.0123456789ab.wasm", "echomq.wasm", "worker.notahashxyzw.js", "embed/x.0123456789ab.js",
		"app.0123456789ab.css", "favicon.0123456789ab.svg", "app.js", "embed.js", "index.html"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for path, want := range map[string]string{
		"/echomq.0123456789ab.wasm": "public, max-age=31536000, immutable",
		"/embed/x.0123456789ab.js":  "public, max-age=31536000, immutable",
		"/echomq.wasm":              "no-cache",
		"/worker.notahashxyzw.js":   "no-cache",
		"/app.0123456789ab.css":     "public, max-age=31536000, immutable",
		"/favicon.0123456789ab.svg": "public, max-age=31536000, immutable",
		// The pages and embed.js, which course hosts link to by name,
		// must show a new build at once.
		"/":         "no-cache",
		"/embed.js": "no-cache",
		"/app.js":   "no-cache",
	} {
		if got := do(h, http.MethodGet, path, "").Header.Get("Cache-Control"); got != want {
			t.Errorf("GET %s: Cache-Control %q, want %q", path, got, want)
		}
	}
}

func TestRedirectsDirectoryWithIndex(t *testing.T) {
	h := newHandler(t, Options{})
	res := do(h, http.MethodGet, "/embed", "")
	if res.StatusCode != http.StatusMovedPermanently {
		t.Fatalf("status %d, want 301", res.StatusCode)
	}
	if got, want := res.Header.Get("Location"), "/embed/"; got != want {
		t.Errorf("Location = %q, want %q", got, want)
	}
}

func TestMethods(t *testing.T) {
	h := newHandler(t, Options{})
	tests := []struct {
		desc   string
		method string
		status int
	}{
		{"GET", http.MethodGet, 200},
		{"HEAD", http.MethodHead, 200},
		{"POST", http.MethodPost, 405},
		{"PUT", http.MethodPut, 405},
		{"DELETE", http.MethodDelete, 405},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			res := do(h, tc.method, "/echomq.wasm", "br")
			if res.StatusCode != tc.status {
				t.Errorf("%s: status %d, want %d", tc.method, res.StatusCode, tc.status)
			}
			if tc.method == http.MethodHead {
				if got := body(t, res); got != "" {
					t.Errorf("HEAD has a body %q", got)
				}
				if got := res.Header.Get("Content-Encoding"); got != "br" {
					t.Errorf("HEAD Content-Encoding = %q, want br", got)
				}
			}
		})
	}
}

func TestRevalidation(t *testing.T) {
	h := newHandler(t, Options{})
	plain := do(h, http.MethodGet, "/echomq.wasm", "")
	br := do(h, http.MethodGet, "/echomq.wasm", "br")
	if plain.Header.Get("ETag") == "" || plain.Header.Get("ETag") == br.Header.Get("ETag") {
		t.Fatalf("ETags plain %q and br %q: want two different, non-empty", plain.Header.Get("ETag"), br.Header.Get("ETag"))
	}
	req := httptest.NewRequest(http.MethodGet, "/echomq.wasm", nil)
	req.Header.Set("Accept-Encoding", "br")
	req.Header.Set("If-None-Match", br.Header.Get("ETag"))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified {
		t.Errorf("conditional GET: status %d, want 304", rec.Code)
	}
}

func TestCSP(t *testing.T) {
	tests := []struct {
		desc string
		opts Options
		path string
		want string
	}{
		{"off by default", Options{}, "/", ""},
		{"on for pages", Options{CSP: true}, "/", CSP},
		{"on for 404s", Options{CSP: true}, "/missing", CSP},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			res := do(newHandler(t, tc.opts), http.MethodGet, tc.path, "")
			if got := res.Header.Get("Content-Security-Policy"); got != tc.want {
				t.Errorf("Content-Security-Policy = %q, want %q", got, tc.want)
			}
		})
	}
	want := "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'"
	if CSP != want {
		t.Errorf("CSP = %q, want %q", CSP, want)
	}
}

func TestAcceptedEncodings(t *testing.T) {
	tests := []struct {
		header string
		want   string // accepted tokens among br, gzip
	}{
		{"", ""},
		{"br", "br"},
		{"gzip, deflate, br, zstd", "br gzip"},
		{"GZIP;Q=0.8", "gzip"},
		{"br;q=0", ""},
		{"br;q=0.0, gzip;q=1.0", "gzip"},
		{"br;q=0.001", "br"},
		{"*", "br gzip"},
		{"*;q=0", ""},
		{"gzip;q=0, *", "br"},
		{"br;q=bogus", ""},
		{" br ; q=1 ,gzip", "br gzip"},
	}
	for _, tc := range tests {
		got := acceptedEncodings(tc.header)
		var have []string
		for _, tok := range []string{"br", "gzip"} {
			if got[tok] {
				have = append(have, tok)
			}
		}
		if s := strings.Join(have, " "); s != tc.want {
			t.Errorf("acceptedEncodings(%q) allows %q, want %q", tc.header, s, tc.want)
		}
	}
}

func TestNewMissingDir(t *testing.T) {
	if _, err := New(filepath.Join(t.TempDir(), "missing"), Options{}); err == nil {
		t.Errorf("New on a missing directory succeeded")
	}
}

func TestRange(t *testing.T) {
	h := newHandler(t, Options{})
	tests := []struct {
		desc   string
		accept string
		status int
		body   string
	}{
		{"plain file honours a range", "", http.StatusPartialContent, "asm"},
		{"encoded file is sent whole", "br", http.StatusOK, "br wasm"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "/echomq.wasm", nil)
			req.Header.Set("Range", "bytes=1-3")
			if tc.accept != "" {
				req.Header.Set("Accept-Encoding", tc.accept)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tc.status || rec.Body.String() != tc.body {
				t.Errorf("status %d body %q, want %d %q", rec.Code, rec.Body.String(), tc.status, tc.body)
			}
		})
	}
}

func TestStaleSiblingIsNotSent(t *testing.T) {
	dir := site(t)
	h, err := New(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	// Rebuild the wasm without recompressing: its siblings are now older.
	wasm := filepath.Join(dir, "echomq.wasm")
	if err := os.WriteFile(wasm, []byte("\x00asm rebuilt"), 0o644); err != nil {
		t.Fatal(err)
	}
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(wasm, future, future); err != nil {
		t.Fatal(err)
	}
	res := do(h, http.MethodGet, "/echomq.wasm", "br, gzip")
	if got := body(t, res); got != "\x00asm rebuilt" || res.Header.Get("Content-Encoding") != "" {
		t.Errorf("got %q with Content-Encoding %q, want the rebuilt file, unencoded", got, res.Header.Get("Content-Encoding"))
	}
}

// Logged hears each answered request with the status the browser got: a
// file is 200, the same file asked again with its ETag is 304, a missing
// one 404.
func TestLoggedSeesEachStatus(t *testing.T) {
	var got []string
	h := Logged(newHandler(t, Options{}), func(r *http.Request, status int, header http.Header) {
		got = append(got, fmt.Sprintf("%d %s", status, r.URL.Path))
	})
	etag := do(h, http.MethodGet, "/", "").Header.Get("ETag")
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set("If-None-Match", etag)
	h.ServeHTTP(httptest.NewRecorder(), req)
	do(h, http.MethodGet, "/missing.js", "")
	if want := []string{"200 /", "304 /", "404 /missing.js"}; !slices.Equal(got, want) {
		t.Errorf("Logged heard %q, want %q", got, want)
	}
}
