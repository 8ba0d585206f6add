package engine

import (
	json "github.com/alicebob/miniredis/v2/gopher-json"
	glua "github.com/yuin/gopher-lua"
)

// cjsonTable is the cjson library scripts can use. For now it rides
// miniredis's gopher-json; lua-cjson's exact output (empty tables as {},
// %.14g numbers, escaped slashes) is part of the fidelity work.
func cjsonTable(L *glua.LState) *glua.LTable {
	t := L.NewTable()
	t.RawSetString("encode", L.NewFunction(func(L *glua.LState) int {
		data, err := json.Encode(L.CheckAny(1))
		if err != nil {
			L.RaiseError("%s", err.Error())
		}
		L.Push(glua.LString(data))
		return 1
	}))
	t.RawSetString("decode", L.NewFunction(func(L *glua.LState) int {
		v, err := json.Decode(L, []byte(L.CheckString(1)))
		if err != nil {
			L.RaiseError("%s", err.Error())
		}
		L.Push(v)
		return 1
	}))
	return t
}
