// Package browser holds the playground's browser tests: Go tests that drive
// Debian's chromium, headless, over the DevTools protocol (chromedp), against
// the built site in static/ served by the project's own handler
// (web/server) on 127.0.0.1.
//
// The tests do what a learner does and read what a learner reads: they click
// buttons found by their visible text, fill fields found by their label,
// press keys, and compare the text and the tables on the page. Every test
// fails on a console error, an uncaught exception, a failed request, or a
// request to any host but 127.0.0.1 or localhost; the tab helper checks
// that, so no test can forget it.
//
// The package has no code outside its tests. Run it with
//
//	./build.sh test                       # builds static/, then go test -race ./...
//	go test ./web/browser/                # against the static/ built last
//
// Environment:
//
//	ECHOMQ_STATIC     the built site, an absolute path (default: static/ at
//	                  the repository root, found from this package's source,
//	                  never from the working directory). build.sh sets it.
//	ECHOMQ_ARTIFACTS  where the screenshots go (default: artifacts/browser/
//	                  at the repository root).
//	ECHOMQ_CHROMIUM   the browser to run (default: Debian's chromium).
//	CI=true           a missing chromium or an unbuilt static/ fails the
//	                  tests; otherwise they are skipped.
package browser
