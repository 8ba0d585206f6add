package browser

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"echomq.dev/playground/web/server"
)

// A repeat visit comes from the cache: the files the pages load carry
// their content's hash and are immutable, so the browser asks the server
// again only for what must show a new build at once, the pages and
// embed.js, and for those it gets 304 Not Modified.

// requestLog serves the built site (under /echomq/ too, beside a course
// page) and writes down every request that reaches the server, with its
// answer's status: the server's side of the browser's network log.
type requestLog struct {
	base string
	mu   sync.Mutex
	got  []string // "200 /echomq/app.0123456789ab.js", "304 /"
}

func newRequestLog(t *testing.T, course string) *requestLog {
	t.Helper()
	site, err := server.New(harness.static, server.Options{CSP: true})
	if err != nil {
		t.Fatal(err)
	}
	l := &requestLog{}
	mux := http.NewServeMux()
	mux.Handle("/echomq/", http.StripPrefix("/echomq", site))
	mux.Handle("/", site)
	mux.HandleFunc("/course.html", serveCourse(course))
	srv := httptest.NewServer(server.Logged(mux, func(r *http.Request, status int, _ http.Header) {
		l.mu.Lock()
		l.got = append(l.got, strconv.Itoa(status)+" "+r.URL.Path)
		l.mu.Unlock()
	}))
	t.Cleanup(func() {
		srv.Close()
		site.Close()
	})
	l.base = srv.URL
	return l
}

// take returns the requests since the last take.
func (l *requestLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	got := l.got
	l.got = nil
	return got
}

// TestRepeatVisitComesFromTheCache visits the full page and a course page
// with two embeds, each twice, in one browser (a server of its own, so
// nothing from another test is cached): on the second visit the engine
// is ready again, and the server is asked only for the pages (the course
// host's own may come whole; ours are answered 304 Not Modified) and for
// embed.js, answered 304. Nothing with a hashed name (the Go program, the worker, the modules, the stylesheets) is
// asked for again.
func TestRepeatVisitComesFromTheCache(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		ready      func(tb *tab)
		// pages are the documents a visit asks for, besides embed.js.
		pages []string
	}{
		{"the full page", "/", ready, []string{"/"}},
		{"a course page with two embeds", "/course.html", func(tb *tab) {
			frameReady(tb, "#a")
			frameReady(tb, "#b")
		}, []string{"/course.html", "/echomq/embed/stepper.html", "/echomq/embed/roundtrip.html"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newRequestLog(t, `<iframe id="a" src="/echomq/embed/stepper.html" title="Stepper" data-echomq></iframe>
<iframe id="b" src="/echomq/embed/roundtrip.html" title="Round trip" data-echomq></iframe>`)
			tb := newTab(t).onServer(l.base)
			tb.open(tc.path)
			tc.ready(tb)
			first := l.take()
			if !slices.ContainsFunc(first, func(r string) bool { return hashedRequest(r) && strings.HasSuffix(r, ".wasm") }) {
				t.Fatalf("the first visit did not download the engine under a hashed name: %q", first)
			}
			tb.openURL("about:blank")
			tb.open(tc.path)
			tc.ready(tb)
			again := l.take()
			var fetched []string
			for _, r := range again {
				status, p, _ := strings.Cut(r, " ")
				page := slices.Contains(tc.pages, p)
				embedJS := tc.path == "/course.html" && p == "/echomq/embed.js"
				if !page && !(embedJS && status == "304") {
					fetched = append(fetched, r)
				}
			}
			if len(fetched) > 0 {
				t.Errorf("on the repeat visit the server was asked for %q; want only the pages, and embed.js answered 304 (all requests: %q)", fetched, again)
			}
		})
	}
}

// hashedRequest reports whether a logged request is for a file whose name
// carries its content's hash.
func hashedRequest(r string) bool {
	_, p, _ := strings.Cut(r, " ")
	return server.Hashed(p)
}
