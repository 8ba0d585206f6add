package engine

import (
	"strconv"
	"strings"
	"sync"

	"echomq.dev/playground/wasm/ascii"
)

// Option words that only Go takes for option words.
//
// Redis reads a command's options in ASCII (strcasecmp): "PERſIST", with
// a long s, is no option of GETEX, and Redis answers a syntax error. The
// engine reads options that way too (package ascii). But miniredis reads
// the options of the commands it serves with Go's Unicode case mapping, to
// which ſ is S, ı and İ are I, and the Kelvin sign is K, so it would take
// "PERſIST" for PERSIST and answer as if the learner had typed it.
//
// So before raw hands a command to miniredis, the words in the places
// where miniredis reads an option (or a keyword an option takes: a unit,
// AGGREGATE's SUM, SCAN's TYPE) are checked, for the commands of
// miniredisOptions; a word there that holds one of those characters and
// that Go would fold into one of the command's keywords is handed on with
// them replaced by U+FFFD instead, which miniredis reads as the unknown
// word Redis sees. Such a word stands where Redis reads an option, never
// where it reads a key or a value, so nothing stored changes.

// optionSpec is where one command's options stand, as Redis and miniredis
// read them: from start on, each a word of words followed by its values.
type optionSpec struct {
	// startAt is the index of the first option (see start); -1 when the
	// command has none here. startAfterKeys: the options start after the
	// keys (see keysAt); startAfterIDs: after the stream IDs from startAt.
	startAt                       int
	startAfterKeys, startAfterIDs bool
	// words are the options, upper case, each with how many values follow
	// it: a count, or one of the kinds below.
	words map[string]int
	// keywords are options whose values include keywords: the value's
	// place after the option (1 for the first) and the keywords.
	keywords map[string]keywordsAt
	// fixed are keywords at fixed places (a unit, an end); no command of the table has one since GEO became the engine's own (geocmds.go).
	fixed map[int][]string
	// keysAt is where the count of the command's keys stands, for
	// valuesNumkeys; 0 for a command without one.
	keysAt int
}

// keyCount is the command's count of keys, 0 if it has none that reads.
func (s optionSpec) keyCount(args []string) int {
	if s.keysAt == 0 || s.keysAt >= len(args) {
		return 0
	}
	n, ok := parseRedisInt(args[s.keysAt])
	if !ok || n < 0 || n > int64(len(args)) {
		return 0
	}
	return int(n)
}

type keywordsAt struct {
	at    int
	words []string
}

// The kinds of values an option word may take beside a count.
const (
	valuesNumkeys = -1 // one per key of the command (WEIGHTS)
	valuesTrim    = -2 // an optional = or ~, then a threshold (MAXLEN, MINID)
	valuesRest    = -3 // the rest of the arguments, which are no options (STREAMS)
)

// optionTable is miniredisOptions as text, one command a line, read on
// first use (as Go map literals the table cost 80 KB of the module, and
// ran at every page load):
//
//	NAME[|SUB] START WORD:VALUES[=KEYWORD|KEYWORD@AT] ... [#AT=KEYWORD|...]
//
// START is the index of the first option, kN the place after the keys
// whose count is at N, iN the place after the stream IDs from N on, or "-"
// for none. VALUES is a count, "w" (one per key), "t" (an optional = or ~
// and a threshold) or "r" (the rest are no options). =...@AT lists the
// keywords the option's value at AT (1 for the first) may be; #AT=... the
// keywords at a fixed place.
const optionTable = `GETEX 2 EX:1 PX:1 EXAT:1 PXAT:1 PERSIST:0
SCAN 2 MATCH:1 COUNT:1 TYPE:1=STRING|LIST|SET|ZSET|HASH|STREAM@1
HRANDFIELD 3 WITHVALUES:0
ZRANDMEMBER 3 WITHSCORES:0
ZUNION k1 WEIGHTS:w AGGREGATE:1=SUM|MIN|MAX@1 WITHSCORES:0
ZINTER k1 WEIGHTS:w AGGREGATE:1=SUM|MIN|MAX@1 WITHSCORES:0
ZUNIONSTORE k2 WEIGHTS:w AGGREGATE:1=SUM|MIN|MAX@1
ZINTERSTORE k2 WEIGHTS:w AGGREGATE:1=SUM|MIN|MAX@1
LPOS 3 RANK:1 COUNT:1 MAXLEN:1
LMPOP k1 LEFT:0 RIGHT:0 COUNT:1
ZMPOP k1 MIN:0 MAX:0 COUNT:1
SINTERCARD k1 LIMIT:1
FLUSHALL 1 ASYNC:0 SYNC:0
FLUSHDB 1 ASYNC:0 SYNC:0
XADD 2 NOMKSTREAM:0 MAXLEN:t MINID:t LIMIT:1
XTRIM 2 MAXLEN:t MINID:t LIMIT:1
XREAD 1 COUNT:1 BLOCK:1 STREAMS:r
XREADGROUP 1 GROUP:2 COUNT:1 BLOCK:1 NOACK:0 STREAMS:r
XGROUP|CREATE 5 MKSTREAM:0 ENTRIESREAD:1
XGROUP|SETID 5 ENTRIESREAD:1
XCLAIM i5 IDLE:1 TIME:1 RETRYCOUNT:1 FORCE:0 JUSTID:0 LASTID:1
XAUTOCLAIM 6 COUNT:1 JUSTID:0
XPENDING 3 IDLE:1
XINFO|STREAM 3 FULL:0 COUNT:1
MEMORY|USAGE 3 SAMPLES:1`

// miniredisOptions are the commands miniredis serves whose options hold a
// letter Go folds (S, I or K), by upper-case name, or name and subcommand
// ("XGROUP CREATE"). The engine's own commands (SET, SORT, the sorted
// sets, OBJECT...) read their options in ASCII themselves.
var miniredisOptions = sync.OnceValue(func() map[string]optionSpec {
	out := map[string]optionSpec{}
	for line := range strings.SplitSeq(optionTable, "\n") {
		f := strings.Fields(line)
		spec := optionSpec{words: map[string]int{}, keywords: map[string]keywordsAt{}, fixed: map[int][]string{}}
		switch start := f[1]; {
		case start == "-":
			spec.startAt = -1
		case start[0] == 'k':
			spec.keysAt, _ = strconv.Atoi(start[1:])
			spec.startAfterKeys = true
		case start[0] == 'i':
			spec.startAt, _ = strconv.Atoi(start[1:])
			spec.startAfterIDs = true
		default:
			spec.startAt, _ = strconv.Atoi(start)
		}
		for _, w := range f[2:] {
			if at, words, ok := strings.Cut(w, "="); ok && at[0] == '#' {
				n, _ := strconv.Atoi(at[1:])
				spec.fixed[n] = strings.Split(words, "|")
				continue
			}
			word, rest, _ := strings.Cut(w, ":")
			values, kw, hasKw := strings.Cut(rest, "=")
			switch values {
			case "w":
				spec.words[word] = valuesNumkeys
			case "t":
				spec.words[word] = valuesTrim
			case "r":
				spec.words[word] = valuesRest
			default:
				spec.words[word], _ = strconv.Atoi(values)
			}
			if hasKw {
				list, at, _ := strings.Cut(kw, "@")
				n, _ := strconv.Atoi(at)
				spec.keywords[word] = keywordsAt{n, strings.Split(list, "|")}
			}
		}
		out[strings.ReplaceAll(f[0], "|", " ")] = spec
	}
	return out
})

// start is the index of the first option in args, -1 for none.
func (s optionSpec) start(args []string) int {
	switch {
	case s.startAfterKeys:
		if s.keysAt >= len(args) {
			return -1
		}
		n, ok := parseRedisInt(args[s.keysAt])
		if !ok || n < 0 || n > int64(len(args)) {
			return -1
		}
		return s.keysAt + 1 + int(n)
	case s.startAfterIDs:
		i := s.startAt
		for i < len(args) && streamIDLike(args[i]) {
			i++
		}
		return i
	}
	return s.startAt
}

// streamIDLike reports whether s has only the bytes of a stream ID.
func streamIDLike(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && c != '-' {
			return false
		}
	}
	return s != ""
}

// mayFold reports whether an argument after the name is short enough to
// be an option word and holds a lead byte of one of the characters Go
// folds into ASCII (U+0130, U+0131, U+017F: 0xC4 0xB0/0xB1, 0xC5 0xBF;
// U+212A: 0xE2 0x84 0xAA). Most commands have none, and pay this loop.
func mayFold(args []string) bool {
	for _, a := range args[1:] {
		if len(a) > 48 {
			continue
		}
		for i := 0; i < len(a); i++ {
			if c := a[i]; c == 0xc4 || c == 0xc5 || c == 0xe2 {
				return true
			}
		}
	}
	return false
}

// unfoldOptions returns args with every option word that only Go's case
// mapping takes for one of the command's keywords replaced, for
// miniredis; args itself when there is none (it is never written).
func unfoldOptions(args []string) []string {
	if len(args) < 2 || !mayFold(args) {
		return args
	}
	name := ascii.Upper(args[0])
	specs := miniredisOptions()
	spec, ok := specs[name]
	if !ok {
		spec, ok = specs[name+" "+ascii.Upper(args[1])]
	}
	if !ok {
		return args
	}
	out := args
	unfold := func(i int, words []string) {
		if i < len(args) && goTakesFor(args[i], words) {
			if &out[0] == &args[0] {
				out = append([]string(nil), args...)
			}
			out[i] = unfolded(args[i])
		}
	}
	for i, words := range spec.fixed {
		unfold(i, words)
	}
	all := make([]string, 0, len(spec.words))
	for w := range spec.words {
		all = append(all, w)
	}
	for _, k := range spec.keywords {
		all = append(all, k.words...)
	}
	for i := spec.start(args); i >= 0 && i < len(args); i++ {
		w := ascii.Upper(args[i])
		n, ok := spec.words[w]
		if !ok {
			unfold(i, all) // a word Redis does not know as an option: the walk ends
			break
		}
		if k, ok := spec.keywords[w]; ok {
			unfold(i+k.at, k.words)
		}
		switch n {
		case valuesRest:
			return out
		case valuesNumkeys:
			n = spec.keyCount(args)
		case valuesTrim:
			n = 1
			if i+1 < len(args) && (args[i+1] == "=" || args[i+1] == "~") {
				n = 2
			}
		}
		i += n
	}
	return out
}

// goTakesFor reports whether s is none of words in ASCII but Go's Unicode
// upper or lower case makes it one of them.
func goTakesFor(s string, words []string) bool {
	up := ascii.Upper(s)
	goUp, goLow := ascii.Upper(strings.ToUpper(s)), ascii.Upper(strings.ToLower(s))
	for _, w := range words {
		if up != w && (goUp == w || goLow == w) {
			return true
		}
	}
	return false
}

// unfolded is s with each character Go folds into ASCII replaced by
// U+FFFD, which no case mapping takes for a letter.
func unfolded(s string) string {
	return strings.NewReplacer("\u0130", "\ufffd", "\u0131", "\ufffd", "\u017f", "\ufffd", "\u212a", "\ufffd").Replace(s)
}

// refold is msg, an error miniredis gave for sent, with each word that
// unfoldOptions replaced in args quoted as args had it.
func refold(msg string, args, sent []string) string {
	for i := range args {
		if sent[i] != args[i] {
			msg = strings.ReplaceAll(msg, sent[i], args[i])
		}
	}
	return msg
}
