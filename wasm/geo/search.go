package geo

import "math"

// Shape is a search's area: a circle of Radius around (Lon, Lat), or,
// when Box, a rectangle Width by Height centred there, the lengths in the
// search's unit, Unit metres each.
type Shape struct {
	Lon, Lat      float64
	Box           bool
	Radius        float64
	Width, Height float64
	Unit          float64
}

// bounds is the rectangle in degrees the shape lies within, as
// geohashBoundingBox draws it: the longitudes are widest at the edge
// nearer a pole, the top edge in the north, the bottom one in the south.
func (s *Shape) bounds() (minLon, minLat, maxLon, maxLat float64) {
	height, width := s.Unit*s.Radius, s.Unit*s.Radius
	if s.Box {
		height, width = s.Unit*(s.Height/2), s.Unit*(s.Width/2)
	}
	latDelta := toDeg(height / earthRadius)
	topDelta := toDeg(width / earthRadius / math.Cos(toRad(s.Lat+latDelta)))
	bottomDelta := toDeg(width / earthRadius / math.Cos(toRad(s.Lat-latDelta)))
	lonDelta := topDelta
	if s.Lat < 0 {
		lonDelta = bottomDelta
	}
	return s.Lon - lonDelta, s.Lat - latDelta, s.Lon + lonDelta, s.Lat + latDelta
}

// reach is how far from the centre the shape goes, in metres: the radius,
// or half the box's diagonal.
func (s *Shape) reach() float64 {
	r := s.Radius
	if s.Box {
		hw, hh := s.Width/2, s.Height/2
		r = math.Sqrt(float64(hw*hw) + float64(hh*hh))
	}
	return r * s.Unit
}

// stepsFor is geohashEstimateStepsByRadius: the coarsest precision whose
// cells are still wider than the reach, one coarser again near the poles,
// where a cell's width shrinks.
func stepsFor(reach, lat float64) uint {
	if reach == 0 {
		return stepMax
	}
	step := 1
	for reach < mercatorMax {
		reach *= 2
		step++
	}
	step -= 2
	if lat > 66 || lat < -66 {
		step--
		if lat > 80 || lat < -80 {
			step--
		}
	}
	return uint(max(1, min(step, stepMax)))
}

// cells are the nine cells a search reads, in the order Redis reads them:
// the centre's, then north, south, east, west, north-east, north-west,
// south-east, south-west. A zero cell is one the search has left out.
type cells [9]cell

// neighbours are c and the eight cells around it, in cells' order.
func neighbours(c cell) cells {
	moves := [9][2]int{{0, 0}, {0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}}
	var out cells
	for i, m := range moves {
		n := c
		moveX(&n, m[0])
		moveY(&n, m[1])
		out[i] = n
	}
	return out
}

// The places in cells.
const (
	north, south, east, west                   = 1, 2, 3, 4
	northEast, northWest, southEast, southWest = 5, 6, 7, 8
)

// areas is geohashCalculateAreasByShapeWGS84: the cells around the
// shape's centre at the precision its reach asks for, one step coarser
// when a side's neighbour does not reach the shape's bounds, and without
// the neighbours on a side the centre's own cell already covers.
func (s *Shape) areas() cells {
	minLon, minLat, maxLon, maxLat := s.bounds()
	steps := stepsFor(s.reach(), s.Lat)
	at := func(steps uint) (cells, area) {
		c, _ := encode(lonSpan, latSpan, s.Lon, s.Lat, steps)
		return neighbours(c), decode(lonSpan, latSpan, c)
	}
	n, a := at(steps)
	coarser := decode(lonSpan, latSpan, n[north]).lat.max < maxLat ||
		decode(lonSpan, latSpan, n[south]).lat.min > minLat ||
		decode(lonSpan, latSpan, n[east]).lon.max < maxLon ||
		decode(lonSpan, latSpan, n[west]).lon.min > minLon
	if steps > 1 && coarser {
		steps--
		n, a = at(steps)
	}
	if steps >= 2 {
		if a.lat.min < minLat {
			n[south], n[southWest], n[southEast] = cell{}, cell{}, cell{}
		}
		if a.lat.max > maxLat {
			n[north], n[northEast], n[northWest] = cell{}, cell{}, cell{}
		}
		if a.lon.min < minLon {
			n[west], n[southWest], n[northWest] = cell{}, cell{}, cell{}
		}
		if a.lon.max > maxLon {
			n[east], n[southEast], n[northEast] = cell{}, cell{}, cell{}
		}
	}
	return n
}

// Ranges are the score ranges [min, max) a search reads, in Redis's order.
// A cell the same as the one read before it is read once, as Redis skips
// it (Redis's check never compares the first neighbour with the centre,
// so neither does this).
func (s *Shape) Ranges() [][2]uint64 {
	var out [][2]uint64
	n := s.areas()
	last := 0
	for i, c := range n {
		if c.zero() {
			continue
		}
		if last != 0 && c == n[last] {
			continue
		}
		next := c
		next.bits++
		out = append(out, [2]uint64{align52(c), align52(next)})
		last = i
	}
	return out
}

// Within reports whether the point a score stands for lies in the shape,
// and its distance from the centre in metres, as geoAppendIfWithinShape
// decides it: within the radius, or within half the box's width and half
// its height of the centre, measured along the point's latitude and
// along the centre's meridian.
func (s *Shape) Within(score float64) (dist, lon, lat float64, ok bool) {
	lon, lat = Position(score)
	if !s.Box {
		dist = distance(s.Lon, s.Lat, lon, lat)
		return dist, lon, lat, dist <= s.Radius*s.Unit
	}
	if latDistance(lat, s.Lat) > s.Height*s.Unit/2 {
		return 0, lon, lat, false
	}
	if distance(lon, lat, s.Lon, lat) > s.Width*s.Unit/2 {
		return 0, lon, lat, false
	}
	return distance(s.Lon, s.Lat, lon, lat), lon, lat, true
}
