// Package extracmds serves commands Redis 7.0 has and miniredis lacks,
// which a script (or the console) may call: SORT and SORT_RO, LCS, SUBSTR,
// LASTSAVE, BITFIELD and BITFIELD_RO. They are written from Redis's
// documented behaviour and from what a real redis-server answers (the
// cases in wasm/fidelity hold them to it), over one database of the
// engine's keyspace, which the engine hands in as a Keyspace.
//
// Where Redis's answer hangs on what they cannot see, they give one answer
// Redis could give: SORT BY nosort of a set Redis keeps as a hash table
// comes in byte order (Redis walks its table); ALPHA compares bytes, as
// strcoll does in the C locale; and a weight Redis would refuse only
// because an earlier command left ERANGE in errno (its strtod check does
// not clear errno first) is read as the number it is.
//
// They are off the lesson's path, so the package is compiled without
// inlining (wasm/gcflags.txt): the module stays small.
package extracmds

import (
	"sort"
	"strconv"
	"strings"

	"echomq.dev/playground/wasm/rdb"
	"echomq.dev/playground/wasm/resp"
)

// Keyspace is one database, as these commands read and write it.
type Keyspace interface {
	// Do runs a command on the database as miniredis answers it.
	Do(args ...string) resp.Reply
	// SortedSet is a sorted set's members by score, from the engine's
	// index; it also records that the set is a skiplist from now on, as
	// Redis converts a sorted set it sorts.
	SortedSet(key string) []string
}

// typeOf is key's type as TYPE names it, "none" for a missing key.
func typeOf(ks Keyspace, key string) string { return ks.Do("TYPE", key).Str }

// found is a bulk reply's string: false for nil, or an error (another type).
func found(r resp.Reply) (string, bool) { return r.Str, r.Kind == resp.Bulk }

// elements are a list's, set's or sorted set's elements, in the order
// Redis walks them: a list's order, a sorted set's by score, the integers
// of a set Redis keeps as an intset in their order, any other set in byte
// order (Redis walks its hash table in an order of its own).
func elements(ks Keyspace, key, typ string) []string {
	switch typ {
	case "list":
		l, _ := ks.Do("LRANGE", key, "0", "-1").Strings()
		return l
	case "set":
		m, _ := ks.Do("SMEMBERS", key).Strings()
		if rdb.Encoding(rdb.Value{Kind: rdb.Set, Elems: m}) == "intset" {
			sort.Slice(m, func(i, j int) bool {
				x, _ := strconv.ParseInt(m[i], 10, 64)
				y, _ := strconv.ParseInt(m[j], 10, 64)
				return x < y
			})
		}
		return m
	case "zset":
		return ks.SortedSet(key)
	}
	return nil
}

var (
	errSyntax    = resp.ErrorReply(resp.SyntaxError)
	errNotInt    = resp.ErrorReply(resp.NotIntegerError)
	errWrongType = resp.ErrorReply(resp.WrongTypeError)
	errNotDouble = resp.ErrorReply("ERR One or more scores can't be converted into double")
)

// parseLong reads an integer as Redis's string2ll does: exactly the digits
// Redis itself would print for it, so no sign "+", no leading zero or space.
func parseLong(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && strconv.FormatInt(n, 10) == s
}

// cString is s as C reads it: up to its first NUL byte.
func cString(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}

// text is a reply written as RESP2, then read back (reply): building a
// nested resp.Reply in Go takes the module several times the code.
type text []byte

func (t *text) head(c byte, n int) {
	*t = append(strconv.AppendInt(append(*t, c), int64(n), 10), '\r', '\n')
}

func (t *text) bulk(s string) {
	t.head('$', len(s))
	*t = append(append(*t, s...), '\r', '\n')
}

func (t text) reply() resp.Reply {
	r, _ := resp.Parse(t)
	return r
}
