package server

import (
	"net/http"
	"time"
)

// Limits are what the dev server gives one connection: how long it may
// take over a request's line and headers, over the whole request, over
// writing the answer, and how long it may sit idle between requests; and
// how many bytes of headers it may send. Without them a caller that sends
// its headers a byte at a time (slowloris), or opens a keep-alive
// connection and says nothing more, holds a socket and a goroutine for as
// long as it likes.
type Limits struct {
	ReadHeader     time.Duration
	Read           time.Duration
	Write          time.Duration
	Idle           time.Duration
	MaxHeaderBytes int
}

// DefaultLimits are the dev server's. A page's requests carry a few
// hundred bytes of headers and the largest answer is the module, about
// 12 MB, which loopback moves in well under a second; a browser that keeps
// a connection open for the next reload gets it closed after 30 s idle and
// opens another.
var DefaultLimits = Limits{
	ReadHeader:     10 * time.Second,
	Read:           30 * time.Second,
	Write:          60 * time.Second,
	Idle:           30 * time.Second,
	MaxHeaderBytes: 64 << 10,
}

// HTTPServer is an http.Server for h held to l. A request whose headers
// pass MaxHeaderBytes is answered 431 Request Header Fields Too Large.
func HTTPServer(h http.Handler, l Limits) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.ReadHeader,
		ReadTimeout:       l.Read,
		WriteTimeout:      l.Write,
		IdleTimeout:       l.Idle,
		MaxHeaderBytes:    l.MaxHeaderBytes,
	}
}
