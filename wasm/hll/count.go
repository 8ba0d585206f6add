package hll

import "math"

// The estimate Redis 7.0 makes from the registers (since Redis 5): Otmar
// Ertl's improved raw estimator ("New cardinality estimation algorithms
// for HyperLogLog sketches", arXiv:1702.01284), from the histogram of
// register values, with no bias table and no switch to linear counting.

// histogram counts the registers by value. A dense register holds up to
// 63, though no hash gives more than runBits+1 (51); the estimate reads
// the counts up to 51 only, as Redis's does.
type histogram [64]int

// alphaInf is 1/(2 ln 2), the estimator's constant as Redis writes it.
const alphaInf = 0.721347520444481703680

// estimate is the count, rounded half away from zero as llroundl does.
// The products by m and by y below are by powers of two, so they are
// exact, and a fused multiply-add (which Go may use) rounds the same.
//
// Registers no hash can give (every one past 50, say, which only a string
// made by hand holds) leave nothing to divide by: the estimate is
// infinite, and Redis's llroundl answers what x86 answers for a number
// out of range, 1<<63, which PFCOUNT prints as -9223372036854775808 (and
// caches as a count whose stale bit is set).
func (hist *histogram) estimate() uint64 {
	const m = float64(Registers)
	z := m * tau((m-float64(hist[runBits+1]))/m)
	for j := runBits; j >= 1; j-- {
		z += float64(hist[j])
		z *= 0.5
	}
	z += m * sigma(float64(hist[0])/m)
	e := math.Round(alphaInf * m * m / z)
	if !(e < 1<<63) {
		return 1 << 63
	}
	return uint64(e)
}

// sigma is the paper's σ(x), summed until the sum stops changing.
func sigma(x float64) float64 {
	if x == 1 {
		return math.Inf(1)
	}
	z, y := x, 1.0
	for {
		x *= x
		before := z
		z += x * y
		y += y
		if z == before {
			return z
		}
	}
}

// tau is the paper's τ(x), summed until the sum stops changing.
func tau(x float64) float64 {
	if x == 0 || x == 1 {
		return 0
	}
	z, y := 1-x, 1.0
	for {
		x = math.Sqrt(x)
		before := z
		y *= 0.5
		d := 1 - x
		z -= d * d * y
		if z == before {
			return z / 3
		}
	}
}
