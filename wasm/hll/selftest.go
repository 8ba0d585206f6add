package hll

import (
	"errors"
	"math"
	"strconv"
)

// SelfTest is PFSELFTEST's check of this package, in the spirit of Redis's
// own and with its messages: every dense register holds what is set in
// it without touching its neighbours, and elements added to a dense and a
// sparse HyperLogLog side by side give one count, within six standard
// errors of the truth at 1, 10, 100, ... 100,000 elements, with the sparse
// one still sparse at the small counts. Redis goes on to 10,000,000
// elements, which would hold a browser tab for seconds; the generator
// here is fixed, so the run is the same every time.
func SelfTest() error {
	rnd := uint64(0x9e3779b97f4a7c15)
	next := func() uint64 { // xorshift64*
		rnd ^= rnd >> 12
		rnd ^= rnd << 25
		rnd ^= rnd >> 27
		return rnd * 0x2545f4914f6cdd1d
	}
	d := make([]byte, DenseSize)
	copy(d, "HYLL")
	r := d[HeaderSize:]
	var want [Registers]uint8
	for range 8 {
		for i := range want {
			want[i] = uint8(next() & 63)
			setRegister(r, i, want[i])
		}
		for i, v := range want {
			if got := register(r, i); got != v {
				return errors.New("TESTFAILED Register " + strconv.Itoa(i) + " should be " + strconv.Itoa(int(v)) + " but is " + strconv.Itoa(int(got)))
			}
		}
	}
	clear(r)
	s := New()
	relErr := 1.04 / math.Sqrt(Registers)
	base := next()
	var el [8]byte
	for j, checkpoint := uint64(1), uint64(1); checkpoint <= 100000; j++ {
		v := j ^ base
		for k := range el {
			el[k] = byte(v >> (8 * k))
		}
		i, run := Position(string(el[:]))
		raise(r, i, run)
		s, _, _ = Add(s, []string{string(el[:])}, SparseMaxBytes)
		if j != checkpoint {
			continue
		}
		if j < SparseMaxBytes/2 && s[4] != sparse {
			return errors.New("TESTFAILED sparse encoding not used")
		}
		n, _ := Count(string(d))
		if m, err := Count(string(s)); err != nil || m != n {
			return errors.New("TESTFAILED dense/sparse disagree")
		}
		maxErr := uint64(math.Ceil(relErr * 6 * float64(checkpoint)))
		if j == 10 {
			maxErr = 1
		}
		if off := int64(checkpoint) - int64(n); uint64(max(off, -off)) > maxErr {
			return errors.New("TESTFAILED Too big error. card:" + strconv.FormatUint(checkpoint, 10) + " abserr:" + strconv.FormatInt(max(off, -off), 10))
		}
		checkpoint *= 10
	}
	return nil
}
