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
	"strconv"
	"strings"

	"echomq.dev/playground/wasm/resp"
)

// Keyspace is one database, as these commands read and write it.
type Keyspace interface {
	// TypeOf is the key's type as TYPE names it, "none" for a missing key.
	TypeOf(key string) string
	// Get is a string key's value; false for a missing key or another type.
	Get(key string) (string, bool)
	// HGet is a hash's field; false when the key is not a hash or lacks it.
	HGet(key, field string) (string, bool)
	// Elements are a list's, set's or sorted set's elements, in the order
	// Redis walks them: a list's order, a sorted set's by score, and a set's
	// as Redis would iterate it where that is known. It is what SORT reads.
	Elements(key string) []string
	// StoreList makes key a list of elems, or deletes it when elems is empty.
	StoreList(key string, elems []string)
	// SetString makes key the string val.
	SetString(key, val string)
}

var (
	errSyntax    = resp.ErrorReply("ERR syntax error")
	errNotInt    = resp.ErrorReply("ERR value is not an integer or out of range")
	errWrongType = resp.ErrorReply("WRONGTYPE Operation against a key holding the wrong kind of value")
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
