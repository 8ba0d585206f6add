package hll

import (
	"errors"
	"math"
	"strconv"
)

// SelfTest is PFSELFTEST's check of this package, in the spirit of Redis's
// own and with its messages: the elements 1 to 10,000 added to a dense
// and to a sparse HyperLogLog side by side give one count at 1, 10, 100,
// 1,000 and 10,000, within six standard errors of the truth, with the
// sparse one still sparse at the small counts. Redis goes on to
// 10,000,000 random elements, which would hold a browser tab for seconds
// (and a script calling it past its budget); these are fixed, so every
// run is the same. (Go's tests check the registers themselves.)
func SelfTest() error {
	d, _ := ToDense(New())
	s := New()
	for j, checkpoint := 1, 1; j <= 10000; j++ {
		el := []string{strconv.Itoa(j)}
		d, _, _ = Add(d, el, SparseMaxBytes)
		s, _, _ = Add(s, el, SparseMaxBytes)
		if j != checkpoint {
			continue
		}
		checkpoint *= 10
		n, _ := Count(view(d))
		m, err := Count(view(s))
		switch {
		case j < SparseMaxBytes/2 && s[4] != sparse:
			return errors.New("TESTFAILED sparse encoding not used")
		case err != nil || m != n:
			return errors.New("TESTFAILED dense/sparse disagree")
		case math.Abs(float64(j)-float64(n)) > math.Ceil(1.04/math.Sqrt(Registers)*6*float64(j)):
			return errors.New("TESTFAILED Too big error")
		}
	}
	return nil
}
