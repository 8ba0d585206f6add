// Command cards writes web/page/cards.json: the command cards of the
// lesson, with every example reply produced by the engine itself (run
// natively, printed as redis-cli prints it by wasm/cli), so that no reply
// on a card is written by hand.
//
//	go run ./web/cmd/cards -out web/page/cards.json   # write
//	go run ./web/cmd/cards -check web/page/cards.json # fail if stale
//
// The file is committed, as templ's output is; the test in this package
// and build.sh's test step regenerate it and fail when it differs, so a
// card can never show a reply the engine no longer gives.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"echomq.dev/playground/wasm/cli"
	"echomq.dev/playground/wasm/docs"
	"echomq.dev/playground/wasm/engine"
	"echomq.dev/playground/wasm/sdsargs"
	"echomq.dev/playground/web/page"
)

func main() {
	out := flag.String("out", "", "write the cards to this file")
	check := flag.String("check", "", "fail if this file is not what would be written")
	flag.Parse()
	if (*out == "") == (*check == "") {
		fmt.Fprintln(os.Stderr, "cards: give exactly one of -out and -check")
		os.Exit(2)
	}
	data, err := Generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "cards:", err)
		os.Exit(1)
	}
	if *out != "" {
		if err := os.WriteFile(*out, data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "cards:", err)
			os.Exit(1)
		}
		return
	}
	old, err := os.ReadFile(*check)
	if err != nil || !bytes.Equal(old, data) {
		fmt.Fprintf(os.Stderr, "cards: %s is stale: run go run ./web/cmd/cards -out %s and commit it\n", *check, *check)
		os.Exit(1)
	}
}

// Generate runs every card's examples on a fresh engine and returns the
// cards as indented JSON.
func Generate() ([]byte, error) {
	var cards []page.Card
	for _, c := range docs.Commands {
		card := page.Card{
			Name: c.Name, ID: c.ID(), Syntax: c.Syntax, Summary: c.Summary, Since: c.Since, Group: c.Group,
			Complexity: c.Complexity, Lesson: c.Lesson, URL: c.URL,
		}
		for _, r := range c.Replies {
			card.Replies = append(card.Replies, page.CardCase{When: r.When, Reply: r.Reply})
		}
		for _, ex := range c.Examples {
			e, err := engine.New() // a fresh keyspace and the clock at its start
			if err != nil {
				return nil, err
			}
			for _, args := range ex.Setup {
				if r, _ := e.Do(args...); r.IsError() {
					return nil, fmt.Errorf("%s: the setup %q failed: %s", c.Name, args, r.Str)
				}
			}
			for _, args := range ex.Show {
				line := Line(args)
				if back, err := cli.Split(line); err != nil || !slices.Equal(back, args) {
					return nil, fmt.Errorf("%s: the line %s does not read back as %q (%v)", c.Name, line, args, err)
				}
				r, _ := e.Do(args...)
				card.Examples = append(card.Examples, page.CardLine{Line: line, Reply: cli.Format(r)})
			}
		}
		if len(card.Examples) == 0 {
			return nil, errors.New(c.Name + ": a card needs an example")
		}
		cards = append(cards, card)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(cards); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Line writes a command as a learner would type it at redis-cli: plain
// words as they are, anything with a space, a quote or nothing in it in
// quotes that redis-cli reads back to the same argument.
func Line(args []string) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = sdsargs.Quote(a)
	}
	return strings.Join(parts, " ")
}
