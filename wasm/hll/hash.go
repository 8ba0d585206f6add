package hll

import "math/bits"

// seed is the seed Redis hashes every element with.
const seed = 0xadc83b19

// Hash is MurmurHash64A of s with Redis's seed, reading s eight bytes at a
// time as little-endian words, as Redis does on every machine.
func Hash(s string) uint64 {
	const (
		m = 0xc6a4a7935bd1e995
		r = 47
	)
	h := seed ^ uint64(len(s))*m
	for ; len(s) >= 8; s = s[8:] {
		k := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		k *= m
		k ^= k >> r
		k *= m
		h ^= k
		h *= m
	}
	if len(s) > 0 {
		for i := len(s) - 1; i >= 0; i-- {
			h ^= uint64(s[i]) << (8 * i)
		}
		h *= m
	}
	h ^= h >> r
	h *= m
	h ^= h >> r
	return h
}

// Position is the register an element sets and the value it offers it:
// the hash's low 14 bits choose the register, and the value is one more
// than the number of zero bits above them, counted from the low end (at
// most 51: a 1 is put past the top to end the run).
func Position(elem string) (register int, value uint8) {
	h := Hash(elem)
	rest := h>>indexBits | 1<<runBits
	return int(h & (Registers - 1)), uint8(bits.TrailingZeros64(rest) + 1)
}
