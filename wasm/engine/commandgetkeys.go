package engine

import (
	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// COMMAND GETKEYS as Redis 7.0 answers it: the keys a call would touch,
// found from Redis's own table (arity.txt's keys= positions) and, for the
// commands whose keys move with their arguments, by the rules Redis's key
// specifications and getkeys functions follow. miniredis answers it with
// its whole command table, a plausible and wrong reply.
//
// Redis tries a command's key specifications first and, where they do not
// fit the arguments, its older getkeys function: so a numkeys Redis's
// string2ll refuses (" 1") is read again as atoi reads it, and the
// destination key then comes last, not first.

const (
	errGetkeysCommand = "ERR Invalid command specified"
	errGetkeysNoKeys  = "ERR The command has no key arguments"
	errGetkeysArity   = "ERR Invalid number of arguments specified for command"
	errGetkeysArgs    = "ERR Invalid arguments specified for command"
)

// commandGetkeys answers COMMAND GETKEYS with call, the command and its
// arguments (COMMAND's arity has been checked: call is never empty).
func commandGetkeys(call []string) resp.Reply {
	c := redisTable()[ascii.Upper(call[0])]
	if c != nil && c.subs != nil && len(call) >= 2 {
		c = c.subs[ascii.Upper(call[1])]
	}
	switch {
	case c == nil:
		return resp.ErrorReply(errGetkeysCommand)
	case c.keys[0] == 0 && !c.movable:
		return resp.ErrorReply(errGetkeysNoKeys)
	case !c.arityOK(len(call)):
		return resp.ErrorReply(errGetkeysArity)
	}
	pos, ok := keyPositions(c, call)
	if !ok || len(pos) == 0 && !noMandatoryKeys[c.name] {
		return resp.ErrorReply(errGetkeysArgs)
	}
	out := make([]resp.Reply, len(pos))
	for i, p := range pos {
		out[i] = resp.BulkReply(call[p])
	}
	return resp.ArrayReply(out...)
}

// noMandatoryKeys are the commands Redis flags no_mandatory_keys: for them
// no key at all is an empty reply, not an error.
var noMandatoryKeys = map[string]bool{
	"eval": true, "evalsha": true, "eval_ro": true, "evalsha_ro": true,
	"fcall": true, "fcall_ro": true, "migrate": true,
}

// keyPositions are the indexes in call of c's keys; ok is false where
// Redis finds the arguments do not fit (a numkeys past them, no STREAMS).
func keyPositions(c *redisCommand, call []string) ([]int, bool) {
	switch c.name {
	case "eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro":
		return numkeysAt(call, 2, false)
	case "lmpop", "zmpop", "sintercard", "zintercard", "zunion", "zinter", "zdiff":
		return numkeysAt(call, 1, false)
	case "blmpop", "bzmpop":
		return numkeysAt(call, 2, false)
	case "zunionstore", "zinterstore", "zdiffstore":
		return numkeysAt(call, 2, true)
	case "xread":
		return streamsKeys(call, 1)
	case "xreadgroup":
		return streamsKeys(call, 4)
	case "migrate":
		return migrateKeys(call)
	}
	pos := rangeKeys(c.keys, len(call))
	switch c.name {
	case "sort":
		if p := sortStore(call); p > 0 {
			pos = append(pos, p)
		}
	case "georadius", "georadiusbymember":
		if p := geoStore(call); p > 0 {
			pos = append(pos, p)
		}
	}
	return pos, true
}

// rangeKeys are the positions COMMAND's first, last and step give in a
// call of n arguments; a negative last counts from the end.
func rangeKeys(k [3]int, n int) []int {
	first, last, step := k[0], k[1], k[2]
	if first == 0 {
		return nil
	}
	if last < 0 {
		last += n
	}
	var pos []int
	for i := first; i <= last && i < n; i += max(step, 1) {
		pos = append(pos, i)
	}
	return pos
}

// numkeysAt reads a numkeys at call[at] and the keys after it, with the
// destination key at call[1] before them when store is set. A numkeys
// string2ll refuses, or one that runs past the arguments, is read again as
// the getkeys function does (atoi, the destination after the keys), and
// gives no keys where that one does not fit either.
func numkeysAt(call []string, at int, store bool) ([]int, bool) {
	if at >= len(call) {
		return nil, false
	}
	first := at + 1
	if n, ok := parseRedisInt(call[at]); ok && n >= 1 && int64(first)+n-1 < int64(len(call)) {
		var pos []int
		if store {
			pos = append(pos, 1)
		}
		for i := range int(n) {
			pos = append(pos, first+i)
		}
		return pos, true
	}
	n := atoi(call[at])
	if n < 1 || n > len(call)-first {
		return nil, true
	}
	var pos []int
	for i := range n {
		pos = append(pos, first+i)
	}
	if store {
		pos = append(pos, 1)
	}
	return pos, true
}

// atoi reads s as C's atoi does: white space, a sign, then digits up to
// the first other byte; 0 when there are none.
func atoi(s string) int {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] >= '\t' && s[i] <= '\r') {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	n := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		n = n*10 + int(s[i]-'0')
		if n > 1<<31 {
			break // past any count of arguments
		}
	}
	if neg {
		return -n
	}
	return n
}

// streamsKeys are XREAD's and XREADGROUP's keys: after the first STREAMS
// at or past from, the first half of what follows (the other half is the
// ids). None, or no STREAMS, is arguments that do not fit.
func streamsKeys(call []string, from int) ([]int, bool) {
	for i := from; i < len(call); i++ {
		if !ascii.EqualFold(call[i], "STREAMS") {
			continue
		}
		first := i + 1
		last := first + (len(call)-first)/2 - 1
		if last < first {
			return nil, false
		}
		var pos []int
		for p := first; p <= last; p++ {
			pos = append(pos, p)
		}
		return pos, true
	}
	return nil, false
}

// migrateKeys are MIGRATE's: its key argument (even an empty one), or, when
// that is empty, the names after KEYS; a key and KEYS both, or KEYS with no
// names, do not fit.
func migrateKeys(call []string) ([]int, bool) {
	keysAt := -1
	for i := 6; i < len(call); i++ {
		if ascii.EqualFold(call[i], "KEYS") {
			keysAt = i
			break
		}
	}
	switch {
	case keysAt < 0:
		return []int{3}, true
	case call[3] != "":
		return nil, false
	}
	var pos []int
	for p := keysAt + 1; p < len(call); p++ {
		pos = append(pos, p)
	}
	return pos, len(pos) > 0
}

// sortStore is the position of SORT's STORE key, 0 for none: the last
// STORE with a name after it, its options read as Redis's getkeys reads
// them (LIMIT skips two words, GET and BY one).
func sortStore(call []string) int {
	store := 0
	for i := 2; i < len(call); i++ {
		switch {
		case ascii.EqualFold(call[i], "LIMIT"):
			i += 2
		case ascii.EqualFold(call[i], "GET"), ascii.EqualFold(call[i], "BY"):
			i++
		case ascii.EqualFold(call[i], "STORE") && i+1 < len(call):
			store = i + 1
		}
	}
	return store
}

// geoStore is the position of GEORADIUS's STORE or STOREDIST key, 0 for
// none: the last one given, looked for from the sixth word on.
func geoStore(call []string) int {
	store := 0
	for i := 5; i < len(call); i++ {
		if (ascii.EqualFold(call[i], "STORE") || ascii.EqualFold(call[i], "STOREDIST")) && i+1 < len(call) {
			store = i + 1
			i++
		}
	}
	return store
}

// commandInfo answers COMMAND INFO from the table COMMAND prints: the
// entry of each name asked, nil for a name Redis does not know, and every
// entry when none is asked.
func commandInfo(all resp.Reply, names []string) resp.Reply {
	if len(names) == 0 {
		return all
	}
	byName := map[string]resp.Reply{}
	for _, entry := range all.Elems {
		if len(entry.Elems) > 0 {
			byName[entry.Elems[0].Str] = entry
		}
	}
	out := make([]resp.Reply, len(names))
	for i, n := range names {
		entry, ok := byName[ascii.Lower(n)]
		if !ok {
			entry = resp.NilReply()
		}
		out[i] = entry
	}
	return resp.ArrayReply(out...)
}
