package browser

// The harness: one server and one browser per test binary, started in
// TestMain and stopped when the tests end. Each test opens its own tab
// (tab_test.go).

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"echomq.dev/playground/internal/childout"
	"echomq.dev/playground/web/server"
)

// chromiumFlags are the launch flags of the browser tests: headless, no
// sandbox, no GPU, and none of chromium's own network traffic (background
// updates, sync), so that a request leaving localhost is the page's and
// fails the test; bench/pageload.go launches with the same. The harness adds a fresh --user-data-dir, and chromedp
// adds --remote-debugging-pipe.
var chromiumFlags = []string{
	"headless", "no-sandbox", "disable-gpu", "no-first-run",
	"disable-background-networking", "disable-component-update", "disable-sync",
	"disable-quic",
}

// harness is what TestMain sets up for every test.
var harness struct {
	root      string // the repository root, from this file's path; "" if unknown
	static    string // the built site
	artifacts string // where screenshots go
	baseURL   string // the project's server for static, http://127.0.0.1:PORT
	browser   context.Context

	// unavailable says why no browser test can run (static/ not built,
	// chromium not installed): a failure under CI, a skip otherwise.
	unavailable string
	// broken says why the harness failed to start although it could have:
	// always a failure.
	broken string
}

// inCI reports whether the tests run in CI (CI=true), where a missing
// chromium or an unbuilt site is a failure, not a skip.
func inCI() bool {
	ci, _ := strconv.ParseBool(os.Getenv("CI"))
	return ci
}

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	stop, err := startHarness()
	defer stop()
	if err != nil {
		harness.broken = err.Error()
	}
	return m.Run()
}

// startHarness finds the site and the browser, and starts the server and the
// browser. What it cannot find goes to harness.unavailable; what fails to
// start is returned. stop undoes whatever was started.
func startHarness() (stop func(), err error) {
	var stops []func()
	stop = func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}

	harness.root = repoRoot()
	harness.static = os.Getenv("ECHOMQ_STATIC")
	if harness.static != "" && !filepath.IsAbs(harness.static) {
		// go test runs in the package's directory, not the caller's.
		return stop, fmt.Errorf("ECHOMQ_STATIC=%s: give an absolute path", harness.static)
	}
	if harness.static == "" {
		if harness.root == "" {
			harness.unavailable = "cannot find the repository from this test's source path; set ECHOMQ_STATIC to the built site"
			return stop, nil
		}
		harness.static = filepath.Join(harness.root, "static")
	}
	harness.artifacts = os.Getenv("ECHOMQ_ARTIFACTS")
	if harness.artifacts == "" {
		if harness.root != "" {
			harness.artifacts = filepath.Join(harness.root, "artifacts", "browser")
		} else {
			harness.artifacts = filepath.Join(os.TempDir(), "echomq-browser-artifacts")
		}
	}

	for _, name := range []string{"index.html", "echomq.wasm", "wasm_exec.js"} {
		if _, err := os.Stat(filepath.Join(harness.static, name)); err != nil {
			harness.unavailable = fmt.Sprintf("the site is not built: %s has no %s (run ./build.sh, or set ECHOMQ_STATIC)", harness.static, name)
			return stop, nil
		}
	}
	bin, err := chromiumPath()
	switch {
	case os.Getenv("ECHOMQ_CHROMIUM") != "" && err != nil:
		return stop, err // asked for by name: not there is broken, not missing
	case err != nil:
		harness.unavailable = err.Error()
		return stop, nil
	}

	url, closeServer, err := serve(harness.static)
	if err != nil {
		return stop, err
	}
	stops = append(stops, closeServer)
	harness.baseURL = url

	browser, closeBrowser, err := startBrowser(bin)
	stops = append(stops, closeBrowser)
	if err != nil {
		return stop, err
	}
	harness.browser = browser
	return stop, nil
}

// repoRoot is the repository root, two directories above this source file,
// or "" when the file's path is not absolute (a -trimpath build).
func repoRoot() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	root := filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		return ""
	}
	return root
}

// chromiumPath finds Debian's chromium, or the browser ECHOMQ_CHROMIUM names.
// Debian's /usr/bin/chromium is a shell script that adds flags of its own
// (and loads extensions); the tests run the binary it starts, with their own
// flags only.
func chromiumPath() (string, error) {
	if p := os.Getenv("ECHOMQ_CHROMIUM"); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("ECHOMQ_CHROMIUM: %v", err)
		}
		return p, nil
	}
	wrapper, err := exec.LookPath("chromium")
	if err != nil {
		return "", errors.New("chromium is not installed (apt-get install -y chromium); the browser tests need it")
	}
	if fi, err := os.Stat("/usr/lib/chromium/chromium"); err == nil && fi.Mode().IsRegular() {
		return "/usr/lib/chromium/chromium", nil
	}
	return wrapper, nil
}

// serve starts the project's own handler for dir on 127.0.0.1 and a free
// port, with the Content-Security-Policy the page must work under.
func serve(dir string) (url string, stop func(), err error) {
	h, err := server.New(dir, server.Options{CSP: true})
	if err != nil {
		return "", func() {}, err
	}
	srv := httptest.NewServer(h) // listens on 127.0.0.1:0
	return srv.URL, func() {
		srv.Close()
		h.Close()
	}, nil
}

// startBrowser starts one headless chromium for the whole test binary, with
// a fresh profile that is removed when it stops.
func startBrowser(bin string) (context.Context, func(), error) {
	profile, err := os.MkdirTemp("", "echomq-chromium-")
	if err != nil {
		return nil, func() {}, err
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.UserDataDir(profile),
		// A laptop screen, so the page lays out as a learner sees it.
		chromedp.WindowSize(1280, 900),
		chromedp.CombinedOutput(&browserOutput),
	}
	for _, f := range chromiumFlags {
		opts = append(opts, chromedp.Flag(f, true))
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(allocCtx)
	stop := func() {
		cancel()
		cancelAlloc()
		os.RemoveAll(profile)
	}

	// The first Do starts the browser; it is bound to ctx, which has no
	// deadline, so the start is bounded by a timer instead.
	started := make(chan error, 1)
	go func() { started <- chromedp.Do(ctx) }()
	select {
	case err = <-started:
	case <-time.After(30 * time.Second):
		err = errors.New("timed out after 30 s")
	}
	if err != nil {
		return nil, stop, fmt.Errorf("chromium (%s) did not start: %v\n%s", bin, err, browserOutput.String())
	}
	return ctx, stop, nil
}

// browserOutput is what chromium printed, shown when it fails to start.
// The start of it is kept: that is where a failed start is explained.
var browserOutput = childout.Buffer{Limit: 1 << 16}

// needBrowser stops t when the harness could not start: a failure under CI
// or when something broke, a skip when chromium or the built site is simply
// not there on a developer's machine.
func needBrowser(t *testing.T) {
	t.Helper()
	switch {
	case harness.broken != "":
		t.Fatal(harness.broken)
	case harness.unavailable != "" && inCI():
		t.Fatalf("CI=true: %s", harness.unavailable)
	case harness.unavailable != "":
		t.Skip(harness.unavailable)
	}
}

// saveArtifact writes a test artifact (a screenshot) and logs where it is.
func saveArtifact(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(harness.artifacts, 0o755); err != nil {
		t.Errorf("artifacts: %v", err)
		return
	}
	path := filepath.Join(harness.artifacts, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Errorf("artifacts: %v", err)
		return
	}
	t.Logf("saved %s", path)
}
