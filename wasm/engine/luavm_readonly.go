// Read-only tables (see luavm.go): the globals and the libraries, which
// Redis 7.0 lets a script read and never write.

package engine

import (
	glua "github.com/yuin/gopher-lua"
)

// errReadonly is Redis 7.0's word for any write to the globals table or to
// a library table.
const errReadonly = "Attempt to modify a readonly table"

// readonlyKey is where a state keeps its set of read-only tables, in its
// registry: the globals and the libraries, which a script may read and
// never write.
const readonlyKey = "echomq.dev/playground/wasm/engine.readonly"

func isReadonly(L *glua.LState, v glua.LValue) bool {
	t, ok := v.(*glua.LTable)
	if !ok {
		return false
	}
	set, ok := L.G.Registry.RawGetString(readonlyKey).(*glua.LTable)
	return ok && set.RawGet(t) == glua.LTrue
}

// markReadonly marks the globals and every library table in them, and
// makes rawset and setmetatable respect the mark as Redis's patched Lua
// does. Call it once the state's globals are complete. The metatables of
// the globals and of strings are marked too, as Redis 7.0 marks them: a
// field stored in either would outlive the script that stored it.
func markReadonly(L *glua.LState) {
	set := L.NewTable()
	set.RawSet(L.G.Global, glua.LTrue)
	for _, v := range []glua.LValue{L.G.Global, glua.LString("")} {
		if mt, ok := L.GetMetatable(v).(*glua.LTable); ok {
			set.RawSet(mt, glua.LTrue)
		}
	}
	L.G.Global.ForEach(func(k, v glua.LValue) {
		if t, ok := v.(*glua.LTable); ok && k.String() != "KEYS" && k.String() != "ARGV" {
			set.RawSet(t, glua.LTrue)
		}
	})
	L.G.Registry.RawSetString(readonlyKey, set)
	for _, name := range []string{"rawset", "setmetatable"} {
		orig := L.GetGlobal(name)
		L.G.Global.RawSetString(name, L.NewFunction(func(L *glua.LState) int {
			if isReadonly(L, L.Get(1)) {
				// Raised by a C function in Redis, so with no position.
				L.Error(glua.LString(errReadonly), 0)
			}
			L.Insert(orig, 1)
			L.Call(L.GetTop()-1, glua.MultRet)
			return L.GetTop()
		}))
	}
}

// readonlyOp refuses a table store into a read-only table.
func readonlyOp(next instFunc) instFunc {
	return func(L *glua.LState, inst uint32, frameArg *opaqueFrame) int {
		if isReadonly(L, registers(L)[argA(inst)]) {
			L.RaiseError("%s", errReadonly)
		}
		return next(L, inst, frameArg)
	}
}
