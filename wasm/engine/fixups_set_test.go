package engine

import "testing"

// SET's options as fixups_set.go reads them, against Redis 7.0's recorded
// replies.
var setCases = []recordedCase{
	redisCase("clashing conditions are a syntax error", "SET k v XX NX", "SET k v NX XX", "EXISTS k"),
	redisCase("two kinds of expiry are a syntax error",
		"SET k v EX 10 PX 100", "SET k v KEEPTTL EX 1", "SET k v PXAT 1 EXAT 1", "EXISTS k"),
	redisCase("an expiry without a value, or an unknown word, is a syntax error", "SET k v EX", "SET k v FOREVER", "EXISTS k"),
	redisCase("the same option twice is fine, and the last expiry counts",
		"SET k v NX NX", "SET k w XX EX 100 EX 20", "TTL k", "GET k"),
	redisCase("GET with NX answers the old value or nil", "SET k v NX GET", "SET k w NX GET", "GET k"),
	redisCase("an expiry that is not positive names the command", "SET k v EX 0", "SET k v PX -5"),
	redisCase("a plain SET replaces a key of another type", "RPUSH k x", "SET k v", "TYPE k", "GET k"),
}

func TestSetFixupMatchesRedis(t *testing.T) { checkRecorded(t, "fixups_set", setCases) }
