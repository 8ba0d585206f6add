package page

import (
	_ "embed"
	"encoding/json"
	"strings"
)

// cardsJSON is the lesson's command cards, written by web/cmd/cards from
// wasm/docs with every example reply produced by the engine. It is
// committed, and a test there fails when it is stale.
//
//go:embed cards.json
var cardsJSON []byte

// Card is one command card: syntax, complexity, the reply in each case,
// how the lesson uses the command, its official page, and examples run on
// the engine when the cards were generated.
type Card struct {
	Name       string     `json:"name"`
	ID         string     `json:"id"`
	Syntax     string     `json:"syntax"`
	Summary    string     `json:"summary"`
	Since      string     `json:"since"`
	Group      string     `json:"group"`
	Complexity string     `json:"complexity"`
	Replies    []CardCase `json:"replies"`
	Lesson     string     `json:"lesson"`
	URL        string     `json:"url"`
	Examples   []CardLine `json:"examples"`
}

// CardCase is one way a command answers.
type CardCase struct {
	When  string `json:"When"`
	Reply string `json:"Reply"`
}

// CardLine is one example: the line typed at redis-cli and what it printed.
type CardLine struct {
	Line  string `json:"line"`
	Reply string `json:"reply"`
}

// Cards are the command cards, in the order the lesson shows them.
var Cards = mustCards()

func mustCards() []Card {
	var out []Card
	if err := json.Unmarshal(cardsJSON, &out); err != nil {
		panic("page: cards.json: " + err.Error())
	}
	return out
}

// CardID is the id of a command's card on the page: "card-script-load".
func CardID(c Card) string { return "card-" + c.ID }

func syntaxTail(s string) string {
	if s == "" {
		return ""
	}
	return " " + s
}

// sentenceStart capitalizes the first letter of a reply case, to begin
// its line.
func sentenceStart(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// exampleText is a card's examples as a redis-cli session prints them:
// the prompt and the line typed, then the reply, a blank line between.
func exampleText(c Card) string {
	var b strings.Builder
	for i, x := range c.Examples {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("redis> " + x.Line + "\n" + x.Reply)
	}
	return b.String()
}
