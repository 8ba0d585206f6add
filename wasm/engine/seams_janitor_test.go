package engine

import "testing"

// TestSeamKeyVersionOutlivesItsKey: what the janitor (janitor.go) relies
// on in miniredis. Its databases are in Miniredis.dbs, and each keeps the
// type of every key in keys and a WATCH version per key in keyVersion,
// where the janitor's reflected offsets find them. A delete bumps the
// version and leaves it, and FLUSHALL leaves every version, which is the
// memory the janitor gives back. And keyVersion is read only by miniredis's
// own EXEC, which the engine never sends it: a version swept away cannot
// change a reply.
func TestSeamKeyVersionOutlivesItsKey(t *testing.T) {
	l, err := miniredisLayout()
	if err != nil {
		t.Fatalf("the janitor cannot find miniredis's fields: %v", err)
	}
	d := newDispatcher(t)
	d.do(t, "SET", "a", "1")
	d.do(t, "SET", "b", "1")
	d.do(t, "DEL", "a")
	db := l.databases(d.m)[0]
	if db == nil || db != d.m.DB(0) {
		t.Fatalf("Miniredis.dbs[0] is %p, DB(0) is %p", db, d.m.DB(0))
	}
	if keys := l.keys(db); len(keys) != 1 || keys["b"] != "string" {
		t.Errorf("RedisDB.keys = %v, want b's type alone", keys)
	}
	if v := *l.versions(db); len(v) != 2 || v["a"] != 2 || v["b"] != 1 {
		t.Errorf("keyVersion after SET a, SET b, DEL a = %v, want a: 2 (kept for the deleted key), b: 1", v)
	}
	d.do(t, "FLUSHALL")
	if v := *l.versions(db); len(v) != 2 {
		t.Errorf("keyVersion after FLUSHALL = %v, want both versions kept", v)
	}

	// The engine serves every transaction command itself: none reaches
	// miniredis's command table, whose EXEC is keyVersion's one reader.
	e := MustNew()
	for _, name := range []string{"MULTI", "EXEC", "DISCARD", "WATCH", "UNWATCH"} {
		if !e.lookupName(name).tx {
			t.Errorf("%s is not served by the engine's transactions (multi.go)", name)
		}
	}
	// And WATCH still sees a key deleted and made again after a sweep.
	c := e.NewClient()
	cdo(t, c, "OK", "WATCH", "w")
	do(t, e, "OK", "SET", "w", "1")
	do(t, e, "(integer) 1", "DEL", "w")
	e.mu.Lock()
	e.sweep(true)
	e.mu.Unlock()
	cdo(t, c, "OK", "MULTI")
	cdo(t, c, "QUEUED", "GET", "w")
	cdo(t, c, "(nil)", "EXEC")
}
