package fidelity

// Cases for pairs and next, which walk a table in Lua 5.1's order as
// wasm/lualib models it (order.go, walk.go): next too, which in gopher-lua
// walks in insertion order. A walk of keys the model cannot place (tables,
// functions) is compared only in what it visits; the engine notes its
// order as one Redis may not give (wasm/engine/undefined.go).
func walkCases() []fcase {
	return []fcase{
		lc("tables/pairs-visits", "pairs and next visit every key once, array part and hash part",
			"(function() local n = 0 for k, v in pairs({1, 2, 3, a = 4, b = 5}) do n = n + v end return n end)()",
			"(function() local n = 0 for k, v in next, {a = 1, b = 2, [10] = 3} do n = n + v end return n end)()",
			"(function() local n = 0 for k in pairs({}) do n = n + 1 end return n end)()",
			"next({})", "next({}, nil)", "next({7})"),
		lc("tables/pairs-is-not-next", "pairs returns an iterator of its own, not the global next",
			"tostring(select(1, pairs({})) == next)", "type(select(1, pairs({})))", "select('#', pairs({}))"),
		lcScript("tables/next-order", "next walks string and number keys in the order Lua 5.1 keeps them, as pairs does",
			"local t, r, k = {a = 1, b = 2, c = 3, d = 4}, {} k = next(t) while k do r[#r + 1] = k k = next(t, k) end return r",
			"local t, r = {}, {} for i = 1, 20 do t['key' .. i] = i end local k = next(t) while k do r[#r + 1] = k k = next(t, k) end return r",
			"local t, r = {10, 20, 30, x = 1, [7] = 2, [2.5] = 3}, {} for k in next, t do r[#r + 1] = tostring(k) end return r",
			"local t, r = {}, {} t.z = 1 t.y = 2 t.x = 3 t.z = nil local k = next(t) while k do r[#r + 1] = k k = next(t, k) end return r",
			"local t, r = {a = 1, b = 2, c = 3}, {} for k in pairs(t) do t[k] = nil r[#r + 1] = k end return {r, tostring(next(t))}"),
		lcScript("tables/for-in-list", "A generic for whose list is shorter than three values gets nil for the rest, in a script and in loadstring's chunk",
			"local n = 0 for k, v in next, {a = 1, b = 2, [10] = 3} do n = n + v end return n",
			"local n = 0 for k in next, {x = 1, [5] = 2} do n = n + 1 end return n",
			"local t = {[3] = 'c', [7] = 'd'} local r = {} for k, v in next, t do r[#r + 1] = v end return #r",
			"return loadstring('local n = 0 for k, v in next, {a = 1, b = 2, [10] = 3} do n = n + v end return n')()",
			"local f = function() local n = 0 for _, v in next, {p = 4, [9] = 5} do n = n + v end return n end return f()"),
		lc("tables/pairs-errors", "pairs and next of what is not a table, and next of a key the table lacks",
			"pairs(nil)", "pairs(1)", "next()", "next('x')", "next({}, 'nokey')"),
	}
}
