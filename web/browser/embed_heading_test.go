package browser

import (
	"fmt"
	"testing"
)

// TestEmbedHeadingOption: a course author who has a heading of their own
// above the frame gives the embed heading=hide (in the iframe's address,
// or as the custom element's attribute): the widget's kicker, heading and
// lede are not on screen, its controls are, and its section is still
// named by its heading for a screen reader. The same embed without the
// option shows all three.
func TestEmbedHeadingOption(t *testing.T) {
	base := courseWith(t, `<h2>Try the round trip</h2>
<iframe id="plain" src="/echomq/embed/roundtrip.html" title="The round trip" data-echomq></iframe>
<h2>Try it again, under this heading only</h2>
<iframe id="bare" src="/echomq/embed/roundtrip.html?heading=hide" title="The round trip" data-echomq></iframe>
<echomq-embed id="element" widget="roundtrip" heading="hide"></echomq-embed>`)
	tb := newTab(t).onServer(base)
	tb.open("/course.html")
	seen := func(frame, sel, want string) string {
		got, err := eval[string](tb, fmt.Sprintf("(%s)(%s)", seenJS, jsArgs(frame, sel, want)))
		return got + errString(err)
	}
	parts := []struct{ sel, text string }{
		{"#roundtrip .widget-head .kicker", "Enqueue, then claim"},
		{"#roundtrip-heading", "The round trip"},
		{"#roundtrip .widget-head .widget-lede", "Claiming mirrors"},
	}

	tb.inFrame("#plain", "#roundtrip").findControl("button", "Enqueue")
	for _, p := range parts {
		tb.wantSeen("#plain", p.sel, p.text)
	}

	for _, frame := range []string{"#bare", "#element iframe"} {
		if _, err := eval[bool](tb, fmt.Sprintf(`(document.querySelector(%s).scrollIntoView(), true)`, jsArgs(frame))); err != nil {
			t.Fatal(err)
		}
		tb.inFrame(frame, "#roundtrip").findControl("button", "Enqueue")
		tb.wantSeen(frame, "button", "Copy link")
		for _, p := range parts {
			if got := seen(frame, p.sel, p.text); got == "seen" {
				t.Errorf("%s with heading=hide shows %s (%q)", frame, p.sel, p.text)
			}
		}
		name, err := eval[string](tb, fmt.Sprintf(`(() => {
			const d = document.querySelector(%s).contentDocument;
			const by = d.getElementById("roundtrip").getAttribute("aria-labelledby");
			return d.getElementById(by).textContent.trim();
		})()`, jsArgs(frame)))
		if err != nil || name != "The round trip" {
			t.Errorf("%s: the widget's section is named %q (%v); want its heading, The round trip", frame, name, err)
		}
	}
	tb.whole().screenshot("embed-heading-hide")
}
