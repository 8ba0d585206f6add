package extracmds

import (
	"slices"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// maxLCSCells bounds LCS's table, one uint32 per pair of prefixes: 16 MiB,
// two strings of about 2,000 bytes each. Redis bounds it by its
// proto-max-bulk-len (512 MB); a browser tab cannot spare that, and the
// module's memory never shrinks again. Past it, LCS answers the error
// Redis gives when it cannot allocate the table.
const maxLCSCells = 1 << 22

// LCS is LCS key1 key2 [LEN] [IDX] [MINMATCHLEN n] [WITHMATCHLEN], as
// Redis 7.0 answers it: both keys are read (a missing one is "") before
// the options, so a key of another type wins over a syntax error. With
// IDX the reply is ["matches", ranges, "len", n], the ranges from the end
// of the strings back, each [[a-start, a-end], [b-start, b-end]] and its
// length with WITHMATCHLEN; a RESP3 client gets it as a map.
func LCS(ks Keyspace, args []string) resp.Reply {
	var a, b string
	for i, key := range args[1:3] {
		v, ok := found(ks.Do("GET", key))
		if !ok && typeOf(ks, key) != "none" {
			return resp.ErrorReply("ERR The specified keys must contain string values")
		}
		if i == 0 {
			a = v
		} else {
			b = v
		}
	}
	var flags [3]bool // IDX, LEN, WITHMATCHLEN
	var minLen int64
	for j := 3; j < len(args); j++ {
		o := ascii.Lower(args[j])
		if f := slices.Index([]string{"idx", "len", "withmatchlen"}, o); f >= 0 {
			flags[f] = true
			continue
		}
		if o != "minmatchlen" || j+1 == len(args) {
			return errSyntax
		}
		var ok bool
		if minLen, ok = parseLong(args[j+1]); !ok {
			return errNotInt
		}
		j++
	}
	getIdx, getLen, withLen := flags[0], flags[1], flags[2]
	if getIdx && getLen {
		return resp.ErrorReply("ERR If you want both the length and indexes, please just use IDX.")
	}
	if (len(a)+1)*(len(b)+1) > maxLCSCells {
		return resp.ErrorReply("ERR Insufficient memory, failed allocating transient memory for LCS")
	}
	// table[i*w+j] is the length of the LCS of a[:i] and b[:j].
	w := len(b) + 1
	table := make([]uint32, (len(a)+1)*w)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			switch {
			case a[i-1] == b[j-1]:
				table[i*w+j] = table[(i-1)*w+j-1] + 1
			default:
				table[i*w+j] = max(table[(i-1)*w+j], table[i*w+j-1])
			}
		}
	}
	n := table[len(a)*w+len(b)]
	if getLen {
		return resp.IntReply(int64(n))
	}
	// Walk back from the end: each run of matches in both strings at once is
	// one range, given once the walk leaves it or reaches a string's start.
	common := make([]byte, n)
	var ranges text
	count := 0
	open := false
	var aStart, aEnd, bStart, bEnd int
	for i, j, k := len(a), len(b), int(n); i > 0 && j > 0; {
		emit := false
		if a[i-1] == b[j-1] {
			k--
			common[k] = a[i-1]
			if !open {
				open, aStart, aEnd, bStart, bEnd = true, i-1, i-1, j-1, j-1
			} else {
				aStart, bStart = aStart-1, bStart-1 // runs on: the last match was at i, j
			}
			emit = aStart == 0 || bStart == 0
			i, j = i-1, j-1
		} else {
			if table[(i-1)*w+j] > table[i*w+j-1] {
				i--
			} else {
				j--
			}
			emit = open
		}
		if emit {
			if l := aEnd - aStart + 1; int64(l) >= minLen {
				ranges.head('*', 2+b2i(withLen))
				// [[aStart, aEnd], [bStart, bEnd], l]: -2 opens a pair.
				for i, n := range [...]int{-2, aStart, aEnd, -2, bStart, bEnd, l} {
					switch {
					case n == -2:
						ranges.head('*', 2)
					case i < 6 || withLen:
						ranges.head(':', n)
					}
				}
				count++
			}
			open = false
		}
	}
	if !getIdx {
		return resp.BulkReply(string(common))
	}
	var t text
	t.head('*', 4)
	t.bulk("matches")
	t.head('*', count)
	t = append(t, ranges...)
	t.bulk("len")
	t.head(':', int(n))
	return t.reply()
}
