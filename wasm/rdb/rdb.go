package rdb

import (
	"errors"
	"math"
	"slices"
	"sort"
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

// KindOf is the Kind of a value whose TYPE is redisType; 0 for a type
// this package does not write (a stream), or none.
func KindOf(redisType string) Kind {
	return Kind(slices.Index([]string{"string", "list", "set", "hash", "zset"}, redisType) + 1)
}

// Value is one key's value, as the engine holds it.
type Value struct {
	Kind Kind
	Str  string // a String
	// Elems is a List's elements, a Set's members, a Hash's fields and
	// values in turn (in the hash's order), or a Zset's members from the
	// lowest score up (as Dump wants them, and Load gives them for any
	// payload Redis writes; RESTORE does not need them in order).
	Elems  []string
	Scores []float64 // a Zset's scores, one per member
	// Skiplist: the Zset is a skiplist in Redis, not a listpack (it was
	// big once); Dump writes it as one.
	Skiplist bool
	// Limits are the small encodings' limits the value is judged by; nil
	// for Redis 7.0's defaults.
	Limits *Limits
	// Stream is a stream's value (Kind 0), for wasm/stream to rebuild.
	Stream *Stream
}

// Limits are the limits of the small encodings that CONFIG SET may
// change: hash-max-listpack-entries and -value, set-max-intset-entries.
// Redis checks them as a key grows; Encoding and Dump judge the value as
// it is now, so a key that outgrew them once and shrank since reads as
// small here where Redis keeps it big.
type Limits struct {
	HashEntries, HashValue, IntsetEntries int
}

// DefaultLimits are Redis 7.0's.
var DefaultLimits = Limits{HashEntries: hashEntries, HashValue: smallValue, IntsetEntries: intsetEntries}

func (v Value) limits() Limits {
	if v.Limits != nil {
		return *v.Limits
	}
	return DefaultLimits
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
	hashEntries     = 512 // hash-max-listpack-entries
	smallValue      = 64  // hash-max-listpack-value, zset-max-listpack-value
	intsetEntries   = 512 // set-max-intset-entries
	listNodeBytes   = 8192
	quicklistPacked = 2
)

// Encoding is what OBJECT ENCODING names for a List, Set, Hash or Zset
// as Redis 7.0 keeps it under its default limits: the same choice Dump
// writes, so the two cannot disagree. A list is a "quicklist"; a set an
// "intset" while it has at most 512 members, all integers, a "hashtable"
// otherwise; a hash a "listpack" while it has at most 512 fields, none of
// them and no value longer than 64 bytes, a "hashtable" otherwise; a
// sorted set a "skiplist" or a "listpack" (v.Skiplist). A string's name
// follows its history, which the engine keeps, so it is "" here.
func Encoding(v Value) string {
	switch v.Kind {
	case List:
		return "quicklist"
	case Set:
		if _, ok := intset(v.Elems, v.limits().IntsetEntries); ok {
			return "intset"
		}
		return "hashtable"
	case Hash:
		if small(v.Elems, 2*v.limits().HashEntries, v.limits().HashValue) {
			return "listpack"
		}
		return "hashtable"
	case Zset:
		if v.Skiplist {
			return "skiplist"
		}
		return "listpack"
	}
	return ""
}

// Dump is the payload Redis 7.0's DUMP gives for v.
func Dump(v Value) string {
	w := writer{b: []byte{0}} // the type, set below
	t, elems := byte(typeString), v.Elems
	switch v.Kind {
	case String:
		w.str(v.Str)
	case List:
		t = typeListQuick2
		nodes := listNodes(elems)
		w.length(uint64(len(nodes)))
		for _, n := range nodes {
			w.length(quicklistPacked)
			w.str(n)
		}
	case Set:
		t = typeSet
		if b, ok := intset(elems, v.limits().IntsetEntries); ok {
			t = typeSetIntset
			w.str(b)
			break
		}
		w.strs(elems, elems)
	case Hash:
		t = typeHash
		if small(elems, 2*v.limits().HashEntries, v.limits().HashValue) {
			t = typeHashListpack
			w.listpack(elems, nil)
			break
		}
		w.strs(elems, elems[:len(elems)/2])
	case Zset:
		t = typeZsetListpack
		if !v.Skiplist {
			w.listpack(elems, v.Scores)
			break
		}
		// Redis saves a skiplist from its highest score down.
		t = typeZset2
		w.length(uint64(len(elems)))
		for i := len(elems) - 1; i >= 0; i-- {
			w.str(elems[i])
			w.b = appendLE(w.b, math.Float64bits(v.Scores[i]), 8)
		}
	}
	w.b[0] = t
	w.b = appendLE(w.b, Version, 2)
	return string(appendLE(w.b, CRC64(string(w.b)), 8))
}

// strs writes a count (the length of counted) and every string of elems.
func (w *writer) strs(elems, counted []string) {
	w.length(uint64(len(counted)))
	for _, s := range elems {
		w.str(s)
	}
}

// listpack writes elems as one listpack, each followed by its score when
// scores are given.
func (w *writer) listpack(elems []string, scores []float64) {
	lp := newListpack()
	for i, s := range elems {
		lp.add(s)
		if scores != nil {
			lp.addScore(scores[i])
		}
	}
	w.str(lp.bytes())
}

// small reports whether elems fit a listpack: at most limit of them, none
// longer than value bytes.
func small(elems []string, limit, value int) bool {
	if len(elems) > limit {
		return false
	}
	for _, s := range elems {
		if len(s) > value {
			return false
		}
	}
	return true
}

// addScore stores a sorted set's score as Redis 7.0 does: an integer when
// the double is one (below 2^62 or so; -0 too), its %.17g text otherwise.
func (lp *listpack) addScore(f float64) {
	if f >= -math.MaxInt64/2 && f <= math.MaxInt64/2 && f == math.Trunc(f) {
		lp.addInt(int64(f))
		return
	}
	lp.add(resp.FormatDouble(f))
}

// listNodes splits a list into the listpacks of Redis 7.0's quicklist, as
// RPUSH fills them: a node takes elements while its listpack stays within
// 8 KiB by quicklist's estimate of an entry's size.
func listNodes(elems []string) []string {
	var nodes []string
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
func intset(members []string, limit int) (string, bool) {
	if len(members) > limit {
		return "", false
	}
	ints := make([]int64, len(members))
	width := 2
	for i, m := range members {
		v, ok := LongLong(m)
		if !ok {
			return "", false
		}
		ints[i] = v
		if v < math.MinInt32 || v > math.MaxInt32 {
			width = 8
		} else if v < math.MinInt16 || v > math.MaxInt16 {
			width = max(width, 4)
		}
	}
	sort.Slice(ints, func(i, j int) bool { return ints[i] < ints[j] })
	b := appendLE(appendLE(nil, uint64(width), 4), uint64(len(ints)), 4)
	for _, v := range ints {
		b = appendLE(b, uint64(v), width)
	}
	return string(b), true
}

// writer writes an RDB object.
type writer struct{ b []byte }

// length writes n in RDB's length encoding: 6 bits, 14 bits, or a marker
// byte and 32 or 64 bits, big-endian.
func (w *writer) length(n uint64) {
	switch {
	case n < 1<<6:
		w.b = appendNum(w.b, byte(n), 0, 0, false)
	case n < 1<<14:
		w.b = appendNum(w.b, 0x40|byte(n>>8), n, 1, false)
	case n <= math.MaxUint32:
		w.b = appendNum(w.b, 0x80, n, 4, true)
	default:
		w.b = appendNum(w.b, 0x81, n, 8, true)
	}
}

// str writes s as Redis's rdbSaveRawString does: an integer of up to 32
// bits in 1, 2 or 4 bytes; past 20 bytes LZF-compressed when that saves at
// least 4 bytes; otherwise its length and bytes.
func (w *writer) str(s string) {
	if v, ok := LongLong(s); ok && len(s) <= 11 && v >= math.MinInt32 && v <= math.MaxInt32 {
		size, tag := 4, byte(0xc2)
		if v >= math.MinInt8 && v <= math.MaxInt8 {
			size, tag = 1, 0xc0
		} else if v >= math.MinInt16 && v <= math.MaxInt16 {
			size, tag = 2, 0xc1
		}
		w.b = appendNum(w.b, tag, uint64(v), size, false)
		return
	}
	if len(s) > 20 {
		if c := lzfCompress(s, len(s)-4); c != nil {
			w.b = appendNum(w.b, 0xc3, 0, 0, false)
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
