package rdb

// LZF, as Redis 7.0 uses it for every string of more than 20 bytes it
// writes: a long value, and the listpacks and intsets it saves as strings.
// The compressor makes the same choices as Redis's (liblzf 3.6 built with
// a 16-bit hash table and VERY_FAST), so a DUMP is byte for byte the one
// Redis writes. One difference cannot be followed: Redis does not clear its
// hash table between calls, and a stale slot that happens to point at three
// equal bytes earlier in the input can give Redis a match where this one
// writes literals. Either output decompresses to the same bytes.

const (
	lzfMaxLit = 1 << 5      // longest literal run
	lzfMaxOff = 1 << 13     // farthest back a match can point
	lzfMaxRef = 1<<8 + 1<<3 // longest match, less 2
	lzfHash   = 1 << 16     // hash table slots
	lzfMask   = uint32(lzfHash - 1)
)

func lzfSlot(h uint32) uint32 { return (h>>8 - h*5) & lzfMask }

// lzfCompress compresses in into at most limit bytes, or returns nil when
// it does not fit (Redis then stores the string as it is).
func lzfCompress(in string, limit int) []byte {
	n := len(in)
	if n < 3 || limit <= 0 {
		return nil
	}
	htab := make([]uint32, lzfHash) // a position; 0 is never a reference
	out := make([]byte, limit)
	ip, op, lit := 0, 1, 0 // op 0 is the first run's length byte
	h := uint32(in[0])<<8 | uint32(in[1])
	for ip < n-2 {
		h = h<<8 | uint32(in[ip+2])
		slot := lzfSlot(h)
		ref := int(htab[slot])
		htab[slot] = uint32(ip)
		if ref > 0 && ref < ip && ip-ref-1 < lzfMaxOff &&
			in[ref] == in[ip] && in[ref+1] == in[ip+1] && in[ref+2] == in[ip+2] {
			off := ip - ref - 1
			maxlen := min(n-ip-2, lzfMaxRef)
			if op+4 >= limit {
				undo := 0
				if lit == 0 {
					undo = 1
				}
				if op-undo+4 >= limit {
					return nil
				}
			}
			out[op-lit-1] = byte(lit - 1) // close the literal run
			if lit == 0 {
				op-- // there was none
			}
			l := lzfMatch(in, ref, ip, maxlen) - 2
			ip++
			if l < 7 {
				out[op] = byte(off>>8 + l<<5)
				op++
			} else {
				out[op], out[op+1] = byte(off>>8+7<<5), byte(l-7)
				op += 2
			}
			out[op] = byte(off)
			op += 2 // and the next run's length byte
			lit = 0
			ip += l + 1
			if ip >= n-2 {
				break
			}
			// Hash the last two positions of the match, as VERY_FAST does.
			ip -= 2
			h = uint32(in[ip])<<8 | uint32(in[ip+1])
			for range 2 {
				h = h<<8 | uint32(in[ip+2])
				htab[lzfSlot(h)] = uint32(ip)
				ip++
			}
			continue
		}
		if op >= limit {
			return nil
		}
		out[op] = in[ip]
		op, ip, lit = op+1, ip+1, lit+1
		if lit == lzfMaxLit {
			out[op-lit-1] = byte(lit - 1)
			op, lit = op+1, 0
		}
	}
	if op+3 > limit {
		return nil
	}
	for ; ip < n; ip++ {
		out[op] = in[ip]
		op, lit = op+1, lit+1
		if lit == lzfMaxLit {
			out[op-lit-1] = byte(lit - 1)
			op, lit = op+1, 0
		}
	}
	out[op-lit-1] = byte(lit - 1)
	if lit == 0 {
		op--
	}
	return out[:op]
}

// lzfMatch is how many bytes from ip repeat those from ref, at least 3.
// liblzf compares sixteen bytes unchecked when maxlen is over 16, so a match
// can run a byte or two past maxlen then (never past the input): kept, as
// it decides the bytes written.
func lzfMatch(in string, ref, ip, maxlen int) int {
	l := 2
	if maxlen > 16 {
		for range 16 {
			l++
			if in[ref+l] != in[ip+l] {
				return l
			}
		}
	}
	for {
		l++
		if l >= maxlen || in[ref+l] != in[ip+l] {
			return l
		}
	}
}

// lzfMaxGrowth is the most one byte of LZF can expand to: a long match,
// three bytes, gives 264.
const lzfMaxGrowth = (7 + 255 + 2) / 3

// lzfDecompress expands in to exactly size bytes, or reports false. The
// size is the payload's word, not a fact: one that in could never expand
// to is refused before any memory is taken for it (a 26-byte RESTORE
// asked for 4 GiB).
func lzfDecompress(in string, size int) (string, bool) {
	if size < 0 || size > lzfMaxGrowth*len(in) {
		return "", false
	}
	out := make([]byte, 0, size)
	for ip := 0; ip < len(in); {
		ctrl := int(in[ip])
		ip++
		if ctrl < lzfMaxLit {
			run := ctrl + 1
			if ip+run > len(in) || len(out)+run > size {
				return "", false
			}
			out = append(out, in[ip:ip+run]...)
			ip += run
			continue
		}
		l := ctrl >> 5
		if l == 7 {
			if ip >= len(in) {
				return "", false
			}
			l += int(in[ip])
			ip++
		}
		if ip >= len(in) {
			return "", false
		}
		ref := len(out) - (ctrl&0x1f)<<8 - 1 - int(in[ip])
		ip++
		l += 2
		if ref < 0 || len(out)+l > size {
			return "", false
		}
		for k := range l {
			out = append(out, out[ref+k])
		}
	}
	return string(out), len(out) == size
}
