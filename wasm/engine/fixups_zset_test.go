package engine

import "testing"

// The scores fixups_zset.go reprints, for the sorted-set commands
// miniredis still answers, against Redis 7.0's recorded replies.
var zsetCases = []recordedCase{
	redisCase("ZSCORE and ZMSCORE print %.17g",
		"ZADD z 0.1 a 1.7e12 b 3 c", "ZSCORE z a", "ZSCORE z b", "ZMSCORE z a b c nothing"),
	// (miniredis has no ZDIFF, so nor does the engine yet.)
	redisCase("ZUNION and ZINTER print their scores as %.17g",
		"ZADD z 0.1 a 1.7e12 b", "ZADD y 0.2 a", "ZUNION 2 z y WITHSCORES", "ZINTER 2 z y WITHSCORES", "ZUNION 2 z y"),
	redisCase("ZRANDMEMBER prints its scores as %.17g", "ZADD z 0.1 a", "ZRANDMEMBER z 1 WITHSCORES", "ZRANDMEMBER z -2 WITHSCORES"),
	redisCase("ZSCAN prints its scores as %.17g, after its MATCH", "ZADD z 0.1 a 0.3 bb", "ZSCAN z 0", "ZSCAN z 0 MATCH ?"),
}

func TestZsetFixupsMatchRedis(t *testing.T) { checkRecorded(t, "fixups_zset", zsetCases) }
