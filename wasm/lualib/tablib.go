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
	callFromC(L, 2, 1)
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
			callFromC(L, 2, 1)
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

// tableRemove is table.remove(t [, pos]): nothing at all (not even nil)
// when pos is outside 1..#t.
func tableRemove(L *lua.LState) int {
	t := checkTable(L, 1)
	e := luaLen(t)
	pos := int(optInt(L, 2, int32(e)))
	if pos < 1 || pos > e {
		return 0
	}
	L.Push(t.RawGetInt(pos))
	for ; pos < e; pos++ {
		t.RawSetInt(pos, t.RawGetInt(pos+1))
	}
	t.RawSetInt(e, lua.LNil)
	return 1
}

// tableMaxn is table.maxn: the largest positive number among the keys,
// whole or not.
func tableMaxn(L *lua.LState) int {
	t := checkTable(L, 1)
	m := 0.0
	t.ForEach(func(k, _ lua.LValue) {
		if n, ok := k.(lua.LNumber); ok && float64(n) > m {
			m = float64(n)
		}
	})
	L.Push(lua.LNumber(m))
	return 1
}

// baseSelect is select(n, ...): '#' counts, a negative n counts from the
// end, and n is read as luaL_checkint reads it.
func baseSelect(L *lua.LState) int {
	n := L.GetTop()
	if s, ok := L.Get(1).(lua.LString); ok && len(s) > 0 && s[0] == '#' {
		L.Push(lua.LNumber(n - 1))
		return 1
	}
	i := int(checkInt(L, 1))
	if i < 0 {
		i += n
	} else if i > n {
		i = n
	}
	if i < 1 {
		argError(L, 1, "index out of range")
	}
	return n - i
}

// baseSetmetatable is setmetatable(t, mt), with Lua 5.1's argument errors.
func baseSetmetatable(L *lua.LState) int {
	t := checkTable(L, 1)
	switch L.Get(2).(type) {
	case *lua.LNilType, *lua.LTable:
	default:
		// Named as written: a call in tail position has no name here.
		L.RaiseError("bad argument #2 to 'setmetatable' (nil or table expected)")
	}
	if L.GetMetaField(t, "__metatable") != lua.LNil {
		L.RaiseError("cannot change a protected metatable")
	}
	L.SetMetatable(t, L.Get(2))
	L.SetTop(1)
	return 1
}

// basePairs is pairs(t): the table's pairs in the order Lua 5.1's next
// would give them (luaOrder), where gopher-lua's next gives insertion
// order. The order is taken once, when the loop starts; each step reads
// the key's value afresh and passes over a key whose value has been set
// to nil meanwhile, so a loop may change or clear fields as it goes, as
// Lua allows. (Adding keys during a traversal is undefined in Lua.)
//
// The iterator is a function of its own, as in Lua 5.1 (pairs(t) == next
// is false there too); it follows the order from any key it was handed.
func basePairs(L *lua.LState) int {
	t := checkTable(L, 1)
	order := walkOrder(L, t)
	pos := 0 // where the key handed back last sits in order, plus one
	L.Push(L.NewFunction(func(L *lua.LState) int {
		k := L.Get(2)
		switch {
		case k == lua.LNil:
			pos = 0
		case pos > 0 && pos <= len(order) && anyKeyEq(order[pos-1][0], k):
		default:
			pos = -1
			for i, p := range order {
				if anyKeyEq(p[0], k) {
					pos = i + 1
					break
				}
			}
			if pos < 0 {
				L.RaiseError("invalid key to 'next'")
			}
		}
		for pos < len(order) {
			key := order[pos][0]
			pos++
			if v := t.RawGet(key); v != lua.LNil {
				L.Push(key)
				L.Push(v)
				return 2
			}
		}
		L.Push(lua.LNil)
		return 1
	}))
	L.Push(t)
	L.Push(lua.LNil)
	return 3
}

// anyKeyEq is raw equality of two keys of any type.
func anyKeyEq(a, b lua.LValue) bool { return sameKey(a, b) || a == b }
