package geo

import (
	"slices"
	"strconv"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// The kinds of search, as georadiusGeneric's flags tell them apart.
const (
	fromCoords = 1 << iota // GEORADIUS: lon lat radius unit
	fromMember             // GEORADIUSBYMEMBER: member radius unit
	noStore                // the _RO forms: no STORE, no STOREDIST
	searchForm             // GEOSEARCH: FROM... and BY... options
	storeForm              // GEOSEARCHSTORE: destination first
)

// Searches are the search commands, by name in upper case.
var Searches = map[string]int{
	"GEORADIUS":            fromCoords,
	"GEORADIUS_RO":         fromCoords | noStore,
	"GEORADIUSBYMEMBER":    fromMember,
	"GEORADIUSBYMEMBER_RO": fromMember | noStore,
	"GEOSEARCH":            searchForm,
	"GEOSEARCHSTORE":       searchForm | storeForm,
}

// match is one member a search found.
type match struct {
	member   string
	score    float64
	dist     float64 // metres, then the search's unit
	lon, lat float64
}

// query is a search's options, as georadiusGeneric reads them.
type query struct {
	shape                         Shape
	store                         string
	storing, storeDist            bool
	withDist, withHash, withCoord bool
	fromMember, fromLonLat        bool
	byRadius, byBox               bool
	asc, desc, any                bool
	count                         int64
}

// Search runs the search command of kind (one of Searches) with args, as
// georadiusGeneric does: the source key is read first, then every option,
// each error answered as Redis words it and at the point Redis finds it.
func Search(ks Keyspace, kind int, args []string) resp.Reply {
	src := 1
	if kind&storeForm != 0 {
		src = 2
	}
	set, bad := lookup(ks, args[src])
	if bad != nil {
		return *bad
	}
	q := query{shape: Shape{Unit: 1}}
	base := 0
	switch {
	case kind&fromCoords != 0:
		base = 6
		if bad := q.lonLat(ks, args[2:]); bad != nil {
			return *bad
		}
		if bad := q.radius(ks, args[4:]); bad != nil {
			return *bad
		}
	case kind&fromMember != 0 && set == nil:
		base = 5 // no shape to read: the options still are, for the reply's kind
	case kind&fromMember != 0:
		base = 5
		if !q.member(set, args[2]) {
			return errMember
		}
		if bad := q.radius(ks, args[3:]); bad != nil {
			return *bad
		}
	default:
		base = 2
		if kind&storeForm != 0 {
			base = 3
			q.store, q.storing = args[1], true
		}
	}
	if bad := q.options(ks, set, kind, args, base); bad != nil {
		return *bad
	}
	if set == nil {
		if q.storing {
			ks.Store(q.store, nil, nil)
			return resp.IntReply(0)
		}
		return resp.ArrayReply()
	}
	if q.count != 0 && !q.asc && !q.desc && !q.any {
		q.asc = true // the nearest COUNT need an order
	}
	limit := int64(0)
	if q.any {
		limit = q.count
	}
	found := q.shape.find(set, limit)
	if len(found) == 0 && !q.storing {
		return resp.ArrayReply()
	}
	if q.asc || q.desc {
		byDist := func(a, b *match) int {
			c := 0
			switch {
			case a.dist > b.dist:
				c = 1
			case a.dist < b.dist:
				c = -1
			}
			if q.desc {
				c = -c
			}
			return c
		}
		if q.count != 0 && int64(len(found)) > q.count {
			// Redis sorts only the first COUNT in place (pqsort).
			partialSort(found, byDist, 0, int(q.count)-1)
		} else {
			// glibc's qsort (a merge sort) keeps equal distances in the
			// order found, as a stable sort does.
			slices.SortStableFunc(found, func(a, b match) int { return byDist(&a, &b) })
		}
	}
	if q.count != 0 && int64(len(found)) > q.count {
		found = found[:q.count]
	}
	for i := range found {
		found[i].dist /= q.shape.Unit
	}
	if q.storing {
		members := make([]string, len(found))
		scores := make([]float64, len(found))
		for i, m := range found {
			members[i], scores[i] = m.member, m.score
			if q.storeDist {
				scores[i] = m.dist
			}
		}
		ks.Store(q.store, members, scores)
		return resp.IntReply(int64(len(found)))
	}
	return q.reply(found)
}

// find is membersOfAllNeighbors: the members in the shape, from its cells
// in Redis's order, each cell's by score; with a limit, no more cells
// once the limit is reached, and no more members in a cell either.
func (s *Shape) find(set Set, limit int64) []match {
	var found []match
	for _, r := range s.Ranges() {
		if limit > 0 && int64(len(found)) >= limit {
			break
		}
		set.Range(float64(r[0]), float64(r[1]), func(member string, score float64) bool {
			if dist, lon, lat, ok := s.Within(score); ok {
				found = append(found, match{member, score, dist, lon, lat})
			}
			return limit == 0 || int64(len(found)) < limit
		})
	}
	return found
}

// reply is the matches as the client sees them: members, or with WITH...
// options each an array of the member, its distance, its hash and its
// [longitude, latitude], in that order.
func (q *query) reply(found []match) resp.Reply {
	var t text
	t.head('*', len(found))
	extra := 0
	for _, w := range []bool{q.withDist, q.withHash, q.withCoord} {
		if w {
			extra++
		}
	}
	for _, m := range found {
		if extra > 0 {
			t.head('*', extra+1)
		}
		t.bulk(m.member)
		if q.withDist {
			t.bulk(Distance(m.dist))
		}
		if q.withHash {
			t = append(strconv.AppendInt(append(t, ':'), int64(m.score), 10), '\r', '\n')
		}
		if q.withCoord {
			t.head('*', 2)
			t.bulk(Coord(m.lon))
			t.bulk(Coord(m.lat))
		}
	}
	return t.reply()
}

// lonLat reads the centre from args[0] and args[1].
func (q *query) lonLat(ks Keyspace, args []string) *resp.Reply {
	lon, lat, bad := point(ks, args[0], args[1])
	q.shape.Lon, q.shape.Lat = lon, lat
	return bad
}

// member puts the centre at a member of set; false when the set lacks it.
func (q *query) member(set Set, m string) bool {
	score, ok := set.Score(m)
	if ok {
		q.shape.Lon, q.shape.Lat = Position(score)
	}
	return ok
}

// radius reads a radius and its unit from args[0] and args[1],
// extractDistanceOrReply.
func (q *query) radius(ks Keyspace, args []string) *resp.Reply {
	r, ok := ks.Double(args[0])
	switch {
	case !ok:
		return errorOf("ERR need numeric radius")
	case r < 0:
		return errorOf("ERR radius cannot be negative")
	}
	unit := unitOf(args[1])
	if unit == 0 {
		return &errUnit
	}
	q.shape.Radius, q.shape.Unit = r, unit
	return nil
}

// box reads a width, a height and their unit from args[0:3],
// extractBoxOrReply.
func (q *query) box(ks Keyspace, args []string) *resp.Reply {
	w, ok := ks.Double(args[0])
	if !ok {
		return errorOf("ERR need numeric width")
	}
	h, ok := ks.Double(args[1])
	if !ok {
		return errorOf("ERR need numeric height")
	}
	if h < 0 || w < 0 {
		return errorOf("ERR height or width cannot be negative")
	}
	unit := unitOf(args[2])
	if unit == 0 {
		return &errUnit
	}
	q.shape.Width, q.shape.Height, q.shape.Unit, q.shape.Box = w, h, unit, true
	return nil
}

func errorOf(s string) *resp.Reply {
	r := resp.ErrorReply(s)
	return &r
}

// options reads the options from args[base] on, in georadiusGeneric's
// order of checks: an option reads its values where it stands (a bad one
// answers at once), then come the checks of the whole.
func (q *query) options(ks Keyspace, set Set, kind int, args []string, base int) *resp.Reply {
	rest := args[base:]
	search := kind&searchForm != 0
	for i := 0; i < len(rest); i++ {
		left := len(rest) - i - 1 // values after this word
		switch word := word(rest[i]); {
		case word == "withdist":
			q.withDist = true
		case word == "withhash":
			q.withHash = true
		case word == "withcoord":
			q.withCoord = true
		case word == "any":
			q.any = true
		case word == "asc":
			q.asc, q.desc = true, false
		case word == "desc":
			q.asc, q.desc = false, true
		case word == "count" && left >= 1:
			n, ok := parseLongLong(rest[i+1])
			if !ok {
				return &errNotInt
			}
			if n <= 0 {
				return errorOf("ERR COUNT must be > 0")
			}
			q.count = n
			i++
		case (word == "store" || word == "storedist") && left >= 1 && kind&(noStore|searchForm) == 0:
			q.store, q.storing, q.storeDist = rest[i+1], true, word == "storedist"
			i++
		case word == "storedist" && kind&storeForm != 0:
			q.storeDist = true
		case word == "frommember" && left >= 1 && search && !q.fromLonLat:
			if set != nil && !q.member(set, rest[i+1]) {
				return &errMember
			}
			q.fromMember = true
			i++
		case word == "fromlonlat" && left >= 2 && search && !q.fromMember:
			if bad := q.lonLat(ks, rest[i+1:]); bad != nil {
				return bad
			}
			q.fromLonLat = true
			i += 2
		case word == "byradius" && left >= 2 && search && !q.byBox:
			if bad := q.radius(ks, rest[i+1:]); bad != nil {
				return bad
			}
			q.byRadius = true
			i += 2
		case word == "bybox" && left >= 3 && search && !q.byRadius:
			if bad := q.box(ks, rest[i+1:]); bad != nil {
				return bad
			}
			q.byBox = true
			i += 3
		default:
			return &errSyntax
		}
	}
	switch {
	case q.storing && (q.withDist || q.withHash || q.withCoord):
		what := "STORE option in GEORADIUS"
		if kind&storeForm != 0 {
			what = "GEOSEARCHSTORE"
		}
		return errorOf("ERR " + what + " is not compatible with WITHDIST, WITHHASH and WITHCOORD options")
	case search && !q.fromMember && !q.fromLonLat:
		return errorOf("ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for " + args[0])
	case search && !q.byRadius && !q.byBox:
		return errorOf("ERR exactly one of BYRADIUS and BYBOX can be specified for " + args[0])
	case q.any && q.count == 0:
		return errorOf("ERR the ANY argument requires COUNT argument")
	}
	return nil
}

// word is an option as strcasecmp compares it: up to a NUL, in lower
// case.
func word(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			s = s[:i]
			break
		}
	}
	return ascii.Lower(s)
}

// parseLongLong reads an integer as string2ll does: the digits Redis
// would print for it, no sign "+", no leading zero or space.
func parseLongLong(s string) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil && strconv.FormatInt(n, 10) == s
}
