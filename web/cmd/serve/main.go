// Command serve is the playground's development server: it serves a built
// site directory on a loopback address, with the headers the playground
// needs (see package echomq.dev/playground/web/server).
//
//	go run ./web/cmd/serve -dir /abs/static [-addr 127.0.0.1:8080] [-csp=false]
//
// It prints the URL it serves on, then one line per request, and stops on
// Ctrl-C or SIGTERM. Only loopback addresses are accepted: this is a tool
// for one machine, not a host. Every response carries the playground's
// Content-Security-Policy, as a course host should send it; -csp=false
// leaves it out (to try an inline script while debugging a page, say).
// Each connection is held to server.DefaultLimits.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"echomq.dev/playground/internal/cmdline"
	"echomq.dev/playground/web/server"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cmdline.Exit("serve", 2, run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil))
}

// run serves until ctx is done. If ready is not nil it receives the base
// URL once the listener is open (tests use it).
func run(ctx context.Context, args []string, stdout, stderr io.Writer, ready chan<- string) error {
	fl := cmdline.Flags("serve", stderr)
	addr := fl.String("addr", "127.0.0.1:8080", "loopback `host:port` to listen on (port 0 picks a free one)")
	dir := fl.String("dir", "", "site `directory` to serve (required)")
	csp := fl.Bool("csp", true, "send the playground's Content-Security-Policy header (-csp=false to leave it out)")
	quiet := fl.Bool("quiet", false, "do not log requests")
	if err := cmdline.Parse(fl, args, "dir"); err != nil {
		return err
	}
	if err := checkLoopback(*addr); err != nil {
		return err
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		return err
	}
	h, err := server.New(abs, server.Options{CSP: *csp})
	if err != nil {
		return err
	}
	defer h.Close()

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(stdout, "serving %s on %s\n", abs, url)

	var handler http.Handler = h
	if !*quiet {
		handler = logRequests(h, log.New(stdout, "", log.Ltime))
	}
	srv := server.HTTPServer(handler, server.DefaultLimits)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	if ready != nil {
		ready <- url
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// checkLoopback refuses addresses that would expose the server beyond this
// machine, including an empty host (which means every interface).
func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-addr %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("-addr %q: the dev server listens on loopback only (e.g. 127.0.0.1:8080)", addr)
}

func logRequests(next http.Handler, l *log.Logger) http.Handler {
	return server.Logged(next, func(r *http.Request, status int, header http.Header) {
		enc := header.Get("Content-Encoding")
		if enc == "" {
			enc = "-"
		}
		l.Printf("%s %s %d %s", r.Method, r.URL.RequestURI(), status, enc)
	})
}
