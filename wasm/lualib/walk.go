package lualib

import lua "github.com/yuin/gopher-lua"

// Lua 5.1's next, and the walks whose order the model cannot give.
//
// pairs and next walk a table in the order of Lua 5.1's slots, which
// luaOrder models. gopher-lua's own next walks in insertion order, so a
// script's `for k, v in next, t` or `next(t)` took another path than
// Redis's; baseNext follows the model, as pairs does.
//
// Where the model cannot be sure of a key's place (a table or a function
// as a key, hashed by its address in Lua 5.1; a number outside the array
// part, placed by an insertion order gopher-lua does not keep), the walk
// says so through the function OnUnknownOrder set, for the engine to note
// beside the script's reply.

// nextWalk is where next was last asked for: the table, its order, and
// the position after the key it handed back last. A loop of next calls
// asks for the key after the one it was just given, found here without
// rebuilding the order.
type nextWalk struct {
	t     *lua.LTable
	order [][2]lua.LValue
	pos   int
}

// OnUnknownOrder sets f to be called whenever pairs or next starts a walk
// of a table of two or more keys whose order is not the one Lua 5.1 gives.
func OnUnknownOrder(L *lua.LState, f func()) {
	if st := stateOf(L); st != nil {
		st.unknownOrder = f
	}
}

// walkOrder is t's order for a walk starting now, counted as work (one
// unit a key: a loop that calls next(t) on a big table is that many
// times the table's size), and told to OnUnknownOrder's function when it
// is not the model's.
func walkOrder(L *lua.LState, t *lua.LTable) [][2]lua.LValue {
	order, modelled := modelledOrder(t)
	if len(order) > 1 {
		poll(L, len(order))
	}
	if !modelled {
		if st := stateOf(L); st != nil && st.unknownOrder != nil {
			st.unknownOrder()
		}
	}
	return order
}

// baseNext is next(t [, k]): the key after k in Lua 5.1's order, and its
// value; nil at the end; "invalid key to 'next'" for a key t lacks.
func baseNext(L *lua.LState) int {
	t := checkTable(L, 1)
	k := L.Get(2)
	st := stateOf(L)
	w := &nextWalk{}
	if st != nil {
		w = &st.walk
	}
	switch {
	case k == lua.LNil:
		// A fresh walk: the table may have changed since the last.
		if first, _ := t.Next(lua.LNil); first == lua.LNil {
			L.Push(lua.LNil) // empty: no order to build (the common test)
			return 1
		}
		w.t, w.order, w.pos = t, walkOrder(L, t), 0
	case w.t == t && w.pos > 0 && w.pos <= len(w.order) && anyKeyEq(w.order[w.pos-1][0], k):
	default:
		if w.t != t {
			w.t, w.order = t, luaOrder(t)
		}
		w.pos = -1
		for i, p := range w.order {
			if anyKeyEq(p[0], k) {
				w.pos = i + 1
				break
			}
		}
		if w.pos < 0 {
			w.t = nil
			L.Error(lua.LString("invalid key to 'next'"), 0) // from C: no position, as in Lua 5.1
		}
	}
	for w.pos < len(w.order) {
		key := w.order[w.pos][0]
		w.pos++
		if v := t.RawGet(key); v != lua.LNil {
			L.Push(key)
			L.Push(v)
			return 2
		}
	}
	w.t, w.order = nil, nil // the walk is over: hold nothing of the table
	L.Push(lua.LNil)
	return 1
}
