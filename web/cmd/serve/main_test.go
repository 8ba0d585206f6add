package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"echomq.dev/playground/web/server"
)

func TestServeEndToEnd(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("<!doctype html>hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	var out strings.Builder
	go func() {
		done <- run(ctx, []string{"-dir", dir, "-addr", "127.0.0.1:0", "-quiet"}, &out, io.Discard, ready)
	}()
	var url string
	select {
	case url = <-ready:
	case err := <-done:
		t.Fatalf("server stopped early: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("server did not start")
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Errorf("url = %q", url)
	}
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(b) != "<!doctype html>hi" {
		t.Errorf("GET / = %d %q", res.StatusCode, b)
	}
	if got, want := res.Header.Get("Content-Security-Policy"), server.CSP; got != want {
		t.Errorf("Content-Security-Policy = %q, want %q: the server sends it unless told -csp=false", got, want)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("server did not stop")
	}
	// run has returned, so reading what it printed is safe.
	if want := "serving " + dir + " on " + url + "\n"; out.String() != want {
		t.Errorf("printed %q, want %q", out.String(), want)
	}
}

func TestServeFlags(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		desc string
		args []string
	}{
		{"no dir", []string{"-addr", "127.0.0.1:0"}},
		{"every interface", []string{"-dir", dir, "-addr", ":0"}},
		{"public address", []string{"-dir", dir, "-addr", "0.0.0.0:0"}},
		{"bad address", []string{"-dir", dir, "-addr", "nonsense"}},
		{"missing dir", []string{"-dir", filepath.Join(dir, "nope"), "-addr", "127.0.0.1:0"}},
		{"stray argument", []string{"-dir", dir, "extra"}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			if err := run(context.Background(), tc.args, io.Discard, io.Discard, nil); err == nil {
				t.Errorf("run(%q) succeeded, want an error", tc.args)
			}
		})
	}
}

func TestCheckLoopback(t *testing.T) {
	tests := []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1:8080", true},
		{"localhost:8080", true},
		{"[::1]:8080", true},
		{"127.0.0.2:0", true},
		{":8080", false},
		{"0.0.0.0:8080", false},
		{"192.168.1.10:8080", false},
		{"example.com:80", false},
	}
	for _, tc := range tests {
		if err := checkLoopback(tc.addr); (err == nil) != tc.ok {
			t.Errorf("checkLoopback(%q) = %v, want ok=%v", tc.addr, err, tc.ok)
		}
	}
}

// TestServeWithoutCSP: -csp=false leaves the header out, for a developer
// who needs to.
func TestServeWithoutCSP(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte("hi"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-dir", dir, "-addr", "127.0.0.1:0", "-quiet", "-csp=false"}, io.Discard, io.Discard, ready)
	}()
	var url string
	select {
	case url = <-ready:
	case err := <-done:
		t.Fatalf("server stopped early: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("server did not start")
	}
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if got := res.Header.Get("Content-Security-Policy"); got != "" {
		t.Errorf("with -csp=false, Content-Security-Policy = %q; want none", got)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("run: %v", err)
	}
}
