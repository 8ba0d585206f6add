package geo

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"echomq.dev/playground/wasm/resp"
)

// The values below are what a redis-server 7.0.15 answered for the same
// points (GEOADD, then ZRANGE WITHSCORES, GEOHASH, GEOPOS and GEODIST).

type place struct {
	name     string
	lon, lat float64
	score    uint64
	hash     string
}

var places = []place{
	{"corner", -180, -85.05112878, 0, "00bh0hbj200"},
	{"sf", -122.4194, 37.7749, 1367859919124626, "9q8yyk8ytp0"},
	{"london", -0.1278, 51.5074, 2163557714755072, "gcpvj0duq50"},
	{"origin", 0, 0, 3377699720527872, "s0000000000"},
	{"tokyo", 139.6917, 35.6895, 4171231230197045, "xn774c06kt0"},
	{"palermo", 13.361389, 38.115556, 3479099956230698, "sqc8b49rny0"},
}

func TestScoreAndHashAsRedis(t *testing.T) {
	for _, p := range places {
		score, ok := Score(p.lon, p.lat)
		if !ok || score != p.score {
			t.Errorf("%s: Score = %d, %v; Redis stores %d", p.name, score, ok, p.score)
		}
		if h := Hash(float64(p.score)); h != p.hash {
			t.Errorf("%s: Hash = %s; Redis answers %s", p.name, h, p.hash)
		}
	}
	if _, ok := Score(180.1, 0); ok {
		t.Error("a longitude past 180 has a score")
	}
	if _, ok := Score(0, 85.06); ok {
		t.Error("a latitude past 85.05112878 has a score")
	}
}

func TestPositionPrintedAsRedis(t *testing.T) {
	for _, c := range []struct {
		score    float64
		lon, lat string
	}{
		{0, "-179.99999731779098511", "-85.05112751263942528"},
		{3377699720527872, "0.00000268220901489", "0.00000126736058093"},
		{3479099956230698, "13.36138933897018433", "38.11555639549629859"},
	} {
		lon, lat := Position(c.score)
		if Coord(lon) != c.lon || Coord(lat) != c.lat {
			t.Errorf("GEOPOS of %v = %s %s; Redis answers %s %s", c.score, Coord(lon), Coord(lat), c.lon, c.lat)
		}
	}
}

func TestDistanceAsRedis(t *testing.T) {
	pos := func(name string) (float64, float64) {
		for _, p := range places {
			if p.name == name {
				return Position(float64(p.score))
			}
		}
		t.Fatal(name)
		return 0, 0
	}
	for _, c := range []struct{ a, b, dist string }{
		{"sf", "tokyo", "8273047.4024"},
		{"london", "origin", "5728990.0776"},
	} {
		x1, y1 := pos(c.a)
		x2, y2 := pos(c.b)
		if d := Distance(distance(x1, y1, x2, y2)); d != c.dist {
			t.Errorf("GEODIST %s %s = %s; Redis answers %s", c.a, c.b, d, c.dist)
		}
	}
	// Along one meridian Redis 7.0 measures the latitudes alone (its
	// shortcut when the longitudes' sine is 0), which the full haversine
	// puts 0.0001 m further here.
	s1, _ := Score(171.07294967519437, 14.485323530607133)
	s2, _ := Score(171.07294967519437, 70.841486961313819)
	x1, y1 := Position(float64(s1))
	x2, y2 := Position(float64(s2))
	if d := Distance(distance(x1, y1, x2, y2)); d != "6268287.3150" {
		t.Errorf("a distance along a meridian = %s; Redis answers 6268287.3150", d)
	}
}

// TestSearchReadsRedisCells: a search without ASC or DESC answers in the
// order of the cells Redis reads, each cell's members by score, and ANY
// stops at the first COUNT found so. The grid is 12 by 12 points 0.05°
// apart from (12.9, 37.9); the orders are redis-server 7.0.15's.
func TestSearchReadsRedisCells(t *testing.T) {
	grid := &fakeSet{}
	type point struct {
		name  string
		score float64
	}
	var pts []point
	for i := range 144 {
		lon, _ := strconv.ParseFloat(strconv.FormatFloat(12.9+float64(i%12)*0.05, 'f', 6, 64), 64)
		lat, _ := strconv.ParseFloat(strconv.FormatFloat(37.9+float64(i/12)*0.05, 'f', 6, 64), 64)
		score, _ := Score(lon, lat)
		pts = append(pts, point{"p" + strconv.Itoa(i), float64(score)})
	}
	slices.SortFunc(pts, func(a, b point) int {
		if c := cmp.Compare(a.score, b.score); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	for _, p := range pts {
		grid.members = append(grid.members, p.name)
		grid.scores = append(grid.scores, p.score)
	}
	ks := &fakeKeyspace{sets: map[string]*fakeSet{"g": grid}}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"GEOSEARCH", "g", "FROMLONLAT", "13.2", "38.2", "BYRADIUS", "9", "km"}, "[p66 p67 p78 p79 p80 p90 p91 p65 p76 p77 p89]"},
		{[]string{"GEOSEARCH", "g", "FROMLONLAT", "13.2", "38.2", "BYRADIUS", "20", "km", "COUNT", "4", "ANY"}, "[p62 p74 p51 p40]"},
	} {
		if got := flat(Search(ks, Searches[c.args[0]], c.args)); got != c.want {
			t.Errorf("%v\n got %s\nwant %s", c.args, got, c.want)
		}
	}
}

// fakeSet is a sorted set in order, for Search.
type fakeSet struct {
	members []string
	scores  []float64
}

func (s *fakeSet) Score(m string) (float64, bool) {
	for i, x := range s.members {
		if x == m {
			return s.scores[i], true
		}
	}
	return 0, false
}

func (s *fakeSet) Range(min, max float64, visit func(string, float64) bool) {
	for i, m := range s.members {
		if s.scores[i] >= min && s.scores[i] < max && !visit(m, s.scores[i]) {
			return
		}
	}
}

type fakeKeyspace struct {
	sets   map[string]*fakeSet
	stored map[string]*fakeSet
}

func (k *fakeKeyspace) Zset(key string) (Set, bool) {
	if s, ok := k.sets[key]; ok {
		return s, false
	}
	return nil, key == "wrong"
}

func (k *fakeKeyspace) Store(key string, m []string, s []float64) {
	k.stored[key] = &fakeSet{m, s}
}

func (k *fakeKeyspace) Double(s string) (float64, bool) {
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// TestSearchAsRedis: replies as redis-server 7.0.15 gave them for
// GEOADD Sicily 13.361389 38.115556 Palermo 15.087269 37.502669 Catania.
func TestSearchAsRedis(t *testing.T) {
	ks := &fakeKeyspace{sets: map[string]*fakeSet{
		"Sicily": {[]string{"Palermo", "Catania"}, []float64{3479099956230698, 3479447370796909}},
	}, stored: map[string]*fakeSet{}}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"GEORADIUS", "Sicily", "15", "37", "200", "km", "WITHDIST", "WITHHASH", "WITHCOORD"},
			`[[Palermo 190.4424 3479099956230698 [13.36138933897018433 38.11555639549629859]] [Catania 56.4413 3479447370796909 [15.08726745843887329 37.50266842333162032]]]`},
		{[]string{"GEORADIUS", "Sicily", "15", "37", "200", "km", "COUNT", "1"}, `[Catania]`},
		{[]string{"GEOSEARCH", "Sicily", "FROMMEMBER", "Palermo", "BYBOX", "400", "400", "km", "DESC"}, `[Catania Palermo]`},
		{[]string{"GEOSEARCH", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "1", "km", "ANY"}, `ERR the ANY argument requires COUNT argument`},
		{[]string{"GEOSEARCH", "Sicily", "BYRADIUS", "1", "km"}, `ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for GEOSEARCH`},
		{[]string{"GEOSEARCH", "wrong", "FROMLONLAT", "15", "37", "BYRADIUS", "1", "km"}, `WRONGTYPE Operation against a key holding the wrong kind of value`},
		{[]string{"GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "WITHDIST"}, `ERR GEOSEARCHSTORE is not compatible with WITHDIST, WITHHASH and WITHCOORD options`},
		{[]string{"GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km"}, `2`},
	} {
		got := Search(ks, Searches[c.args[0]], c.args)
		if s := flat(got); s != c.want {
			t.Errorf("%v\n got %s\nwant %s", c.args, s, c.want)
		}
	}
	if d := ks.stored["d"]; d == nil || len(d.members) != 2 || d.scores[0] != 3479099956230698 {
		t.Errorf("GEOSEARCHSTORE stored %+v; Redis stores both with their scores", d)
	}
}

// flat is a reply in one line: arrays in brackets, the rest as its text.
func flat(r resp.Reply) string {
	switch r.Kind {
	case resp.Array:
		parts := make([]string, len(r.Elems))
		for i, e := range r.Elems {
			parts[i] = flat(e)
		}
		return "[" + strings.Join(parts, " ") + "]"
	case resp.Int:
		return strconv.FormatInt(r.Int, 10)
	}
	return r.Str
}

// TestCountKeepsRedisTieOrder: with COUNT, Redis sorts only the first
// COUNT matches in place (pqsort), and where distances tie its order is
// that quicksort's, not the order found. 50 members m0..m49 stand at 4
// points, m<i> at the (i mod 4)th; the answers are redis-server 7.0.15's.
func TestCountKeepsRedisTieOrder(t *testing.T) {
	type point struct {
		name  string
		score float64
	}
	var pts []point
	for i := range 50 {
		score, _ := Score([]float64{10, 10.01, 10.02, 9.99}[i%4], 10)
		pts = append(pts, point{"m" + strconv.Itoa(i), float64(score)})
	}
	slices.SortFunc(pts, func(a, b point) int {
		if c := cmp.Compare(a.score, b.score); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	set := &fakeSet{}
	for _, p := range pts {
		set.members = append(set.members, p.name)
		set.scores = append(set.scores, p.score)
	}
	ks := &fakeKeyspace{sets: map[string]*fakeSet{"ties": set}}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"GEOSEARCH", "ties", "FROMLONLAT", "10", "10", "BYRADIUS", "50", "km", "COUNT", "7", "ASC"}, "[m0 m16 m20 m24 m28 m32 m36]"},
		{[]string{"GEOSEARCH", "ties", "FROMLONLAT", "10", "10", "BYRADIUS", "50", "km", "COUNT", "5", "DESC"}, "[m10 m46 m42 m38 m34]"},
	} {
		if got := flat(Search(ks, Searches[c.args[0]], c.args)); got != c.want {
			t.Errorf("%v\n got %s\nwant %s", c.args, got, c.want)
		}
	}
}
