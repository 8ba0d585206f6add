package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// committed is the cards file the page embeds, relative to this package.
const committed = "../../page/cards.json"

// TestCommittedCardsAreFresh regenerates the cards and compares them with
// the committed file: a change to an example, to the engine's replies or
// to the card text that was not regenerated fails here, as a stale
// *_templ.go fails the templ check.
func TestCommittedCardsAreFresh(t *testing.T) {
	want, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(committed)
	if err != nil {
		t.Fatalf("%v (run go run ./web/cmd/cards -out web/page/cards.json)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("web/page/cards.json is stale: run go run ./web/cmd/cards -out web/page/cards.json and commit it")
	}
}

// TestExamplesAreTheEnginesReplies spot-checks that the examples are what
// the engine answers, including its errors, not text from the cards.
func TestExamplesAreTheEnginesReplies(t *testing.T) {
	data, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"line": "HSET emq:{q}:job:JOB-000001 state pending attempts 0 payload '{\"task\":\"resize\"}'"`,
		`"reply": "(integer) 3"`,
		`"reply": "(error) WRONGTYPE Operation against a key holding the wrong kind of value"`,
		`"reply": "1) \"JOB-000001\"\n2) \"0\""`,
		`"reply": "(empty array)"`,
		`"reply": "1) \"1767225600\"\n2) \"0\""`,
		`"reply": "(error) NOSCRIPT No matching script. Please use EVAL."`,
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the cards hold no %s", want)
		}
	}
}

func TestLineReadsBack(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"GET", "k"}, "GET k"},
		{[]string{"SET", "k", "two words"}, "SET k 'two words'"},
		{[]string{"SET", "k", ""}, "SET k ''"},
		{[]string{"SET", "k", "it's"}, `SET k "it's"`},
		{[]string{"SET", "k", "a\nb"}, `SET k "a\x0ab"`},
	} {
		if got := Line(tc.args); got != tc.want {
			t.Errorf("Line(%q) = %s, want %s", tc.args, got, tc.want)
		}
	}
}
