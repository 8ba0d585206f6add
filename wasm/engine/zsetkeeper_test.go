package engine

import (
	"fmt"
	"strings"
	"testing"
)

// TestOtherTypeWritesRefuseASortedSet holds otherTypeWrites to what the
// index relies on: each of its commands, run on a key that holds a sorted
// set, answers WRONGTYPE and leaves the set as it was. A command added to
// the list without a line here fails too, since the index would skip its
// check after it (zsetKeeper).
func TestOtherTypeWritesRefuseASortedSet(t *testing.T) {
	args := map[string][]string{
		"GETSET": {"v"}, "GETDEL": nil, "GETEX": {"PERSIST"}, "APPEND": {"v"}, "SETRANGE": {"0", "v"},
		"INCR": nil, "DECR": nil, "INCRBY": {"1"}, "DECRBY": {"1"}, "INCRBYFLOAT": {"1"},
		"HSET": {"f", "v"}, "HMSET": {"f", "v"}, "HSETNX": {"f", "v"}, "HDEL": {"f"}, "HINCRBY": {"f", "1"}, "HINCRBYFLOAT": {"f", "1"},
		"LPUSH": {"v"}, "RPUSH": {"v"}, "LPUSHX": {"v"}, "RPUSHX": {"v"}, "LPOP": nil, "RPOP": nil,
		"LSET": {"0", "v"}, "LREM": {"0", "v"}, "LTRIM": {"0", "1"}, "LINSERT": {"BEFORE", "a", "b"},
		"SADD": {"v"}, "SREM": {"v"}, "SPOP": nil,
		"XADD": {"*", "f", "v"}, "XDEL": {"1-1"}, "XTRIM": {"MAXLEN", "0"}, "PFADD": {"v"}, "PFMERGE": {"src"}, "PFCOUNT": nil,
	}
	e := MustNew()
	for name := range otherTypeWrites {
		rest, ok := args[name]
		if !ok {
			t.Errorf("%s is in otherTypeWrites with no case here", name)
			continue
		}
		e.exec("FLUSHALL")
		e.exec("ZADD", "z", "1", "a", "2", "b")
		before := fmt.Sprint(e.exec("ZRANGE", "z", "0", "-1", "WITHSCORES"))
		r := e.exec(append([]string{name, "z"}, rest...)...)
		if !r.IsError() || !strings.HasPrefix(r.Str, "WRONGTYPE") {
			t.Errorf("%s on a sorted set answered %v, want WRONGTYPE", name, r)
		}
		if after := fmt.Sprint(e.exec("ZRANGE", "z", "0", "-1", "WITHSCORES")); after != before {
			t.Errorf("%s changed the sorted set: %s, was %s", name, after, before)
		}
	}
}
