package browser

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// widgetNames are the widgets: their sections' ids on the full page, and
// their embed pages, /embed/<name>.html.
var widgetNames = []string{"stepper", "beats", "verdicts", "roundtrip", "editor", "console", "workers"}

// statusLine is the loader's status line; it says Ready once the engine
// is up.
const statusLine = "[role=status]"

// openReady opens path in a new tab for t and waits until the engine is
// up, as a learner waits for "Ready" before clicking anything.
func openReady(t *testing.T, path string) *tab {
	t.Helper()
	tb := newTab(t)
	tb.open(path)
	ready(tb)
	return tb
}

// ready waits until the engine is up and the status line says exactly
// Ready.
func ready(tb *tab) {
	tb.t.Helper()
	page := tb.whole()
	tb.eventually(`the status line to say "Ready"`, func() (string, bool) {
		got, err := eval[*string](tb, page.expr("text", statusLine))
		switch {
		case err != nil:
			return errString(err), false
		case got == nil:
			return "no visible status line", false
		}
		return *got, normSpace(*got) == "Ready"
	})
}

// TestPageLoads loads the full page as a learner does: the engine
// downloads and starts, the status line says Ready, and the seven widgets
// are there, each a region named by its heading, with every control usable.
func TestPageLoads(t *testing.T) {
	tb := openReady(t, "/")
	for _, name := range widgetNames {
		w := tb.in("#" + name)
		heading := w.text("h2")
		if got := w.label(); got != heading || got == "" {
			t.Errorf("#%s is labelled %q; want its heading %q", name, got, heading)
		}
		for _, c := range w.controls() {
			// Back says "nothing to do" until there is a run to walk back
			// through, and "Enqueue it again" until a job was enqueued.
			if !c.Enabled && c.Name != "Back" && c.Name != "Enqueue it again" {
				t.Errorf("#%s: %s %q is disabled after Ready", name, c.Kind, c.Name)
			}
		}
	}
	tb.whole().screenshot("page")
}

// TestLoading holds the download of the engine, as a slow network would:
// until it arrives the page shows a download bar and says it shows the
// recorded run, and no widget button can be pressed but those the
// recording answers (the stepper's walk, the verdicts' buttons); then it
// gets ready.
func TestLoading(t *testing.T) {
	tb := newTab(t)
	release := tb.holdRequests(".wasm") // the engine, under its hashed name
	tb.open("/")
	page := tb.whole()
	page.text("progress") // visible: waits for it
	page.wantText(statusLine, "Loading (recorded run shown)")
	recorded := map[string]bool{"stepper Step": true, "stepper Back": true, "verdicts Enqueue a job": true, "verdicts Enqueue it again": true, "verdicts Try a malformed id": true}
	for _, name := range widgetNames {
		for _, c := range tb.in("#" + name).controls() {
			if c.Enabled && !recorded[name+" "+c.Name] {
				t.Errorf("#%s: %s %q is enabled before the engine is ready", name, c.Kind, c.Name)
			}
		}
	}
	release()
	ready(tb)
	tb.in("#verdicts").findControl("button", "Enqueue a job")
	if got := page.texts("progress"); len(got) != 0 {
		t.Errorf("the download bar is still shown after Ready")
	}
}

// TestEmbedPages loads each widget's own page, for an iframe in a course:
// it starts its own engine, reaches Ready, and holds that widget alone.
func TestEmbedPages(t *testing.T) {
	for _, name := range widgetNames {
		t.Run(name, func(t *testing.T) {
			tb := openReady(t, "/embed/"+name+".html")
			w := tb.in("#" + name)
			if heading := w.text("h2"); w.label() != heading {
				t.Errorf("the widget is labelled %q; want its heading %q", w.label(), heading)
			}
			for _, other := range widgetNames {
				if other != name && len(tb.whole().texts("#"+other)) > 0 {
					t.Errorf("the %s embed page also shows #%s", name, other)
				}
			}
			// One thing a learner does there, to see the engine answer.
			switch name {
			case "stepper":
				w.clickShows("Step", stepPosition, "Move 1 of 4")
			case "beats":
				w.wantText(beatsSource, scriptLine(t, "ZADD"))
			case "verdicts":
				w.clickShows("Enqueue a job", verdict, "{:ok, :enqueued}")
			case "roundtrip":
				w.clickShows("Claim", claimResult, ":empty")
			case "editor":
				w.clickShows("Run", "[data-testid=editor-reply]", "(integer) 1")
			case "console":
				w.fill("Command", "ZCARD "+pendingKey)
				w.clickShows("Run", "[data-testid=console-log]", "(integer) 0")
			case "workers":
				w.click("Fill the queue")
				w.clickShows("A: next step", "[data-testid=workers-timeline]", "ZRANGE")
			}
			w.screenshot("embed-" + name)
		})
	}
}

// TestLoadFailure fails the download of the engine: the page says it could
// not start, in an alert with a Reload button, and the widgets stay
// disabled. Reload, with the network mended, starts it.
func TestLoadFailure(t *testing.T) {
	t.Run("network error, then Reload", func(t *testing.T) {
		tb := newTab(t)
		tb.breakRequests(".wasm") // the engine, under its hashed name
		tb.open("/")
		page := tb.whole()
		page.wantText("[role=alert]", "could not start")
		page.wantText(statusLine, "Stopped")
		page.findControl("button", "Reload")
		for _, c := range tb.in("#roundtrip").controls() {
			if c.Enabled {
				t.Errorf("%s %q is enabled although the engine failed", c.Kind, c.Name)
			}
		}
		tb.in("#loader").screenshot("load-failure")

		tb.mendRequests()
		page.click("Reload")
		ready(tb)
		page.wantNoText("[role=alert]", "could not start")
		tb.in("#roundtrip").findControl("button", "Claim")
	})
	t.Run("no echomq.wasm on the server", func(t *testing.T) {
		dir := t.TempDir()
		copySite(t, harness.static, dir, func(name string) bool { return !strings.HasPrefix(filepath.Base(name), "echomq.") })
		base, stop, err := serve(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop) // after the tab's cleanup: the page may still ask for its icon
		tb := newTab(t).onServer(base)
		tb.expectFailedRequests(".wasm")
		tb.open("/")
		tb.whole().wantText("[role=alert]", "could not start", "404")
		tb.whole().findControl("button", "Reload")
	})
}

// copySite copies the files of the built site that keep says to keep.
func copySite(t *testing.T, from, to string, keep func(name string) bool) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		if !keep(rel) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(fmt.Errorf("copy the site: %w", err))
	}
}
