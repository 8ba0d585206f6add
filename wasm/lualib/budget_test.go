package lualib

import (
	"context"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// Each of these is one call into a library function that loops in Go: a
// single VM instruction, however long it runs. The inputs are made first,
// with no budget; then the call is made with a budget that has run out
// already, as it would have partway through a long call. The call must
// notice and stop with the budget's error instead of finishing its work.
func TestLongLibraryCallsStopWhenTheBudgetRunsOut(t *testing.T) {
	const setup = `
		local nums, strs, words = {}, {}, {}
		for i = 1, 20000 do
			nums[i] = (i * 7919) % 20011
			strs[i] = tostring(nums[i])
		end
		local row = {}
		for i = 1, 100 do row[i] = i end
		local grid = {}
		for i = 1, 100 do grid[i] = row end
		local big = string.rep("x", 1e6)
		local bigs = {}
		for i = 1, 8 do bigs[i] = big end
		return nums, strs, grid, big, bigs
	`
	for _, tc := range []struct {
		name string
		call func(in []lua.LValue) (string, []lua.LValue)
	}{
		{"table.concat of a big string over and over", func(in []lua.LValue) (string, []lua.LValue) { return "table.concat", in[4:5] }},
		{"table.concat of a long table", func(in []lua.LValue) (string, []lua.LValue) { return "table.concat", in[1:2] }},
		{"string.format of a big string over and over", func(in []lua.LValue) (string, []lua.LValue) {
			return "string.format", []lua.LValue{lua.LString("%s%s%s%s%s%s%s%s"), in[3], in[3], in[3], in[3], in[3], in[3], in[3], in[3]}
		}},
		{"string.format with a long format", func(in []lua.LValue) (string, []lua.LValue) {
			return "string.format", []lua.LValue{lua.LString(strings.Repeat("ab", 5000))}
		}},
		{"table.sort of numbers", func(in []lua.LValue) (string, []lua.LValue) { return "table.sort", in[0:1] }},
		{"table.sort of strings", func(in []lua.LValue) (string, []lua.LValue) { return "table.sort", in[1:2] }},
		{"cjson.encode of a big table", func(in []lua.LValue) (string, []lua.LValue) { return "cjson.encode", in[2:3] }},
		{"cjson.encode of a big string", func(in []lua.LValue) (string, []lua.LValue) { return "cjson.encode", in[3:4] }},
		{"cjson.decode of a long array", func(in []lua.LValue) (string, []lua.LValue) {
			return "cjson.decode", []lua.LValue{lua.LString("[" + strings.Repeat("1,", 10000) + "1]")}
		}},
		{"cmsgpack.pack of a big table", func(in []lua.LValue) (string, []lua.LValue) { return "cmsgpack.pack", in[2:3] }},
		{"cmsgpack.unpack of many values", func(in []lua.LValue) (string, []lua.LValue) {
			return "cmsgpack.unpack", []lua.LValue{lua.LString("\xdc\x27\x10" + strings.Repeat("\x01", 10000))}
		}},
		{"struct.pack of a long format", func(in []lua.LValue) (string, []lua.LValue) {
			return "struct.pack", []lua.LValue{lua.LString(strings.Repeat("x", 10000))}
		}},
		{"struct.unpack of a long format", func(in []lua.LValue) (string, []lua.LValue) {
			return "struct.unpack", []lua.LValue{lua.LString(strings.Repeat("b", 10000)), lua.LString(strings.Repeat("\x01", 10000))}
		}},
		{"struct.size of a long format", func(in []lua.LValue) (string, []lua.LValue) {
			return "struct.size", []lua.LValue{lua.LString(strings.Repeat("x", 10000))}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			L := newTestState()
			defer L.Close()
			if err := L.DoString(setup); err != nil {
				t.Fatal(err)
			}
			in := make([]lua.LValue, 5)
			for i := range in {
				in[i] = L.Get(i + 1)
			}
			L.SetTop(0)
			name, args := tc.call(in)
			lib, fn, _ := strings.Cut(name, ".")
			f := L.GetGlobal(lib).(*lua.LTable).RawGetString(fn)
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			L.SetContext(ctx)
			err := L.CallByParam(lua.P{Fn: f, NRet: 1, Protect: true}, args...)
			L.RemoveContext()
			if err == nil || !strings.Contains(err.Error(), context.Canceled.Error()) {
				t.Fatalf("%s ran to its end with the budget spent: err = %v", name, err)
			}
		})
	}
}
