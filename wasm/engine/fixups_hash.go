package engine

import (
	"slices"
	"strconv"

	"github.com/alicebob/miniredis/v2/server"

	"echomq.dev/playground/wasm/ascii"
	"echomq.dev/playground/wasm/resp"
)

// Hash field order. Redis keeps a small hash (up to 512 fields of up to 64
// bytes) as a listpack, in the order its fields were first set, so HGETALL
// of a job row reads state, attempts, payload. miniredis sorts the fields.
// The engine remembers each hash's insertion order and replies in it.
//
// A hash past those limits is a hash table in Redis, whose order depends on
// its internals; the engine keeps insertion order there too, which is one
// order Redis could give, not the one it will.
//
// The order is learned from the writes (HSET, HSETNX, HMSET, HINCRBY,
// HINCRBYFLOAT, HDEL); a write to a hash that does not exist starts a new
// order, so a hash deleted by any command and made again starts afresh,
// and a read puts any field the engine did not see written (RESTORE, say)
// after the known ones. Orders are kept per database, and follow a hash
// that RENAME, RENAMENX, COPY, MOVE or SWAPDB carries elsewhere, as
// Redis's listpack goes with its key (see zsetsAfter, which carries them
// with the sorted sets' entries).

// orderKey names one hash: its database and its key.
type orderKey struct {
	db  int
	key string
}

// hashOrders are the known orders, a map per database: a map keyed by
// the key name alone hashes it with Go's fast string hash, where one keyed
// by orderKey goes through the generic one, and every hash write looks its
// key up here.
type hashOrders [databases]map[string]*fieldOrder

func (h *hashOrders) get(k orderKey) *fieldOrder { return h[k.db][k.key] }

func (h *hashOrders) set(k orderKey, o *fieldOrder) {
	if h[k.db] == nil {
		h[k.db] = map[string]*fieldOrder{}
	}
	h[k.db][k.key] = o
}

func (h *hashOrders) drop(k orderKey) { delete(h[k.db], k.key) }

// hscanInOrder puts the fields of scan's HSCAN reply in insertion order.
func hscanInOrder(scan fixup) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		r := scan(e, peer, args)
		if r.Kind == resp.Array && len(r.Elems) == 2 && len(args) > 1 {
			r.Elems[1] = e.reorderPairs(orderKey{e.dbOf[peer], args[1]}, r.Elems[1])
		}
		return r
	}
}

// trackHashOrder runs a hash write and updates the key's field order: a
// hash that did not exist before starts a new order; the fields the command
// added follow the ones already there, in the order it named them; HDEL
// takes its fields out. Fields a write named but did not add were there
// before, so they keep their places.
//
// name is the command the fixup serves (upper-case), so that the command
// is not recognised again from its arguments on every write.
func trackHashOrder(name string, next fixup) fixup {
	hdel := name == "HDEL"
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		if len(args) < 2 {
			return runFixup(next, e, peer, args)
		}
		db := e.dbOf[peer]
		key := orderKey{db, args[1]}
		// Whether the hash existed before the write matters only when an
		// order is known for the key: with none, the order starts afresh
		// either way, and the direct read is skipped (a new job row).
		known := e.hashOrder.get(key)
		e.hashBefore = existence{} // an outer write's read is not this one's
		plain := e.plain(HashReads)
		if known != nil || plain {
			exists := e.db(db).Exists(args[1])
			if !exists {
				known = nil
			}
			if !plain {
				e.hashBefore = existence{key: args[1], db: db, exists: exists, known: true}
			}
		}
		r := runFixup(next, e, peer, args)
		e.hashBefore = existence{}
		if r.IsError() {
			return r
		}
		first, step := commandFields(name, args)
		if !plain && !known.changedBy(hdel, args, first, step) {
			return r // a claim's HINCRBY and HSET on a job row: nothing to do
		}
		o := known
		if o == nil || o.pos == nil {
			// A small order may be shared (see internOrder): the new one
			// is worked out in the engine's scratch order.
			o = &e.orderBuf
			o.fields = append(o.fields[:0], known.list()...)
		}
		for i := first; i < len(args); i += step {
			if hdel {
				o.remove(args[i])
			} else {
				o.add(args[i])
			}
		}
		switch {
		case o.size() == 0:
			e.hashOrder.drop(key)
		case o.pos == nil:
			e.hashOrder.set(key, e.internOrder(o.fields))
		case o == &e.orderBuf:
			// Grown past the small form: the key owns it from now on.
			big := *o
			e.hashOrder.set(key, &big)
			e.orderBuf = fieldOrder{}
		}
		clear(e.orderBuf.fields) // the scratch keeps no field names alive
		return r
	}
}

// existence is whether one key existed before the command now running,
// when the engine read it already (see Engine.existed).
type existence struct {
	key           string
	db            int
	exists, known bool
}

// existed reports whether key in db exists, before the write the command
// running makes: trackHashOrder reads that before a write to a hash with
// a known order, and the HSET it wraps need not read it again.
func (e *Engine) existed(db int, key string) bool {
	if b := e.hashBefore; b.known && b.db == db && b.key == key {
		return b.exists
	}
	return e.db(db).Exists(key)
}

// smallOrder is the most fields a hash's order keeps in its small form: a
// slice that is copied whole on a write that adds or removes a field, and
// may be shared. An order past it is a big one, with an index of its
// fields, so that a hash grown field by field (a script's HSET loop) costs
// O(1) a field and not a copy of every field before it.
const smallOrder = 16

// fieldOrder is one hash's field order. In its small form (pos is nil) it
// is never changed once stored, so many hashes can share one. In its big
// form it belongs to one key and is changed in place: fields holds the
// fields in the order they were added, with removed ones leaving dead
// slots, and pos says where each field that is there now sits. A field
// removed and added again gets a new slot at the end.
type fieldOrder struct {
	fields []string
	pos    map[string]int
	dead   int // dead slots in fields, big form only
}

// at reports whether slot i of fields holds a field that is there.
func (o *fieldOrder) at(i int) bool {
	if o.pos == nil {
		return true
	}
	p, ok := o.pos[o.fields[i]]
	return ok && p == i
}

func (o *fieldOrder) has(f string) bool {
	if o == nil {
		return false
	}
	if o.pos == nil {
		return slices.Contains(o.fields, f)
	}
	_, ok := o.pos[f]
	return ok
}

// list is the small form's fields (none for no order).
func (o *fieldOrder) list() []string {
	if o == nil {
		return nil
	}
	return o.fields
}

func (o *fieldOrder) size() int {
	if o.pos == nil {
		return len(o.fields)
	}
	return len(o.pos)
}

// changedBy reports whether the write names a field it would add (or, for
// HDEL, take out).
func (o *fieldOrder) changedBy(hdel bool, args []string, first, step int) bool {
	for i := first; i < len(args); i += step {
		if o.has(args[i]) == hdel {
			return true
		}
	}
	return false
}

// add puts f last, unless it is there already; past smallOrder fields the
// order takes its big form.
func (o *fieldOrder) add(f string) {
	if o.has(f) {
		return
	}
	if o.pos != nil {
		o.pos[f] = len(o.fields)
	}
	o.fields = append(o.fields, f)
	if o.pos == nil && len(o.fields) > smallOrder {
		o.pos = make(map[string]int, 2*len(o.fields))
		for i, g := range o.fields {
			o.pos[g] = i
		}
	}
}

// remove takes f out. In the big form its slot dies; once half the slots
// are dead, the live ones are packed together again: O(1) amortised.
func (o *fieldOrder) remove(f string) {
	if o.pos == nil {
		if i := slices.Index(o.fields, f); i >= 0 {
			o.fields = slices.Delete(o.fields, i, i+1)
		}
		return
	}
	i, ok := o.pos[f]
	if !ok {
		return
	}
	delete(o.pos, f)
	o.fields[i] = "" // kept alive by nobody; the slot is dead whatever it holds
	if o.dead++; o.dead > len(o.fields)/2 {
		live := o.fields[:0]
		for j, g := range o.fields {
			if o.at(j) {
				o.pos[g] = len(live)
				live = append(live, g)
			}
		}
		clear(o.fields[len(live):])
		o.fields, o.dead = live, 0
	}
}

// clone is a copy a second key can own (COPY).
func (o *fieldOrder) clone() *fieldOrder {
	if o.pos == nil {
		return o // never changed in place: shared
	}
	c := &fieldOrder{}
	for i, f := range o.fields {
		if o.at(i) {
			c.add(f)
		}
	}
	return c
}

// internOrder returns a stored small order of fields. Hashes written alike
// have the same order (every job row is state, attempts, payload), so the
// copy made for the last new order is handed out again while orders keep
// matching: thousands of job rows then share one instead of holding one
// each, which is less to allocate and less for the garbage collector to
// walk. A small order is never changed in place (the next order is built
// in orderBuf), so sharing one is safe.
func (e *Engine) internOrder(fields []string) *fieldOrder {
	if e.lastOrder == nil || !slices.Equal(fields, e.lastOrder.fields) || e.plain(SharedOrders) {
		e.lastOrder = &fieldOrder{fields: slices.Clone(fields)}
	}
	return e.lastOrder
}

// commandFields says where a hash write names its fields: args[first],
// then every step-th argument (HSET's field/value pairs), up to the end.
func commandFields(name string, args []string) (first, step int) {
	switch name {
	case "HSET", "HMSET":
		if len(args)%2 != 0 {
			return len(args), 1 // malformed: the command fails anyway
		}
		return 2, 2
	case "HSETNX", "HINCRBY", "HINCRBYFLOAT":
		return 2, len(args) // just the one field
	case "HDEL":
		return 2, 1
	}
	return len(args), 1
}

// order is the key's insertion order, reconciled with the fields it has
// now: known fields in their order, any others (written by a command the
// engine does not follow) after them, in miniredis's order.
func (e *Engine) order(key orderKey, present []string) []string {
	has := make(map[string]bool, len(present))
	for _, f := range present {
		has[f] = true
	}
	out := make([]string, 0, len(present))
	placed := make(map[string]bool, len(present))
	if known := e.hashOrder.get(key); known != nil {
		for i, f := range known.fields {
			if known.at(i) && has[f] {
				out = append(out, f)
				placed[f] = true
			}
		}
	}
	for _, f := range present {
		if !placed[f] {
			out = append(out, f)
		}
	}
	return out
}

// orderedHash replies to HGETALL (stride 2), HKEYS or HVALS (stride 1) in
// insertion order. pick is the element of each field's group to return.
func orderedHash(stride, pick int) fixup {
	return func(e *Engine, peer *server.Peer, args []string) resp.Reply {
		if len(args) != 2 {
			return e.raw(peer, args)
		}
		all := e.raw(peer, []string{"HGETALL", args[1]})
		if all.Kind != resp.Array {
			return all
		}
		pairs := e.reorderPairs(orderKey{e.dbOf[peer], args[1]}, all)
		if stride == 2 {
			return pairs
		}
		out := make([]resp.Reply, 0, len(pairs.Elems)/2)
		for i := pick; i < len(pairs.Elems); i += 2 {
			out = append(out, pairs.Elems[i])
		}
		return resp.ArrayReply(out...)
	}
}

// reorderPairs puts a field/value array in the key's insertion order.
func (e *Engine) reorderPairs(key orderKey, r resp.Reply) resp.Reply {
	if r.Kind != resp.Array || e.hashOrder.get(key) == nil {
		return r
	}
	values := make(map[string]resp.Reply, len(r.Elems)/2)
	present := make([]string, 0, len(r.Elems)/2)
	for i := 0; i+1 < len(r.Elems); i += 2 {
		values[r.Elems[i].Str] = r.Elems[i+1]
		present = append(present, r.Elems[i].Str)
	}
	out := make([]resp.Reply, 0, len(r.Elems))
	for _, f := range e.order(key, present) {
		out = append(out, resp.BulkReply(f), values[f])
	}
	return resp.ArrayReply(out...)
}

// moveOrder gives to the order of from (or none), and takes it from from
// when the command moved the key rather than copied it.
func (e *Engine) moveOrder(from, to orderKey, move bool) {
	order := e.hashOrder.get(from)
	if move {
		e.hashOrder.drop(from)
	} else if order != nil {
		order = order.clone() // a big order is changed in place: each key its own
	}
	if order != nil {
		e.hashOrder.set(to, order)
	} else {
		e.hashOrder.drop(to)
	}
}

// swapOrders trades the orders of databases a and b, as SWAPDB trades
// their keys.
func (e *Engine) swapOrders(a, b int) {
	e.hashOrder[a], e.hashOrder[b] = e.hashOrder[b], e.hashOrder[a]
}

// copyTarget is the database COPY src dst [DB n] [REPLACE] writes to.
func copyTarget(args []string, db int) (int, bool) {
	if len(args) < 3 {
		return 0, false
	}
	for i := 3; i < len(args); i++ {
		if ascii.EqualFold(args[i], "DB") && i+1 < len(args) {
			n, err := strconv.Atoi(args[i+1])
			return n, err == nil
		}
	}
	return db, true
}
