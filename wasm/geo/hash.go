// Package geo is Redis 7.0's geospatial index, over a sorted set: the
// 52-bit geohash a point is stored as (its score), the cells a search
// reads, the distances and the commands (GEOADD, GEOPOS, GEODIST, GEOHASH,
// GEORADIUS and GEORADIUSBYMEMBER with their _RO forms, GEOSEARCH and
// GEOSEARCHSTORE), with Redis's options, checks, errors and replies.
//
// miniredis has the commands too, but finds a search's members by
// computing every member's distance, and lacks GEOHASH, GEOSEARCHSTORE,
// GEOADD's options and ANY. Redis looks only at the members of nine
// geohash cells around the centre and checks each one's distance: which
// members a search finds at the edge of its area, and the order a search
// without ASC or DESC answers in, come from those cells, so the package
// reads them as Redis does (search.go).
//
// The arithmetic is Redis's, operation for operation, in float64 as C's
// double: the only differences left are those of the math library (Go's
// sin, cos and asin against glibc's, which may differ in the last bit),
// which could move a point lying within a rounding error of a search's
// edge to the other side of it, and show in the 17th digit of a distance
// STOREDIST keeps as a score (the replies print 4 decimals).
//
// It is off the lesson's path, but keeps the compiler's inlining: without
// it (-l in wasm/gcflags.txt) the module came out larger raw (11,885,555
// -> 11,890,779 B) and its brotli size moved by noise alone.
package geo

import "math"

// The limits of the coordinates Redis can index (EPSG:900913): the
// latitudes beyond ±85.05112878 have no place in the Web Mercator square.
const (
	lonMin = -180.0
	lonMax = 180.0
	latMin = -85.05112878
	latMax = 85.05112878
)

// stepMax is the precision of a stored point: 26 bits of latitude and 26
// of longitude, interleaved into a 52-bit integer, which a double (the
// sorted set's score) holds exactly.
const stepMax = 26

// earthRadius is the quadratic mean radius of the WGS-84 ellipsoid, in
// metres, Redis's radius for every distance.
const earthRadius = 6372797.560856

// mercatorMax is half the Web Mercator square's side, in metres: the
// scale a radius is doubled up to when choosing a precision.
const mercatorMax = 20037726.37

// degRad is C's M_PI / 180.0, computed as a double from a double, as
// Redis's D_R is (a Go constant expression would be exact, and could round
// differently).
var degRad = func() float64 { pi := math.Pi; return pi / 180 }()

func toRad(deg float64) float64 { return deg * degRad }
func toDeg(rad float64) float64 { return rad / degRad }

// span is a range of one coordinate.
type span struct{ min, max float64 }

// The ranges a stored point is encoded in; GEOHASH re-encodes it in the
// standard geohash's, whose latitudes run from -90 to 90.
var (
	lonSpan    = span{lonMin, lonMax}
	latSpan    = span{latMin, latMax}
	stdLatSpan = span{-90, 90}
)

// cell is a geohash of step bits a coordinate: a cell of the grid of that
// precision. The zero cell (no bits, no step) is a neighbour left out.
type cell struct {
	bits uint64
	step uint
}

func (c cell) zero() bool { return c.bits == 0 && c.step == 0 }

// area is the rectangle a cell covers, in degrees.
type area struct{ lon, lat span }

// spread puts the 32 bits of v in the even bits of a 64-bit word.
func spread(v uint32) uint64 {
	x := uint64(v)
	x = (x | x<<16) & 0x0000ffff0000ffff
	x = (x | x<<8) & 0x00ff00ff00ff00ff
	x = (x | x<<4) & 0x0f0f0f0f0f0f0f0f
	x = (x | x<<2) & 0x3333333333333333
	x = (x | x<<1) & 0x5555555555555555
	return x
}

// gather is spread undone: the even bits of x, packed.
func gather(x uint64) uint32 {
	x &= 0x5555555555555555
	x = (x | x>>1) & 0x3333333333333333
	x = (x | x>>2) & 0x0f0f0f0f0f0f0f0f
	x = (x | x>>4) & 0x00ff00ff00ff00ff
	x = (x | x>>8) & 0x0000ffff0000ffff
	x = (x | x>>16) & 0x00000000ffffffff
	return uint32(x)
}

// encode is the cell of step bits holding (lon, lat) in the ranges lons
// and lats: latitude bits in the even places, longitude in the odd ones.
// It fails for a point outside Redis's limits or the ranges.
func encode(lons, lats span, lon, lat float64, step uint) (cell, bool) {
	if lon > lonMax || lon < lonMin || lat > latMax || lat < latMin {
		return cell{}, false
	}
	if lat < lats.min || lat > lats.max || lon < lons.min || lon > lons.max {
		return cell{step: step}, false
	}
	latOff := (lat - lats.min) / (lats.max - lats.min)
	lonOff := (lon - lons.min) / (lons.max - lons.min)
	scale := float64(uint64(1) << step)
	latOff *= scale
	lonOff *= scale
	return cell{spread(uint32(latOff)) | spread(uint32(lonOff))<<1, step}, true
}

// decode is the area cell c covers in the ranges lons and lats.
func decode(lons, lats span, c cell) area {
	lat, lon := gather(c.bits), gather(c.bits>>1)
	scale := float64(uint64(1) << c.step)
	latScale, lonScale := lats.max-lats.min, lons.max-lons.min
	return area{
		lon: span{lons.min + float64(float64(lon)/scale*lonScale), lons.min + float64(float64(lon+1)/scale*lonScale)},
		lat: span{lats.min + float64(float64(lat)/scale*latScale), lats.min + float64(float64(lat+1)/scale*latScale)},
	}
}

// centre is the middle of a, kept within Redis's limits.
func (a area) centre() (lon, lat float64) {
	lon = (a.lon.min + a.lon.max) / 2
	lon = math.Max(lonMin, math.Min(lonMax, lon))
	lat = (a.lat.min + a.lat.max) / 2
	lat = math.Max(latMin, math.Min(latMax, lat))
	return lon, lat
}

// Score is the sorted-set score Redis stores a point as: its 52-bit
// geohash. ok is false for a point outside the limits.
func Score(lon, lat float64) (score uint64, ok bool) {
	c, ok := encode(lonSpan, latSpan, lon, lat, stepMax)
	return c.bits, ok
}

// Position is the point a score stands for: the centre of its cell. A
// score no GEOADD wrote is read as Redis reads it, through C's conversion
// of a double to a 64-bit unsigned integer (cToUint64).
func Position(score float64) (lon, lat float64) {
	return decode(lonSpan, latSpan, cell{cToUint64(score), stepMax}).centre()
}

// cToUint64 is (uint64_t)f as GCC compiles it for x86-64, where Redis 7.0
// runs: a value below 2^63 goes through the signed conversion (cvttsd2si,
// whose answer for NaN and the out of range is 2^63, "integer
// indefinite"), a larger one has 2^63 taken off first and its top bit set
// after. Go leaves these conversions to the platform, so they are spelt
// out.
func cToUint64(f float64) uint64 {
	const two63 = 9223372036854775808.0
	toInt := func(f float64) uint64 {
		if f != f || f >= two63 || f < -two63 {
			return 1 << 63
		}
		return uint64(int64(f))
	}
	if f < two63 || f != f {
		return toInt(f)
	}
	return toInt(f-two63) ^ 1<<63
}

// align52 is the 52-bit score at which the cell's members begin.
func align52(c cell) uint64 { return c.bits << (52 - c.step*2) }

// Hash is the 11 characters GEOHASH answers for a score: the point
// re-encoded in the standard geohash's ranges (latitudes from -90, not
// -85), in base 32, its 52 bits giving ten characters and an eleventh
// that is always "0".
func Hash(score float64) string {
	const alphabet = "0123456789bcdefghjkmnpqrstuvwxyz"
	lon, lat := Position(score)
	c, _ := encode(lonSpan, stdLatSpan, lon, lat, stepMax)
	var buf [11]byte
	for i := range buf {
		idx := 0
		if i < 10 {
			idx = int(c.bits >> (52 - (uint(i)+1)*5) & 0x1f)
		}
		buf[i] = alphabet[idx]
	}
	return string(buf[:])
}

// moveX moves c one cell east (d > 0) or west (d < 0), around the
// world; d == 0 leaves it.
func moveX(c *cell, d int) { move(c, d, 0xaaaaaaaaaaaaaaaa) }

// moveY moves c one cell north (d > 0) or south (d < 0); d == 0 leaves
// it.
func moveY(c *cell, d int) { move(c, d, 0x5555555555555555) }

// move steps the interleaved bits of lane (the x bits or the y bits) one
// up or down, as Redis's geohash_move_x and _y do: the other lane's bits
// are filled in so the carry or borrow runs through them, then masked off.
func move(c *cell, d int, lane uint64) {
	if d == 0 {
		return
	}
	v := c.bits & lane
	rest := c.bits &^ lane
	zz := ^lane >> (64 - c.step*2)
	if d > 0 {
		v += zz + 1
	} else {
		v |= zz
		v -= zz + 1
	}
	v &= lane >> (64 - c.step*2)
	c.bits = v | rest
}

// distance is the great-circle distance in metres between two points, by
// the haversine formula, as geohashGetDistance computes it: along the
// meridian alone when the longitudes are the same to a double's sine.
func distance(lon1, lat1, lon2, lat2 float64) float64 {
	v := math.Sin((toRad(lon2) - toRad(lon1)) / 2)
	if v == 0 {
		return latDistance(lat1, lat2)
	}
	lat1r, lat2r := toRad(lat1), toRad(lat2)
	u := math.Sin((lat2r - lat1r) / 2)
	// u*u + cos(lat1r)*cos(lat2r)*v*v, each product rounded as C rounds it
	// (a conversion keeps Go from fusing a multiply and an add).
	p := float64(math.Cos(lat1r) * math.Cos(lat2r))
	p = float64(p * v)
	p = float64(p * v)
	a := float64(u*u) + p
	return 2.0 * earthRadius * math.Asin(math.Sqrt(a))
}

// latDistance is the distance in metres between two latitudes along a
// meridian, geohashGetLatDistance.
func latDistance(lat1, lat2 float64) float64 {
	return earthRadius * math.Abs(toRad(lat2)-toRad(lat1))
}
