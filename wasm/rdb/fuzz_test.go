package rdb

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"strconv"
	"testing"
)

// Fuzz targets of DUMP and RESTORE's payload codec. Their seed corpora
// are in testdata/fuzz.

// seal puts a version and a right checksum after body, so that the value
// reader sees the bytes (a random payload fails its checksum first).
func seal(body string) string {
	b := appendLE([]byte(body), Version, 2)
	return string(appendLE(b, CRC64(string(b)), 8))
}

// allocatedBy is how many bytes f allocates on the heap.
//
// TotalAlloc counts the whole process, so a fuzz worker's own traffic
// with its coordinator can land in one measurement (FuzzLZF once "saw"
// 5,576 bytes for a 30-byte buffer): f runs three times, and the least is
// what f allocates, as noise only ever adds. f must do the same each run.
func allocatedBy(f func()) uint64 {
	least := uint64(1<<64 - 1)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}

// sameLoaded: a and b hold the same value; a set's members in any order, a
// score's -0 as 0 (a listpack keeps it as the integer 0).
func sameLoaded(a, b Value) bool {
	if a.Kind != b.Kind || a.Str != b.Str || len(a.Elems) != len(b.Elems) || len(a.Scores) != len(b.Scores) {
		return false
	}
	if a.Kind == Set {
		return slices.Equal(slices.Sorted(slices.Values(a.Elems)), slices.Sorted(slices.Values(b.Elems)))
	}
	for i := range a.Scores {
		if a.Scores[i] != b.Scores[i] {
			return false
		}
	}
	return slices.Equal(a.Elems, b.Elems)
}

// byScore puts a sorted set's members in the order Dump wants them: by
// score, then member.
func byScore(v Value) Value {
	if v.Kind != Zset {
		return v
	}
	idx := make([]int, len(v.Elems))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(i, j int) int {
		return cmp.Or(cmp.Compare(v.Scores[i], v.Scores[j]), cmp.Compare(v.Elems[i], v.Elems[j]))
	})
	out := Value{Kind: Zset, Skiplist: v.Skiplist}
	for _, i := range idx {
		out.Elems, out.Scores = append(out.Elems, v.Elems[i]), append(out.Scores, v.Scores[i])
	}
	return out
}

// FuzzLoad feeds RESTORE's reader any value bytes, sealed with a right
// checksum: it never panics, allocates in proportion to the payload
// whatever lengths it declares (an LZF string's length especially), and
// a value it reads, dumped again, reads back the same.
func FuzzLoad(f *testing.F) {
	for _, c := range fromRedis {
		f.Add([]byte(c.payload[:len(c.payload)-10]))
	}
	for _, s := range []string{
		"\x00\xc3\x01\x80\x00\x00\x00\x00\x00", "\x00\xc3\x06\x81\x00\x00\x00\x01\x00\x00\x00\x00\x01aa\xe0", "\x02\x81\xff\xff\xff\xff\xff\xff\xff\xff",
		"\x12\x01\x02\x06\x06\x00\x00\x00\xff\xff\xff", "\x0b\x08\x08\x00\x00\x00\x01\x00\x00\x00", "\x05\x01\x01a\x00\x00\x00\x00\x00\x00\xf0\x7f",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		p := seal(string(body))
		var v Value
		var err error
		if n := allocatedBy(func() { v, err = Load(p) }); n > uint64(256*len(p))+1<<20 {
			t.Fatalf("Load of a %d-byte payload allocated %d bytes", len(p), n)
		}
		if err != nil {
			return
		}
		v = byScore(v)
		back, err := Load(Dump(v))
		if err != nil || !sameLoaded(back, v) {
			t.Fatalf("%q read as %+v; dumped and read back: %+v, %v", body, v, back, err)
		}
	})
}

// FuzzDump builds a value of every kind from the input (each byte a
// small program step: which kind, how many elements, which strings) and
// holds Dump and Load to a round trip: the value comes back whole, in
// every encoding Dump picks for it (an integer, LZF, a listpack, an
// intset, a skiplist, a quicklist of several nodes).
func FuzzDump(f *testing.F) {
	f.Add(byte(1), []byte("abc"), uint16(3))
	f.Add(byte(2), []byte("12345678901234567890"), uint16(200))
	f.Add(byte(3), []byte{0xff, 0, 7}, uint16(600))
	f.Add(byte(4), []byte("field"), uint16(130))
	f.Add(byte(5), []byte("\x01\x02"), uint16(129))
	f.Fuzz(func(t *testing.T, kind byte, seed []byte, n uint16) {
		n %= 1200
		elem := func(i int) string {
			switch i % 4 {
			case 0:
				return strconv.Itoa(i*int(n) - 5000) // an integer, stored as one
			case 1:
				return string(seed)
			case 2:
				return string(seed) + strconv.Itoa(i)
			}
			s := make([]byte, i%100)
			for k := range s {
				s[k] = byte(k*7+i) ^ byte(len(seed))
			}
			return string(s) + strconv.Itoa(i)
		}
		v := Value{Kind: Kind(kind%5 + 1)}
		seen := map[string]bool{}
		for i := 0; i < int(n); i++ {
			e := elem(i)
			if v.Kind != List && seen[e] {
				continue
			}
			seen[e] = true
			switch v.Kind {
			case String:
				v.Str += e
			case Hash:
				v.Elems = append(v.Elems, e, elem(i+1))
			case Zset:
				score := math.Inf(1 - 2*(i%2)) // with no seed, the infinities
				if len(seed) > 0 {
					score = float64(int8(seed[i%len(seed)]))/4 + float64(i%3)
				}
				v.Elems, v.Scores = append(v.Elems, e), append(v.Scores, score)
			default:
				v.Elems = append(v.Elems, e)
			}
		}
		if v.Kind != String && len(v.Elems) == 0 {
			return // Redis has no empty collection
		}
		v.Skiplist = v.Kind == Zset && kind&0x80 != 0
		v = byScore(v)
		got, err := Load(Dump(v))
		if err != nil || !sameLoaded(got, v) {
			t.Fatalf("%v of %d elements: read back %v of %d, %v", v.Kind, len(v.Elems), got.Kind, len(got.Elems), err)
		}
	})
}

// FuzzLZF holds the decompressor to the compressor (what one writes, the
// other expands to the same bytes) and to its declared length: any bytes,
// any length up to 2^32, expand or are refused without allocating more
// than the input could expand to.
func FuzzLZF(f *testing.F) {
	f.Add([]byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"), uint32(32))
	f.Add([]byte("\x01aa\xe0\x11\x00\x01aa"), uint32(30))
	f.Add([]byte("\xe0\xff\x00"), uint32(1<<32-1))
	f.Fuzz(func(t *testing.T, in []byte, size uint32) {
		if c := lzfCompress(string(in), len(in)); c != nil {
			if out, ok := lzfDecompress(string(c), len(in)); !ok || out != string(in) {
				t.Fatalf("%q compressed to %q expands to %q, %v", in, c, out, ok)
			}
		}
		if n := allocatedBy(func() { lzfDecompress(string(in), int(size)) }); n > uint64(300*len(in))+4096 {
			t.Fatalf("expanding %d bytes to a declared %d allocated %d", len(in), size, n)
		}
	})
}

// FuzzLongLong holds LongLong (Redis's string2ll: which strings are
// stored as integers, which arguments are integers) to its definition:
// it accepts exactly the texts that are an int64 written the one way
// strconv writes it, and reads them to that int64.
func FuzzLongLong(f *testing.F) {
	for _, s := range []string{"0", "-0", "01", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "+1", " 1", "1 ", "", "-", "1e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := LongLong(s)
		want, err := strconv.ParseInt(s, 10, 64)
		wok := err == nil && strconv.FormatInt(want, 10) == s
		if ok != wok || ok && got != want {
			t.Fatalf("LongLong(%q) = %d, %v; want %d, %v", s, got, ok, want, wok)
		}
	})
}
