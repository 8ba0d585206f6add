package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"echomq.dev/playground/web/server"
)

// Embeds in a course page, read like a learner reads them: what shows
// inside the frame, and what the keyboard does there.

// courseWith serves a course page whose body is body at /course.html and
// the built site under /echomq/, every response with the strict
// Content-Security-Policy. The page runs embed.js, as the README says.
func courseWith(t *testing.T, body string) string {
	t.Helper()
	site, err := server.New(harness.static, server.Options{CSP: true})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/echomq/", http.StripPrefix("/echomq", site))
	mux.HandleFunc("/course.html", serveCourse(body))
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.Close()
		site.Close()
	})
	return srv.URL
}

// probeInFrame is probeJS run against the document inside the iframe
// frameSel selects: the probe names document, and the one it sees is this
// wrapper's.
func probeInFrame(frameSel string) string {
	return fmt.Sprintf(`(op, scopeSel, arg) => {
	const frame = window.document.querySelector(%s);
	if (!frame || !frame.contentDocument || !frame.contentDocument.body) return op.endsWith("?") ? { missing: true } : null;
	const document = frame.contentDocument;
	return (%s)(op, scopeSel, arg);
}`, jsArgs(frameSel), probeJS)
}

// inFrame is the part sel (a CSS selector, "" for all of it) of the page
// inside the iframe frameSel selects.
func (tb *tab) inFrame(frameSel, sel string) scope {
	return scope{tb: tb, sel: sel, frame: frameSel}
}

// seenJS says whether a learner can see the element inside a frame: the
// first one matching sel whose text has want. "seen" when it has a real
// size, lies inside the frame's box (which embed.js sizes), and is what
// the frame shows at that spot (nothing clips or covers it); otherwise
// what stands in the way.
const seenJS = `(frameSel, sel, want) => {
	const frame = document.querySelector(frameSel);
	const d = frame && frame.contentDocument;
	if (!d) return "no frame";
	const el = [...d.querySelectorAll(sel)].find((e) => e.textContent.includes(want));
	if (!el) return "nothing matches " + sel + " with " + JSON.stringify(want);
	if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return "hidden";
	const r = el.getBoundingClientRect();
	if (r.width < 20 || r.height < 10) return "it is " + r.width + "×" + r.height + " px";
	const box = frame.getBoundingClientRect();
	if (r.top < 0 || r.bottom > box.height + 1 || r.right > box.width + 1) return "it lies outside the frame's " + box.width + "×" + box.height + " px";
	const hit = d.elementFromPoint(r.left + Math.min(r.width / 2, 8), r.top + Math.min(r.height / 2, 6));
	if (!hit || !(el.contains(hit) || hit.contains(el))) return "something else is drawn there: " + (hit ? hit.outerHTML.slice(0, 80) : "nothing");
	return "seen";
}`

// wantSeen waits until the element inside the frame that matches sel and
// has want in its text is on the learner's screen (seenJS).
func (tb *tab) wantSeen(frameSel, sel, want string) {
	tb.t.Helper()
	tb.eventually(fmt.Sprintf("%s with %q to be seen inside %s", sel, want, frameSel), func() (string, bool) {
		got, err := eval[string](tb, fmt.Sprintf("(%s)(%s)", seenJS, jsArgs(frameSel, sel, want)))
		return got + errString(err), got == "seen"
	})
}

// frameStatus is the status line inside the frame.
func frameStatus(tb *tab, frameSel string) string {
	got, err := eval[string](tb, fmt.Sprintf(`(() => { const d = document.querySelector(%s)?.contentDocument; return d?.getElementById("status")?.textContent ?? ""; })()`, jsArgs(frameSel)))
	return got + errString(err)
}

// luaLink is a round-trip link whose operations run Lua: it enqueues
// JOB-9 and ZADDs JOB-LUA by EVAL.
func luaLink(t *testing.T) (fragment, script string) {
	script = "redis.call('ZADD', KEYS[1], 0, 'JOB-LUA') return 1"
	return linkFragment(t, map[string]any{
		"v": 1, "widget": "roundtrip",
		"ops": [][]any{
			{"enqueue", "q", "JOB-9", "{}"},
			{"exec", []string{"EVAL", script, "1", "emq:{q}:pending"}},
		},
		"views": map[string]any{},
	}), script
}

// TestEmbedLinkWithLua opens a course page whose embed carries a link
// with Lua. Inside the frame the learner sees the Lua and the status line
// says the page waits for them; the focus is on a visible button, and
// Enter pressed at once runs nothing. Choosing "Run it" by keyboard runs
// the link.
func TestEmbedLinkWithLua(t *testing.T) {
	fragment, script := luaLink(t)
	const frame = "iframe"
	opened := func(t *testing.T) *tab {
		base := courseWith(t, `<iframe src="/echomq/embed/roundtrip.html`+fragment+`" title="The round trip" data-echomq></iframe>`)
		tb := newTab(t).onServer(base)
		tb.open("/course.html")
		tb.wantSeen(frame, "#link-review", "This link runs Lua")
		tb.wantSeen(frame, "#link-review-code pre", script)
		tb.eventually("the status line to say it waits for the learner", func() (string, bool) {
			s := frameStatus(tb, frame)
			return s, s == "Waiting for you to review the link"
		})
		return tb
	}

	t.Run("Enter on load", func(t *testing.T) {
		tb := opened(t)
		f := tb.inFrame(frame, "")
		focus := f.focus()
		if focus.Tag != "button" || focus.Name != "Start without it" {
			t.Fatalf("the focus is on %v; want the visible button Start without it", focus)
		}
		tb.wantSeen(frame, "#link-review button", "Start without it")
		tb.whole().screenshot("embed-link-review")
		f.press(kb.Enter)
		tb.eventually("the embed to be Ready", func() (string, bool) {
			s := frameStatus(tb, frame)
			return s, s == "Ready"
		})
		tb.wantSeen(frame, "#notice", "were not run")
		tb.inFrame(frame, "#roundtrip").wantRows(pendingKey, nil)
	})

	t.Run("run by keyboard", func(t *testing.T) {
		tb := opened(t)
		f := tb.inFrame(frame, "")
		f.findControl("button", "Run it and open the link") // enabled once the Lua is on screen
		tb.run("press Shift+Tab", chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
		if focus := f.focus(); focus.Name != "Run it and open the link" {
			t.Fatalf("Shift+Tab from the focus put it on %v; want Run it and open the link", focus)
		}
		f.press(kb.Enter)
		tb.eventually("the embed to be Ready", func() (string, bool) {
			s := frameStatus(tb, frame)
			return s, s == "Ready"
		})
		tb.inFrame(frame, "#roundtrip").wantRows(pendingKey, [][]string{{"JOB-9", "0"}, {"JOB-LUA", "0"}})
	})
}

// TestEmbedBadOption opens an embed with a lease that is not a number: the
// notice saying it was ignored is on screen inside the frame, once the
// widget is ready too.
func TestEmbedBadOption(t *testing.T) {
	const frame = "iframe"
	base := courseWith(t, `<iframe src="/echomq/embed/roundtrip.html?lease=abc" title="The round trip" data-echomq></iframe>`)
	tb := newTab(t).onServer(base)
	tb.open("/course.html")
	tb.eventually("the embed to be Ready", func() (string, bool) {
		s := frameStatus(tb, frame)
		return s, s == "Ready"
	})
	// A course's reader has no address to fix: the notice says what the
	// widget does instead.
	tb.wantSeen(frame, "#notice p", "This widget's lease setting could not be used (a lease is a whole number of milliseconds")
	if got := tb.inFrame(frame, "body").text("#notice"); strings.Contains(got, "address") {
		t.Errorf("the embed's notice speaks of an address: %q", got)
	}
	tb.inFrame(frame, "#roundtrip").findControl("button", "Enqueue")
	tb.whole().screenshot("embed-bad-option")
}

// TestEmbedCopyLink copies a link inside an embed on a course page that
// runs embed.js: the link is the course page's own, and the status says
// so. Opened in a fresh tab, it shows the course page with that widget in
// the state it was copied in (embed.js hands the frame its permalink).
func TestEmbedCopyLink(t *testing.T) {
	const frame = "#dive"
	base := courseWith(t, `<p>First, the stepper.</p>
<iframe src="/echomq/embed/stepper.html" title="The stepper" data-echomq></iframe>
<iframe id="dive" src="/echomq/embed/roundtrip.html" title="The round trip" data-echomq></iframe>`)
	tb := newTab(t).onServer(base)
	tb.open("/course.html")
	r := tb.inFrame(frame, "#roundtrip")
	link := enqueueAndCopyLink(t, tb, r)
	if !strings.HasPrefix(link, base+"/course.html#echomq.dive.v1.") {
		t.Fatalf("the copied link is %q; want the course page's address, reopening the frame #dive", link)
	}
	if addr, _ := eval[string](tb, `location.href`); addr != base+"/course.html" {
		t.Errorf("copying changed the course page's address to %q", addr)
	}

	fresh := newTab(t).onServer(base)
	fresh.openURL(link)
	fresh.inFrame(frame, "#roundtrip").wantRows(pendingKey, [][]string{{"JOB-000001", "0"}})
	fresh.inFrame("iframe", "#stepper").findControl("button", "Step")
	// The other embed keeps its own, empty keyspace.
	fresh.inFrame("iframe", "#stepper").wantRows(pendingKey, nil)
}

// TestEmbedCopyLinkAlone copies a link inside an embed whose page does
// not run embed.js: the status says the link opens the widget on its own
// page, and the link is that page's.
func TestEmbedCopyLinkAlone(t *testing.T) {
	site, err := server.New(harness.static, server.Options{CSP: true})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/echomq/", http.StripPrefix("/echomq", site))
	mux.HandleFunc("/plain.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><title>No embed.js</title><link rel="icon" href="/echomq/favicon.svg"><iframe src="/echomq/embed/roundtrip.html" title="The round trip" style="width:100%;height:900px"></iframe>`)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.Close()
		site.Close()
	})
	tb := newTab(t).onServer(srv.URL)
	tb.open("/plain.html")
	r := tb.inFrame("iframe", "#roundtrip")
	r.findControl("button", "Copy link")
	if _, err := eval[bool](tb, `(document.querySelector("iframe").contentDocument.querySelector("button[data-permalink]").click(), true)`); err != nil {
		t.Fatal(err)
	}
	r.wantText(".permalink-status", "opens this widget on a page of its own")
	link, _ := eval[string](tb, `document.querySelector("iframe").contentDocument.getElementById("roundtrip-link").value`)
	if !strings.HasPrefix(link, srv.URL+"/echomq/embed/roundtrip.html#v1.") {
		t.Errorf("the copied link is %q; want the embed page's own address", link)
	}
}

// serveCourse serves a course page holding body (the author's embeds) and
// embed.js, under the strict Content-Security-Policy, as a course host
// following the README would.
func serveCourse(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", server.CSP)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>A course page</title><link rel="icon" href="/echomq/favicon.svg"></head>
<body>
<h1>Dive 1: Enqueue &amp; claim</h1>
%s
<script src="/echomq/embed.js" defer></script>
</body>
</html>`, body)
	}
}

// enqueueAndCopyLink enqueues a job in the round trip of the course
// page's frame #dive (r, in tb) and copies its link, as a learner would:
// the link the frame's permalink field then holds.
func enqueueAndCopyLink(t *testing.T, tb *tab, r scope) string {
	t.Helper()
	r.findControl("button", "Enqueue")
	if _, err := eval[bool](tb, `(document.querySelector("#dive").contentDocument.getElementById("roundtrip-enqueue").click(), true)`); err != nil {
		t.Fatal(err)
	}
	r.wantRows(pendingKey, [][]string{{"JOB-000001", "0"}})
	if _, err := eval[bool](tb, `(document.querySelector("#dive").contentDocument.querySelector("button[data-permalink]").click(), true)`); err != nil {
		t.Fatal(err)
	}
	r.wantText(".permalink-status", "opens the course page")
	link, err := eval[string](tb, `document.querySelector("#dive").contentDocument.getElementById("roundtrip-link").value`)
	if err != nil {
		t.Fatal(err)
	}
	return link
}
