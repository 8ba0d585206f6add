package engine

import "testing"

// The RESP3 shapes of fixups_resp3.go, on a connection after HELLO 3,
// against Redis 7.0's recorded replies.
var resp3Cases = []recordedCase{
	redisCase("scores are doubles",
		"HELLO 3", "ZADD z 0.1 a 2 b", "ZSCORE z a", "ZINCRBY z 1 b", "ZMSCORE z a nothing", "ZADD z INCR 1 a", "ZADD z 5 c"),
	redisCase("ZPOPMIN is a pair, or with a count a list of pairs",
		"HELLO 3", "ZADD z 1 a 2 b 3 c", "ZPOPMIN z", "ZPOPMAX z 5", "ZPOPMIN z"),
	redisCase("WITHSCORES is a list of pairs",
		"HELLO 3", "ZADD z 1 a 2.5 b", "ZRANGE z 0 -1 WITHSCORES", "ZREVRANGE z 0 -1 WITHSCORES",
		"ZRANGEBYSCORE z -inf +inf WITHSCORES", "ZREVRANGEBYSCORE z +inf -inf WITHSCORES", "ZRANGE z 0 -1",
		"ZUNION 1 z WITHSCORES", "ZINTER 1 z WITHSCORES", "ZADD one 1 a", "ZRANDMEMBER one -1 WITHSCORES"),
	redisCase("HGETALL is a map, in insertion order", "HELLO 3", "HSET h z 1 a 2", "HGETALL h", "HGETALL nothing"),
}

func TestResp3ShapesMatchRedis(t *testing.T) { checkRecorded(t, "fixups_resp3", resp3Cases) }
