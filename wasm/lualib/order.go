package lualib

import (
	"math"

	lua "github.com/yuin/gopher-lua"
)

// luaOrder lists a table's pairs in the order Lua 5.1's next() would give
// them, which is the order cjson writes an object's members and cmsgpack a
// map's. That order comes from where Lua 5.1 puts each key: an array part
// for the keys 1..n it finds dense enough, then a hash part whose slots
// follow from each key's hash and the order of insertion.
//
// gopher-lua keeps no such layout, so luaOrder rebuilds it: it replays the
// table's keys, in the order gopher-lua keeps them (insertion order), into
// a model of Lua 5.1's table starting empty, as `local t = {}` followed by
// assignments (or cjson.decode) builds it. A table written as a
// constructor, {a = 1, b = 2, c = 3}, starts with its hash part already
// sized in Lua 5.1 and can come out in another order when keys collide.
// Keys whose hash is an address (tables, functions) cannot be modelled;
// a table with one keeps gopher-lua's order.
func luaOrder(t *lua.LTable) [][2]lua.LValue {
	pairs, _ := modelledOrder(t)
	return pairs
}

// modelledOrder is luaOrder, and whether the order is surely Lua 5.1's:
// false for a table of two or more keys with one the model cannot place
// (a table, a function: gopher-lua's order is kept), or with number keys
// other than 1..n, whose places in Lua 5.1 depend on the order the keys
// were added in, which gopher-lua does not keep for numbers (see the
// known difference tables/pairs-mixed).
func modelledOrder(t *lua.LTable) ([][2]lua.LValue, bool) {
	var pairs [][2]lua.LValue
	modelled, sure := true, true
	numbers, highest := 0, 0 // the number keys are sure when they are 1..n
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		pairs = append(pairs, [2]lua.LValue{k, v})
		switch k := k.(type) {
		case lua.LString, lua.LBool:
		case lua.LNumber:
			numbers++
			if i := arrayIndex(k); i < 1 {
				sure = false
			} else {
				highest = max(highest, i)
			}
		default:
			modelled = false
		}
	}
	sure = sure && modelled && highest == numbers || len(pairs) < 2
	if !modelled || len(pairs) < 2 {
		return pairs, sure
	}
	m := &luaTable{}
	for i, p := range pairs {
		m.set(p[0], i)
	}
	out := make([][2]lua.LValue, 0, len(pairs))
	for _, i := range m.order() {
		out = append(out, pairs[i])
	}
	return out, sure
}

// luaTable models the layout of a Lua 5.1 table (ltable.c): which slot of
// the array or hash part holds each key. Values are indexes into the
// caller's list of pairs; -1 is an empty slot.
type luaTable struct {
	array    []int
	nodes    []luaNode // len is a power of 2; none at all is Lua's dummy node
	lastFree int
}

type luaNode struct {
	key  lua.LValue
	val  int
	next int // index of the next node in the chain, -1 for none
}

const luaMaxBits = 30 // MAXBITS for a 32-bit int

// arrayIndex is the key as an array index, or -1.
func arrayIndex(k lua.LValue) int {
	n, ok := k.(lua.LNumber)
	if !ok {
		return -1
	}
	f := float64(n)
	i := cInt32(f)
	if float64(i) != f {
		return -1
	}
	return int(i)
}

// luaStringHash is the string hash of Redis's Lua 5.1, seeded with the
// length. Stock Lua 5.1 hashes every ((len>>5)+1)th byte; Redis hashes them
// all, which the order of long keys shows.
func luaStringHash(s string) uint32 {
	h := uint32(len(s))
	for i := len(s); i >= 1; i-- {
		h ^= (h << 5) + (h >> 2) + uint32(s[i-1])
	}
	return h
}

// mainPosition is the slot a key hashes to.
func (t *luaTable) mainPosition(k lua.LValue) int {
	size := len(t.nodes)
	switch k := k.(type) {
	case lua.LString:
		return int(luaStringHash(string(k)) & uint32(size-1))
	case lua.LBool:
		b := uint32(0)
		if k {
			b = 1
		}
		return int(b & uint32(size-1))
	case lua.LNumber:
		f := float64(k)
		if f == 0 {
			return 0
		}
		bits := math.Float64bits(f)
		a := uint32(bits) + uint32(bits>>32)
		return int(a % uint32((size-1)|1))
	}
	return 0
}

func (t *luaTable) findNode(k lua.LValue) int {
	if len(t.nodes) == 0 {
		return -1
	}
	for n := t.mainPosition(k); n >= 0; n = t.nodes[n].next {
		if nk := t.nodes[n].key; nk != nil && sameKey(nk, k) {
			return n
		}
	}
	return -1
}

func sameKey(a, b lua.LValue) bool {
	switch a := a.(type) {
	case lua.LNumber:
		b, ok := b.(lua.LNumber)
		return ok && a == b
	case lua.LString:
		b, ok := b.(lua.LString)
		return ok && a == b
	case lua.LBool:
		b, ok := b.(lua.LBool)
		return ok && a == b
	}
	return false
}

// set is luaH_set followed by storing the value.
func (t *luaTable) set(k lua.LValue, v int) {
	if i := arrayIndex(k); i >= 1 && i <= len(t.array) {
		t.array[i-1] = v
		return
	}
	if n := t.findNode(k); n >= 0 {
		t.nodes[n].val = v
		return
	}
	t.newKey(k, v)
}

func (t *luaTable) getFreePos() int {
	for t.lastFree > 0 {
		t.lastFree--
		if t.nodes[t.lastFree].key == nil {
			return t.lastFree
		}
	}
	return -1
}

// newKey is ltable.c's newkey: the key goes to its main position; if that
// is taken, one of the two moves to a free slot, and with none free the
// table is resized and the key set again.
func (t *luaTable) newKey(k lua.LValue, v int) {
	if len(t.nodes) == 0 {
		t.rehash(k)
		t.set(k, v)
		return
	}
	mp := t.mainPosition(k)
	if t.nodes[mp].val >= 0 {
		free := t.getFreePos()
		if free < 0 {
			t.rehash(k)
			t.set(k, v)
			return
		}
		other := t.mainPosition(t.nodes[mp].key)
		if other != mp {
			// The colliding node is out of its main position: move it.
			for t.nodes[other].next != mp {
				other = t.nodes[other].next
			}
			t.nodes[other].next = free
			t.nodes[free] = t.nodes[mp]
			t.nodes[mp].next = -1
			t.nodes[mp].val = -1
		} else {
			// The new key goes to the free slot, chained after mp.
			t.nodes[free].next = t.nodes[mp].next
			t.nodes[mp].next = free
			mp = free
		}
	}
	t.nodes[mp].key = k
	t.nodes[mp].val = v
}

func ceilLog2(x int) int {
	l := 0
	for (1 << l) < x {
		l++
	}
	return l
}

// rehash counts the keys (and the one being added), picks the array size
// (the largest power of 2 more than half full) and rebuilds the table.
func (t *luaTable) rehash(extra lua.LValue) {
	var nums [luaMaxBits + 1]int
	count := func(k lua.LValue) int {
		if i := arrayIndex(k); i > 0 && i <= 1<<luaMaxBits {
			nums[ceilLog2(i)]++
			return 1
		}
		return 0
	}
	nasize, total := 0, 0
	for i, v := range t.array {
		if v >= 0 {
			nums[ceilLog2(i+1)]++
			nasize++
			total++
		}
	}
	for i := len(t.nodes) - 1; i >= 0; i-- {
		if n := t.nodes[i]; n.val >= 0 {
			nasize += count(n.key)
			total++
		}
	}
	nasize += count(extra)
	total++
	// computesizes
	a, na, n := 0, 0, 0
	for i, twoToI := 0, 1; twoToI/2 < nasize; i, twoToI = i+1, twoToI*2 {
		if nums[i] > 0 {
			a += nums[i]
			if a > twoToI/2 {
				n, na = twoToI, a
			}
		}
		if a == nasize {
			break
		}
	}
	t.resize(n, total-na)
}

func (t *luaTable) resize(nasize, nhsize int) {
	oldArray, oldNodes := t.array, t.nodes
	if nasize > len(oldArray) {
		grown := make([]int, nasize)
		copy(grown, oldArray)
		for i := len(oldArray); i < nasize; i++ {
			grown[i] = -1
		}
		t.array = grown
	}
	t.nodes = nil
	if nhsize > 0 {
		t.nodes = make([]luaNode, 1<<ceilLog2(nhsize))
		for i := range t.nodes {
			t.nodes[i] = luaNode{val: -1, next: -1}
		}
	}
	t.lastFree = len(t.nodes)
	if nasize < len(oldArray) {
		t.array = oldArray[:nasize]
		for i := nasize; i < len(oldArray); i++ {
			if oldArray[i] >= 0 {
				t.set(lua.LNumber(i+1), oldArray[i])
			}
		}
	}
	for i := len(oldNodes) - 1; i >= 0; i-- {
		if n := oldNodes[i]; n.val >= 0 {
			t.set(n.key, n.val)
		}
	}
}

// order is luaH_next's order: the array part, then the hash slots.
func (t *luaTable) order() []int {
	var out []int
	for _, v := range t.array {
		if v >= 0 {
			out = append(out, v)
		}
	}
	for _, n := range t.nodes {
		if n.val >= 0 {
			out = append(out, n.val)
		}
	}
	return out
}

// Pairs lists t's key/value pairs in the order Redis's Lua would give them
// to next(): what the engine uses when a script returns {map = t} or
// {set = t} and the reply must list their members in Redis's order.
func Pairs(t *lua.LTable) [][2]lua.LValue { return luaOrder(t) }
