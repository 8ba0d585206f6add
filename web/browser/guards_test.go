package browser

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestGuards proves the tab's guards on pages made to misbehave: each
// problem must be caught. The problems are taken from the tab here, so
// they do not fail this test; in any other test they would.
func TestGuards(t *testing.T) {
	needBrowser(t)
	pages := map[string]string{
		"/console": `<p id=done>x</p><script>console.error("boom from the page")</script>`,
		"/throw":   `<p id=done>x</p><script>throw new Error("thrown by the page")</script>`,
		"/missing": `<p id=done>x</p><img src="/nothing-here.png" alt="">`,
		"/offhost": `<p id=done>x</p><img src="http://offhost.invalid/pixel.png" alt="">`,
		"/clean":   `<p id=done>x</p><script>console.log("only a log")</script>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte("<!doctype html><title>guard</title><link rel=icon href=data:,>" + body))
	}))
	t.Cleanup(srv.Close) // after the tabs' cleanups

	tests := []struct {
		desc, path string
		want       []string // each must be in some problem; none means no problem
	}{
		{"console.error", "/console", []string{"console.error: boom from the page"}},
		{"uncaught exception", "/throw", []string{"uncaught exception", "thrown by the page"}},
		{"failed request", "/missing", []string{"request failed", "/nothing-here.png", "404"}},
		{"request off this machine", "/offhost", []string{"request off this machine", "offhost.invalid"}},
		{"a clean page", "/clean", nil},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			tb := newTab(t).onServer(srv.URL)
			tb.open(tt.path) // waits for the load event
			// Events sent before this round trip's answer have been seen.
			if _, err := eval[string](tb, "document.getElementById('done').textContent"); err != nil {
				t.Fatal(err)
			}
			got := strings.Join(tb.newProblems(), "\n")
			if len(tt.want) == 0 && got != "" {
				t.Errorf("problems on a clean page:\n%s", got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("problems do not mention %q; got:\n%s", w, got)
				}
			}
		})
	}
}
