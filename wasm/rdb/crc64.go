// Package rdb reads and writes the payload of Redis 7.0's DUMP and RESTORE:
// one value in the RDB file format, the RDB version it was written with,
// and a CRC-64 of both. A learner can copy a payload from a real Redis 7.0
// into the playground, or the other way, and get the same value.
package rdb

// Redis checksums a payload with the "Jones" CRC-64: polynomial
// 0xad93d23594c935a9, bits reflected, starting from 0 with no final xor.
// hash/crc64 starts from and ends with all ones, so it cannot give it.
var crcTable = func() (t [256]uint64) {
	const reflected = 0x95ac9329ac4bc9b5 // the polynomial, bit-reversed
	for i := range t {
		c := uint64(i)
		for range 8 {
			if c&1 == 1 {
				c = c>>1 ^ reflected
			} else {
				c >>= 1
			}
		}
		t[i] = c
	}
	return t
}()

// CRC64 is Redis's crc64(0, b): the checksum a DUMP payload ends with.
func CRC64(b string) uint64 {
	var c uint64
	for i := 0; i < len(b); i++ {
		c = crcTable[byte(c)^b[i]] ^ c>>8
	}
	return c
}
