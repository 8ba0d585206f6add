// Package page holds the playground's templ components and the view models
// they render. Components take a view model and nothing else, so a test can
// render them with fixed values and compare the HTML byte for byte.
//
// The package is for the host only (the renderer and its tests): nothing
// under wasm/ may import it, so templ never ends up in echomq.wasm.
package page

import "strconv"

// Title is the document title of the enqueue & claim playground.
const Title = "EchoMQ Playground — Enqueue & claim"

// Index is the view model of static/index.html.
type Index struct {
	Title string

	// URLs of what the page loads, relative to the page itself so the site
	// can be copied anywhere (a course, a file server, a sub-path).
	IconURL     string // the favicon (without one, browsers ask for /favicon.ico and log a 404)
	StyleURL    string // the stylesheet
	WasmExecURL string // Go's wasm_exec.js, a classic script
	ScriptURL   string // the page's ES module
	WasmURL     string // the Go program

	// WasmBytes is the size of the uncompressed WebAssembly file when it is
	// known at render time, or 0. The page uses it as the progress bar's
	// total when the server's Content-Length describes compressed bytes.
	WasmBytes int64

	// Starting values of the demo form.
	Queue   string
	JobID   string
	Payload string
	LeaseMS int64
}

// DefaultIndex is the index page as build.sh renders it, minus the wasm
// size, which only the renderer can know.
func DefaultIndex() Index {
	return Index{
		Title:       Title,
		IconURL:     "favicon.svg",
		StyleURL:    "app.css",
		WasmExecURL: "wasm_exec.js",
		ScriptURL:   "app.js",
		WasmURL:     "echomq.wasm",
		Queue:       "q",
		JobID:       "JOB-1",
		Payload:     `{"task":"hello"}`,
		LeaseMS:     30000,
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
