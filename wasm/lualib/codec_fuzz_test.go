package lualib

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// Fuzz targets of the libraries Redis adds to Lua: cjson, cmsgpack,
// struct and bit. Each calls the library as a script does, in a state
// under a budget, and holds it to a round trip through itself and, where
// Go has one, to a reference (encoding/json; plain integer arithmetic for
// bit). Their seed corpora are in testdata/fuzz.

// codecBudget is the work one call may do: far more than any input here
// needs, so a call the budget stops is one that loops.
const codecBudget = 2_000_000

// libCall calls lib.fn with args in L and returns its results, or the
// error. A Go panic in the library (an index out of range) fails the test:
// gopher-lua would turn it into a Lua error the script could catch.
func libCall(t *testing.T, L *lua.LState, name string, args ...lua.LValue) ([]lua.LValue, error) {
	lib, fn, _ := strings.Cut(name, ".")
	f := L.GetGlobal(lib).(*lua.LTable).RawGetString(fn)
	top := L.GetTop()
	err := L.CallByParam(lua.P{Fn: f, NRet: lua.MultRet, Protect: true}, args...)
	if err != nil {
		if strings.Contains(err.Error(), "runtime error") || strings.Contains(err.Error(), "goroutine ") {
			t.Fatalf("%s(%q) panicked in Go: %v", name, args, err)
		}
		if strings.Contains(err.Error(), errUnitsSpent.Error()) {
			t.Fatalf("%s(%q) ran past a budget of %d units", name, args, codecBudget)
		}
		L.SetTop(top)
		return nil, err
	}
	out := make([]lua.LValue, 0, L.GetTop()-top)
	for i := top + 1; i <= L.GetTop(); i++ {
		out = append(out, L.Get(i))
	}
	L.SetTop(top)
	return out, nil
}

// fuzzState is the one state the fuzz targets share: a state takes far
// longer to make than a call takes to run, and a fuzz target's inputs run
// one after the other. The targets change no library setting.
var fuzzState *lua.LState

// budgetedState is fuzzState, empty, with a fresh budget.
func budgetedState() *lua.LState {
	if fuzzState == nil {
		fuzzState = newTestState()
	}
	fuzzState.SetTop(0)
	fuzzState.SetContext(&units{Context: context.Background(), limit: codecBudget})
	return fuzzState
}

// canon writes v so that equal values write the same: a table as its
// pairs sorted, a number with digits digits (-1: exactly).
func canon(v lua.LValue, digits int) string {
	switch v := v.(type) {
	case lua.LNumber:
		f := float64(v)
		if math.IsNaN(f) {
			return "nan"
		}
		if digits < 0 {
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
		return strconv.FormatFloat(f, 'g', digits, 64)
	case lua.LString:
		return strconv.Quote(string(v))
	case *lua.LTable:
		var items []string
		v.ForEach(func(k, x lua.LValue) { items = append(items, canon(k, digits)+"="+canon(x, digits)) })
		slices.Sort(items)
		return "{" + strings.Join(items, ",") + "}"
	case *lua.LUserData:
		return "null"
	}
	return v.String()
}

// canonJSON writes what encoding/json read as canon writes the table
// cjson builds: an array's keys are 1, 2, ..., an object's strings.
func canonJSON(v any, digits int) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return canon(lua.LNumber(v), digits)
	case string:
		return strconv.Quote(v)
	case []any:
		var items []string
		for i, x := range v {
			items = append(items, canon(lua.LNumber(i+1), digits)+"="+canonJSON(x, digits))
		}
		slices.Sort(items)
		return "{" + strings.Join(items, ",") + "}"
	case map[string]any:
		var items []string
		for k, x := range v {
			items = append(items, strconv.Quote(k)+"="+canonJSON(x, digits))
		}
		slices.Sort(items)
		return "{" + strings.Join(items, ",") + "}"
	}
	return "?"
}

// strictJSON reports whether text is JSON that cjson and encoding/json
// must read alike: valid UTF-8 with no NUL, no \u escape of a surrogate
// (cjson refuses a lone one, encoding/json reads it as U+FFFD) and not
// nested past cjson's 1000 levels.
func strictJSON(text string) bool {
	depth, most := 0, 0
	for _, c := range []byte(text) {
		switch c {
		case '[', '{':
			depth++
			most = max(most, depth)
		case ']', '}':
			depth--
		}
	}
	low := strings.ToLower(text)
	return most <= 1000 && !strings.ContainsRune(text, 0) && !strings.Contains(low, `\ud`) && !strings.ContainsRune(text, '\uFFFD') &&
		strings.ToValidUTF8(text, "\uFFFD") == text
}

// FuzzCJSONDecode holds cjson.decode to encoding/json on any text: JSON
// that encoding/json reads (see strictJSON), cjson reads to the same
// value; whatever cjson reads, cjson.encode writes back and cjson.decode
// reads again to the same value (at the 14 digits encode keeps); text
// nested past 1000 levels is refused; no input panics or runs past the
// budget.
func FuzzCJSONDecode(f *testing.F) {
	for _, s := range []string{
		`{"a":[1,2,{"b":null}],"c":"d\u00e9\n"}`, `[1.5,-0,1e400,-1e-400]`, `"\ud83d\ude00"`, `"\ud83d"`, `[0x10, +1, 012, inf, nan]`,
		`{"1":1,"1":2}`, `[` + strings.Repeat("[", 1000) + strings.Repeat("]", 1001), "[1,]", `{"a" 1}`, "\"a\x00b\"", " ",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		L := budgetedState()
		got, err := libCall(t, L, "cjson.decode", lua.LString(text))
		var want any
		if jerr := json.Unmarshal([]byte(text), &want); jerr == nil && strictJSON(text) {
			if err != nil {
				t.Fatalf("cjson.decode(%q) refused JSON encoding/json reads: %v", text, err)
			}
			if g, w := canon(got[0], 17), canonJSON(want, 17); g != w {
				t.Fatalf("cjson.decode(%q) = %s; encoding/json reads %s", text, g, w)
			}
		}
		if err != nil {
			return
		}
		enc, err := libCall(t, L, "cjson.encode", got[0])
		if err != nil {
			return // a table too sparse to write, or one nested too deep
		}
		back, err := libCall(t, L, "cjson.decode", enc[0])
		if err != nil || canon(back[0], 14) != canon(got[0], 14) {
			t.Fatalf("cjson.decode(%q) = %s; encoded as %s it reads back as %v, %v", text, canon(got[0], 14), enc[0], back, err)
		}
	})
}

// FuzzCMsgpack holds cmsgpack.unpack to cmsgpack.pack on any bytes:
// whatever unpack reads, pack writes, and unpack reads again to the same
// values (unless tables nest past the 16 levels pack writes); no input
// panics or runs past the budget.
func FuzzCMsgpack(f *testing.F) {
	for _, s := range []string{
		"\x93\x01\xa1a\xc0", "\x82\xa1k\xcb\x3f\xf8\x00\x00\x00\x00\x00\x00\x01\xc3", "\xdc\xff\xff", "\xdd\xff\xff\xff\xff",
		"\xdb\xff\xff\xff\xff", "\xcf\xff\xff\xff\xff\xff\xff\xff\xff", "\xd3\x80\x00\x00\x00\x00\x00\x00\x00", "\x81\xc0\x01",
		"\x81\xcb\x7f\xf8\x00\x00\x00\x00\x00\x01\x01", "\xc1", strings.Repeat("\x91", 5000) + "\x01",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		L := budgetedState()
		vals, err := libCall(t, L, "cmsgpack.unpack", lua.LString(data))
		if err != nil || len(vals) == 0 || deeperThan(vals, 15) {
			return
		}
		packed, err := libCall(t, L, "cmsgpack.pack", vals...)
		if err != nil {
			t.Fatalf("cmsgpack.pack of what unpack read from %q: %v", data, err)
		}
		back, err := libCall(t, L, "cmsgpack.unpack", packed[0])
		if err != nil || len(back) != len(vals) {
			t.Fatalf("%q: unpacked, packed as %q, unpacked again: %d values, %v; want %d", data, packed[0], len(back), err, len(vals))
		}
		for i := range vals {
			if g, w := canon(back[i], -1), canon(vals[i], -1); g != w {
				t.Fatalf("%q: value %d read back as %s, was %s", data, i+1, g, w)
			}
		}
	})
}

func deeperThan(vals []lua.LValue, n int) bool {
	for _, v := range vals {
		if t, ok := v.(*lua.LTable); ok {
			if n == 0 {
				return true
			}
			deep := false
			t.ForEach(func(k, x lua.LValue) { deep = deep || deeperThan([]lua.LValue{k, x}, n-1) })
			if deep {
				return true
			}
		}
	}
	return false
}

// FuzzStruct holds struct.unpack, struct.pack and struct.size to each
// other on any format and data: values unpack reads, pack writes to the
// same length as the format's size (where it has one) and unpack reads
// back the same (but for integers past 2^53, which a double rounds);
// no input panics or runs past the budget.
func FuzzStruct(f *testing.F) {
	for _, s := range [][2]string{
		{">i2<I4bBhHlLTfd", strings.Repeat("\x01\x80", 20)}, {"!4 b i4 !8 d", strings.Repeat("\x7f", 24)}, {"c3 s", "abcde\x00"},
		{"B c0", "\x02xy"}, {"i32", strings.Repeat("\xff", 32)}, {"i33", ""}, {"!3", ""}, {"c2147483648", ""}, {"x", ""},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, format, data string) {
		L := budgetedState()
		vals, err := libCall(t, L, "struct.unpack", lua.LString(format), lua.LString(data))
		if err != nil {
			return
		}
		vals = vals[:len(vals)-1] // the position after the data read
		args := append([]lua.LValue{lua.LString(format)}, vals...)
		if strings.Contains(cString(format), "c0") {
			return // unpack takes the length's value away; pack wants the string alone
		}
		packed, err := libCall(t, L, "struct.pack", args...)
		if err != nil {
			t.Fatalf("struct.pack(%q) of what unpack read from %q: %v", format, data, err)
		}
		if size, err := libCall(t, L, "struct.size", lua.LString(format)); err == nil && int(size[0].(lua.LNumber)) != len(packed[0].(lua.LString)) {
			t.Fatalf("struct.size(%q) = %v, but pack wrote %d bytes", format, size[0], len(packed[0].(lua.LString)))
		}
		back, err := libCall(t, L, "struct.unpack", lua.LString(format), packed[0])
		if err != nil || len(back) != len(vals)+1 {
			t.Fatalf("struct %q: %q packed as %q reads back as %v, %v", format, data, packed[0], back, err)
		}
		for i := range vals {
			if n, ok := vals[i].(lua.LNumber); ok && math.Abs(float64(n)) >= 1<<53 {
				continue // an integer a double cannot hold: packed as C casts the rounded double
			}
			if g, w := canon(back[i], -1), canon(vals[i], -1); g != w && !(strings.ContainsAny(cString(format), "fd") && g == "nan") {
				t.Fatalf("struct %q: value %d of %q reads back as %s, was %s", format, i+1, data, g, w)
			}
		}
	})
}

// FuzzBit holds the bit library to plain 32-bit integer arithmetic on any
// two numbers LuaBitOp reads exactly (|x| < 2^51): each is rounded to the
// nearest integer, ties to even, and wrapped to 32 bits.
func FuzzBit(f *testing.F) {
	f.Add(1.0, 2.0)
	f.Add(-1.0, 31.0)
	f.Add(2.5, 3.5)
	f.Add(4294967296.0+7, -33.0)
	f.Add(-2147483648.0, 8.0)
	f.Fuzz(func(t *testing.T, x, y float64) {
		if math.IsNaN(x) || math.IsNaN(y) || math.Abs(x) >= 1<<51 || math.Abs(y) >= 1<<51 {
			return
		}
		wrap := func(f float64) uint32 { return uint32(int64(math.RoundToEven(f))) }
		a, b := wrap(x), wrap(y)
		n := b & 31
		hex := func(v uint32, digits int32) string {
			s := strconv.FormatUint(uint64(v), 16)
			s = strings.Repeat("0", 8-len(s)) + s
			if digits < 0 {
				digits, s = -digits, strings.ToUpper(s)
			}
			return s[8-min(digits, 8):]
		}
		for _, c := range []struct {
			fn   string
			args []float64
			want string
		}{
			{"tobit", []float64{x}, strconv.Itoa(int(int32(a)))},
			{"bnot", []float64{x}, strconv.Itoa(int(int32(^a)))},
			{"bswap", []float64{x}, strconv.Itoa(int(int32(a>>24 | a>>8&0xff00 | a<<8&0xff0000 | a<<24)))},
			{"band", []float64{x, y}, strconv.Itoa(int(int32(a & b)))},
			{"bor", []float64{x, y}, strconv.Itoa(int(int32(a | b)))},
			{"bxor", []float64{x, y}, strconv.Itoa(int(int32(a ^ b)))},
			{"lshift", []float64{x, y}, strconv.Itoa(int(int32(a << n)))},
			{"rshift", []float64{x, y}, strconv.Itoa(int(int32(a >> n)))},
			{"arshift", []float64{x, y}, strconv.Itoa(int(int32(a) >> n))},
			{"rol", []float64{x, y}, strconv.Itoa(int(int32(a<<n | a>>((32-n)&31))))},
			{"ror", []float64{x, y}, strconv.Itoa(int(int32(a>>n | a<<((32-n)&31))))},
		} {
			L := budgetedState()
			var args []lua.LValue
			for _, v := range c.args {
				args = append(args, lua.LNumber(v))
			}
			got, err := libCall(t, L, "bit."+c.fn, args...)
			if err != nil || strconv.FormatFloat(float64(got[0].(lua.LNumber)), 'f', -1, 64) != c.want {
				t.Fatalf("bit.%s(%v) = %v, %v; want %s", c.fn, c.args, got, err, c.want)
			}
		}
		if int32(b) > -(1<<31) && int32(b) != math.MinInt32 {
			got, err := libCall(t, budgetedState(), "bit.tohex", lua.LNumber(x), lua.LNumber(y))
			if want := hex(a, int32(b)); err != nil || string(got[0].(lua.LString)) != want {
				t.Fatalf("bit.tohex(%v, %v) = %v, %v; want %q", x, y, got, err, want)
			}
		}
	})
}
