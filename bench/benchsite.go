// The site the page-load bench loads: the project's own server, a course
// page, a count of the requests, and a slow link when asked for one.

package main

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// benchSite serves static/ with the project's server under /echomq/ and
// at the root, a course page at /course.html, counts the requests for the
// Go program, and can send everything over a slow link.
type benchSite struct {
	site   http.Handler
	course string // the course page's body
	slow   *slowLink
	mu     sync.Mutex
	wasm   int
	asked  int // requests since the last requests()
	sent   int // of those, answered with a body
	paths  []string
}

func (b *benchSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if b.slow != nil {
		w = b.slow.writer(w)
	}
	if strings.HasSuffix(r.URL.Path, ".wasm") {
		b.mu.Lock()
		b.wasm++
		b.mu.Unlock()
	}
	if r.URL.Path == "/course.html" {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Course</title><link rel="icon" href="/echomq/favicon.svg"></head><body><h1>Dive 1</h1>%s<script src="/echomq/embed.js" defer></script></body></html>`, b.course)
		return
	}
	if rest, ok := strings.CutPrefix(r.URL.Path, "/echomq/"); ok {
		r = r.Clone(r.Context())
		r.URL.Path = "/" + rest
	}
	b.site.ServeHTTP(w, r)
}

// note counts one answered request (server.Logged calls it).
func (b *benchSite) note(r *http.Request, status int, _ http.Header) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.asked++
	b.paths = append(b.paths, r.URL.Path)
	if status != http.StatusNotModified {
		b.sent++
	}
}

// embedPaths returns the requests since the last requests() that an
// embed made for itself (under /echomq/, but embed.js and the course
// page's own favicon), and clears the list.
func (b *benchSite) embedPaths() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var own []string
	for _, p := range b.paths {
		if strings.HasPrefix(p, "/echomq/") && p != "/echomq/embed.js" && p != "/echomq/favicon.svg" {
			own = append(own, p)
		}
	}
	b.paths = nil
	return own
}

// requests returns how many requests came since the last call, and how
// many of them were answered with a body.
func (b *benchSite) requests() (asked, sent int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	asked, sent = b.asked, b.sent
	b.asked, b.sent = 0, 0
	return asked, sent
}

func (b *benchSite) fetches() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := b.wasm
	b.wasm = 0
	return n
}

// slowLink is one shared link of a given rate and round-trip time: every
// response waits one round trip, and all bodies share the rate, as on one
// slow connection to the learner.
type slowLink struct {
	rate float64 // bytes per second
	rtt  time.Duration
	mu   sync.Mutex
	free time.Time // when the link has sent everything queued so far
}

type slowWriter struct {
	http.ResponseWriter
	link  *slowLink
	first bool
}

func (l *slowLink) writer(w http.ResponseWriter) http.ResponseWriter {
	return &slowWriter{ResponseWriter: w, link: l, first: true}
}

func (s *slowWriter) WriteHeader(code int) {
	if s.first {
		s.first = false
		time.Sleep(s.link.rtt)
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *slowWriter) Write(p []byte) (int, error) {
	if s.first {
		s.WriteHeader(http.StatusOK)
	}
	written := 0
	for len(p) > 0 {
		n := min(len(p), 8192)
		s.link.mu.Lock()
		start := time.Now()
		if s.link.free.After(start) {
			start = s.link.free
		}
		s.link.free = start.Add(time.Duration(float64(n) / s.link.rate * float64(time.Second)))
		done := s.link.free
		s.link.mu.Unlock()
		time.Sleep(time.Until(done))
		m, err := s.ResponseWriter.Write(p[:n])
		written += m
		if err != nil {
			return written, err
		}
		if f, ok := s.ResponseWriter.(http.Flusher); ok {
			f.Flush()
		}
		p = p[n:]
	}
	return written, nil
}
