package engine

import (
	"strings"

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
	// start is the index of the first option, from the arguments; -1 when
	// the command has none here.
	start func(args []string) int
	// words are the options, upper case, each with how many values follow
	// it: a count, or one of the kinds below.
	words map[string]int
	// keywords are options whose values include keywords: the value's
	// place after the option (1 for the first) and the keywords.
	keywords map[string]keywordsAt
	// fixed are keywords at fixed places (GEORADIUS's unit, LMOVE's ends).
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

// from is a start at a fixed place.
func from(i int) func([]string) int { return func([]string) int { return i } }

// afterKeys is the start after the keys of a command whose key count is at
// args[at].
func afterKeys(at int) func([]string) int {
	return func(args []string) int {
		n, ok := parseRedisInt(args[at])
		if !ok || n < 0 || n > int64(len(args)) {
			return -1
		}
		return at + 1 + int(n)
	}
}

// afterIDs is the start after the stream IDs from index i on (XCLAIM's).
func afterIDs(i int) func([]string) int {
	return func(args []string) int {
		for i < len(args) && streamIDLike(args[i]) {
			i++
		}
		return i
	}
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

var (
	geoUnits    = []string{"M", "KM", "FT", "MI"}
	geoOptions  = map[string]int{"WITHCOORD": 0, "WITHDIST": 0, "WITHHASH": 0, "COUNT": 1, "ANY": 0, "ASC": 0, "DESC": 0, "STORE": 1, "STOREDIST": 1}
	geoSearch   = map[string]int{"FROMMEMBER": 1, "FROMLONLAT": 2, "BYRADIUS": 2, "BYBOX": 3, "ASC": 0, "DESC": 0, "COUNT": 1, "ANY": 0, "WITHCOORD": 0, "WITHDIST": 0, "WITHHASH": 0}
	geoKeywords = map[string]keywordsAt{"BYRADIUS": {2, geoUnits}, "BYBOX": {3, geoUnits}}
	trimWords   = map[string]int{"NOMKSTREAM": 0, "MAXLEN": valuesTrim, "MINID": valuesTrim, "LIMIT": 1}
	unionWords  = map[string]int{"WEIGHTS": valuesNumkeys, "AGGREGATE": 1, "WITHSCORES": 0}
	aggregate   = map[string]keywordsAt{"AGGREGATE": {1, []string{"SUM", "MIN", "MAX"}}}
)

// miniredisOptions are the commands miniredis serves whose options hold a
// letter Go folds (S, I or K), by upper-case name, or name and subcommand.
// The engine's own commands (SET, SORT, the sorted sets, OBJECT...) read
// their options in ASCII themselves.
var miniredisOptions = map[string]optionSpec{
	"GETEX":                {start: from(2), words: map[string]int{"EX": 1, "PX": 1, "EXAT": 1, "PXAT": 1, "PERSIST": 0}},
	"SCAN":                 {start: from(2), words: map[string]int{"MATCH": 1, "COUNT": 1, "TYPE": 1}, keywords: map[string]keywordsAt{"TYPE": {1, []string{"STRING", "LIST", "SET", "ZSET", "HASH", "STREAM"}}}},
	"HRANDFIELD":           {start: from(3), words: map[string]int{"WITHVALUES": 0}},
	"ZRANDMEMBER":          {start: from(3), words: map[string]int{"WITHSCORES": 0}},
	"ZUNION":               {start: afterKeys(1), words: unionWords, keywords: aggregate, keysAt: 1},
	"ZINTER":               {start: afterKeys(1), words: unionWords, keywords: aggregate, keysAt: 1},
	"ZUNIONSTORE":          {start: afterKeys(2), words: unionWords, keywords: aggregate, keysAt: 2},
	"ZINTERSTORE":          {start: afterKeys(2), words: unionWords, keywords: aggregate, keysAt: 2},
	"LPOS":                 {start: from(3), words: map[string]int{"RANK": 1, "COUNT": 1, "MAXLEN": 1}},
	"LMPOP":                {start: afterKeys(1), words: map[string]int{"LEFT": 0, "RIGHT": 0, "COUNT": 1}},
	"ZMPOP":                {start: afterKeys(1), words: map[string]int{"MIN": 0, "MAX": 0, "COUNT": 1}},
	"LMOVE":                {start: from(-1), fixed: map[int][]string{3: {"LEFT", "RIGHT"}, 4: {"LEFT", "RIGHT"}}},
	"SINTERCARD":           {start: afterKeys(1), words: map[string]int{"LIMIT": 1}},
	"FLUSHALL":             {start: from(1), words: map[string]int{"ASYNC": 0, "SYNC": 0}},
	"FLUSHDB":              {start: from(1), words: map[string]int{"ASYNC": 0, "SYNC": 0}},
	"XADD":                 {start: from(2), words: trimWords},
	"XTRIM":                {start: from(2), words: trimWords},
	"XREAD":                {start: from(1), words: map[string]int{"COUNT": 1, "BLOCK": 1, "STREAMS": valuesRest}},
	"XREADGROUP":           {start: from(1), words: map[string]int{"GROUP": 2, "COUNT": 1, "BLOCK": 1, "NOACK": 0, "STREAMS": valuesRest}},
	"XGROUP CREATE":        {start: from(5), words: map[string]int{"MKSTREAM": 0, "ENTRIESREAD": 1}},
	"XGROUP SETID":         {start: from(5), words: map[string]int{"ENTRIESREAD": 1}},
	"XCLAIM":               {start: afterIDs(5), words: map[string]int{"IDLE": 1, "TIME": 1, "RETRYCOUNT": 1, "FORCE": 0, "JUSTID": 0, "LASTID": 1}},
	"XAUTOCLAIM":           {start: from(6), words: map[string]int{"COUNT": 1, "JUSTID": 0}},
	"XPENDING":             {start: from(3), words: map[string]int{"IDLE": 1}},
	"XINFO STREAM":         {start: from(3), words: map[string]int{"FULL": 0, "COUNT": 1}},
	"GEODIST":              {start: from(-1), fixed: map[int][]string{4: geoUnits}},
	"GEORADIUS":            {start: from(6), words: geoOptions, fixed: map[int][]string{5: geoUnits}},
	"GEORADIUS_RO":         {start: from(6), words: geoOptions, fixed: map[int][]string{5: geoUnits}},
	"GEORADIUSBYMEMBER":    {start: from(5), words: geoOptions, fixed: map[int][]string{4: geoUnits}},
	"GEORADIUSBYMEMBER_RO": {start: from(5), words: geoOptions, fixed: map[int][]string{4: geoUnits}},
	"GEOSEARCH":            {start: from(2), words: geoSearch, keywords: geoKeywords},
	"MEMORY USAGE":         {start: from(3), words: map[string]int{"SAMPLES": 1}},
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
	spec, ok := miniredisOptions[name]
	if !ok {
		spec, ok = miniredisOptions[name+" "+ascii.Upper(args[1])]
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
