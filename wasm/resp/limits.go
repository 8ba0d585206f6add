package resp

import (
	"bufio"
	"fmt"
	"io"
	"math"
)

// What a reader believes of a length the bytes declare. A reply's header
// says how long its string is or how many elements follow before any of
// them has arrived, so a reader that sized its memory by the header would
// let eleven bytes ("*9999999999") ask for a terabyte. The readers here
// (and those of internal/redisnet and internal/redisdiff) size memory by
// the bytes that have come, and refuse a header no Redis reply can have.

// MaxBulkLen is the longest string a reply can hold: Redis's default
// proto-max-bulk-len, which caps every string a server stores, 512 MiB.
const MaxBulkLen = 512 << 20

// MaxAggregateLen is the most elements a reply's header may announce (a
// map's pairs count twice). Redis builds no aggregate past 2^31-1.
const MaxAggregateLen = math.MaxInt32

// firstElems is how many elements a reader makes room for before any has
// arrived; past it, the slice grows as the elements come. It is small
// because headers nest: "*2147483647\r\n" over and over, 13 bytes each,
// would otherwise cost the room at every level.
const firstElems = 8

// blockChunk is the most a reader allocates for a string before its bytes
// arrive; past it, the buffer grows as they do (doubling), so a stream cut
// short has cost at most about twice what it sent.
const blockChunk = 64 << 10

// ElemsCap is the capacity to give a slice for an aggregate that declares
// n elements, with avail bytes of input known to be left (-1: unknown, a
// stream). Every element takes at least three bytes ("_\r\n").
func ElemsCap(n, avail int) int {
	c := min(n, firstElems)
	if avail >= 0 {
		c = min(c, avail/3)
	}
	return max(c, 0)
}

// AppendBlock appends the next n bytes of r and the two after them (a
// string's CRLF, which it does not check) to buf, allocating only as the
// bytes arrive.
func AppendBlock(buf []byte, r *bufio.Reader, n int) ([]byte, error) {
	if n < 0 || n > MaxBulkLen {
		return nil, fmt.Errorf("%w: string length %d out of range", ErrProtocol, n)
	}
	left := n + 2
	for left > 0 {
		step := min(left, max(blockChunk, len(buf)))
		start := len(buf)
		buf = append(buf, make([]byte, step)...)
		if _, err := io.ReadFull(r, buf[start:]); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		left -= step
	}
	return buf, nil
}
