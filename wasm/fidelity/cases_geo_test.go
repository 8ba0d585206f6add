package fidelity

import (
	"fmt"
	"strconv"
)

// Cases for the GEO commands (wasm/geo, wasm/engine/geocmds.go): Redis
// 7.0's geohash scores, its nine search cells (which members a search
// finds at its edges, and the order of one without ASC or DESC), its
// printing of distances and coordinates, GEOADD's options, GEOHASH,
// GEOSEARCHSTORE, ANY, and the errors word for word.

// geoGrid is GEOADD key of a grid of n by n points step degrees apart
// from (lon, lat), named p<i>.
func geoGrid(key string, lon, lat, step float64, n int) []string {
	cmd := []string{"GEOADD", key}
	for i := range n * n {
		x, y := lon+float64(i%n)*step, lat+float64(i/n)*step
		cmd = append(cmd, strconv.FormatFloat(x, 'f', 6, 64), strconv.FormatFloat(y, 'f', 6, 64), fmt.Sprintf("p%d", i))
	}
	return cmd
}

var sicily = []string{"GEOADD", "Sicily", "13.361389", "38.115556", "Palermo", "15.087269", "37.502669", "Catania"}

func init() {
	known["geo/storedist-last-bit"] = "The distance is Redis's haversine, operation for operation, but through Go's " +
		"math.Asin and math.Cos, which can differ from glibc's in the last bit of a double: Palermo from (15, 37) is " +
		"118.33573380874013 mi in Redis and ...012 here. Every reply prints a distance with 4 decimals, where the two " +
		"agree; a score STOREDIST wrote shows all 17 digits."
}

func geoCases() []fcase {
	return []fcase{
		{id: "geo/add-options", desc: "GEOADD with NX, XX and CH (alone and together), XX with NX, an unknown option, bad coordinates, and a key of another type",
			cmds: [][]string{sicily,
				{"GEOADD", "Sicily", "NX", "13.5", "38.1", "Palermo", "14", "37", "Enna"}, {"GEOADD", "Sicily", "XX", "13.5", "38.1", "Palermo", "12", "37", "Trapani"},
				{"GEOADD", "Sicily", "CH", "13.6", "38.1", "Palermo", "15.087269", "37.502669", "Catania", "12.5", "37.8", "Marsala"},
				{"GEOADD", "Sicily", "CH", "XX", "13.7", "38.1", "Palermo", "1", "1", "none"}, {"GEOADD", "Sicily", "nx", "ch", "13.8", "38.1", "Palermo", "2", "2", "Two"},
				{"GEOADD", "Sicily", "XX", "NX", "13.7", "38.1", "Palermo"}, {"GEOADD", "Sicily", "invalid_option", "13.7", "38.1", "Palermo"},
				{"GEOADD", "Sicily", "CH", "CH", "CH"}, {"GEOADD", "Sicily", "200", "100", "bad"}, {"GEOADD", "Sicily", "13", "85.06", "bad"},
				{"GEOADD", "Sicily", "13", "abc", "bad"}, {"GEOADD", "Sicily", "1", "1", "ok", "181", "0", "bad"}, {"GEOADD", "Sicily", "1", "2"},
				{"ZRANGE", "Sicily", "0", "-1", "WITHSCORES"}, {"SET", "s", "v"}, {"GEOADD", "s", "1", "1", "a"}, {"GEOADD", "s", "1", "1000", "a"}}},
		{id: "geo/hash-pos-dist", desc: "GEOHASH, GEOPOS and GEODIST of members, missing members and keys, scores no GEOADD wrote, each unit and the errors",
			cmds: [][]string{sicily, {"ZADD", "Sicily", "0", "zero", "-1", "minus", "1.5", "half", "4503599627370496", "big", "1e300", "huge"},
				{"GEOHASH", "Sicily", "Palermo", "Catania", "none", "zero", "minus", "half", "big", "huge"}, {"GEOHASH", "nokey", "a"}, {"GEOHASH", "Sicily"},
				{"GEOPOS", "Sicily", "Palermo", "Catania", "none", "zero", "minus", "half", "big", "huge"}, {"GEOPOS", "nokey", "a", "b"}, {"GEOPOS", "Sicily"},
				{"GEODIST", "Sicily", "Palermo", "Catania"}, {"GEODIST", "Sicily", "Palermo", "Catania", "KM"}, {"GEODIST", "Sicily", "Palermo", "Catania", "mi"},
				{"GEODIST", "Sicily", "Palermo", "Catania", "ft"}, {"GEODIST", "Sicily", "Palermo", "Palermo"}, {"GEODIST", "Sicily", "zero", "big"},
				{"GEODIST", "Sicily", "Palermo", "Catania", "furlong"}, {"GEODIST", "Sicily", "Palermo", "Catania", "km", "extra"},
				{"GEODIST", "Sicily", "Palermo", "none"}, {"GEODIST", "nokey", "a", "b"}, {"GEODIST", "nokey", "a", "b", "bad"},
				{"GEOADD", "m", "10", "62.077922554995325", "a", "10", "-79.87926568799449", "b"}, {"GEODIST", "m", "a", "b"},
				{"SET", "s", "v"}, {"GEOHASH", "s", "a"}, {"GEOPOS", "s", "a"}, {"GEODIST", "s", "a", "b"}}},
		{id: "geo/search-cells", desc: "A search without ASC or DESC answers in the order of Redis's nine cells; COUNT sorts, ANY stops at the first found; the edge of a radius and a box",
			cmds: [][]string{geoGrid("g", 12.9, 37.9, 0.05, 12),
				{"GEOSEARCH", "g", "FROMLONLAT", "13.2", "38.2", "BYRADIUS", "9", "km"}, {"GEOSEARCH", "g", "FROMLONLAT", "13.2", "38.2", "BYBOX", "30", "12", "km"},
				{"GEOSEARCH", "g", "FROMMEMBER", "p77", "BYRADIUS", "6000", "m", "WITHDIST"}, {"GEOSEARCH", "g", "FROMMEMBER", "p77", "BYRADIUS", "6", "km", "DESC", "WITHHASH"},
				{"GEOSEARCH", "g", "FROMLONLAT", "13.2", "38.2", "BYRADIUS", "20", "km", "COUNT", "4"}, {"GEOSEARCH", "g", "FROMLONLAT", "13.2", "38.2", "BYRADIUS", "20", "km", "COUNT", "4", "ANY"},
				{"GEOSEARCH", "g", "FROMLONLAT", "13.2", "38.2", "BYRADIUS", "20", "km", "COUNT", "4", "ANY", "DESC", "WITHCOORD"},
				{"GEOSEARCH", "g", "FROMLONLAT", "13.2", "38.2", "BYRADIUS", "20", "km", "COUNT", "100", "DESC"},
				{"GEORADIUS", "g", "13.2", "38.2", "10", "mi", "WITHDIST", "WITHCOORD", "WITHHASH"}, {"GEORADIUS_RO", "g", "13.2", "38.2", "5", "km", "COUNT", "3", "DESC"},
				{"GEORADIUSBYMEMBER", "g", "p0", "12", "km", "ASC"}, {"GEORADIUSBYMEMBER_RO", "g", "p143", "30000", "ft", "WITHDIST"},
				{"GEOSEARCH", "g", "FROMLONLAT", "13.2", "38.2", "BYRADIUS", "0", "km"}, {"GEOSEARCH", "g", "FROMMEMBER", "p5", "BYBOX", "0", "0", "m", "WITHDIST"},
				{"GEOSEARCH", "g", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km"}}},
		{id: "geo/search-far", desc: "Searches across the antimeridian, over a pole and around the world: the cells wrap, and a huge radius reads each cell once",
			cmds: [][]string{{"GEOADD", "w", "179.5", "10", "east", "-179.5", "10", "west", "0", "85", "north1", "180", "85", "north2", "-90", "-85", "south", "0", "0", "origin", "120", "-33", "far"},
				{"GEOSEARCH", "w", "FROMLONLAT", "180", "10", "BYBOX", "400", "100", "km", "WITHDIST"}, {"GEOSEARCH", "w", "FROMLONLAT", "-180", "10", "BYRADIUS", "200", "km", "ASC"},
				{"GEORADIUSBYMEMBER", "w", "north1", "2000", "km", "WITHDIST"}, {"GEOSEARCH", "w", "FROMLONLAT", "45", "84", "BYBOX", "5000", "1000", "km"},
				{"GEORADIUS", "w", "0", "0", "50000", "km"}, {"GEORADIUS", "w", "0", "0", "50000", "km", "ASC", "WITHDIST"}, {"GEOSEARCH", "w", "FROMLONLAT", "0", "0", "BYBOX", "40000", "40000", "km", "DESC"},
				{"GEORADIUS", "w", "-90", "-85", "100", "km", "WITHCOORD"}}},
		{id: "geo/store", desc: "GEOSEARCHSTORE and GEORADIUS STORE and STOREDIST replace the destination (its type and TTL), an empty result or a missing source deletes it",
			cmds: [][]string{sicily,
				{"GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km"}, {"ZRANGE", "d", "0", "-1", "WITHSCORES"},
				{"GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "15", "37", "BYRADIUS", "200", "km", "STOREDIST", "COUNT", "1"}, {"ZRANGE", "d", "0", "-1", "WITHSCORES"},
				{"SET", "d", "v", "EX", "100"}, {"GEORADIUS", "Sicily", "15", "37", "200", "km", "STORE", "d"}, {"TTL", "d"}, {"TYPE", "d"},
				{"GEORADIUS", "Sicily", "15", "37", "200", "km", "STOREDIST", "d", "DESC"}, {"ZRANGE", "d", "0", "-1"}, {"ZCARD", "d"},
				{"GEORADIUSBYMEMBER", "Sicily", "Palermo", "100", "km", "STORE", "d2"}, {"ZRANGE", "d2", "0", "-1", "WITHSCORES"},
				{"GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km"}, {"EXISTS", "d"},
				{"SET", "d", "v"}, {"GEOSEARCHSTORE", "d", "nokey", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km"}, {"EXISTS", "d"},
				{"SET", "d", "v"}, {"GEORADIUS", "nokey", "0", "0", "1", "km", "STORE", "d"}, {"EXISTS", "d"},
				{"SET", "d", "v"}, {"GEORADIUSBYMEMBER", "nokey", "m", "1", "km", "STORE", "d"}, {"EXISTS", "d"},
				{"GEOSEARCHSTORE", "Sicily", "Sicily", "FROMMEMBER", "Palermo", "BYRADIUS", "10", "km"}, {"ZRANGE", "Sicily", "0", "-1"},
				evalKeys("return redis.call('GEOSEARCHSTORE', KEYS[1], KEYS[2], 'FROMLONLAT', 13, 38, 'BYRADIUS', 100, 'km', 'STOREDIST')", []string{"d3", "Sicily"}),
				{"ZRANGE", "d3", "0", "-1", "WITHSCORES"}}},
		{id: "geo/storedist-last-bit", desc: "STOREDIST keeps a distance as a double, all 17 digits of it, where the replies print 4 decimals",
			cmds: [][]string{sicily, {"GEORADIUS", "Sicily", "15", "37", "200", "mi", "STOREDIST", "d"}, {"ZRANGE", "d", "0", "-1", "WITHSCORES"}}},
		{id: "geo/search-errors", desc: "The searches' errors word for word, in the order Redis checks: the key's type first, then each option where it stands, then the whole",
			cmds: [][]string{sicily, {"SET", "s", "v"},
				{"GEOSEARCH", "s", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km"}, {"GEORADIUS", "s", "0", "0", "-1", "km"}, {"GEOSEARCHSTORE", "d", "s", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km"},
				{"GEOSEARCH", "Sicily", "FROMLONLAT", "0", "0"}, {"geosearch", "Sicily", "BYRADIUS", "1", "km", "ASC"}, {"GEOSEARCH", "Sicily", "FROMLONLAT", "0", "0", "FROMMEMBER", "Palermo", "BYRADIUS", "1", "km"},
				{"GEOSEARCH", "Sicily", "FROMMEMBER", "Palermo", "BYBOX", "1", "1", "km", "BYRADIUS", "1", "km"}, {"GEOSEARCH", "Sicily", "FROMMEMBER", "none", "BYRADIUS", "1", "km"},
				{"GEOSEARCH", "nokey", "FROMMEMBER", "none", "BYRADIUS", "1", "km"}, {"GEOSEARCH", "Sicily", "FROMLONLAT", "0", "90", "BYRADIUS", "1", "km"},
				{"GEOSEARCH", "Sicily", "FROMLONLAT", "x", "0", "BYRADIUS", "1", "km"}, {"GEOSEARCH", "Sicily", "FROMLONLAT", "0", "0", "BYRADIUS", "x", "km"},
				{"GEOSEARCH", "Sicily", "FROMLONLAT", "0", "0", "BYRADIUS", "-1", "km"}, {"GEOSEARCH", "Sicily", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "parsec"},
				{"GEOSEARCH", "Sicily", "FROMLONLAT", "0", "0", "BYBOX", "x", "1", "km"}, {"GEOSEARCH", "Sicily", "FROMLONLAT", "0", "0", "BYBOX", "1", "x", "km"},
				{"GEOSEARCH", "Sicily", "FROMLONLAT", "0", "0", "BYBOX", "-1", "1", "km"}, {"GEOSEARCH", "Sicily", "FROMLONLAT", "0", "0", "BYBOX", "1", "1"},
				{"GEOSEARCH", "Sicily", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km", "ANY"}, {"GEOSEARCH", "Sicily", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km", "COUNT", "0"},
				{"GEOSEARCH", "Sicily", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km", "COUNT", "x"}, {"GEOSEARCH", "Sicily", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km", "COUNT"},
				{"GEOSEARCH", "Sicily", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km", "STORE", "d"}, {"GEOSEARCH", "Sicily", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km", "STOREDIST"},
				{"GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km", "STORE", "d"}, {"GEOSEARCHSTORE", "d", "Sicily", "FROMLONLAT", "0", "0", "BYRADIUS", "1", "km", "WITHDIST"},
				{"GEORADIUS", "Sicily", "15", "37", "200", "km", "STORE", "d", "WITHCOORD"}, {"GEORADIUS_RO", "Sicily", "15", "37", "200", "km", "STORE", "d"},
				{"GEORADIUS", "Sicily", "15", "37", "200", "km", "FROMMEMBER", "Palermo"}, {"GEORADIUSBYMEMBER", "Sicily", "none", "1", "km"},
				{"GEORADIUS", "Sicily", "15", "37", "200"}, {"GEOSEARCH", "Sicily", "FROMLONLAT", "0", "0", "BYRADIUS"}, {"EXISTS", "d"}}},
	}
}
