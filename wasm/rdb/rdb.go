package rdb

import (
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"echomq.dev/playground/wasm/resp"
)

// Kind is the type of a value.
type Kind uint8

const (
	String Kind = iota + 1
	List
	Set
	Hash
	Zset
)

// Value is one key's value, as the engine holds it.
type Value struct {
	Kind Kind
	Str  string // a String
	// Elems is a List's elements, a Set's members, a Hash's fields and
	// values in turn (in the hash's order), or a Zset's members from the
	// lowest score up.
	Elems  []string
	Scores []float64 // a Zset's scores, one per member
	// Skiplist: the Zset is a skiplist in Redis, not a listpack (it was
	// big once); Dump writes it as one.
	Skiplist bool
}

// The errors RESTORE answers, in Redis 7.0's words.
var (
	ErrChecksum = errors.New("ERR DUMP payload version or checksum are wrong")
	ErrFormat   = errors.New("ERR Bad data format")
	// ErrStream: the playground does not read or write streams' payloads.
	ErrStream = errors.New("ERR the playground cannot DUMP or RESTORE a stream")
)

// Version is the RDB version Redis 7.0 writes, and the newest it reads.
const Version = 10

// The RDB object types Redis 7.0 writes (and reads here).
const (
	typeString       = 0
	typeSet          = 2
	typeZset2        = 5
	typeHash         = 4
	typeSetIntset    = 11
	typeHashListpack = 16
	typeZsetListpack = 17
	typeListQuick2   = 18
	typeStream2      = 19
	typeStream       = 15
)

// Redis 7.0's default limits for the small encodings.
const (
	smallEntries    = 128 // hash-max-listpack-entries, zset-max-listpack-entries
	smallValue      = 64  // hash-max-listpack-value, zset-max-listpack-value
	intsetEntries   = 512 // set-max-intset-entries
	listNodeBytes   = 8192
	quicklistPacked = 2
)

// Dump is the payload Redis 7.0's DUMP gives for v.
func Dump(v Value) []byte {
	var w writer
	switch v.Kind {
	case String:
		w.b = append(w.b, typeString)
		w.str(v.Str)
	case List:
		w.b = append(w.b, typeListQuick2)
		nodes := listNodes(v.Elems)
		w.length(uint64(len(nodes)))
		for _, n := range nodes {
			w.length(quicklistPacked)
			w.str(string(n))
		}
	case Set:
		if b, ok := intset(v.Elems); ok {
			w.b = append(w.b, typeSetIntset)
			w.str(string(b))
			break
		}
		w.b = append(w.b, typeSet)
		w.length(uint64(len(v.Elems)))
		for _, m := range v.Elems {
			w.str(m)
		}
	case Hash:
		if !small(v.Elems, 2*smallEntries) {
			w.b = append(w.b, typeHash)
			w.length(uint64(len(v.Elems) / 2))
			for _, s := range v.Elems {
				w.str(s)
			}
			break
		}
		w.b = append(w.b, typeHashListpack)
		lp := newListpack()
		for _, s := range v.Elems {
			lp.add(s)
		}
		w.str(string(lp.bytes()))
	case Zset:
		if v.Skiplist {
			// Redis saves a skiplist from its highest score down.
			w.b = append(w.b, typeZset2)
			w.length(uint64(len(v.Elems)))
			for i := len(v.Elems) - 1; i >= 0; i-- {
				w.str(v.Elems[i])
				w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(v.Scores[i]))
			}
			break
		}
		w.b = append(w.b, typeZsetListpack)
		lp := newListpack()
		for i, m := range v.Elems {
			lp.add(m)
			lp.addScore(v.Scores[i])
		}
		w.str(string(lp.bytes()))
	}
	w.b = binary.LittleEndian.AppendUint16(w.b, Version)
	return binary.LittleEndian.AppendUint64(w.b, CRC64(w.b))
}

// small reports whether elems fit a listpack: at most limit of them, none
// longer than 64 bytes.
func small(elems []string, limit int) bool {
	if len(elems) > limit {
		return false
	}
	for _, s := range elems {
		if len(s) > smallValue {
			return false
		}
	}
	return true
}

// addScore stores a sorted set's score as Redis 7.0 does: an integer when
// the double is one (below 2^62 or so; -0 too), its %.17g text otherwise.
func (lp *listpack) addScore(f float64) {
	if f >= -math.MaxInt64/2 && f <= math.MaxInt64/2 && f == math.Trunc(f) {
		start := len(lp.b)
		lp.addInt(int64(f))
		lp.end(start)
		return
	}
	lp.add(resp.FormatDouble(f))
}

// listNodes splits a list into the listpacks of Redis 7.0's quicklist, as
// RPUSH fills them: a node takes elements while its listpack stays within
// 8 KiB by quicklist's estimate of an entry's size.
func listNodes(elems []string) [][]byte {
	var nodes [][]byte
	lp := newListpack()
	for _, s := range elems {
		sz := len(s)
		over := 2
		if sz >= 254 {
			over = 6
		}
		if sz >= 16384 {
			over += 4
		} else if sz >= 64 {
			over++
		}
		if lp.n > 0 && lp.size()+sz+over > listNodeBytes {
			nodes = append(nodes, lp.bytes())
			lp = newListpack()
		}
		lp.add(s)
	}
	return append(nodes, lp.bytes())
}

// intset is a set's intset, when Redis 7.0 keeps it as one: at most 512
// members, every one an integer. Members are stored sorted, all in the
// narrowest width that holds each (2, 4 or 8 bytes, little-endian).
func intset(members []string) ([]byte, bool) {
	if len(members) > intsetEntries {
		return nil, false
	}
	ints := make([]int64, len(members))
	width := 2
	for i, m := range members {
		v, ok := LongLong(m)
		if !ok {
			return nil, false
		}
		ints[i] = v
		switch {
		case v < math.MinInt32 || v > math.MaxInt32:
			width = 8
		case (v < math.MinInt16 || v > math.MaxInt16) && width < 4:
			width = 4
		}
	}
	slices.Sort(ints)
	b := binary.LittleEndian.AppendUint32(nil, uint32(width))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(ints)))
	for _, v := range ints {
		for k := range width {
			b = append(b, byte(v>>(8*k)))
		}
	}
	return b, true
}

// writer writes an RDB object.
type writer struct{ b []byte }

// length writes n in RDB's length encoding: 6 bits, 14 bits, or a marker
// byte and 32 or 64 bits, big-endian.
func (w *writer) length(n uint64) {
	switch {
	case n < 1<<6:
		w.b = append(w.b, byte(n))
	case n < 1<<14:
		w.b = append(w.b, 0x40|byte(n>>8), byte(n))
	case n <= math.MaxUint32:
		w.b = append(w.b, 0x80)
		w.b = binary.BigEndian.AppendUint32(w.b, uint32(n))
	default:
		w.b = append(w.b, 0x81)
		w.b = binary.BigEndian.AppendUint64(w.b, n)
	}
}

// str writes s as Redis's rdbSaveRawString does: an integer of up to 32
// bits in 1, 2 or 4 bytes; past 20 bytes LZF-compressed when that saves at
// least 4 bytes; otherwise its length and bytes.
func (w *writer) str(s string) {
	if len(s) <= 11 {
		if v, ok := LongLong(s); ok {
			switch {
			case v >= math.MinInt8 && v <= math.MaxInt8:
				w.b = append(w.b, 0xc0, byte(v))
				return
			case v >= math.MinInt16 && v <= math.MaxInt16:
				w.b = append(w.b, 0xc1, byte(v), byte(v>>8))
				return
			case v >= math.MinInt32 && v <= math.MaxInt32:
				w.b = append(w.b, 0xc2)
				w.b = binary.LittleEndian.AppendUint32(w.b, uint32(v))
				return
			}
		}
	}
	if len(s) > 20 {
		if c := lzfCompress([]byte(s), len(s)-4); c != nil {
			w.b = append(w.b, 0xc3)
			w.length(uint64(len(c)))
			w.length(uint64(len(s)))
			w.b = append(w.b, c...)
			return
		}
	}
	w.length(uint64(len(s)))
	w.b = append(w.b, s...)
}

// LongLong reads s as Redis's string2ll does: an optional minus sign and
// decimal digits with no leading zero (but "0" itself), within int64. What
// it accepts is what Redis stores as an integer.
func LongLong(s string) (int64, bool) {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || len(digits) > 1 && digits[0] == '0' || digits == "0" && len(s) != 1 {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}
