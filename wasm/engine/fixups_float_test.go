package engine

import "testing"

// INCRBYFLOAT and HINCRBYFLOAT in long double, as fixups_float.go adds,
// against Redis 7.0's recorded replies.
var floatCases = []recordedCase{
	redisCase("INCRBYFLOAT adds in long double and prints %.17Lf",
		"INCRBYFLOAT f 10.5", "INCRBYFLOAT f 0.1", "INCRBYFLOAT f 1e3", "GET f", "INCRBYFLOAT g 0.1", "INCRBYFLOAT g 0.2"),
	redisCase("INCRBYFLOAT reads numbers as strtold does",
		"SET f 1", "INCRBYFLOAT f 0x10", `INCRBYFLOAT f " 1"`, "INCRBYFLOAT f nan", "INCRBYFLOAT f inf", "INCRBYFLOAT f 1e5000", "GET f"),
	redisCase("HINCRBYFLOAT adds in long double",
		"HINCRBYFLOAT h f 10.5", "HINCRBYFLOAT h f 0.1", "HINCRBYFLOAT h f 1e3", "HSET h s abc", "HINCRBYFLOAT h s 1",
		"HINCRBYFLOAT h f inf", "HGETALL h"),
	redisCase("INCRBYFLOAT on a value that is not a float", "SET f abc", "INCRBYFLOAT f 1", "RPUSH l x", "INCRBYFLOAT l 1"),
}

func TestFloatFixupsMatchRedis(t *testing.T) { checkRecorded(t, "fixups_float", floatCases) }
