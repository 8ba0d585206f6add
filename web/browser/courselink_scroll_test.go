package browser

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestCourseLinkLandsOnHeading copies a link inside an embed that sits a
// few screens down a course page and opens it in a fresh tab: the course
// page scrolls to that frame with the widget's heading at the top of the
// screen (the kicker within a few px of it, the heading wholly on screen),
// not scrolled past it.
func TestCourseLinkLandsOnHeading(t *testing.T) {
	const frame = "#dive"
	prose := strings.Repeat("<p>Some prose of the course, to read before the widget.</p>\n", 60)
	base := courseWith(t, prose+`<h2>The round trip, in the course</h2>
<iframe id="dive" src="/echomq/embed/roundtrip.html" title="The round trip" data-echomq></iframe>`+prose)
	tb := newTab(t).onServer(base)
	tb.open("/course.html")
	r := tb.inFrame(frame, "#roundtrip")
	if _, err := eval[bool](tb, `(document.querySelector("#dive").scrollIntoView(), true)`); err != nil {
		t.Fatal(err)
	}
	link := enqueueAndCopyLink(t, tb, r)

	fresh := newTab(t).onServer(base)
	fresh.openURL(link)
	fresh.inFrame(frame, "#roundtrip").wantRows(pendingKey, [][]string{{"JOB-000001", "0"}})
	// Where the widget's heading stands on the course page's screen.
	where := fmt.Sprintf(`(() => {
		const f = document.querySelector(%s);
		const d = f.contentDocument;
		const top = f.getBoundingClientRect().top;
		const kicker = d.querySelector("#roundtrip .widget-head .kicker").getBoundingClientRect();
		const h = d.getElementById("roundtrip-heading").getBoundingClientRect();
		return JSON.stringify({ kicker: Math.round(top + kicker.top), headingTop: Math.round(top + h.top), headingBottom: Math.round(top + h.bottom), screen: innerHeight });
	})()`, jsArgs(frame))
	fresh.eventually("the widget's heading at the top of the screen", func() (string, bool) {
		got, err := eval[string](fresh, where)
		if err != nil {
			return errString(err), false
		}
		var at struct{ Kicker, HeadingTop, HeadingBottom, Screen int }
		if err := json.Unmarshal([]byte(got), &at); err != nil {
			return err.Error(), false
		}
		return got, at.Kicker >= -2 && at.Kicker <= 8 && at.HeadingTop >= 0 && at.HeadingBottom <= at.Screen
	})
}
