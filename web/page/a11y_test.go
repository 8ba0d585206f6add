package page

import (
	"bytes"
	"testing"

	"golang.org/x/net/html"
)

// TestEveryPageHasOneH1 is axe's page-has-heading-one: an embed page,
// whose widget's own heading is an h2 as on the full page, has an h1 too.
func TestEveryPageHasOneH1(t *testing.T) {
	for _, p := range allPages() {
		doc, err := html.Parse(bytes.NewReader(render(t, p.c)))
		if err != nil {
			t.Fatal(err)
		}
		var h1 []string
		for _, n := range all(doc) {
			if n.Type == html.ElementNode && n.Data == "h1" {
				h1 = append(h1, text(n))
			}
		}
		if len(h1) != 1 {
			t.Errorf("%s has %d h1: %q; want one", p.name, len(h1), h1)
		}
	}
}

// TestListsKeepTheirRole is axe's listitem and list rules: a role on an
// ol or ul (the console's role=log was one) replaces its list role, and
// its li are then items of no list. The transcript's log is a wrapper.
func TestListsKeepTheirRole(t *testing.T) {
	for _, p := range allPages() {
		doc, err := html.Parse(bytes.NewReader(render(t, p.c)))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range all(doc) {
			if n.Type == html.ElementNode && (n.Data == "ol" || n.Data == "ul") && hasAttr(n, "role") && attr(n, "role") != "list" {
				t.Errorf("%s: <%s id=%q> has role=%q, which drops its list role", p.name, n.Data, attr(n, "id"), attr(n, "role"))
			}
		}
	}
}
