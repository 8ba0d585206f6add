package lualib

import (
	lua "github.com/yuin/gopher-lua"
)

// Lua 5.1's unpack, string.byte, table.insert and table.sort, where
// gopher-lua's differ in what a learner sees: the limits of Lua's C stack,
// the wrong-number-of-arguments error, and the order and errors of sort.

// maxCStack is Lua 5.1's LUAI_MAXCSTACK: how many values a C function may
// have on its stack, its arguments included. unpack and string.byte stop
// there, where gopher-lua would grow its stack to any size (unpack({}, 1,
// 1e8) asked for gigabytes).
const maxCStack = 8000

// checkStack is lua_checkstack: room for n more values on the caller's
// stack, which already holds the arguments.
func checkStack(L *lua.LState, n int64) bool {
	return n <= maxCStack && int64(L.GetTop())+n <= maxCStack
}

// baseUnpack is unpack(t [, i [, j]]).
func baseUnpack(L *lua.LState) int {
	t := checkTable(L, 1)
	i := optInt(L, 2, 1)
	var e int32
	if isNone(L, 3) {
		e = int32(luaLen(t))
	} else {
		e = checkInt(L, 3)
	}
	if i > e {
		return 0
	}
	n := int64(e) - int64(i) + 1
	if n > 1<<31-1 || !checkStack(L, n) {
		L.RaiseError("too many results to unpack")
	}
	for k := int64(i); k <= int64(e); k++ {
		L.Push(t.RawGetInt(int(k)))
	}
	return int(n)
}

// posRelative is Lua 5.1's posrelat: a negative position counts from the
// end; one before the start is 0.
func posRelative(pos int64, n int) int64 {
	if pos < 0 {
		pos += int64(n) + 1
	}
	return max(pos, 0)
}

// strByte is string.byte(s [, i [, j]]): j defaults to i, so with no range
// it gives the first byte alone.
func strByte(L *lua.LState) int {
	s := checkString(L, 1)
	posi := posRelative(optInteger(L, 2, 1), len(s))
	pose := posRelative(optInteger(L, 3, posi), len(s))
	posi = max(posi, 1)
	pose = min(pose, int64(len(s)))
	if posi > pose {
		return 0
	}
	n := pose - posi + 1
	if !checkStack(L, n) {
		L.RaiseError("stack overflow (string slice too long)")
	}
	for k := posi; k <= pose; k++ {
		L.Push(lua.LNumber(s[k-1]))
	}
	return int(n)
}

// tableInsert is table.insert(t, [pos,] v), with Lua 5.1's error for any
// other number of arguments.
func tableInsert(L *lua.LState) int {
	t := checkTable(L, 1)
	e := luaLen(t) + 1
	var pos int
	switch L.GetTop() {
	case 2:
		pos = e
	case 3:
		pos = int(checkInt(L, 2))
		e = max(e, pos)
		for i := e; i > pos; i-- {
			t.RawSetInt(i, t.RawGetInt(i-1))
		}
	default:
		L.RaiseError("wrong number of arguments to 'insert'")
	}
	t.RawSetInt(pos, L.Get(L.GetTop()))
	return 0
}

// tableSort is table.sort(t [, less]): Lua 5.1's quicksort, step for step,
// so that an order function that is not a strict order ends in the same
// order, or the same "invalid order function for sorting", as in Redis,
// and values that cannot be compared fail on the same pair. It polls the
// script's budget as it goes: a sort is one instruction of the script.
func tableSort(L *lua.LState) int {
	t := checkTable(L, 1)
	n := luaLen(t)
	var less lua.LValue = lua.LNil
	if !isNone(L, 2) {
		less = checkFunction(L, 2)
	}
	s := sorter{L: L, t: t, less: less, meter: meter{L: L}}
	s.sort(1, n)
	return 0
}

type sorter struct {
	L     *lua.LState
	t     *lua.LTable
	less  lua.LValue
	meter meter
}

func (s *sorter) get(i int) lua.LValue           { return s.t.RawGetInt(i) }
func (s *sorter) set(i int, v lua.LValue)        { s.t.RawSetInt(i, v) }
func (s *sorter) swap(i, j int, a, b lua.LValue) { s.set(i, b); s.set(j, a) }

// lt is a < b as sort compares: by the order function, or as Lua's <.
func (s *sorter) lt(a, b lua.LValue) bool {
	s.meter.spend(1)
	if s.less == lua.LNil {
		return lessThan(s.L, a, b)
	}
	L := s.L
	L.Push(s.less)
	L.Push(a)
	L.Push(b)
	L.Call(2, 1)
	r := lua.LVAsBool(L.Get(-1))
	L.Pop(1)
	return r
}

func (s *sorter) sort(l, u int) {
	for l < u {
		// Order a[l], a[(l+u)/2] and a[u] among themselves.
		al, au := s.get(l), s.get(u)
		if s.lt(au, al) {
			s.swap(l, u, al, au)
		}
		if u-l == 1 {
			return
		}
		i := (l + u) / 2
		ai, al := s.get(i), s.get(l)
		if s.lt(ai, al) {
			s.swap(i, l, ai, al)
		} else if au := s.get(u); s.lt(au, ai) {
			s.swap(i, u, ai, au)
		}
		if u-l == 2 {
			return
		}
		pivot := s.get(i)
		s.swap(i, u-1, pivot, s.get(u-1))
		// a[l] <= pivot == a[u-1] <= a[u]: partition l+1 .. u-2.
		j := u - 1
		i = l
		for {
			var ai, aj lua.LValue
			for {
				i++
				ai = s.get(i)
				if !s.lt(ai, pivot) {
					break
				}
				if i > u {
					s.L.RaiseError("invalid order function for sorting")
				}
			}
			for {
				j--
				aj = s.get(j)
				if !s.lt(pivot, aj) {
					break
				}
				if j < l {
					s.L.RaiseError("invalid order function for sorting")
				}
			}
			if j < i {
				break
			}
			s.swap(i, j, ai, aj)
		}
		s.swap(u-1, i, s.get(u-1), s.get(i))
		// Sort the smaller part by recursion, the larger by the loop.
		var lo, hi int
		if i-l < u-i {
			lo, hi, l = l, i-1, i+1
		} else {
			lo, hi, u = i+1, u, i-1
		}
		s.sort(lo, hi)
	}
}

// lessThan is Lua 5.1's a < b: numbers, strings byte by byte, or a __lt
// that both share. Any other pair is Lua 5.1's comparison error, raised
// without a position, as the VM raises it inside a C function.
func lessThan(L *lua.LState, a, b lua.LValue) bool {
	switch x := a.(type) {
	case lua.LNumber:
		if y, ok := b.(lua.LNumber); ok {
			return x < y
		}
	case lua.LString:
		if y, ok := b.(lua.LString); ok {
			return x < y
		}
	}
	if a.Type() == b.Type() {
		if tm := L.GetMetaField(a, "__lt"); tm != lua.LNil && tm == L.GetMetaField(b, "__lt") {
			L.Push(tm)
			L.Push(a)
			L.Push(b)
			L.Call(2, 1)
			r := lua.LVAsBool(L.Get(-1))
			L.Pop(1)
			return r
		}
	}
	t1, t2 := a.Type().String(), b.Type().String()
	if t1[2] == t2[2] {
		L.Error(lua.LString("attempt to compare two "+t1+" values"), 0)
	}
	L.Error(lua.LString("attempt to compare "+t1+" with "+t2), 0)
	return false
}
