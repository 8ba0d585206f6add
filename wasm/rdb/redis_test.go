//go:build !js

package rdb

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"echomq.dev/playground/internal/redisserver"
	"echomq.dev/playground/wasm/resp"
)

// TestDumpMatchesRedisServer writes values into a real redis-server the
// way a script would (SET, RPUSH, SADD, HSET, ZADD), and compares its DUMP
// with Dump byte for byte, then RESTOREs Dump's payload there and reads the
// value back. Sets past an intset and hashes past a listpack are hash
// tables in Redis, whose order depends on its internals: those are
// compared by what RESTORE makes of each side's payload, not by bytes.
func TestDumpMatchesRedisServer(t *testing.T) {
	c := redisserver.Connect(t)
	do := func(args ...string) string {
		t.Helper()
		r, err := c.Do(args...)
		if err != nil || r.IsError() {
			t.Fatalf("%v: %v %v", args, err, r.Str)
		}
		return r.Str
	}
	rng := rand.New(rand.NewPCG(17, 1))
	text := func(n int) string {
		// Words from a small vocabulary: repeats for LZF to find.
		var b strings.Builder
		for b.Len() < n {
			b.WriteString([]string{"job", "lease", ":", "{q}", "claim", strconv.Itoa(rng.IntN(1000)), "\x00\xff"}[rng.IntN(7)])
		}
		return b.String()[:n]
	}
	bytesOf := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.IntN(4) * 60)
		}
		return string(b)
	}
	type tc struct {
		v     Value
		write [][]string
		exact bool
	}
	var cases []tc
	str := func(s string) {
		cases = append(cases, tc{Value{Kind: String, Str: s}, [][]string{{"SET", "k", s}}, true})
	}
	for _, n := range []int{0, 1, 11, 20, 21, 22, 25, 33, 64, 100, 300, 1000, 5000, 9000, 70000} {
		str(text(n))
		str(bytesOf(n))
		str(strings.Repeat("ab", n/2))
	}
	for _, s := range []string{"0", "-1", "127", "-128", "128", "32767", "-32769", "2147483647", "-2147483648", "2147483648", "9223372036854775807", "-9223372036854775808", "007", "+1", "-0", "1e3"} {
		str(s)
	}
	push := func(elems []string) {
		cases = append(cases, tc{Value{Kind: List, Elems: elems}, [][]string{append([]string{"RPUSH", "k"}, elems...)}, true})
	}
	push([]string{"a", "0", "127", "128", "-4096", "4095", "-4097", "32767", "-32768", "32768", "8388607", "-8388609", "2147483648", "-9223372036854775808"})
	for _, sizes := range [][2]int{{100, 10}, {1000, 20}, {3000, 1}, {400, 70}, {50, 300}, {3, 9000}, {40, 4100}} {
		var elems []string
		for range sizes[0] {
			elems = append(elems, text(rng.IntN(sizes[1]+1)))
		}
		push(elems)
	}
	set := func(members []string, exact bool) {
		cases = append(cases, tc{Value{Kind: Set, Elems: members}, [][]string{append([]string{"SADD", "k"}, members...)}, exact})
	}
	set([]string{"1", "2", "3"}, true)
	set([]string{"-40000", "5"}, true)
	set([]string{"5", "9000000000", "-3"}, true)
	var ints []string
	for i := range 512 {
		ints = append(ints, strconv.Itoa(i*7-100))
	}
	set(ints, true)
	set(append(ints, "9999"), false)
	set([]string{"a", "1", "b"}, false)
	hash := func(fv []string, exact bool) {
		cases = append(cases, tc{Value{Kind: Hash, Elems: fv}, [][]string{append([]string{"HSET", "k"}, fv...)}, exact})
	}
	hash([]string{"state", "waiting", "attempts", "0", "payload", text(60), "lease", "-1700000000000"}, true)
	var fv []string
	for i := range 128 {
		fv = append(fv, "f"+strconv.Itoa(i), text(rng.IntN(65)))
	}
	hash(fv, true)
	hash(append(fv, "one", "more"), false)
	hash([]string{"f", text(65)}, false)
	zadd := func(members []string, scores []float64, skiplist bool) {
		cmd := []string{"ZADD", "k"}
		for i, m := range members {
			cmd = append(cmd, strconv.FormatFloat(scores[i], 'g', -1, 64), m)
		}
		cases = append(cases, tc{Value{Kind: Zset, Elems: members, Scores: scores, Skiplist: skiplist}, [][]string{cmd}, true})
	}
	zadd([]string{"a", "b", "c", "d", "e", "f", "g"}, []float64{-1e17, -4096, 0.5, 1, 1e15, 4.6e18, 4.7e18}, false)
	var ms []string
	var ss []float64
	for i := range 129 {
		ms, ss = append(ms, fmt.Sprintf("m%03d", i)), append(ss, float64(i/3)*1.25)
	}
	zadd(ms[:128], ss[:128], false)
	zadd(ms, ss, true)
	zadd([]string{text(65)}, []float64{2}, true)

	for i, k := range cases {
		do("DEL", "k")
		for _, w := range k.write {
			do(w...)
		}
		theirs := do("DUMP", "k")
		ours := Dump(k.v)
		if k.exact && ours != theirs {
			t.Errorf("case %d (%v, %d elements): DUMP differs\n ours   %.200q\n redis  %.200q", i, k.v.Kind, len(k.v.Elems), ours, theirs)
			continue
		}
		// Each side's payload, restored into Redis, is the same value.
		do("RESTORE", "ours", "0", ours, "REPLACE")
		do("RESTORE", "theirs", "0", theirs, "REPLACE")
		for _, read := range [][]string{{"DUMP"}, {"OBJECT", "ENCODING"}} {
			a, b := do(append(read, "ours")...), do(append(read, "theirs")...)
			if k.exact && a != b || read[0] == "OBJECT" && a != b {
				t.Errorf("case %d (%v): %v of the restored payloads differ: %q, %q", i, k.v.Kind, read, a, b)
			}
		}
		if !k.exact {
			sameContent(t, c, k.v.Kind, i)
		}
		// And Load reads Redis's payload as the value written.
		if got, err := Load(theirs); err != nil || !sameValue(got, k.v) {
			t.Errorf("case %d (%v): Load of Redis's payload = %v, %d elements", i, k.v.Kind, err, len(got.Elems))
		}
	}
}

// sameContent compares the keys ours and theirs in Redis as unordered
// collections: a hash table's order is Redis's own.
func sameContent(t *testing.T, c interface {
	Do(args ...string) (resp.Reply, error)
}, kind Kind, i int) {
	t.Helper()
	read := map[Kind]string{Set: "SMEMBERS", Hash: "HGETALL"}[kind]
	var got [2][]string
	for j, key := range []string{"ours", "theirs"} {
		r, err := c.Do(read, key)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < len(r.Elems); k += 1 + btoi(kind == Hash) {
			pair := r.Elems[k].Str
			if kind == Hash {
				pair += "\x00" + r.Elems[k+1].Str
			}
			got[j] = append(got[j], pair)
		}
		slices.Sort(got[j])
	}
	if !slices.Equal(got[0], got[1]) {
		t.Errorf("case %d (%v): restored contents differ: %d and %d entries", i, kind, len(got[0]), len(got[1]))
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sameValue: what Load gave is the value written, sets and hash tables
// compared without their order, a listpack's -0 read as 0.
func sameValue(got, want Value) bool {
	if got.Kind != want.Kind {
		return false
	}
	switch want.Kind {
	case String:
		return got.Str == want.Str
	case Set:
		return slices.Equal(slices.Sorted(slices.Values(got.Elems)), slices.Sorted(slices.Values(want.Elems)))
	case Hash:
		m := map[string]string{}
		for i := 0; i < len(got.Elems); i += 2 {
			m[got.Elems[i]] = got.Elems[i+1]
		}
		if len(m) != len(want.Elems)/2 {
			return false
		}
		for i := 0; i < len(want.Elems); i += 2 {
			if m[want.Elems[i]] != want.Elems[i+1] {
				return false
			}
		}
		return true
	case Zset:
		return slices.Equal(got.Elems, want.Elems) && slices.Equal(got.Scores, want.Scores)
	}
	return slices.Equal(got.Elems, want.Elems)
}
