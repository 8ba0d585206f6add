package docs_test

import (
	"regexp"
	"testing"

	"echomq.dev/playground/lua"
	"echomq.dev/playground/wasm/docs"
)

// TestEveryCommandTheLessonSendsHasACard: the commands the two scripts
// call, and the ones the connector sends them with, all have docs.
func TestEveryCommandTheLessonSendsHasACard(t *testing.T) {
	call := regexp.MustCompile(`redis\.p?call\('([A-Z]+)'`)
	want := map[string]bool{"EVAL": true, "EVALSHA": true, "SCRIPT LOAD": true, "SCRIPT EXISTS": true}
	for _, s := range lua.All() {
		for _, m := range call.FindAllStringSubmatch(s.Source, -1) {
			want[m[1]] = true
		}
	}
	for name := range want {
		if _, ok := docs.Lookup(name); !ok {
			t.Errorf("%s has no card", name)
		}
	}
	for _, c := range docs.Commands {
		if c.URL == "" || c.Summary == "" || c.Complexity == "" || len(c.Replies) == 0 || c.Lesson == "" || len(c.Examples) == 0 {
			t.Errorf("%s's card is missing a part: %+v", c.Name, c)
		}
	}
}

func TestLookup(t *testing.T) {
	for _, name := range []string{"hset", "HSET", "script load", "SCRIPT  LOAD", "script|load"} {
		if _, ok := docs.Lookup(name); !ok {
			t.Errorf("Lookup(%q) found nothing", name)
		}
	}
	if _, ok := docs.Lookup("script"); ok {
		t.Errorf("Lookup(script) found a card: the container has none")
	}
}
