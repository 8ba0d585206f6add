// Package server is the playground's development file server: it serves a
// built site directory (static/) the way a careful production host would,
// so that what works here works when the site is copied into a course.
//
//   - .wasm is served as application/wasm, which streaming compilation needs;
//     types come from a fixed table, not the machine's mime database.
//   - A precompressed sibling (NAME.br, NAME.gz) is sent instead of NAME when
//     the request's Accept-Encoding allows it, brotli first, with
//     Content-Encoding set, the original's Content-Type, and
//     Vary: Accept-Encoding on every file response. A sibling older than
//     NAME is stale and is not sent.
//   - Directories are never listed: "/" and "dir/" serve index.html if there
//     is one, anything else is 404. Dotfiles are 404.
//   - Everything is Cache-Control: no-cache (revalidate every time), so a
//     rebuilt site is picked up on reload; ETag and Last-Modified make the
//     revalidation cheap. The exception is a name that carries its
//     content's hash (echomq.<12 hex digits>.wasm, as web/cmd/render writes
//     them): new bytes get a new name, so those are cached for a year,
//     immutable, and a repeat visit does not even ask.
//   - With CSP set, every response carries the playground's
//     Content-Security-Policy, which the browser tests run under.
//
// Files are opened through an os.Root, so no path, symlink or ".." can
// reach outside the directory.
package server

import (
	"net/http"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// CSP is the Content-Security-Policy the playground is built to run under:
// its own files only, and WebAssembly compilation allowed.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'"

// Options configure a Handler.
type Options struct {
	// CSP adds the Content-Security-Policy header to every response.
	CSP bool
}

// contentTypes maps the extensions a playground site uses to their types.
// Anything else is application/octet-stream.
var contentTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".mjs":  "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".wasm": "application/wasm",
	".json": "application/json",
	".map":  "application/json",
	".svg":  "image/svg+xml",
	".png":  "image/png",
	".ico":  "image/x-icon",
	".txt":  "text/plain; charset=utf-8",
	".md":   "text/markdown; charset=utf-8",
	".gz":   "application/gzip",
	".br":   "application/octet-stream",
}

// ContentType is the Content-Type the server sends for a file name.
func ContentType(name string) string {
	if t, ok := contentTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return "application/octet-stream"
}

// encodings are the precompressed siblings the server looks for, in order
// of preference.
var encodings = []struct {
	token  string // as in Accept-Encoding and Content-Encoding
	suffix string // appended to the file name
}{
	{"br", ".br"},
	{"gzip", ".gz"},
}

// Handler serves the files under root.
type Handler struct {
	root *os.Root
	opts Options
}

// New returns a Handler for the directory dir. The caller must Close it.
func New(dir string, opts Options) (*Handler, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &Handler{root: root, opts: opts}, nil
}

// Close releases the directory.
func (h *Handler) Close() error { return h.root.Close() }

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.opts.CSP {
		w.Header().Set("Content-Security-Policy", CSP)
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}

	name, ok := fileName(r.URL.Path)
	if !ok {
		http.NotFound(w, r)
		return
	}
	fi, err := h.root.Stat(name)
	switch {
	case err != nil:
		// Missing, or not reachable inside the root (a symlink out of it):
		// either way there is nothing here to serve.
		http.NotFound(w, r)
		return
	case fi.IsDir():
		// "/dir" with an index.html: send the browser to "/dir/" so that the
		// page's relative URLs resolve inside dir. Never list it.
		if ix, err := h.root.Stat(path.Join(name, "index.html")); err == nil && ix.Mode().IsRegular() {
			http.Redirect(w, r, "/"+name+"/", http.StatusMovedPermanently)
			return
		}
		http.NotFound(w, r)
		return
	case !fi.Mode().IsRegular():
		http.NotFound(w, r)
		return
	}

	w.Header().Set("Content-Type", ContentType(name))
	w.Header().Add("Vary", "Accept-Encoding")
	if Hashed(name) {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}

	sendName, sendInfo, coding := name, fi, ""
	accepted := acceptedEncodings(r.Header.Get("Accept-Encoding"))
	for _, enc := range encodings {
		if !accepted[enc.token] {
			continue
		}
		// A sibling older than its original is left over from an earlier
		// build (the original was rebuilt without recompressing): skip it
		// rather than send yesterday's program.
		if si, err := h.root.Stat(name + enc.suffix); err == nil && si.Mode().IsRegular() && !si.ModTime().Before(fi.ModTime()) {
			sendName, sendInfo, coding = name+enc.suffix, si, enc.token
			break
		}
	}

	f, err := h.root.Open(sendName)
	if err != nil {
		http.Error(w, "cannot read file", http.StatusInternalServerError)
		return
	}
	defer f.Close()
	if coding != "" {
		// http.ServeContent leaves out Content-Length once Content-Encoding
		// is set, because a byte range of an encoded body is ambiguous. Send
		// encoded files whole, with their length.
		w.Header().Set("Content-Encoding", coding)
		w.Header().Set("Content-Length", strconv.FormatInt(sendInfo.Size(), 10))
		r = r.Clone(r.Context())
		r.Header.Del("Range")
	}
	// A validator per representation: the encoded and the plain bytes of a
	// file must not share an ETag.
	etag := strconv.FormatInt(sendInfo.ModTime().UnixNano(), 36) + "-" + strconv.FormatInt(sendInfo.Size(), 36)
	if coding != "" {
		etag += "-" + coding
	}
	w.Header().Set("ETag", `"`+etag+`"`)
	http.ServeContent(w, r, name, sendInfo.ModTime(), f)
}

// hashed matches a file name whose last part before the extension is a
// content hash of 12 hex digits: echomq.0123456789ab.wasm.
var hashed = regexp.MustCompile(`\.[0-9a-f]{12}\.[a-z]+$`)

// Hashed reports whether the file name carries its content's hash, so its
// bytes never change under that name.
func Hashed(name string) bool { return hashed.MatchString(path.Base(name)) }

// fileName turns a URL path into a name inside the root: "/" and "x/"
// become their index.html, and any dot-segment (".git", ".gitkeep", "..")
// is refused.
func fileName(urlPath string) (string, bool) {
	p := path.Clean("/" + urlPath)
	if strings.HasSuffix(urlPath, "/") {
		p = path.Join(p, "index.html")
	}
	name := strings.TrimPrefix(p, "/")
	for seg := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(seg, ".") {
			return "", false
		}
	}
	if name == "" {
		return "", false
	}
	return name, true
}

// acceptedEncodings parses an Accept-Encoding header into the set of
// content-codings it allows (q > 0). "*" allows br and gzip unless they are
// named with q=0.
func acceptedEncodings(header string) map[string]bool {
	allowed := map[string]bool{}
	named := map[string]bool{}
	wildcard := false
	for part := range strings.SplitSeq(header, ",") {
		token, params, _ := strings.Cut(part, ";")
		token = strings.ToLower(strings.TrimSpace(token))
		if token == "" {
			continue
		}
		ok := qualityAllows(params)
		if token == "*" {
			wildcard = ok
			continue
		}
		named[token] = true
		allowed[token] = ok
	}
	if wildcard {
		for _, enc := range encodings {
			if !named[enc.token] {
				allowed[enc.token] = true
			}
		}
	}
	return allowed
}

// qualityAllows reports whether the parameters of one Accept-Encoding
// element leave it acceptable: no q, or q greater than zero.
func qualityAllows(params string) bool {
	for param := range strings.SplitSeq(params, ";") {
		key, value, ok := strings.Cut(strings.TrimSpace(param), "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(key), "q") {
			continue
		}
		q, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		return err == nil && q > 0
	}
	return true
}
