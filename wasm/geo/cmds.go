package geo

import (
	"strconv"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// AddArgs is the ZADD that GEOADD key [NX|XX] [CH] lon lat member ...
// stands for, as Redis runs it: its options, then each point's score and
// member. bad is the reply instead when an option, a coordinate or the
// count of arguments is wrong (nothing is written then).
func AddArgs(ks Keyspace, args []string) (zadd []string, bad *resp.Reply) {
	i := 2
	nx, xx := false, false
	for ; i < len(args); i++ {
		switch ascii.Lower(args[i]) {
		case "nx":
			nx = true
			continue
		case "xx":
			xx = true
			continue
		case "ch":
			continue
		}
		break
	}
	if (len(args)-i)%3 != 0 || nx && xx {
		return nil, &errSyntax
	}
	zadd = append([]string{"ZADD"}, args[1:i]...)
	for j := i; j < len(args); j += 3 {
		lon, lat, bad := point(ks, args[j], args[j+1])
		if bad != nil {
			return nil, bad
		}
		score, _ := Score(lon, lat)
		zadd = append(zadd, strconv.FormatUint(score, 10), args[j+2])
	}
	return zadd, nil
}

// lookup is the sorted set at key for a command that reads one: nil for
// a missing key, bad for another type.
func lookup(ks Keyspace, key string) (Set, *resp.Reply) {
	set, wrong := ks.Zset(key)
	if wrong {
		return nil, &errWrongType
	}
	return set, nil
}

// Pos is GEOPOS key member ...: each member's [longitude, latitude], or a
// null array for a member the set lacks.
func Pos(ks Keyspace, args []string) resp.Reply {
	return eachMember(ks, args, resp.NilArrayReply(), func(score float64) resp.Reply {
		lon, lat := Position(score)
		return resp.ArrayReply(resp.BulkReply(Coord(lon)), resp.BulkReply(Coord(lat)))
	})
}

// HashOf is GEOHASH key member ...: each member's standard geohash, or
// nil for a member the set lacks.
func HashOf(ks Keyspace, args []string) resp.Reply {
	return eachMember(ks, args, resp.NilReply(), func(score float64) resp.Reply {
		return resp.BulkReply(Hash(score))
	})
}

// eachMember is GEOPOS's and GEOHASH's reply: for each member after the
// key, what reply makes of its score, or missing where the set lacks it
// (or there is no set).
func eachMember(ks Keyspace, args []string, missing resp.Reply, reply func(score float64) resp.Reply) resp.Reply {
	set, bad := lookup(ks, args[1])
	if bad != nil {
		return *bad
	}
	out := make([]resp.Reply, 0, len(args)-2)
	for _, m := range args[2:] {
		score, ok := 0.0, false
		if set != nil {
			score, ok = set.Score(m)
		}
		if !ok {
			out = append(out, missing)
			continue
		}
		out = append(out, reply(score))
	}
	return resp.ArrayReply(out...)
}

// Dist is GEODIST key member1 member2 [unit]: nil when the key or either
// member is missing. The unit is read before the key, as Redis reads it.
func Dist(ks Keyspace, args []string) resp.Reply {
	unit := 1.0
	switch {
	case len(args) == 5:
		if unit = unitOf(args[4]); unit == 0 {
			return errUnit
		}
	case len(args) > 5:
		return errSyntax
	}
	set, bad := lookup(ks, args[1])
	if bad != nil {
		return *bad
	}
	if set == nil {
		return resp.NilReply()
	}
	s1, ok1 := set.Score(args[2])
	s2, ok2 := set.Score(args[3])
	if !ok1 || !ok2 {
		return resp.NilReply()
	}
	lon1, lat1 := Position(s1)
	lon2, lat2 := Position(s2)
	return resp.BulkReply(Distance(distance(lon1, lat1, lon2, lat2) / unit))
}
