package engine

import "testing"

// The hash field order of fixups_hash.go (and HINCRBY's checks from
// fixups.go), against Redis 7.0's recorded replies.
var hashCases = []recordedCase{
	redisCase("HGETALL, HKEYS and HVALS answer in insertion order",
		"HSET job state waiting attempts 0 payload p", "HGETALL job", "HKEYS job", "HVALS job"),
	redisCase("a field set again keeps its place; a deleted one goes to the end",
		"HSET job state waiting attempts 0 payload p", "HSET job state active", "HDEL job state",
		"HSET job state done", "HKEYS job", "HINCRBY job attempts 1", "HKEYS job"),
	redisCase("HMSET, HSETNX, HINCRBY and HINCRBYFLOAT add fields at the end",
		"HMSET h z 1 m 2", "HSETNX h b 3", "HSETNX h z 9", "HINCRBY h a 1", "HINCRBYFLOAT h 0 1.5", "HGETALL h"),
	redisCase("a hash deleted and made again starts a new order",
		"HSET h z 1 a 2", "DEL h", "HSET h a 1 z 2", "HKEYS h"),
	redisCase("HSCAN answers in insertion order", "HSET h z 1 m 2 a 3", "HSCAN h 0", "HSCAN h 0 MATCH ?"),
	redisCase("HINCRBY checks the increment, the type, the value and overflow",
		"HSET h s abc big 9223372036854775807 z 0123", "HINCRBY h s 01", "HINCRBY h s 1",
		"HINCRBY h z 1", "HINCRBY h big 1", "SET str x", "HINCRBY str f x", "HINCRBY str f 1", "HGETALL h"),
}

func TestHashFixupsMatchRedis(t *testing.T) { checkRecorded(t, "fixups_hash", hashCases) }
