package browser

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// consoleWarnings returns what the tab's page has said with console.warn so far.
func consoleWarnings(tb *tab) func() []string {
	return func() []string {
		tb.mu.Lock()
		defer tb.mu.Unlock()
		return append([]string(nil), tb.warnings...)
	}
}

// TestUncompressedHostIsNoticed: a course author copies static/ to a host
// that does not compress (here Go's plain file server, which sends the
// raw module with its Content-Length and no Content-Encoding). The page
// says so in the console and, served from this machine, on the page,
// pointing at the README's headers; the project's own server, which sends
// the brotli copy, draws no such word.
func TestUncompressedHostIsNoticed(t *testing.T) {
	plain := httptest.NewServer(http.FileServer(http.Dir(harness.static)))
	t.Cleanup(plain.Close)
	tb := newTab(t).onServer(plain.URL)
	warnings := consoleWarnings(tb)
	tb.open("/")
	ready(tb)
	tb.whole().wantText("#notice", "For the author of this page: the host sent the engine uncompressed", "MiB", "Headers a host must send")
	tb.eventually("the console to say the engine came uncompressed", func() (string, bool) {
		w := warnings()
		for _, s := range w {
			if strings.Contains(s, "uncompressed") && strings.Contains(s, "Content-Encoding: br") {
				return s, true
			}
		}
		return strings.Join(w, "\n"), false
	})

	good := newTab(t)
	goodWarnings := consoleWarnings(good)
	good.open("/")
	ready(good)
	if got, _ := eval[string](good, `document.getElementById("notice").textContent`); strings.Contains(got, "uncompressed") {
		t.Errorf("the compressing server's page says %q", got)
	}
	for _, s := range goodWarnings() {
		if strings.Contains(s, "uncompressed") {
			t.Errorf("the compressing server's page warns %q", s)
		}
	}
}
