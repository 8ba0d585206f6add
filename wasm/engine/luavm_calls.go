// The Lua 5.1 VM's calls, indexing, comparison and length (see luavm.go):
// Lua 5.1's checks and error words, and the call depth Lua 5.1 keeps.

package engine

import (
	glua "github.com/yuin/gopher-lua"
)

// callOp checks that the called value can be called. A call of a Go
// function whose results the code drops (OP_CALL with C = 1: a statement
// such as redis.call('SET', k, v)) also tells the script's budget which
// function it calls, for the length of the call, so that redis.call need
// not build a reply table nobody reads (see unusedResult).
//
// It also keeps the call depth to luaCallDepth. The engine's Lua states grow
// their call stacks as scripts call deeper (newState), and gopher-lua's
// growing stack never reports itself full: past its size it panics with
// words of its own. So the check gopher-lua makes on its fixed stack is
// made here, on the same calls and with the same error: every OP_CALL
// pushes a frame, and an OP_TAILCALL pushes one only for a Go function (a
// Lua function reuses the caller's).
func callOp(orig instFunc, plain bool) instFunc {
	return func(L *glua.LState, inst uint32, frameArg *opaqueFrame) int {
		a := argA(inst)
		switch v := registers(L)[a].(type) {
		case *glua.LFunction:
			if plain || v.IsG {
				checkDepth(L)
			}
			if plain && v.IsG {
				if b, ok := L.Context().(*budget); ok {
					b.unused = nil
					if argC(inst) == 1 {
						b.unused = v
					}
					n := orig(L, inst, frameArg)
					b.unused = nil
					return n
				}
			}
			return orig(L, inst, frameArg)
		case *glua.LTable, *glua.LUserData:
			if mm := L.GetMetaField(v, "__call"); mm != glua.LNil {
				if f, ok := mm.(*glua.LFunction); ok && (plain || f.IsG) {
					checkDepth(L)
				}
				return orig(L, inst, frameArg)
			}
		}
		fn, pc := frame(L)
		L.RaiseError("attempt to call %s", describe(fn, pc, a, registers(L)[a]))
		return 0
	}
}

// indexOp reads or writes a field of the table, string or userdata in
// register obj(inst) with the key in operand key(inst); event is the
// metamethod a missing field goes to. A plain table goes straight to
// gopher-lua; for a table with a metatable, a walk of its chain first
// shows whether a metamethod runs.
func indexOp(orig instFunc, obj, key func(uint32) int, event string) instFunc {
	other := guardedOp(orig, obj, "index", func(L *glua.LState, inst uint32, v glua.LValue) (bool, bool) {
		if L.GetMetatable(v) == glua.LNil {
			return false, false
		}
		fn, _ := frame(L)
		return true, fieldLookup(L, v, rk(L, fn, key(inst)), event)
	})
	return func(L *glua.LState, inst uint32, frameArg *opaqueFrame) int {
		t, ok := registers(L)[obj(inst)].(*glua.LTable)
		if !ok {
			return other(L, inst, frameArg)
		}
		if t.Metatable == glua.LNil {
			return orig(L, inst, frameArg)
		}
		fn, _ := frame(L)
		if fieldLookup(L, t, rk(L, fn, key(inst)), event) {
			return callsLua(L, inst, frameArg, orig)
		}
		return orig(L, inst, frameArg)
	}
}

// fieldLookup follows field k of v as gopher-lua does, through the
// tables (or userdata) that event ("__index" or "__newindex") leads to,
// and reports whether the chain ends in a function, which gopher-lua would
// call.
//
//go:noinline // a slow path; each inlined copy costs the module
func fieldLookup(L *glua.LState, v, k glua.LValue, event string) (calls bool) {
	for range 100 { // Lua 5.1's MAXTAGLOOP
		if t, ok := v.(*glua.LTable); ok && t.RawGet(k) != glua.LNil {
			return false
		}
		switch mm := L.GetMetaField(v, event).(type) {
		case *glua.LFunction:
			return true
		case *glua.LTable, *glua.LUserData:
			v = mm
		default:
			return false
		}
	}
	return false
}

// guardedOp runs orig when the operand in register reg(inst) is a string,
// or a userdata that metaOK accepts (one with the metamethod the opcode
// would use; metaOK also says whether the opcode will call it, which then
// counts as a call from C, see callsLua); on anything else it raises Lua
// 5.1's "attempt to <what> <the operand>", where gopher-lua's wording
// differs. Its callers take tables first.
func guardedOp(orig instFunc, reg func(uint32) int, what string, metaOK func(*glua.LState, uint32, glua.LValue) (ok, calls bool)) instFunc {
	return func(L *glua.LState, inst uint32, frameArg *opaqueFrame) int {
		r := reg(inst)
		switch v := registers(L)[r].(type) {
		case glua.LString:
			return orig(L, inst, frameArg)
		case *glua.LUserData:
			if ok, calls := metaOK(L, inst, v); ok {
				if calls {
					return callsLua(L, inst, frameArg, orig)
				}
				return orig(L, inst, frameArg)
			}
		}
		fn, pc := frame(L)
		L.RaiseError("attempt to %s %s", what, describe(fn, pc, r, registers(L)[r]))
		return 0
	}
}

func compareOp(orig instFunc) instFunc {
	return func(L *glua.LState, inst uint32, frameArg *opaqueFrame) int {
		fn, _ := frame(L)
		lhs, rhs := rk(L, fn, argB(inst)), rk(L, fn, argC(inst))
		lt, rt := lhs.Type(), rhs.Type()
		if lt == rt && (lt == glua.LTNumber || lt == glua.LTString) {
			return orig(L, inst, frameArg)
		}
		if lt == rt && (lt == glua.LTTable || lt == glua.LTUserData) {
			event := "__lt"
			if int(inst>>26) == glua.OP_LE {
				event = "__le"
			}
			if L.GetMetaField(lhs, event) != glua.LNil {
				return callsLua(L, inst, frameArg, orig)
			}
		}
		if lt == rt {
			L.RaiseError("attempt to compare two %s values", lt)
		}
		L.RaiseError("attempt to compare %s with %s", lt, rt)
		return 0
	}
}

// eqOp counts an __eq metamethod's call as a call from C (see callsLua):
// two distinct tables, or two userdata, may call one. A constant operand
// is never either, so comparing with a literal stays on the fast path.
func eqOp(orig instFunc) instFunc {
	return func(L *glua.LState, inst uint32, frameArg *opaqueFrame) int {
		b, c := argB(inst), argC(inst)
		if (b|c)&bitRK == 0 {
			lhs, rhs := registers(L)[b], registers(L)[c]
			if lhs != rhs && lhs.Type() == rhs.Type() && (metaOf(L, lhs, "__eq") != glua.LNil || metaOf(L, rhs, "__eq") != glua.LNil) {
				return callsLua(L, inst, frameArg, orig)
			}
		}
		return orig(L, inst, frameArg)
	}
}

// lenOp gives a table's length as Lua 5.1 does, which never calls a
// table's __len (gopher-lua does), and calls a userdata's.
func lenOp(orig instFunc) instFunc {
	lenOf := guardedOp(orig, argB, "get length of", func(L *glua.LState, _ uint32, v glua.LValue) (bool, bool) {
		has := L.GetMetaField(v, "__len") != glua.LNil
		return has, has
	})
	return func(L *glua.LState, inst uint32, frameArg *opaqueFrame) int {
		if t, ok := registers(L)[argB(inst)].(*glua.LTable); ok {
			if t.Metatable != glua.LNil && L.GetMetaField(t, "__len") != glua.LNil {
				setRegister(L, argA(inst), glua.LNumber(t.Len()))
				return 0
			}
			return orig(L, inst, frameArg)
		}
		return lenOf(L, inst, frameArg)
	}
}

// iteratorOp counts the call of a generic for's iterator, when it is a Lua
// function, as a call from C, as Lua 5.1 counts it (see callsLua). An
// iterator in Go (next, or ipairs's) calls no Lua, and stays uncounted,
// the cheaper path for the loops scripts run most.
func iteratorOp(orig instFunc) instFunc {
	return func(L *glua.LState, inst uint32, frameArg *opaqueFrame) int {
		if f, ok := registers(L)[argA(inst)].(*glua.LFunction); ok && f.IsG {
			return orig(L, inst, frameArg)
		}
		return callsLua(L, inst, frameArg, orig)
	}
}
