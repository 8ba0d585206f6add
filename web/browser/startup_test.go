package browser

import (
	"context"
	"io/fs"

	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// What a learner relies on at start-up (issue 24): the full page's
// stepper steps the recorded lesson before the engine's download begins,
// and a first visit leaves V8's compiled code behind for the next one.

// TestStepperStepsBeforeTheEngineStarts opens the full page and reads its
// marks: the stepper's recorded run was steppable (echomq:recorded) before
// the page started the engine (echomq:boot, after first paint), so the
// engine's 2 MB never stood between the learner and the first Step.
func TestStepperStepsBeforeTheEngineStarts(t *testing.T) {
	tb := openReady(t, "/")
	marks, err := eval[map[string]float64](tb, `Object.fromEntries(["echomq:module", "echomq:recorded", "echomq:boot", "echomq:ready"].map((n) => [n, performance.getEntriesByName(n, "mark")[0]?.startTime ?? -1]))`)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("marks (ms since navigation): %v", marks)
	rec, boot := marks["echomq:recorded"], marks["echomq:boot"]
	switch {
	case rec < 0:
		t.Fatalf("the page never showed its recorded run (no echomq:recorded mark): the stepper waited for the engine")
	case boot < 0:
		t.Fatalf("no echomq:boot mark: the page did not say when it started the engine")
	case rec > boot:
		t.Errorf("the stepper could step at %.0f ms, after the engine started at %.0f ms: the download competed with the page", rec, boot)
	}
	// And the engine's worker is the only one fetching the module: the
	// page itself asked for no .wasm before the stepper could step.
	early, err := eval[int](tb, `performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".wasm") && e.startTime < performance.getEntriesByName("echomq:recorded", "mark")[0].startTime).length`)
	if err != nil {
		t.Fatal(err)
	}
	if early > 0 {
		t.Errorf("the page fetched the module %d time(s) before the stepper could step", early)
	}
}

// TestFirstVisitKeepsTheCodeCache loads the full page once in a browser
// with a profile of its own, as a learner's browser keeps one
// (--headless=new, which writes the code cache as a headed browser does),
// and waits on the page for V8's compiled code to appear under
// Code Cache/wasm. Chromium 156 writes it only once V8 has optimised
// about 1 MB of the module's code, which starting the engine alone does
// not reach: the worker's warm-up (worker.js, warmCodeCache) does. Without
// it the directory held only its 72 B index after 20 s.
func TestFirstVisitKeepsTheCodeCache(t *testing.T) {
	needBrowser(t)
	bin, err := chromiumPath()
	if err != nil {
		t.Fatal(err)
	}
	profile := t.TempDir()
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(bin), chromedp.UserDataDir(profile), chromedp.WindowSize(1280, 900)}
	for _, f := range chromiumFlags {
		opts = append(opts, chromedp.Flag(f, true))
	}
	opts = append(opts, chromedp.Flag("headless", "new"))
	bounded, cancelTimeout := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancelTimeout()
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(bounded, opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(allocCtx)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(harness.baseURL+"/")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("status")?.textContent === "Ready"`,
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		t.Fatalf("the page was not Ready: %v", err)
	}
	dir := filepath.Join(profile, "Default", "Code Cache", "wasm")
	const want = 500_000 // the entry is about 1.4 MB; the empty cache's index is 72 B
	var got int64
	for deadline := time.Now().Add(45 * time.Second); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		if got = dirBytes(dir); got >= want {
			t.Logf("Code Cache/wasm holds %d B", got)
			return
		}
	}
	t.Errorf("45 s after Ready, Code Cache/wasm holds %d B; want V8's compiled module (over %d B), so the next visit compiles nothing", got, want)
}

// dirBytes is the size of the regular files under dir.
func dirBytes(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
