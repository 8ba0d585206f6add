package lualib

import (
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"

	"echomq.dev/playground/internal/redisdiff"
	"echomq.dev/playground/wasm/resp"
)

// A luaCase is a snippet run the same way on redis-server (EVAL) and in
// gopher-lua with this package; the replies must be equal.
type luaCase struct {
	desc string
	lua  string   // the script, after the prelude
	argv []string // ARGV (no KEYS)
	skip string   // "known difference: ..." when we cannot match Redis
}

// prelude is put before every snippet. Its helpers turn values into text
// so replies compare exactly: V one value, S all of them, E the results
// of pcall(f, ...), D a table dumped with sorted keys.
const prelude = `local function V(v)
  local t = type(v)
  if t == 'string' then return v end
  if t == 'number' or t == 'boolean' or t == 'nil' then return t .. ':' .. tostring(v) end
  if t == 'userdata' and v == cjson.null then return 'cjson.null' end
  return t
end
local function each(f, ...)
  local r = {}
  for i = 1, select('#', ...) do r[i] = f((select(i, ...))) end
  return r
end
local function S(...) return each(V, ...) end
local function E(f, ...) return S(pcall(f, ...)) end
local function D(v)
  if type(v) == 'string' then return string.format('%q', v) end
  if type(v) ~= 'table' then return V(v) end
  local items = {}
  for k, x in pairs(v) do items[#items + 1] = '[' .. D(k) .. ']=' .. D(x) end
  table.sort(items)
  return '{' .. table.concat(items, ',') .. '}'
end
local function DS(...) return each(D, ...) end
local function ED(f, ...) return DS(pcall(f, ...)) end
`

// newTestState is the Lua state a script gets here: base, table, string
// and math, then Open.
func newTestState() *lua.LState {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	OpenGopherLibs(L, lua.BaseLibName, lua.TabLibName, lua.StringLibName, lua.MathLibName)
	Open(L)
	return L
}

// runHere runs a case in L and converts the result as Redis converts a
// script's return value. An error becomes an error reply holding the
// message alone.
func runHere(L *lua.LState, c luaCase) resp.Reply {
	argv := L.NewTable()
	for i, a := range c.argv {
		argv.RawSetInt(i+1, lua.LString(a))
	}
	L.SetGlobal("ARGV", argv)
	L.SetGlobal("KEYS", L.NewTable())
	fn, err := L.Load(strings.NewReader(prelude+c.lua), "user_script")
	if err != nil {
		return resp.ErrorReply("compile: " + err.Error())
	}
	L.Push(fn)
	if err := L.PCall(0, 1, nil); err != nil {
		var ae *lua.ApiError
		if errors.As(err, &ae) {
			return normalize(resp.ErrorReply(lua.LVAsString(ae.Object)))
		}
		return normalize(resp.ErrorReply(err.Error()))
	}
	defer L.SetTop(0)
	return normalize(toReply(L.Get(-1)))
}

// toReply is Redis's conversion of a script's return value.
func toReply(v lua.LValue) resp.Reply {
	switch v := v.(type) {
	case lua.LNumber:
		return resp.IntReply(CInt64(float64(v)))
	case lua.LString:
		return resp.BulkReply(string(v))
	case lua.LBool:
		if v {
			return resp.IntReply(1)
		}
	case *lua.LTable:
		if e, ok := v.RawGetString("err").(lua.LString); ok {
			return resp.ErrorReply(string(e))
		}
		if s, ok := v.RawGetString("ok").(lua.LString); ok {
			return resp.StatusReply(string(s))
		}
		var elems []resp.Reply
		for i := 1; ; i++ {
			e := v.RawGetInt(i)
			if e == lua.LNil {
				break
			}
			elems = append(elems, toReply(e))
		}
		return resp.ArrayReply(elems...)
	}
	return resp.NilReply()
}

var (
	positionRE  = regexp.MustCompile(`user_script:\d+: `)
	redisErrTag = regexp.MustCompile(`^ERR (.*) script: [0-9a-f]{40}, on @user_script:\d+\.$`)
)

// normalize removes what legitimately differs: the "user_script:N: "
// position of an error (gopher-lua does not always name the same line),
// and, in an error reply, Redis's "ERR " and " script: ..." wrapping.
func normalize(r resp.Reply) resp.Reply {
	switch r.Kind {
	case resp.Error:
		s := r.Str
		if m := redisErrTag.FindStringSubmatch(s); m != nil {
			s = m[1]
		}
		s = positionRE.ReplaceAllString(s, "")
		// Redis puts an error on one line; so does the comparison.
		s = strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
		return resp.ErrorReply(s)
	case resp.Bulk:
		return resp.BulkReply(positionRE.ReplaceAllString(r.Str, ""))
	case resp.Array:
		out := make([]resp.Reply, len(r.Elems))
		for i, e := range r.Elems {
			out[i] = normalize(e)
		}
		return resp.ArrayReply(out...)
	}
	return r
}

func clip(s string) string {
	if len(s) > 600 {
		return s[:600] + "…"
	}
	return s
}

// show prints a reply for a failure message, bytes quoted.
func show(r resp.Reply) string {
	switch r.Kind {
	case resp.Array:
		parts := make([]string, len(r.Elems))
		for i, e := range r.Elems {
			parts[i] = show(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case resp.Int:
		return strconv.FormatInt(r.Int, 10)
	case resp.Nil:
		return "nil"
	}
	return string(r.Kind) + ":" + strconv.Quote(r.Str)
}

// ---- The recording: Redis's replies to every case, for runs without a
// server (js/wasm). TestAgainstRedis checks it against the server and
// records it again with -update (internal/redisdiff's mechanism, which the
// fidelity and differential suites record with too).

// replies holds one take, casesTake, of every case's normalized reply; a
// reply longer than 16 KiB (the format matrices answer with hundreds of
// kilobytes each) is kept as its digest.
var replies = redisdiff.NewRecording("testdata/redis7.replies").DigestOver(16 << 10)

const casesTake = "lualib cases"

func TestMain(m *testing.M) { redisdiff.Main(m, replies) }

// caseKey names a case in the recording.
func caseKey(c luaCase) string {
	return redisdiff.Key(append([]string{c.desc, c.lua}, c.argv...))
}

// recorded is the recording's replies by caseKey.
func recorded() (map[string]string, error) {
	xs, err := replies.Take(casesTake)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, x := range xs {
		out[x.Key] = x.Reply
	}
	return out, nil
}

// TestMatchesRecordedRedis runs every case here and compares with what
// redis-server 7.0.15 answered when the recording was made. It needs no
// server, so it is what the js/wasm run checks.
func TestMatchesRecordedRedis(t *testing.T) {
	golden, err := recorded()
	if err != nil {
		t.Fatalf("%v (run the !js tests with -update against redis-server to record it)", err)
	}
	for _, c := range allCases() {
		t.Run(c.desc, func(t *testing.T) {
			g, ok := golden[caseKey(c)]
			if !ok {
				t.Fatalf("not in %s: run go test -run TestAgainstRedis -update", replies.Path())
			}
			if c.skip != "" {
				t.Skip(c.skip)
			}
			if got := runHere(newTestState(), c); !redisdiff.Matches(g, got) {
				want := "a reply with " + g + " (the !js tests show the difference)"
				if r, ok := redisdiff.Recorded(g); ok {
					want = show(r)
				}
				t.Errorf("%s\n  here: %s\n redis: %s", c.lua, clip(show(got)), want)
			}
		})
	}
}

// ---- Unit tests of the exported conversions (values checked against
// redis-server by the differential tests).

func TestFormatNumber(t *testing.T) {
	for _, tc := range []struct {
		in   float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "-0"}, {1, "1"}, {-1, "-1"}, {1e15, "1e+15"}, {1e14, "1e+14"},
		{99999999999999, "99999999999999"}, {1.0 / 3, "0.33333333333333"}, {math.Pow(2, 53), "9.007199254741e+15"},
		{0.1, "0.1"}, {1e-5, "1e-05"}, {123456.789, "123456.789"}, {1e100, "1e+100"}, {-2.5e-300, "-2.5e-300"},
		{math.Inf(1), "inf"}, {math.Inf(-1), "-inf"}, {posNaN, "nan"}, {negNaN, "-nan"},
		{3.14159265358979, "3.1415926535898"}, {100, "100"}, {0.0001, "0.0001"}, {1.5, "1.5"},
	} {
		if got := FormatNumber(tc.in); got != tc.want {
			t.Errorf("FormatNumber(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestStringToNumber(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"1e3", 1000, true}, {"0x10", 16, true}, {" 10 ", 10, true}, {"010", 10, true}, {"0b11", 0, false},
		{"1_000", 0, false}, {"0x", 0, false}, {"0x1p4", 16, true}, {"0X1P-2", 0.25, true}, {"-Infinity", math.Inf(-1), true},
		{"infinit", 0, false}, {"1e", 0, false}, {".5", 0.5, true}, {"5.", 5, true}, {".", 0, false}, {"0x.8", 0.5, true},
		{"\t\v\f\r\n5\n", 5, true}, {"10\x00abc", 10, true}, {"1e400", math.Inf(1), true}, {"+5", 5, true}, {"+-5", 0, false},
		{"- 5", 0, false}, {"0xg", 0, false}, {"1 2", 0, false}, {"", 0, false}, {" ", 0, false}, {"0x1_0", 0, false},
		{"1e+5", 1e5, true}, {"1E-2", 0.01, true}, {"0x1.8p1", 3, true}, {"-0x10", -16, true}, {"1.5e+", 0, false},
	} {
		got, ok := StringToNumber(tc.in)
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("StringToNumber(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
	for _, s := range []string{"nan", "NaN", "-nan", " nan(123) "} {
		f, ok := StringToNumber(s)
		if !ok || !math.IsNaN(f) || math.Signbit(f) != strings.Contains(s, "-") {
			t.Errorf("StringToNumber(%q) = %v, %v; want a NaN signed as written", s, f, ok)
		}
	}
}

func TestRand48(t *testing.T) {
	// lrand48 from its unseeded state, and after srand48(42).
	r := newRand48()
	for _, want := range []int32{851401618, 1804928587, 758783491} {
		if got := r.next(); got != want {
			t.Fatalf("next() = %d, want %d", got, want)
		}
	}
	r.seed(42)
	if got := r.next(); got != 1598855263 {
		t.Errorf("after seed(42): %d, want 1598855263", got)
	}
}
