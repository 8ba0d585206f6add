// Package docs is what the playground knows about the Redis 7.0 commands
// the lesson's scripts send: for each one its syntax, its time complexity,
// its reply in each case, and how the lesson uses it. One copy serves
// three readers: the engine's COMMAND DOCS (same reply shape as Redis 7.0:
// since, group and the arguments are Redis's facts, the summary and the
// complexity are in our words), the console's redis-cli style `help`, and
// the command cards the page renders (web/cmd/cards runs each card's
// examples on the engine, so no reply on a card is written by hand).
//
// The package holds data only and imports nothing of the engine, so both
// the wasm and the host-side renderer can use it.
package docs

import (
	"crypto/sha1"
	"encoding/hex"
	"sort"
	"strings"

	"echomq.dev/playground/wasm/ascii"
)

// sha1Of is the SHA1 Redis names a script by, for examples that call a
// script by its SHA1.
func sha1Of(script string) string {
	sum := sha1.Sum([]byte(script))
	return hex.EncodeToString(sum[:])
}

// Command is one command as the cards, help and COMMAND DOCS show it.
type Command struct {
	Name       string // as typed: "HSET", "SCRIPT LOAD"
	Syntax     string // the arguments after the name, as redis-cli's help prints them
	Summary    string // one line, our words
	Since      string // the Redis version that added it
	Group      string // COMMAND DOCS's group
	Complexity string // our words
	History    []Change
	Args       []Arg

	Replies  []Case    // what it answers, in each case
	Lesson   string    // how the lesson uses it
	URL      string    // the official page, for a reader who is online
	Examples []Example // run on the engine when the site is built
}

// Change is one entry of a command's history: the version and what
// changed then.
type Change struct{ Version, What string }

// Arg is one argument as COMMAND DOCS describes it.
type Arg struct {
	Name     string
	Type     string // key, string, integer, double, pure-token, oneof, block
	KeySpec  int    // key_spec_index, for a key; -1 otherwise
	Token    string
	Since    string
	Optional bool
	Multiple bool
	Args     []Arg // of a oneof or a block
}

// Case is one way the command can answer.
type Case struct{ When, Reply string }

// Example is a short session at the console: Setup runs first and is not
// shown; each of Show is printed with its reply as redis-cli prints it.
type Example struct {
	Setup [][]string
	Show  [][]string
}

// DocName is the command's name in COMMAND DOCS: lower case, a
// subcommand joined to its container with "|" ("script|load").
func (c Command) DocName() string {
	return strings.ReplaceAll(ascii.Lower(c.Name), " ", "|")
}

// ID is the command's name as an HTML id part: "script-load".
func (c Command) ID() string {
	return strings.ReplaceAll(ascii.Lower(c.Name), " ", "-")
}

func key(name string) Arg     { return Arg{Name: name, Type: "key", KeySpec: 0} }
func str(name string) Arg     { return Arg{Name: name, Type: "string", KeySpec: -1} }
func integer(name string) Arg { return Arg{Name: name, Type: "integer", KeySpec: -1} }
func token(name, tok, since string) Arg {
	return Arg{Name: name, Type: "pure-token", KeySpec: -1, Token: tok, Since: since, Optional: true}
}

func (a Arg) optional() Arg { a.Optional = true; return a }
func (a Arg) multiple() Arg { a.Multiple = true; return a }

// scriptArgs are the arguments EVAL and EVALSHA share after the script.
var scriptArgs = []Arg{integer("numkeys"), key("key").optional().multiple(), str("arg").optional().multiple()}

// Commands are the lesson's commands, in the order the cards show them:
// how a script is sent, then what the two bodies call.
var Commands = []Command{
	{
		Name: "EVAL", Syntax: "script numkeys [key [key ...]] [arg [arg ...]]",
		Summary: "Runs a Lua script on the server, as one atomic step.",
		Since:   "2.6.0", Group: "scripting",
		Complexity: "Whatever the script does: the cost of the commands it calls.",
		Args:       append([]Arg{str("script")}, scriptArgs...),
		Replies: []Case{
			{"the script returns", "its value, converted: a Lua number becomes an integer (the fraction is dropped), a string a bulk string, a table an array up to its first nil, true the integer 1, false and nil a null"},
			{"the script fails or calls error_reply", "an error; a failed redis.call stops the script and its error names the script and the line"},
			{"the number of keys is not from 0 to the number of arguments", "an error, before anything runs"},
		},
		Lesson: "When EVALSHA answers NOSCRIPT, the connector sends the whole script once with EVAL, which also caches it.",
		URL:    "https://redis.io/docs/latest/commands/eval/",
		Examples: []Example{{Show: [][]string{
			{"EVAL", "return {KEYS[1], ARGV[1], 42}", "1", "emq:{q}:pending", "JOB-000001"},
			{"EVAL", "return redis.error_reply('EMQKIND this id is not a job')", "0"},
		}}},
	},
	{
		Name: "EVALSHA", Syntax: "sha1 numkeys [key [key ...]] [arg [arg ...]]",
		Summary: "Runs a script the server already holds, named by its SHA1.",
		Since:   "2.6.0", Group: "scripting",
		Complexity: "Whatever the script does: the cost of the commands it calls.",
		Args:       append([]Arg{str("sha1")}, scriptArgs...),
		Replies: []Case{
			{"the server holds the script", "what EVAL of that script would answer"},
			{"it does not (a restart, SCRIPT FLUSH, another server)", "the error NOSCRIPT, and nothing runs"},
		},
		Lesson: "The connector runs @enqueue and @claim EVALSHA first: after the first call, only the 40-character SHA1 crosses the wire.",
		URL:    "https://redis.io/docs/latest/commands/evalsha/",
		Examples: []Example{{
			Setup: [][]string{{"SCRIPT", "LOAD", "return 'hello from the cache'"}},
			Show: [][]string{
				{"EVALSHA", sha1Of("return 'hello from the cache'"), "0"},
				{"EVALSHA", "ffffffffffffffffffffffffffffffffffffffff", "0"},
			},
		}},
	},
	{
		Name: "SCRIPT LOAD", Syntax: "script",
		Summary: "Puts a script in the server's script cache without running it.",
		Since:   "2.6.0", Group: "scripting",
		Complexity: "O(N), N being the length of the script in bytes.",
		Args:       []Arg{str("script")},
		Replies: []Case{
			{"the script compiles", "its SHA1, as 40 lowercase hex digits, for EVALSHA"},
			{"it does not compile", "an error, and nothing is cached"},
		},
		Lesson: "A client may load a script ahead of its first EVALSHA; the lesson's connector lets EVAL do it instead.",
		URL:    "https://redis.io/docs/latest/commands/script-load/",
		Examples: []Example{{Show: [][]string{
			{"SCRIPT", "LOAD", "return 1"},
			{"SCRIPT", "LOAD", "return +"},
		}}},
	},
	{
		Name: "SCRIPT EXISTS", Syntax: "sha1 [sha1 ...]",
		Summary: "Asks whether the script cache holds scripts, by SHA1.",
		Since:   "2.6.0", Group: "scripting",
		Complexity: "O(N), N being the number of SHA1s asked about; each one is O(1).",
		Args:       []Arg{str("sha1").multiple()},
		Replies: []Case{
			{"always", "an array with one integer per SHA1, in order: 1 if the script is cached, 0 if not"},
		},
		Lesson: "It tells whether the next EVALSHA will hit or meet NOSCRIPT: the wire log's cache hit and cache miss.",
		URL:    "https://redis.io/docs/latest/commands/script-exists/",
		Examples: []Example{{
			Setup: [][]string{{"SCRIPT", "LOAD", "return 1"}},
			Show:  [][]string{{"SCRIPT", "EXISTS", sha1Of("return 1"), "ffffffffffffffffffffffffffffffffffffffff"}},
		}},
	},
	{
		Name: "EXISTS", Syntax: "key [key ...]",
		Summary: "Counts how many of the given keys exist.",
		Since:   "1.0.0", Group: "generic",
		Complexity: "O(N), N being the number of keys asked about.",
		History:    []Change{{"3.0.3", "Takes more than one key."}},
		Args:       []Arg{key("key").multiple()},
		Replies: []Case{
			{"always", "an integer: how many of the keys exist; a key named twice that exists counts twice"},
		},
		Lesson: "@enqueue asks it about the job's row: 1 means the id was admitted before, and the script answers 0, a duplicate. claim/3 asks it about the pause flag.",
		URL:    "https://redis.io/docs/latest/commands/exists/",
		Examples: []Example{{
			Setup: [][]string{{"HSET", "emq:{q}:job:JOB-000001", "state", "pending", "attempts", "0", "payload", "{}"}},
			Show: [][]string{
				{"EXISTS", "emq:{q}:job:JOB-000001"},
				{"EXISTS", "emq:{q}:job:JOB-000002"},
			},
		}},
	},
	{
		Name: "HSET", Syntax: "key field value [field value ...]",
		Summary: "Sets fields of a hash, creating the hash if needed.",
		Since:   "2.0.0", Group: "hash",
		Complexity: "O(1) per field-value pair, so O(N) for N pairs.",
		History:    []Change{{"4.0.0", "Takes more than one field-value pair."}},
		Args: []Arg{key("key"), {Name: "field_value", Type: "block", KeySpec: -1, Multiple: true,
			Args: []Arg{str("field"), str("value")}}},
		Replies: []Case{
			{"the key holds a hash or nothing", "an integer: how many of the fields are new (a field that was overwritten does not count)"},
			{"the key holds another type", "the error WRONGTYPE, and nothing is written"},
		},
		Lesson: "@enqueue writes the job's three-field row with it (state, attempts, payload); @claim sets state to active.",
		URL:    "https://valkey.io/commands/hset/",
		Examples: []Example{{
			Setup: [][]string{{"SET", "emq:{q}:not-a-hash", "x"}},
			Show: [][]string{
				{"HSET", "emq:{q}:job:JOB-000001", "state", "pending", "attempts", "0", "payload", `{"task":"resize"}`},
				{"HSET", "emq:{q}:job:JOB-000001", "state", "active"},
				{"HSET", "emq:{q}:not-a-hash", "state", "pending"},
			},
		}},
	},
	{
		Name: "HGET", Syntax: "key field",
		Summary: "Reads one field of a hash.",
		Since:   "2.0.0", Group: "hash",
		Complexity: "O(1)",
		Args:       []Arg{key("key"), str("field")},
		Replies: []Case{
			{"the field exists", "its value, a bulk string"},
			{"the field or the key does not", "a null"},
			{"the key holds another type", "the error WRONGTYPE"},
		},
		Lesson: "@claim reads the payload of the job it popped, to hand it to the worker.",
		URL:    "https://redis.io/docs/latest/commands/hget/",
		Examples: []Example{{
			Setup: [][]string{{"HSET", "emq:{q}:job:JOB-000001", "state", "pending", "attempts", "0", "payload", `{"task":"resize"}`}},
			Show: [][]string{
				{"HGET", "emq:{q}:job:JOB-000001", "payload"},
				{"HGET", "emq:{q}:job:JOB-000001", "owner"},
			},
		}},
	},
	{
		Name: "HINCRBY", Syntax: "key field increment",
		Summary: "Adds an integer to a hash field, starting from 0 if it is missing.",
		Since:   "2.0.0", Group: "hash",
		Complexity: "O(1)",
		Args:       []Arg{key("key"), str("field"), integer("increment")},
		Replies: []Case{
			{"the field holds an integer, or nothing", "an integer: the field's new value"},
			{"the field holds text that is not an integer", "the error \"ERR hash value is not an integer\""},
			{"the sum would not fit in 64 bits", "the error \"ERR increment or decrement would overflow\", and the field keeps its value"},
		},
		Lesson: "@claim counts one more attempt with it; attempts is the fencing token a worker shows when it reports back.",
		URL:    "https://redis.io/docs/latest/commands/hincrby/",
		Examples: []Example{{
			Setup: [][]string{{"HSET", "emq:{q}:job:JOB-000001", "state", "pending", "attempts", "0", "payload", "{}"}},
			Show: [][]string{
				{"HINCRBY", "emq:{q}:job:JOB-000001", "attempts", "1"},
				{"HINCRBY", "emq:{q}:job:JOB-000001", "state", "1"},
			},
		}},
	},
	{
		Name: "ZADD", Syntax: "key [NX|XX] [GT|LT] [CH] [INCR] score member [score member ...]",
		Summary: "Adds members to a sorted set with their scores, or changes their scores.",
		Since:   "1.2.0", Group: "sorted-set",
		Complexity: "O(log(N)) for each member added, N being the size of the set.",
		History: []Change{
			{"2.4.0", "Takes more than one score-member pair."},
			{"3.0.2", "The XX, NX, CH and INCR options."},
			{"6.2.0", "The GT and LT options."},
		},
		Args: []Arg{
			key("key"),
			{Name: "condition", Type: "oneof", KeySpec: -1, Since: "3.0.2", Optional: true, Args: []Arg{
				{Name: "nx", Type: "pure-token", KeySpec: -1, Token: "NX"}, {Name: "xx", Type: "pure-token", KeySpec: -1, Token: "XX"}}},
			{Name: "comparison", Type: "oneof", KeySpec: -1, Since: "6.2.0", Optional: true, Args: []Arg{
				{Name: "gt", Type: "pure-token", KeySpec: -1, Token: "GT"}, {Name: "lt", Type: "pure-token", KeySpec: -1, Token: "LT"}}},
			token("change", "CH", "3.0.2"),
			token("increment", "INCR", "3.0.2"),
			{Name: "score_member", Type: "block", KeySpec: -1, Multiple: true, Args: []Arg{
				{Name: "score", Type: "double", KeySpec: -1}, str("member")}},
		},
		Replies: []Case{
			{"without CH or INCR", "an integer: how many members are new (a changed score does not count)"},
			{"with CH", "an integer: how many members are new or got a new score"},
			{"with INCR", "the member's new score, or a null when NX or XX stopped it"},
			{"a score is not a number", "the error \"ERR value is not a valid float\", and nothing is added"},
		},
		Lesson: "@enqueue files the id in the pending set at score 0 (so ids come out in byte order); @claim files it in the active set at its lease deadline.",
		URL:    "https://valkey.io/commands/zadd/",
		Examples: []Example{{Show: [][]string{
			{"ZADD", "emq:{q}:pending", "0", "JOB-000001"},
			{"ZADD", "emq:{q}:pending", "0", "JOB-000001"},
			{"ZADD", "emq:{q}:active", "1767225630000", "JOB-000001"},
			{"ZADD", "emq:{q}:active", "soon", "JOB-000002"},
		}}},
	},
	{
		Name: "ZPOPMIN", Syntax: "key [count]",
		Summary: "Removes and returns the members with the lowest scores in a sorted set.",
		Since:   "5.0.0", Group: "sorted-set",
		Complexity: "O(log(N)·M), N being the size of the set and M how many members are popped.",
		Args:       []Arg{key("key"), integer("count").optional()},
		Replies: []Case{
			{"the set has members", "an array of member, score, member, score, ... lowest first; ties in score go in byte order of the member"},
			{"the set is empty or missing", "an empty array"},
			{"count is not a positive integer", "an error (a count of 0 answers an empty array)"},
		},
		Lesson: "@claim takes the oldest pending id with it: at score 0 for every id, the lowest is the first in byte order, which is mint order.",
		URL:    "https://valkey.io/commands/zpopmin/",
		Examples: []Example{{
			Setup: [][]string{{"ZADD", "emq:{q}:pending", "0", "JOB-000002", "0", "JOB-000001"}},
			Show: [][]string{
				{"ZPOPMIN", "emq:{q}:pending"},
				{"ZPOPMIN", "emq:{q}:pending"},
				{"ZPOPMIN", "emq:{q}:pending"},
			},
		}},
	},
	{
		Name: "TIME", Syntax: "",
		Summary: "Reads the server's clock.",
		Since:   "2.6.0", Group: "server",
		Complexity: "O(1)",
		Replies: []Case{
			{"always", "an array of two bulk strings: the Unix time in seconds, and the microseconds past that second"},
		},
		Lesson:   "@claim reads the lease's start from the server's clock, never the worker's, so every worker's deadline is on one clock. The playground's clock moves only when you advance it.",
		URL:      "https://redis.io/docs/latest/commands/time/",
		Examples: []Example{{Show: [][]string{{"TIME"}}}},
	},
}

// Lookup finds a command by the name a learner types: "hset", "SCRIPT
// LOAD", or COMMAND DOCS's "script|load".
func Lookup(name string) (Command, bool) {
	n := strings.Join(strings.Fields(ascii.Lower(strings.ReplaceAll(name, "|", " "))), " ")
	for _, c := range Commands {
		if ascii.Lower(c.Name) == n {
			return c, true
		}
	}
	return Command{}, false
}

// Names are the commands' names, sorted, for a message that lists them.
func Names() []string {
	out := make([]string, len(Commands))
	for i, c := range Commands {
		out[i] = c.Name
	}
	sort.Strings(out)
	return out
}

// Help is what redis-cli's `help <command>` prints for c: the syntax,
// then the summary, since and group, between blank lines.
func Help(c Command) string {
	var b strings.Builder
	b.WriteString("\n  " + c.Name)
	if c.Syntax != "" {
		b.WriteString(" " + c.Syntax)
	}
	b.WriteString("\n  summary: " + c.Summary)
	b.WriteString("\n  since: " + c.Since)
	b.WriteString("\n  group: " + c.Group + "\n")
	return b.String()
}
