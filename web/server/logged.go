package server

import "net/http"

// Logged wraps next so that note hears of every request once it has been
// answered, with the status sent (200 when the handler wrote a body
// without one) and the response's headers. The dev server's request log is one use; the browser
// tests and the benchmark read a repeat visit off it (what reached the
// server, and what was answered 304 Not Modified).
func Logged(next http.Handler, note func(r *http.Request, status int, header http.Header)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		note(r, rec.status(), w.Header())
	})
}

// statusRecorder notes the first status a handler sends.
type statusRecorder struct {
	http.ResponseWriter
	code int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.code == 0 {
		s.code = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(p []byte) (int, error) {
	if s.code == 0 {
		s.code = http.StatusOK
	}
	return s.ResponseWriter.Write(p)
}

// Flush passes a flush on, so a slowed or streamed response still streams.
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *statusRecorder) status() int {
	if s.code == 0 {
		return http.StatusOK
	}
	return s.code
}
