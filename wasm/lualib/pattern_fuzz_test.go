package lualib

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// units is a budget that counts work as the engine's does (see spender)
// and stops the script once it has counted more than limit.
type units struct {
	context.Context
	spent, limit int
}

var errUnitsSpent = errors.New("test budget spent")

func (u *units) Spend(n int) bool {
	u.spent += n
	return u.spent > u.limit
}

func (u *units) Err() error {
	if u.spent > u.limit {
		return errUnitsSpent
	}
	return nil
}

// patternBudget is the work the fuzz target lets one call do.
const patternBudget = 20000

// FuzzPattern holds string.find, string.match, string.gmatch and
// string.gsub to the reference matcher in pattern_ref_test.go, on any
// subject, pattern, start and replacement:
//   - the same results, or the same error;
//   - a call the reference needs many times the budget for is stopped by
//     the budget, and a call stopped by it needed the reference more than
//     a fraction of it: the matcher counts its work as it goes, so a
//     pathological pattern (("a*")*b over a long run of a's) stops.
//
// The seed corpus is in testdata/fuzz/FuzzPattern.
func FuzzPattern(f *testing.F) {
	for _, s := range [][4]string{
		{"f", "hello world", "o w", ""}, {"m", "key=val", "(%w+)=(%w+)", ""}, {"g", "a,b,,c", "([^,]*)", ""},
		{"s", "hello world", "(o)", "[%1%0]"}, {"m", " x ", "^%s*(.-)%s*$", ""}, {"m", "THE (quick) fox", "%((%a+)%)", ""},
		{"m", "f(a(b)c)d", "%b()", ""}, {"g", "THE (quick) fox", "%f[%a]%a+", ""}, {"m", "abcabc", "(abc)%1", ""},
		{"m", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "a*a*a*a*a*a*a*a*a*b", ""},
		{"f", "x", "x%", ""}, {"f", "abc", "x%", ""}, {"m", "a]", "[]]", ""}, {"m", "-", "[a-]", ""},
		{"m", "a.b", "%.", ""}, {"s", "abc", "", "-"}, {"s", "abc", "^", ">"}, {"m", "a\x00b", "%z", ""},
		{"f", "a\x00b", "\x00b", ""}, {"m", "ab", "()b()", ""}, {"m", "x", "(()", ""}, {"m", "x", "%1", ""},
		{"m", "[a]", "[%]]", ""}, {"m", "3.14", "^[+-]?%d+%.?%d*$", ""}, {"s", "x", "x", "%"},
	} {
		f.Add(s[0][0], s[1], s[2], s[3], int8(1))
	}
	f.Fuzz(func(t *testing.T, op byte, src, pat, repl string, init int8) {
		if !strings.ContainsRune("fmgs", rune(op)) {
			op = "fmgs"[op%4]
		}
		if len(src) > 300 || len(pat) > 60 {
			return // long inputs only slow the search down
		}
		start := int(init)
		if start < 0 {
			start += len(src) + 1
		}
		start = min(max(start-1, 0), len(src))
		want, steps := refRun(op, src, pat, repl, start, 8*patternBudget)
		got, spent := runPattern(t, op, src, pat, repl, int(init))
		want, got = append(want, ""), append(got, "") // never empty
		switch {
		case want[0] == "exhausted" && got[0] != "budget":
			t.Fatalf("%c %q %q: the reference gave up after %d steps; the budget did not stop it (%d units spent): %q",
				op, src, pat, steps, spent, got)
		case want[0] == "exhausted":
		case got[0] == "budget" && steps < patternBudget/8:
			t.Fatalf("%c %q %q: stopped by the budget (%d units), where the reference took %d steps", op, src, pat, spent, steps)
		case got[0] == "budget":
		case strings.HasPrefix(want[0], "error:"):
			if len(got) != 2 || !strings.HasPrefix(got[0], "error:") || !strings.Contains(got[0], want[0][6:]) {
				t.Fatalf("%c %q %q %q (init %d): %q, the reference %q", op, src, pat, repl, init, got, want)
			}
		case !slices.Equal(got, want):
			t.Fatalf("%c %q %q %q (init %d): %q, the reference %q", op, src, pat, repl, init, got, want)
		}
	})
}

// runPattern makes the call in a fresh state under a budget of
// patternBudget units and returns its results as refRun writes them, or
// "budget" when the budget stopped it; and the units it spent.
func runPattern(t *testing.T, op byte, src, pat, repl string, init int) ([]string, int) {
	L := newTestState()
	defer L.Close()
	u := &units{Context: context.Background(), limit: patternBudget}
	L.SetContext(u)
	strlib := L.GetGlobal("string").(*lua.LTable)
	call := func(fn lua.LValue, args ...lua.LValue) ([]lua.LValue, error) {
		top := L.GetTop()
		err := L.CallByParam(lua.P{Fn: fn, NRet: lua.MultRet, Protect: true}, args...)
		var out []lua.LValue
		for i := top + 1; i <= L.GetTop(); i++ {
			out = append(out, L.Get(i))
		}
		L.SetTop(top)
		return out, err
	}
	var vals []lua.LValue
	var err error
	s, p := lua.LString(src), lua.LString(pat)
	done := make(chan struct{})
	go func() {
		defer close(done)
		switch op {
		case 'f':
			vals, err = call(strlib.RawGetString("find"), s, p, lua.LNumber(init))
		case 'm':
			vals, err = call(strlib.RawGetString("match"), s, p, lua.LNumber(init))
		case 's':
			vals, err = call(strlib.RawGetString("gsub"), s, p, lua.LString(repl))
		case 'g':
			var it []lua.LValue
			if it, err = call(strlib.RawGetString("gmatch"), s, p); err != nil {
				return
			}
			vals = []lua.LValue{}
			for n := 0; n < 50; n++ {
				var one []lua.LValue
				if one, err = call(it[0]); err != nil || len(one) == 0 {
					return
				}
				vals = append(append(vals, one...), lua.LString("|"))
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatalf("%c %q %q: still running after 20 s (%d units spent)", op, src, pat, u.spent)
	}
	switch {
	case err != nil && u.spent > u.limit:
		return []string{"budget"}, u.spent
	case err != nil:
		return []string{"error:" + err.Error()}, u.spent
	}
	out := []string{}
	for _, v := range vals {
		switch v := v.(type) {
		case lua.LString:
			if op == 'g' && v == "|" {
				out = append(out, "|")
			} else {
				out = append(out, "s:"+string(v))
			}
		case lua.LNumber:
			out = append(out, "n:"+strconv.FormatFloat(float64(v), 'f', -1, 64))
		default:
			out = append(out, v.Type().String())
		}
	}
	return out, u.spent
}
