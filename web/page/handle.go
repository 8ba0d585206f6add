package page

import (
	"strings"
	"unicode"
)

// HandleSource is beat one: EchoMQ.Jobs.enqueue/4, the Elixir handle that
// builds the two keys and runs @enqueue. The code is the course's; the
// comments are the playground's own.
const HandleSource = `# echo_mq · EchoMQ.Jobs
# enqueue/4 names the keys, passes the values on and
# reads the reply; the rules live in the script.
# KEYS: the row and the pending set, both under the
# {queue} hash tag. ARGV: the id and the payload.
# The connector tries EVALSHA, then EVAL on NOSCRIPT.
def enqueue(conn, queue, job_id, payload) when is_binary(job_id) and is_binary(payload) do
  keys = [Keyspace.job_key(queue, job_id), Keyspace.queue_key(queue, "pending")]

  case Connector.eval(conn, @enqueue, keys, [job_id, payload]) do
    {:ok, 1} -> {:ok, :enqueued}      # written: row + pending
    {:ok, 0} -> {:ok, :duplicate}     # seen before: no write
    {:error, {:server, "EMQKIND" <> _}} -> {:error, :kind}  # gate said no
    other -> other
  end
end`

// CodeLine is one line of highlighted code.
type CodeLine struct {
	N      int // 1-based
	Tokens []Token
}

// Token is a run of code text with one class ("" for plain text).
type Token struct {
	Class string // "com", "str", "kw", "atom", "attr", "num", "mod" or ""
	Text  string
}

// elixirKeywords are the words highlighted as keywords in Elixir code.
var elixirKeywords = map[string]bool{
	"def": true, "defp": true, "do": true, "end": true, "case": true, "when": true,
	"and": true, "or": true, "not": true, "if": true, "else": true, "fn": true,
}

// Highlight splits Elixir source into lines of tokens: comments, strings,
// atoms, module attributes, numbers, module names and keywords. It is a
// small scanner for the page's one snippet, not a full Elixir lexer.
func Highlight(src string) []CodeLine {
	lines := strings.Split(src, "\n")
	out := make([]CodeLine, len(lines))
	for i, line := range lines {
		out[i] = CodeLine{N: i + 1, Tokens: highlightLine(line)}
	}
	return out
}

func highlightLine(line string) []Token {
	var toks []Token
	emit := func(class, text string) {
		if text == "" {
			return
		}
		if n := len(toks); n > 0 && toks[n-1].Class == class {
			toks[n-1].Text += text
			return
		}
		toks = append(toks, Token{Class: class, Text: text})
	}
	rs := []rune(line)
	isWord := func(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case r == '#':
			emit("com", string(rs[i:]))
			i = len(rs)
		case r == '"':
			j := i + 1
			for j < len(rs) && rs[j] != '"' {
				if rs[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(rs))
			emit("str", string(rs[i:j]))
			i = j
		case r == ':' && i+1 < len(rs) && (unicode.IsLetter(rs[i+1]) || rs[i+1] == '_') && (i == 0 || !isWord(rs[i-1])):
			j := i + 1
			for j < len(rs) && (isWord(rs[j]) || rs[j] == '?' || rs[j] == '!') {
				j++
			}
			emit("atom", string(rs[i:j]))
			i = j
		case r == '@' && i+1 < len(rs) && unicode.IsLetter(rs[i+1]):
			j := i + 1
			for j < len(rs) && isWord(rs[j]) {
				j++
			}
			emit("attr", string(rs[i:j]))
			i = j
		case unicode.IsDigit(r) && (i == 0 || !isWord(rs[i-1])):
			j := i
			for j < len(rs) && (unicode.IsDigit(rs[j]) || rs[j] == '_') {
				j++
			}
			emit("num", string(rs[i:j]))
			i = j
		case unicode.IsLetter(r) || r == '_':
			j := i
			for j < len(rs) && (isWord(rs[j]) || rs[j] == '?' || rs[j] == '!') {
				j++
			}
			word := string(rs[i:j])
			switch {
			case elixirKeywords[word]:
				emit("kw", word)
			case unicode.IsUpper(rs[i]):
				emit("mod", word)
			default:
				emit("", word)
			}
			i = j
		default:
			emit("", string(r))
			i++
		}
	}
	return toks
}
