package hll

// The dense encoding: register i is the six bits from bit 6i of the
// registers' bytes, least significant bit first, so a register may start
// in one byte and end in the next.

// register is register i of the dense registers r.
func register(r string, i int) uint8 {
	bit := i * 6
	b, shift := bit/8, uint(bit%8)
	v := r[b] >> shift
	if shift > 2 {
		v |= r[b+1] << (8 - shift)
	}
	return v & 63
}

// setRegister sets register i of r to v (at most 63).
func setRegister(r []byte, i int, v uint8) {
	bit := i * 6
	b, shift := bit/8, uint(bit%8)
	r[b] = r[b]&^(63<<shift) | v<<shift
	if shift > 2 {
		r[b+1] = r[b+1]&^(63>>(8-shift)) | v>>(8-shift)
	}
}

// raise sets register i of r to v if v is higher, and reports whether it
// did.
func raise(r []byte, i int, v uint8) bool {
	if register(view(r), i) >= v {
		return false
	}
	setRegister(r, i, v)
	return true
}
