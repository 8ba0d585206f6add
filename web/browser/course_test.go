package browser

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// courseParts are the lesson's parts as the course orders them: the
// contents' words, then the heading the learner reads there. Written out
// here, not read from the page package, so the test holds the page to the
// course and not to itself.
var courseParts = []struct{ toc, heading string }{
	{"Enqueue & claim", "Enqueue & claim"},
	{"Step the moves", "The @enqueue transition, move by move"},
	{"Two beats", "Handle, then body"},
	{"Three verdicts", "Three verdicts"},
	{"The flat claim", "The flat claim: pop, lease, return"},
	{"Round trip", "The round trip"},
	{"Pattern & implementation", "Pattern & implementation"},
	{"Recap", "Recap: admit once, claim once"},
	{"References", "References"},
	{"What comes next", "What comes next"},
	{"Go further", "Go further"},
	{"Edit a script", ""}, // the widgets past the course keep their own headings
	{"Console", ""},
	{"Two workers", ""},
}

// part is one contents entry as the page has it.
type part struct {
	Link    string `json:"link"`
	Found   bool   `json:"found"`
	Heading string `json:"heading"`
	After   bool   `json:"after"` // the target comes after the previous entry's, in document order
}

const readParts = `(() => {
	let prev = null;
	return [...document.querySelectorAll("nav#toc a")].map((a) => {
		const t = document.getElementById(decodeURIComponent(a.hash.slice(1)));
		const h = t && t.querySelector("h2");
		const after = !!t && (prev === null || !!(prev.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING));
		if (t) prev = t;
		return { link: a.textContent.trim(), found: !!t, heading: h ? h.textContent.replace(/\s+/g, " ").trim() : "", after };
	});
})()`

// wantCourseOrder checks that every part of the course is on the page, in
// the course's order, each reached from the contents.
func wantCourseOrder(tb *tab) {
	tb.t.Helper()
	parts, err := eval[[]part](tb, readParts)
	if err != nil {
		tb.t.Fatalf("reading the contents: %v", err)
	}
	var got, want []string
	for _, p := range parts {
		got = append(got, p.Link)
		if !p.Found || !p.After {
			tb.t.Errorf("contents entry %q: target found %v, after the one before it %v", p.Link, p.Found, p.After)
		}
	}
	for _, c := range courseParts {
		want = append(want, c.toc)
	}
	if !slices.Equal(got, want) {
		tb.t.Fatalf("the contents list %q, want the course's order %q", got, want)
	}
	for i, c := range courseParts {
		if c.heading != "" && parts[i].Heading != c.heading {
			tb.t.Errorf("the part %q is headed %q, want %q", c.toc, parts[i].Heading, c.heading)
		}
	}
	page := tb.whole()
	page.wantText("#pattern", "admit once, claim once", "@enqueue", "claim/3")
	page.wantText("#recap", "Claiming runs the mirror image")
	page.wantText("#next", "Fair lanes & the ring")
	// The references print their addresses, for a reader with no network.
	for _, ref := range []string{
		"Redis — EVALSHA https://redis.io/docs/latest/commands/evalsha/",
		"Valkey — ZPOPMIN https://valkey.io/commands/zpopmin/",
		"Valkey — HSET https://valkey.io/commands/hset/",
		"Valkey — ZADD https://valkey.io/commands/zadd/",
	} {
		page.wantText("#references .sources", ref)
	}
}

// TestCourseSectionsInOrder: the lesson page holds the whole course, in
// its order, and the contents mark the part being read as the learner
// scrolls.
func TestCourseSectionsInOrder(t *testing.T) {
	tb := openReady(t, "/")
	wantCourseOrder(tb)

	for _, c := range []struct{ id, link string }{
		{"pattern", "Pattern & implementation"},
		{"part-roundtrip", "Round trip"},
		{"opening", "Enqueue & claim"},
	} {
		if _, err := eval[bool](tb, fmt.Sprintf(`(document.getElementById(%q).scrollIntoView({block: "start"}), true)`, c.id)); err != nil {
			t.Fatal(err)
		}
		tb.eventually(fmt.Sprintf("the contents to mark %q", c.link), func() (string, bool) {
			got, err := eval[[]string](tb, `[...document.querySelectorAll('nav#toc a[aria-current="location"]')].map((a) => a.textContent.trim())`)
			if err != nil {
				return errString(err), false
			}
			return fmt.Sprintf("%q", got), len(got) == 1 && got[0] == c.link
		})
	}
}

// openOffline opens a learner's download of lesson.html (offlineLesson)
// in a tab with no network at all, where any request but the file itself
// fails the test, and waits until the engine inside the file is up.
func openOffline(t *testing.T) *tab {
	t.Helper()
	needBrowser(t)
	fileURL := offlineLesson(t)
	tb := newTab(t).allowFile(fileURL)
	tb.offline()
	tb.openURL(fileURL)
	ready(tb)
	return tb
}

// offlineLesson copies static/lesson.html alone into a directory of its
// own, as a learner's download, and returns its file: URL.
func offlineLesson(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(harness.static, "lesson.html"))
	if err != nil {
		t.Fatalf("the build wrote no lesson.html: %v", err)
	}
	lesson := filepath.Join(t.TempDir(), "lesson.html")
	if err := os.WriteFile(lesson, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return (&url.URL{Scheme: "file", Path: lesson}).String()
}

// TestOfflineLessonIsTheWholeCourse: lesson.html, opened from disk with no
// network, holds every part of the course in order too.
func TestOfflineLessonIsTheWholeCourse(t *testing.T) {
	wantCourseOrder(openOffline(t))
}
