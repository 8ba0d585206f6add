package geo

import (
	"strconv"
	"strings"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// Keyspace is one database, as the commands read and write it. The engine
// hands one in for the connection's selected database.
type Keyspace interface {
	// Zset is the sorted set at key: nil for a missing key; wrong for a
	// key of another type.
	Zset(key string) (set Set, wrong bool)
	// Store makes key a sorted set of the members with the scores, in
	// place of whatever it held (its TTL gone); no members delete it.
	Store(key string, members []string, scores []float64)
	// Double reads a number as Redis's string2d does (strtod of all of
	// it, no NaN, no overflow).
	Double(s string) (float64, bool)
}

// Set is a sorted set, as a search reads it.
type Set interface {
	// Score is member's score; false when the set lacks it.
	Score(member string) (float64, bool)
	// Range visits the members whose score is at least min and below max,
	// in the set's order (by score, then member), until visit answers
	// false.
	Range(min, max float64, visit func(member string, score float64) bool)
}

// The errors the commands answer, worded as Redis 7.0 words them.
var (
	errSyntax    = resp.ErrorReply(resp.SyntaxError)
	errWrongType = resp.ErrorReply(resp.WrongTypeError)
	errNotInt    = resp.ErrorReply(resp.NotIntegerError)
	errUnit      = resp.ErrorReply("ERR unsupported unit provided. please use M, KM, FT, MI")
	errMember    = resp.ErrorReply("ERR could not decode requested zset member")
)

// unitOf is the metres in one unit, extractUnitOrReply: 0 for a word
// that names none.
func unitOf(s string) float64 {
	switch ascii.Lower(s) {
	case "m":
		return 1
	case "km":
		return 1000
	case "ft":
		return 0.3048
	case "mi":
		return 1609.34
	}
	return 0
}

// point reads a longitude and a latitude, extractLongLatOrReply: each a
// number, together within Redis's limits.
func point(ks Keyspace, lon, lat string) (x, y float64, bad *resp.Reply) {
	var ok bool
	if x, ok = ks.Double(lon); ok {
		y, ok = ks.Double(lat)
	}
	if !ok {
		r := resp.ErrorReply("ERR value is not a valid float")
		return 0, 0, &r
	}
	if x < lonMin || x > lonMax || y < latMin || y > latMax {
		r := resp.ErrorReply("ERR invalid longitude,latitude pair " + fixed6(x) + "," + fixed6(y))
		return 0, 0, &r
	}
	return x, y, nil
}

// fixed6 is C's %f.
func fixed6(f float64) string { return strconv.FormatFloat(f, 'f', 6, 64) }

// Coord is a coordinate as Redis prints one (addReplyHumanLongDouble):
// seventeen decimals of the double's exact value, trailing zeros and a
// bare point dropped, "-0" as "0".
func Coord(f float64) string {
	s := strconv.FormatFloat(f, 'f', 17, 64)
	if strings.IndexByte(s, '.') >= 0 {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// Distance is a distance as Redis prints one: four decimals.
func Distance(f float64) string { return strconv.FormatFloat(f, 'f', 4, 64) }

// text is a RESP2 reply being written, read back whole (reply): a nested
// resp.Reply built in Go takes the module several times the code.
type text []byte

func (t *text) head(c byte, n int) {
	*t = append(strconv.AppendInt(append(*t, c), int64(n), 10), '\r', '\n')
}

func (t *text) bulk(s string) {
	t.head('$', len(s))
	*t = append(append(*t, s...), '\r', '\n')
}

func (t *text) nilBulk()  { *t = append(*t, "$-1\r\n"...) }
func (t *text) nilArray() { *t = append(*t, "*-1\r\n"...) }

func (t text) reply() resp.Reply {
	r, _ := resp.Parse(t)
	return r
}
