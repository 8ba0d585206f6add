package server

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Hostile callers, over real sockets: what the handler sees through
// httptest skips Go's request parsing, which is where a raw "../" or a
// header that never ends arrives. Each test serves site() through
// HTTPServer, with limits short enough to wait out; a connection the
// server must close is read until it is (every wait is bounded, and none
// is a measure of speed).

// tight are limits a test can wait out.
var tight = Limits{ReadHeader: 300 * time.Millisecond, Read: time.Second, Write: time.Second, Idle: 300 * time.Millisecond, MaxHeaderBytes: 16 << 10}

// listen serves a site through HTTPServer with l on a loopback port, and
// returns the site's directory and the address.
func listen(t *testing.T, l Limits) (dir, addr string) {
	t.Helper()
	dir = site(t)
	h, err := New(dir, Options{CSP: true})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := HTTPServer(h, l)
	go srv.Serve(ln)
	t.Cleanup(func() {
		srv.Close()
		h.Close()
	})
	return dir, ln.Addr().String()
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// raw sends one request exactly as written and reads the answer.
func raw(t *testing.T, addr, request string) *http.Response {
	t.Helper()
	c := dial(t, addr)
	if _, err := io.WriteString(c, request); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("%q: %v", request, err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// closedByServer reads c until the server closes it, for at most wait,
// and reports whether it did (what it sent on the way is skipped).
func closedByServer(c net.Conn, wait time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(wait))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	return err == nil || !(errors.As(err, &ne) && ne.Timeout())
}

// stillServes checks that a plain request gets the index page.
func stillServes(t *testing.T, addr string) {
	t.Helper()
	res := raw(t, addr, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || string(b) != "<!doctype html>plain index" {
		t.Errorf("GET / afterwards = %d %q", res.StatusCode, b)
	}
}

func TestTraversalOverTheWire(t *testing.T) {
	dir, addr := listen(t, tight)
	// A file beside the site, which no request may read.
	secret := filepath.Join(filepath.Dir(dir), "beside.txt")
	if err := os.WriteFile(secret, []byte("secret beside"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(secret) })
	for _, target := range []string{
		"/../beside.txt", "/../../../../etc/passwd", "/%2e%2e/beside.txt", "/%2E%2E%2Fbeside.txt", "/..%2fbeside.txt",
		"/embed/../../beside.txt", "/..\\beside.txt", "/%5c..%5cbeside.txt", "//etc/passwd", "/./../beside.txt",
		"/escape.txt", "/embed/.hidden/x.txt", "/.gitkeep", "/%00", "/index.html%00.js",
		"http://127.0.0.1/../beside.txt", "/..;/beside.txt",
	} {
		t.Run(target, func(t *testing.T) {
			res := raw(t, addr, "GET "+target+" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
			b, _ := io.ReadAll(res.Body)
			if res.StatusCode == 200 || strings.Contains(string(b), "secret") || strings.Contains(string(b), "root:") {
				t.Errorf("GET %s = %d %q; want it refused, and nothing from outside the site", target, res.StatusCode, b)
			}
		})
	}
	stillServes(t, addr)
}

func TestHugeHeadersAreRefused(t *testing.T) {
	_, addr := listen(t, DefaultLimits)
	for _, size := range []int{DefaultLimits.MaxHeaderBytes + 4096, 2 << 20} {
		c := dial(t, addr)
		// The server may answer and close before all of it is sent.
		go io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: "+strings.Repeat("a", size)+"\r\n\r\n")
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("%d bytes of header: %v", size, err)
		}
		if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
			t.Errorf("%d bytes of header: status %d, want 431", size, res.StatusCode)
		}
	}
	stillServes(t, addr)
}

// TestSlowRequestsAreCut: a caller that sends its headers a byte at a
// time, never finishing, has the connection closed once ReadHeader has
// passed, and others are served meanwhile.
func TestSlowRequestsAreCut(t *testing.T) {
	_, addr := listen(t, tight)
	c := dial(t, addr)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n")
		for i := 0; i < 200; i++ { // bounded: 200 bytes, 10 s at most
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			if _, err := c.Write([]byte("X")); err != nil {
				return
			}
		}
	}()
	stillServes(t, addr)
	closed := closedByServer(c, 10*time.Second)
	close(stop)
	wg.Wait()
	if !closed {
		t.Error("a request trickling in a byte at a time still held its connection after 10 s")
	}
}

// TestIdleConnectionsAreClosed: a keep-alive connection that has been
// answered and then says nothing, and one that never says anything, are
// closed by the server; many of them at once do not stop it serving.
func TestIdleConnectionsAreClosed(t *testing.T) {
	_, addr := listen(t, tight)
	kept := dial(t, addr)
	io.WriteString(kept, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	kept.SetReadDeadline(time.Now().Add(10 * time.Second))
	br := bufio.NewReader(kept)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	var silent []net.Conn
	for range 200 {
		silent = append(silent, dial(t, addr))
	}
	stillServes(t, addr)
	if !closedByServer(kept, 10*time.Second) {
		t.Error("an idle keep-alive connection was still open after 10 s")
	}
	for i, c := range silent {
		if !closedByServer(c, 10*time.Second) {
			t.Fatalf("silent connection %d was still open after 10 s", i)
		}
	}
	stillServes(t, addr)
}

// TestDefaultLimitsAreSet holds the dev server's own limits to what the
// README says of them: every one set, and an idle connection closed well
// before 40 s.
func TestDefaultLimitsAreSet(t *testing.T) {
	l := DefaultLimits
	if l.ReadHeader <= 0 || l.Read <= 0 || l.Write <= 0 || l.Idle <= 0 || l.MaxHeaderBytes <= 0 {
		t.Errorf("DefaultLimits = %+v: every limit must be set", l)
	}
	if l.Idle >= 40*time.Second || l.ReadHeader > l.Read {
		t.Errorf("DefaultLimits = %+v: idle must end before 40 s, and the headers within the request's time", l)
	}
	srv := HTTPServer(http.NotFoundHandler(), l)
	if srv.IdleTimeout != l.Idle || srv.ReadHeaderTimeout != l.ReadHeader || srv.ReadTimeout != l.Read ||
		srv.WriteTimeout != l.Write || srv.MaxHeaderBytes != l.MaxHeaderBytes {
		t.Errorf("HTTPServer does not apply the limits: %+v", srv)
	}
}
