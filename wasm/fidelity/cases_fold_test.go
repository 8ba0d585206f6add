package fidelity

import (
	"slices"
	"strings"

	"echomq.dev/playground/wasm/engine"
)

// Redis compares command names, subcommands and option words in ASCII
// (strcasecmp), and four characters outside ASCII are ASCII letters to
// Go's Unicode case mapping, which miniredis upper-cases with: ſ (long s)
// and ı (dotless i) upper-case to S and I, İ lower-cases to i, and K (the
// Kelvin sign) lower-cases to k. For Redis "ſet" is no command and
// "SET k v \u212aEEPTTL" a syntax error. These cases spell every command
// of Redis's table, every subcommand, and the option words the engine and
// miniredis read, with those characters, and require Redis's reply.

// goFold is, for each letter Go's case mapping can reach from outside
// ASCII, the characters that reach it.
var goFold = map[byte][]string{'S': {"\u017f"}, 'I': {"\u0131", "\u0130"}, 'K': {"\u212a"}}

// folded are word's spellings with one letter that goFold reaches written
// as each character that reaches it, in turn: one spelling per letter and
// character. A word without such a letter has none.
func folded(word string) []string {
	var out []string
	up := strings.ToUpper(word)
	for i := range len(up) {
		for _, r := range goFold[up[i]] {
			out = append(out, word[:i]+r+word[i+1:])
		}
	}
	return out
}

// foldNames are the commands of Redis's table, and the subcommands of its
// containers, each spelt with a character Go folds in place of one of its
// letters, with an argument or two after it. Redis answers an unknown
// command or subcommand for each.
func foldNames() (commands, subcommands [][]string) {
	names := engine.CommandNames()
	slices.Sort(names) // the table is a map: a recording needs one order
	for _, name := range names {
		base, sub, isSub := strings.Cut(strings.ToUpper(name), "|")
		if !isSub {
			for _, f := range folded(base) {
				commands = append(commands, []string{f, "k", "v"})
			}
			continue
		}
		for _, f := range folded(sub) {
			subcommands = append(subcommands, []string{base, f, "k"})
		}
	}
	return commands, subcommands
}

// foldOptions are commands whose options (and the keywords some options
// take as values) hold a letter Go folds, each written with its options
// marked "@": the case sends each as it is (unless the line starts with
// "!": its plain reply differs from Redis's for a reason of its own), then
// with every marked word spelt each way folded gives, one at a time.
var foldOptions = []struct {
	setup [][]string
	cmds  []string
}{
	{nil, []string{
		"SET k v @KEEPTTL", "SET k v EX 10 @KEEPTTL", "GETEX k @PERSIST", "SET k 1", "FLUSHDB @ASYNC", "FLUSHALL @ASYNC"}},
	{[][]string{{"SET", "k", "v"}, {"RPUSH", "l", "a", "b", "a", "c", "d", "e", "f", "g"}, {"SADD", "s", "a"}, {"HSET", "h", "f", "v"}, {"ZADD", "z", "1", "a"}},
		[]string{"SCAN 0 TYPE @string", "SCAN 0 TYPE @list", "SCAN 0 TYPE @set", "SCAN 0 TYPE @zset", "SCAN 0 TYPE @hash", "SCAN 0 TYPE @stream",
			"!HRANDFIELD h 1 @WITHVALUES", "ZRANDMEMBER z 1 @WITHSCORES", "LPOS l a @RANK 1", "LPOS l a RANK 1 COUNT 0 MAXLEN 5",
			"LMPOP 1 l @RIGHT", "LMPOP 1 l LEFT COUNT 1", "LMOVE l l2 @RIGHT LEFT", "LMOVE l l2 LEFT @RIGHT", "LMOVE l l2 LEFT sideways", "SINTERCARD 1 s @LIMIT 1",
			"ZMPOP 1 z @MIN"}},
	{[][]string{{"ZADD", "a", "1", "x", "2", "y"}, {"ZADD", "b", "3", "x"}},
		[]string{"ZUNION 2 a b @WEIGHTS 1 2", "ZUNION 2 a b AGGREGATE @SUM", "ZUNION 2 a b AGGREGATE @MIN", "ZUNION 2 a b @WITHSCORES",
			"ZINTER 2 a b @WITHSCORES", "ZINTER 2 a b @AGGREGATE MAX", "ZUNIONSTORE d 2 a b @WEIGHTS 1 2", "ZUNIONSTORE d 2 a b AGGREGATE @SUM",
			"ZINTERSTORE d 2 a b AGGREGATE @MIN", "ZDIFF 2 a b @WITHSCORES", "ZRANGE a 0 -1 @WITHSCORES", "ZRANGE a 0 10 @BYSCORE @LIMIT 0 1",
			"ZRANGEBYSCORE a -inf +inf @WITHSCORES @LIMIT 0 1", "ZREVRANGEBYSCORE a +inf -inf @WITHSCORES", "ZRANGEBYLEX a - + @LIMIT 0 1",
			"ZADD a @INCR 1 x", "ZADD a @INCR 1 ıncr", "ZRANGE a 0 -1"}},
	{[][]string{{"GEOADD", "geo", "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania"}},
		[]string{"GEODIST geo Palermo Catania @km", "GEODIST geo Palermo Catania @mi", "GEORADIUS geo 15 37 200 km @WITHDIST",
			"GEORADIUS geo 15 37 200 km @ASC", "GEORADIUS geo 15 37 200 km @DESC COUNT 1",
			"GEORADIUSBYMEMBER geo Palermo 200 km @WITHDIST", "GEOSEARCH geo @FROMMEMBER Palermo @BYRADIUS 200 @km @ASC",
			"GEOSEARCH geo @FROMLONLAT 15 37 BYBOX 400 400 @km @WITHDIST", "GEOSEARCH geo FROMMEMBER Palermo BYRADIUS 200 km COUNT 1 ANY"}},
	{[][]string{{"SET", "k", "foobar"}, {"SET", "k2", "foobaz"}},
		[]string{"SORT l @ALPHA @DESC @LIMIT 0 1", "SORT l ALPHA @ASC @STORE out", "LCS k k2 @IDX @MINMATCHLEN 1 @WITHMATCHLEN", "LCS k k2 LEN",
			"BITFIELD k @SET u8 0 1", "BITFIELD k @INCRBY u8 0 1", "BITFIELD k OVERFLOW @SAT INCRBY u8 0 1", "BITFIELD k OVERFLOW @FAIL INCRBY u8 0 1",
			"!OBJECT @ENCODING k", "CLIENT @SETNAME x", "CLIENT @GETNAME",
			"SCRIPT @EXISTS abc", "SCRIPT FLUSH @SYNC", "OBJECT @FREQ k"}},
}

// foldOptionCases are foldOptions as cases: the setup, each command as it
// is, then each marked word folded, with the commands after it.
func foldOptionCases() []fcase {
	var cs []fcase
	for i, g := range foldOptions {
		c := fcase{id: "fold/options-" + string(rune('a'+i)),
			desc: "Option words and keywords spelt with a character Go's case mapping takes for one of their letters: Redis does not take them",
			cmds: g.setup}
		for _, line := range g.cmds {
			only, folds := strings.CutPrefix(line, "!")
			words := strings.Fields(only)
			plain := make([]string, len(words))
			for j, w := range words {
				plain[j] = strings.TrimPrefix(w, "@")
			}
			if !folds {
				c.cmds = append(c.cmds, plain)
			}
			for j, w := range words {
				if !strings.HasPrefix(w, "@") {
					continue
				}
				for _, f := range folded(plain[j]) {
					spelt := append([]string(nil), plain...)
					spelt[j] = f
					c.cmds = append(c.cmds, spelt)
				}
			}
		}
		cs = append(cs, c)
	}
	return cs
}

func foldCases() []fcase {
	commands, subcommands := foldNames()
	cs := []fcase{
		{id: "fold/commands", desc: "Every command of Redis 7.0's table, its name spelt with a character Go's case mapping takes for one of its letters (ſet, EVALſHA, ınfo, \u212aEYS): an unknown command",
			cmds: commands},
		{id: "fold/subcommands", desc: "Every subcommand of a container, spelt the same way (CLIENT ſETNAME, OBJECT ENCODıNG): an unknown subcommand",
			cmds: subcommands},
	}
	return append(cs, foldOptionCases()...)
}
