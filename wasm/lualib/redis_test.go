//go:build !js

package lualib

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"echomq.dev/playground/internal/redisdiff"
	"echomq.dev/playground/internal/redisnet"
	"echomq.dev/playground/internal/redisserver"
	"echomq.dev/playground/wasm/resp"
)

// connect starts a redis-server of the test's own and connects to it.
func connect(t *testing.T) *redisnet.Client {
	t.Helper()
	return redisserver.Connect(t)
}

// evalRedis runs a case on the server.
func evalRedis(t *testing.T, c *redisnet.Client, lc luaCase) resp.Reply {
	t.Helper()
	args := append([]string{"EVAL", prelude + lc.lua, "0"}, lc.argv...)
	r, err := c.Do(args...)
	if err != nil {
		t.Fatalf("redis-server: %v", err)
	}
	return normalize(r)
}

// TestAgainstRedis runs every case on redis-server and here and compares
// the replies; with -update it also records the server's replies for
// TestMatchesRecordedRedis.
func TestAgainstRedis(t *testing.T) {
	c := connect(t)
	var xs []redisdiff.Exchange
	golden, _ := recorded()
	for _, lc := range allCases() {
		want := evalRedis(t, c, lc)
		xs = append(xs, redisdiff.Exchange{Conn: "eval", Key: caseKey(lc), Reply: replies.Keep(want)})
		t.Run(lc.desc, func(t *testing.T) {
			if g, ok := golden[caseKey(lc)]; !redisdiff.Update() && (!ok || !redisdiff.Matches(g, want)) {
				t.Errorf("%s is stale for this case: run go test -run TestAgainstRedis -update", replies.Path())
			}
			if lc.skip != "" {
				t.Skip(lc.skip)
			}
			compare(t, lc, runHere(newTestState(), lc), want)
		})
	}
	if redisdiff.Update() {
		replies.Put(casesTake, xs)
	}
}

// compare reports the elements that differ, not whole replies of
// thousands of lines.
func compare(t *testing.T, lc luaCase, got, want resp.Reply) {
	t.Helper()
	if got.Equal(want) {
		return
	}
	if got.Kind == resp.Array && want.Kind == resp.Array && len(got.Elems) == len(want.Elems) && len(got.Elems) > 8 {
		n := 0
		for i := range got.Elems {
			if !got.Elems[i].Equal(want.Elems[i]) {
				if n++; n <= 10 {
					t.Errorf("element %d\n  here: %s\n redis: %s", i+1, show(got.Elems[i]), show(want.Elems[i]))
				}
			}
		}
		t.Errorf("%d of %d elements differ", n, len(got.Elems))
		return
	}
	t.Errorf("%s\n  here: %s\n redis: %s", lc.lua, show(got), show(want))
}

// TestRandomFromFreshServer checks where math.random starts in a new
// server (lrand48's unseeded state) and that scripts do not reseed it.
func TestRandomFromFreshServer(t *testing.T) {
	c := connect(t)
	L := newTestState()
	for i, script := range []string{
		"return tostring(math.random())",
		"return {tostring(math.random()), tostring(math.random(100)), tostring(math.random(-5, 5))}",
		"return tostring(math.random())",
	} {
		lc := luaCase{lua: script}
		want := evalRedis(t, c, lc)
		if got := runHere(L, lc); !got.Equal(want) {
			t.Errorf("script %d: %s\n  here: %s\n redis: %s", i+1, script, show(got), show(want))
		}
	}
	ResetRandom(L)
	if got, want := runHere(L, luaCase{lua: "return tostring(math.random())"}), resp.BulkReply("0.39646477363839"); !got.Equal(want) {
		t.Errorf("after ResetRandom: %s, want %s", show(got), show(want))
	}
}

// numberSpellings generates n strings that may or may not be numbers:
// decimal, exponent, hex and hex-float forms, specials, with signs, white
// space and junk in random places.
func numberSpellings(n int) []string {
	r := rand.New(rand.NewPCG(1, 2))
	pick := func(s ...string) string { return s[r.IntN(len(s))] }
	digits := func(set string, max int) string {
		var b strings.Builder
		for i := r.IntN(max + 1); i > 0; i-- {
			b.WriteByte(set[r.IntN(len(set))])
		}
		return b.String()
	}
	const dec, hex = "0123456789", "0123456789abcdefABCDEF"
	out := make([]string, 0, n)
	for len(out) < n {
		var s string
		switch r.IntN(6) {
		case 0, 1:
			s = digits(dec, 20)
			if r.IntN(2) == 0 {
				s += "." + digits(dec, 20)
			}
			if r.IntN(3) == 0 {
				s += pick("e", "E") + pick("", "+", "-") + digits(dec, 4)
			}
		case 2:
			s = pick("0x", "0X") + digits(hex, 17)
			if r.IntN(2) == 0 {
				s += "." + digits(hex, 6)
			}
			if r.IntN(2) == 0 {
				s += pick("p", "P") + pick("", "+", "-") + digits(dec, 4)
			}
		case 3:
			s = pick("inf", "INF", "Infinity", "infinity", "iNfInItY", "nan", "NAN", "nan()", "nan(abc_1)", "infin", "na", "in")
		case 4:
			s = strconv.FormatFloat(math.Float64frombits(r.Uint64()), pick("g", "e", "f", "x")[0], r.IntN(20)-1, 64)
		default:
			s = strconv.FormatInt(r.Int64N(1<<62)-1<<61, 10)
		}
		if r.IntN(4) == 0 {
			s = pick("-", "+", "--", "+-") + s
		}
		if r.IntN(5) == 0 {
			s = pick(" ", "\t", "\n", "\v\f\r", "  ") + s
		}
		if r.IntN(5) == 0 {
			s += pick(" ", "\t", "\n", " \r\n", "x", "_1", ".", "e", "\x00junk", "0")
		}
		if r.IntN(20) == 0 && len(s) > 1 {
			i := r.IntN(len(s))
			s = s[:i] + pick("_", " ", ".", "e", "x", "\x00") + s[i:]
		}
		out = append(out, s)
	}
	return out
}

// TestNumberConversionsRandomized compares tonumber (StringToNumber),
// tonumber with bases (strtoul) and tostring (FormatNumber) with the
// server over thousands of generated inputs, a few EVALs in all.
func TestNumberConversionsRandomized(t *testing.T) {
	c := connect(t)
	spellings := numberSpellings(3000)
	run := func(name, script string, argv []string) {
		lc := luaCase{desc: name, lua: script, argv: argv}
		want := evalRedis(t, c, lc)
		got := runHere(newTestState(), lc)
		if !got.Equal(want) && want.Kind == resp.Array && got.Kind == resp.Array && len(got.Elems) == len(want.Elems) {
			n := 0
			for i := range want.Elems {
				if !got.Elems[i].Equal(want.Elems[i]) {
					if n++; n <= 15 {
						t.Errorf("%s(%q)\n  here: %s\n redis: %s", name, argv[i], show(got.Elems[i]), show(want.Elems[i]))
					}
				}
			}
			t.Errorf("%s: %d of %d differ", name, n, len(want.Elems))
		} else if !got.Equal(want) {
			t.Errorf("%s\n  here: %s\n redis: %s", name, clip(show(got)), clip(show(want)))
		}
	}
	// tonumber and the language's own coercion both go through luaO_str2d;
	// string.format('%.17g') shows the value to the last bit, and the sign
	// of a NaN through tostring.
	run("tonumber", `local r = {}
for i, s in ipairs(ARGV) do
  local n = tonumber(s)
  r[i] = n and (tostring(n) .. ' ' .. string.format('%.17g', n)) or 'nil'
end
return r`, spellings)
	var based []string
	for i, s := range spellings {
		if len(s) < 30 {
			based = append(based, strconv.Itoa(2+i%35)+":"+s)
		}
	}
	run("tonumber with a base", `local r = {}
for i, a in ipairs(ARGV) do
  local base, s = string.match(a, '^(%d+):(.*)$')
  r[i] = tostring(tonumber(s, tonumber(base)))
end
return r`, based)

	// FormatNumber over values that stress %.14g: random bit patterns,
	// powers of ten and their neighbours, integers near 2^53 and 1e14,
	// halfway cases. They travel as %.17g text, which round-trips.
	rg := rand.New(rand.NewPCG(3, 4))
	var vals []string
	add := func(f float64) { vals = append(vals, strconv.FormatFloat(f, 'g', 17, 64)) }
	for i := 0; i < 1500; i++ {
		add(math.Float64frombits(rg.Uint64()))
	}
	for e := -320; e <= 308; e += 3 {
		p := math.Pow(10, float64(e))
		add(p)
		add(math.Nextafter(p, 0))
		add(math.Nextafter(p, math.Inf(1)))
		add(-p * 1.5)
	}
	for i := 0; i < 300; i++ {
		add(float64(rg.Int64N(1<<54) - 1<<53))
		add(1e14 + float64(rg.IntN(200)-100))
		add(float64(rg.IntN(1000000)) + 0.5)
		add(rg.Float64() * math.Pow(10, float64(rg.IntN(40)-20)))
	}
	run("tostring", `local r = {}
for i, s in ipairs(ARGV) do r[i] = tostring(tonumber(s)) end
return r`, vals)
	if len(spellings)+len(vals) < 2000 {
		t.Fatalf("only %d inputs", len(spellings)+len(vals))
	}
}

// keySets makes random sets of table keys, as Lua source text: strings of
// many lengths, small positive integers (kind 3), integers up to 0, floats,
// integers past 2^26.
func keySets(n int, kinds ...int) [][]string {
	r := rand.New(rand.NewPCG(5, 6))
	var sets [][]string
	for len(sets) < n {
		size := 2 + r.IntN(40)
		seen := map[string]bool{}
		var keys []string
		for len(keys) < size {
			var k string
			switch kinds[r.IntN(len(kinds))] {
			case 0, 1, 2:
				const letters = "abcdefghijklmnopqrstuvwxyz_ABCXYZ0123456789:"
				b := make([]byte, 1+r.IntN(12))
				if r.IntN(10) == 0 {
					b = make([]byte, 30+r.IntN(60))
				}
				for i := range b {
					b[i] = letters[r.IntN(len(letters))]
				}
				k = strconv.Quote(string(b))
			case 3:
				k = strconv.Itoa(1 + r.IntN(size))
			case 4:
				k = strconv.Itoa(-r.IntN(500))
			case 5:
				k = strconv.FormatFloat(r.NormFloat64()*1e3, 'g', -1, 64)
			default:
				k = strconv.FormatFloat(float64(r.Int64N(1<<40)), 'g', -1, 64)
			}
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
		sets = append(sets, keys)
	}
	return sets
}

// TestKeyOrderAgainstRedis checks that cjson.encode and cmsgpack.pack
// write a table's keys in the order Redis's Lua traverses them, for
// tables built by assignment and by cjson.decode. Tables written as one
// constructor are compared too, and only counted: see luaOrder.
func TestKeyOrderAgainstRedis(t *testing.T) {
	c := connect(t)
	kinds := []int{0, 1, 2, 4, 5, 6} // not 3, positive integers: see luaOrder
	if v := os.Getenv("KINDS"); v != "" {
		kinds = nil
		for _, c := range v {
			kinds = append(kinds, int(c-'0'))
		}
	}
	sets := keySets(300, kinds...)
	var assign, ctor []string
	for _, keys := range sets {
		var a, k []string
		for i, key := range keys {
			a = append(a, fmt.Sprintf("t[%s] = %d", key, i+1))
			k = append(k, fmt.Sprintf("[%s] = %d", key, i+1))
		}
		assign = append(assign, "local t = {} "+strings.Join(a, " ")+" return t")
		ctor = append(ctor, "return {"+strings.Join(k, ", ")+"}")
	}
	script := func(body string) string {
		return `local r = {}
for i, src in ipairs(ARGV) do
  local ok, v = pcall(function(t) return ` + body + ` end, loadstring(src)())
  r[#r + 1] = tostring(ok) .. ' ' .. v
end
return r`
	}
	for _, tc := range []struct {
		desc, body string
		srcs       []string
		must       bool
	}{
		{"cjson.encode, built by assignment", "cjson.encode(t)", assign, true},
		{"cmsgpack.pack, built by assignment", "cmsgpack.pack(t)", assign, true},
		{"cjson.encode of cjson.decode", "cjson.encode(cjson.decode(cjson.encode(t)))", assign, true},
		{"cjson.encode, one constructor", "cjson.encode(t)", ctor, false},
	} {
		lc := luaCase{lua: script(tc.body), argv: tc.srcs}
		want := evalRedis(t, c, lc)
		got := runHere(newTestState(), lc)
		if want.Kind != resp.Array || got.Kind != resp.Array || len(got.Elems) != len(want.Elems) {
			t.Fatalf("%s\n  here: %s\n redis: %s", tc.desc, clip(show(got)), clip(show(want)))
		}
		n := 0
		for i := range want.Elems {
			if !got.Elems[i].Equal(want.Elems[i]) {
				n++
				if tc.must && n <= 5 {
					t.Errorf("%s: %s\n  here: %s\n redis: %s", tc.desc, tc.srcs[i], show(got.Elems[i]), show(want.Elems[i]))
				}
			}
		}
		if tc.must && n > 0 {
			t.Errorf("%s: %d of %d tables in another order", tc.desc, n, len(want.Elems))
		} else {
			t.Logf("%s: %d of %d tables in another order", tc.desc, n, len(want.Elems))
		}
	}
}
