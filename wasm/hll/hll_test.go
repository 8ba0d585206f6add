package hll

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// The expected values here are what redis-server 7.0.15 answered for the
// same commands (PFDEBUG DECODE, PFCOUNT, STRLEN); wasm/fidelity holds the
// package to a live server byte for byte.

// decodeOf is PFDEBUG DECODE of a new HyperLogLog after PFADD of elems.
func decodeOf(t *testing.T, elems ...string) string {
	t.Helper()
	h, _, err := Add(New(), elems, SparseMaxBytes)
	if err != nil {
		t.Fatal(err)
	}
	return Decode(string(h))
}

// Each element lands on Redis's register with Redis's value: the hash's
// tail of every length from 0 to 7 bytes, and a binary element.
func TestPositionIsRedis(t *testing.T) {
	for _, tc := range []struct{ elem, want string }{
		{"", "Z:5938 v:2,1 Z:10445"},
		{"a", "Z:12711 v:2,1 Z:3672"},
		{"ab", "Z:719 v:1,1 Z:15664"},
		{"abc", "Z:9474 v:1,1 Z:6909"},
		{"abcd", "Z:11070 v:8,1 Z:5313"},
		{"abcde", "Z:3726 v:4,1 Z:12657"},
		{"abcdef", "Z:13647 v:2,1 Z:2736"},
		{"abcdefg", "Z:5634 v:2,1 Z:10749"},
		{"abcdefgh", "Z:1383 v:1,1 Z:15000"},
		{"abcdefghi", "Z:6903 v:1,1 Z:9480"},
		{"0123456789abcdef", "Z:5949 v:1,1 Z:10434"},
		{"\x00\xc3\xbf", "Z:7893 v:2,1 Z:8490"},
		{"队列", "Z:12911 v:1,1 Z:3472"},
	} {
		if got := decodeOf(t, tc.elem); got != tc.want {
			t.Errorf("PFADD %q: DECODE = %q, want %q", tc.elem, got, tc.want)
		}
	}
	if got, want := decodeOf(t, "x", "y", "z"), "Z:8581 v:1,1 Z:6350 v:3,1 Z:1441 v:2,1 z:9"; got != want {
		t.Errorf("PFADD x y z: DECODE = %q, want %q", got, want)
	}
}

// A learner adding 1, 10, ... 100,000 distinct elements reads Redis's
// counts exactly, and the string turns dense where Redis's does: after
// element el:1703, when the sparse string stood at 2,999 bytes.
func TestCountsAreRedis(t *testing.T) {
	h := New()
	n := 0
	for _, tc := range []struct {
		adds, count, size int
	}{{1, 1, 21}, {10, 10, 48}, {100, 100, 289}, {1000, 999, 1892}, {10000, 10019, 12304}, {100000, 98893, 12304}} {
		var batch []string
		for ; n < tc.adds; n++ {
			batch = append(batch, fmt.Sprintf("el:%d", n))
		}
		h, _, _ = Add(h, batch, SparseMaxBytes)
		got, err := Count(string(h))
		if err != nil || int(got) != tc.count || len(h) != tc.size {
			t.Errorf("after %d adds: count %d (%v), %d bytes; want %d, %d bytes", tc.adds, got, err, len(h), tc.count, tc.size)
		}
	}
	// A value past what a VAL holds turns the string dense at once.
	if _, v := Position("run:3298066719"); v != 33 {
		t.Errorf("Position(run:3298066719) gives %d, want 33 (Redis: dense after it alone)", v)
	}
	if h, _, _ := Add(New(), []string{"run:3298066719"}, SparseMaxBytes); !IsDense(string(h)) {
		t.Errorf("PFADD of an element of value 33 left the string sparse")
	}
	// A string of exactly hll-sparse-max-bytes stays sparse: e0:0 to
	// e0:1682 take it there, as in Redis.
	h = New()
	for i := 0; i <= 1682; i++ {
		h, _, _ = Add(h, []string{fmt.Sprintf("e0:%d", i)}, SparseMaxBytes)
	}
	if len(h) != SparseMaxBytes || IsDense(string(h)) {
		t.Errorf("after e0:0 to e0:1682: %d bytes, dense %v; Redis: 3000 bytes, sparse", len(h), IsDense(string(h)))
	}
	h = New()
	for i := 0; ; i++ {
		before := len(h)
		h, _, _ = Add(h, []string{fmt.Sprintf("el:%d", i)}, SparseMaxBytes)
		if IsDense(string(h)) {
			if i != 1703 || before != 2999 {
				t.Errorf("dense after el:%d from %d bytes; Redis: after el:1703, from 2999", i, before)
			}
			break
		}
	}
}

// The estimate of registers Redis's own counts are known for, dense
// strings made by hand among them.
func TestEstimateIsRedis(t *testing.T) {
	dense := func(reg func(i int) uint8) string {
		h := make([]byte, DenseSize)
		copy(h, "HYLL")
		for i := range Registers {
			setRegister(h[HeaderSize:], i, reg(i))
		}
		return string(h)
	}
	sparseVals := "HYLL\x01" + strings.Repeat("\x00", 11) + strings.Repeat(string([]byte{valOp(32, 4)}), Registers/4)
	for _, tc := range []struct {
		desc string
		s    string
		want uint64
	}{
		{"no register set", dense(func(int) uint8 { return 0 }), 0},
		{"every register 63: infinite, which llroundl answers as 1<<63", dense(func(int) uint8 { return 63 }), 1 << 63},
		{"every register 52: the same", dense(func(int) uint8 { return 52 }), 1 << 63},
		{"every register 51: the same", dense(func(int) uint8 { return 51 }), 1 << 63},
		{"a third at 51, the rest at 7 (the tau term)", dense(func(i int) uint8 { return map[bool]uint8{true: 51, false: 7}[i%3 == 0] }), 2269302},
		{"sparse, every register 32", sparseVals, 50760319129350},
	} {
		got, err := Count(tc.s)
		if err != nil || got != tc.want {
			t.Errorf("%s: Count = %d, %v; want %d", tc.desc, got, err, tc.want)
		}
	}
}

// The cached count: PFADD marks it stale when a register rises and leaves
// it when none does; SetCached writes it fresh.
func TestCache(t *testing.T) {
	h := New()
	if _, ok := Cached(string(h)); ok {
		t.Errorf("a new HyperLogLog's count is fresh; PFADD leaves it stale")
	}
	h, _, _ = Add(h, []string{"a", "b", "c"}, SparseMaxBytes)
	SetCached(h, 3)
	if n, ok := Cached(string(h)); !ok || n != 3 || h[15] != 0 {
		t.Errorf("after SetCached(3): Cached = %d, %v; byte 15 = %#x", n, ok, h[15])
	}
	if h, changed, _ := Add(h, []string{"a", "b", "c"}, SparseMaxBytes); changed || h[15] != 0 {
		t.Errorf("adding elements already counted: changed %v, byte 15 = %#x; want no change", changed, h[15])
	}
	if h, changed, _ := Add(h, []string{"1", "2", "3"}, SparseMaxBytes); !changed || h[15] != 0x80 {
		t.Errorf("adding new elements: changed %v, byte 15 = %#x; want a change and 0x80", changed, h[15])
	}
}

// Valid is Redis's check before every PF command.
func TestValid(t *testing.T) {
	good := string(New())
	d, _ := ToDense(New())
	for _, tc := range []struct {
		desc string
		s    string
		want bool
	}{
		{"a new one", good, true},
		{"dense", string(d), true},
		{"dense one byte short", string(d[:len(d)-1]), false},
		{"dense one byte long", string(d) + "x", false},
		{"sparse header alone", good[:HeaderSize], true},
		{"shorter than the header", good[:HeaderSize-1], false},
		{"magic broken", "HYLx" + good[4:], false},
		{"encoding 2", good[:4] + "\x02" + good[5:], false},
		{"sparse claiming dense", good[:4] + "\x00" + good[5:], false},
	} {
		if got := Valid(tc.s); got != tc.want {
			t.Errorf("%s: Valid = %v, want %v", tc.desc, got, tc.want)
		}
	}
}

// Damaged sparse strings: the readers refuse what does not cover the
// registers exactly, and PFADD places what it can find.
func TestDamagedSparse(t *testing.T) {
	hdr := "HYLL\x01" + strings.Repeat("\x00", 10) + "\x80"
	xzero := func(n int) string { return string(putRun(nil, 0, n)) }
	for _, tc := range []struct {
		desc   string
		body   string
		whole  bool   // the registers are covered exactly
		addErr bool   // PFADD "a" (register 12711) fails
		after  string // DECODE after PFADD "a"
	}{
		{"exact", xzero(Registers), true, false, "Z:12711 v:2,1 Z:3672"},
		{"a VAL past the end", xzero(Registers) + "\x80", false, false, "Z:12711 v:2,1 Z:3672 v:1,1"},
		{"a ZERO past the end", xzero(Registers) + "\x00", false, false, "Z:12711 v:2,1 Z:3672 z:1"},
		{"short of the end", xzero(Registers - 1), false, false, "Z:12711 v:2,1 Z:3671"},
		{"short of register 12711", xzero(12711), false, true, "Z:12711"},
		{"an XZERO cut off: its second byte reads 0", xzero(Registers-1) + "\x40", true, false, "Z:12711 v:2,1 Z:3671 Z:1"},
		{"no opcodes", "", false, true, ""},
	} {
		s := hdr + tc.body
		_, errCount := Count(s)
		var u Union
		errUnion := u.Add(s)
		_, errDense := ToDense([]byte(s))
		if whole := errCount == nil; whole != tc.whole || (errUnion == nil) != whole || (errDense == nil) != whole {
			t.Errorf("%s: Count, Union.Add, ToDense errors %v, %v, %v; want covered = %v", tc.desc, errCount, errUnion, errDense, tc.whole)
		}
		h, _, err := Add([]byte(s), []string{"a"}, SparseMaxBytes)
		if (err != nil) != tc.addErr || Decode(string(h)) != tc.after {
			t.Errorf("%s: PFADD a: %v, DECODE %q; want error %v, %q", tc.desc, err, Decode(string(h)), tc.addErr, tc.after)
		}
	}
}

// The sparse string's in-place edits hold the registers a plain array of
// them holds: every element added to both, checked against each other at
// every size from new to dense, and merged unions too.
func TestSparseMatchesPlainRegisters(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	h := New()
	var plain Union
	for n := 0; !IsDense(string(h)); n++ {
		el := fmt.Sprint(r.Uint64())
		i, v := Position(el)
		plain[i] = max(plain[i], v)
		h, _, _ = Add(h, []string{el}, SparseMaxBytes)
		if n%50 != 0 && !IsDense(string(h)) {
			continue
		}
		var got Union
		if err := got.Add(string(h)); err != nil || got != plain {
			t.Fatalf("after %d elements (%d bytes): registers differ from the plain array (%v)", n+1, len(h), err)
		}
		if a, b := mustCount(t, string(h)), plain.Count(); a != b {
			t.Fatalf("after %d elements: Count %d, the plain registers' %d", n+1, a, b)
		}
	}
	// Store into a sparse string: the union, whatever it took.
	var other Union
	o, _, _ := Add(New(), []string{"x", "y", "z"}, SparseMaxBytes)
	other.Add(string(o))
	plain2 := plain
	for i, v := range other {
		plain2[i] = max(plain2[i], v)
	}
	both := plain
	both.Add(string(o))
	stored := both.Store(o, false, SparseMaxBytes)
	var got Union
	if err := got.Add(string(stored)); err != nil || got != plain2 {
		t.Errorf("Store of the union into a sparse string: registers differ (%v)", err)
	}
}

func mustCount(t *testing.T, s string) uint64 {
	t.Helper()
	n, err := Count(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSelfTest(t *testing.T) {
	if err := SelfTest(); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkHLL is the package's own work, without the engine around it:
// Add of one new element to a sparse string of 200 elements (started
// again every 500) and to a dense one, and Count of each.
func BenchmarkHLL(b *testing.B) {
	var seed []string
	for i := range 200 {
		seed = append(seed, fmt.Sprintf("seed:%d", i))
	}
	sparse200, _, _ := Add(New(), seed, SparseMaxBytes)
	dense, _ := ToDense(append([]byte(nil), sparse200...))
	b.Run("Add-sparse", func(b *testing.B) {
		h := append([]byte(nil), sparse200...)
		for i := range b.N {
			if i%500 == 499 {
				h = append(h[:0], sparse200...)
			}
			h, _, _ = Add(h, []string{"el:" + fmt.Sprint(i)}, SparseMaxBytes)
		}
	})
	b.Run("Add-dense", func(b *testing.B) {
		for i := range b.N {
			Add(dense, []string{"el:" + fmt.Sprint(i)}, SparseMaxBytes)
		}
	})
	b.Run("Count-sparse", func(b *testing.B) {
		for range b.N {
			Count(string(sparse200))
		}
	})
	b.Run("Count-dense", func(b *testing.B) {
		s := string(dense)
		for range b.N {
			Count(s)
		}
	})
}
