package engine

import (
	"errors"
	"reflect"
	"sync"
	"unsafe"

	"github.com/alicebob/miniredis/v2"
)

// The janitor: what is kept beside keys that no longer exist, dropped.
//
// Three maps are keyed by key names and are not emptied when a key goes:
//   - miniredis's keyVersion, a counter per key its WATCH reads, which
//     every write and every delete bumps and nothing ever removes, not
//     even FLUSHALL: 1,000,000 keys made and deleted left 157 MiB behind
//     with DBSIZE 0;
//   - the engine's hash field orders (fixups_hash.go), kept for a hash
//     that was deleted by any command but HDEL of its last field;
//   - the sorted-set index (zsets.go), whose entry holds on to the very
//     map of a set deleted since.
//
// None of them is read for a key that is not there: the engine serves
// WATCH itself (multi.go) and never lets miniredis see it, a hash write to
// a missing key starts a new order, and a sorted-set entry whose map is not
// the key's is rebuilt. So the janitor may drop the entries of missing keys
// whenever it likes without changing a reply; it keeps the entries of keys
// that are there (a version, an order, a set's encoding). It looks every
// janitorEvery commands, and sweeps a
// map once it has grown past twice what its last sweep kept, plus
// janitorSlack: a sweep walks the map once, so its cost is paid for by the
// entries added since the last one. FLUSHDB and FLUSHALL drop the
// versions of what they emptied at once.
//
// keyVersion is private to miniredis: the janitor finds it, and the
// database map and key map it needs beside it, by name and type through
// reflection (dbLayout), as the Lua hook finds gopher-lua's frames.
// TestSeamKeyVersionOutlivesItsKey pins both what miniredis does and that
// the fields are where the janitor looks; if they are not, the janitor does
// nothing.

const (
	janitorEvery = 1024
	janitorSlack = 4096
)

// janitor is the engine's account of its sweeps.
type janitor struct {
	countdown int
	// versions and orders are how many entries each database's keyVersion
	// and hash orders kept at their last sweep, zsets how many names the
	// sorted-set index kept.
	versions, orders [databases]int
	zsets            int
}

// tick counts one command, and looks at the maps every janitorEvery.
func (e *Engine) tick() {
	if e.janitor.countdown--; e.janitor.countdown <= 0 {
		e.tidy()
	}
}

// flushed drops the key versions of database db, or of every database
// when db is -1, which FLUSHDB or FLUSHALL has just emptied (zsetsAfter has
// dropped the orders and the index entries already).
func (e *Engine) flushed(db int) {
	l, err := miniredisLayout()
	if err != nil {
		return
	}
	for n, d := range l.databases(e.m) {
		if n >= 0 && n < databases && (n == db || db < 0) {
			*l.versions(d) = map[string]uint{}
			e.janitor.versions[n] = 0
		}
	}
}

// tidy sweeps each map that has grown past its bound since its last sweep.
func (e *Engine) tidy() { e.sweep(false) }

// sweep sweeps the maps that are overdue, or every one when all is set.
func (e *Engine) sweep(all bool) {
	e.janitor.countdown = janitorEvery
	overdue := func(kept int) int {
		if all {
			return -1
		}
		return 2*kept + janitorSlack
	}
	l, err := miniredisLayout()
	if err != nil {
		return
	}
	var keys [databases]map[string]string
	for n, db := range l.databases(e.m) {
		if n < 0 || n >= databases || db == nil {
			continue
		}
		keys[n] = l.keys(db)
		if v := l.versions(db); len(*v) > overdue(e.janitor.versions[n]) {
			*v = keptFor(*v, func(k string) bool { _, ok := keys[n][k]; return ok })
			e.janitor.versions[n] = len(*v)
		}
	}
	for n, orders := range e.hashOrder {
		if len(orders) > overdue(e.janitor.orders[n]) {
			e.hashOrder[n] = keptFor(orders, func(k string) bool { return keys[n][k] == "hash" })
			e.janitor.orders[n] = len(e.hashOrder[n])
		}
	}
	if len(e.zsets) > overdue(e.janitor.zsets) {
		kept := make(map[string]*zkeys, min(len(e.zsets), 2*e.janitor.zsets+janitorSlack))
		for name, ks := range e.zsets {
			live := false
			for n, ent := range ks {
				if ent != nil && keys[n][name] != "zset" {
					ks[n] = nil
				}
				live = live || ks[n] != nil
			}
			if live {
				kept[name] = ks
			}
		}
		e.zsets, e.janitor.zsets = kept, len(kept)
	}
}

// keptFor copies the entries of m whose key keep says to keep into a new
// map: deleting from a Go map frees none of its room.
func keptFor[V any](m map[string]V, keep func(string) bool) map[string]V {
	out := make(map[string]V)
	for k, v := range m {
		if keep(k) {
			out[k] = v
		}
	}
	return out
}

// dbLayout is where miniredis keeps its databases, and in each the type of
// every key and the keyVersion map.
type dbLayout struct{ dbsAt, keysAt, versionsAt uintptr }

var miniredisLayout = sync.OnceValues(findMiniredisLayout)

func findMiniredisLayout() (dbLayout, error) {
	dbs, ok := reflect.TypeOf(miniredis.Miniredis{}).FieldByName("dbs")
	if !ok || dbs.Type != reflect.TypeOf(map[int]*miniredis.RedisDB(nil)) {
		return dbLayout{}, errors.New("Miniredis has no dbs map[int]*RedisDB")
	}
	rt := reflect.TypeOf(miniredis.RedisDB{})
	keys, ok := rt.FieldByName("keys")
	kv, ok2 := rt.FieldByName("keyVersion")
	if !ok || !ok2 || keys.Type != reflect.TypeOf(map[string]string(nil)) || kv.Type != reflect.TypeOf(map[string]uint(nil)) {
		return dbLayout{}, errors.New("RedisDB has no keys map[string]string and keyVersion map[string]uint")
	}
	return dbLayout{dbs.Offset, keys.Offset, kv.Offset}, nil
}

func (l dbLayout) databases(m *miniredis.Miniredis) map[int]*miniredis.RedisDB {
	return *(*map[int]*miniredis.RedisDB)(unsafe.Add(unsafe.Pointer(m), l.dbsAt))
}

func (l dbLayout) keys(db *miniredis.RedisDB) map[string]string {
	return *(*map[string]string)(unsafe.Add(unsafe.Pointer(db), l.keysAt))
}

func (l dbLayout) versions(db *miniredis.RedisDB) *map[string]uint {
	return (*map[string]uint)(unsafe.Add(unsafe.Pointer(db), l.versionsAt))
}
