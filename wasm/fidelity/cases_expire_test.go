package fidelity

import "strconv"

// Cases for expiry (wasm/engine/expire.go): every command that takes a
// time to live, at the boundaries where Redis 7.0 refuses the time as an
// overflow, with NX/XX/GT/LT, and with a time already past.

const (
	maxInt64   = "9223372036854775807"
	minInt64   = "-9223372036854775808"
	maxSeconds = "9223372036854775" // 2^63/1000: the most seconds Redis turns into milliseconds
)

func init() {
	known["expire/beyond-292-years"] = "miniredis keeps a TTL as a time.Duration, which ends 292 years on: the engine accepts every " +
		"time Redis accepts, and keeps one past that as that."
}

// farOff asks through EVAL whether k's expiry time, read by cmd, lies
// past limit (in cmd's unit; label names it in the reply), rather than printing the time: the engine's
// 292-year ceiling counts from now, so a printed time would change with
// the clock and FIDELITY.md with every run.
func farOff(cmd string, limit float64, label string) []string {
	script := "local t = redis.call('" + cmd + "', KEYS[1]) if t > " + strconv.FormatFloat(limit, 'g', -1, 64) +
		" then return 'past ' .. ARGV[1] end return 'within ' .. ARGV[1]"
	return []string{"EVAL", script, "1", "k", label}
}

func expireCases() []fcase {
	over := strconv.FormatInt(9223372036854775+1, 10)
	return []fcase{
		{id: "expire/ttl-rounding", desc: "TTL rounds a TTL in milliseconds to the nearest second, as Redis does: PEXPIRE k 1700 then TTL is 2",
			cmds: [][]string{
				{"SET", "k", "v"}, {"PEXPIRE", "k", "1700"}, {"TTL", "k"}, {"PEXPIRE", "k", "1400"}, {"TTL", "k"}, {"PEXPIRE", "k", "2600"}, {"TTL", "k"},
				{"PEXPIRE", "k", "100000"}, {"TTL", "k"}, {"PEXPIRE", "k", "400"}, {"TTL", "k"}, {"TTL", "nokey"}, {"SET", "p", "v"}, {"TTL", "p"},
				{"EXPIREAT", "k", "4000000000"}, {"EXPIRETIME", "k"}, {"PEXPIRETIME", "k"}, {"EXPIRETIME", "p"}, {"EXPIRETIME", "nokey"},
			}},
		{id: "expire/expire-overflow", desc: "EXPIRE, PEXPIRE, EXPIREAT and PEXPIREAT refuse a time that overflows on its way to milliseconds: ERR invalid expire time in '<cmd>' command, and the key stays",
			cmds: [][]string{
				{"SET", "k", "v"}, {"EXPIRE", "k", maxInt64}, {"EXPIRE", "k", maxSeconds}, {"EXPIRE", "k", over}, {"EXPIRE", "k", minInt64},
				{"EXPIRE", "k", "-9223372036854775"}, {"EXPIRE", "k", "-9223372036854776"}, {"EXISTS", "k"},
				{"PEXPIRE", "k", maxInt64}, {"PEXPIRE", "k", "9223372036854775000"}, {"PEXPIRE", "k", "abc"}, {"EXISTS", "k"},
				{"EXPIREAT", "k", maxInt64}, {"EXPIREAT", "k", over}, {"EXPIREAT", "k", "7258118400"}, {"EXPIRETIME", "k"},
				{"PEXPIREAT", "k", "7258118400123"}, {"PEXPIRETIME", "k"}, {"EXPIRETIME", "k"},
			}},
		{id: "expire/set-overflow", desc: "SET EX/PX/EXAT/PXAT, GETEX, SETEX and PSETEX refuse a time of 0 or less, or one that overflows: ERR invalid expire time in 'set' command (and 'getex', 'setex', 'psetex')",
			cmds: [][]string{
				{"SET", "k", "v", "EX", maxInt64}, {"SET", "k", "v", "EX", maxSeconds}, {"SET", "k", "v", "EX", "9223372036854774"},
				{"SET", "k", "v", "PX", maxInt64}, {"SET", "k", "v", "EXAT", maxInt64}, {"SET", "k", "v", "EXAT", over}, {"SET", "k", "v", "EX", "0"},
				{"SET", "k", "v", "EX", "-1"}, {"SET", "k", "v", "PX", "0"}, {"SET", "k", "v", "EXAT", "0"}, {"SET", "k", "v", "PXAT", "-5"},
				{"SET", "k", "v", "EX", "x"}, {"SET", "k", "v", "EX", "0", "NX", "XX"}, {"SET", "k", "v", "EX"}, {"EXISTS", "k"},
				{"SET", "k", "v"}, {"GETEX", "k", "EX", maxInt64}, {"GETEX", "k", "PX", maxInt64}, {"GETEX", "k", "EXAT", maxInt64},
				{"GETEX", "k", "EX", "0"}, {"GETEX", "k", "EXAT", "0"}, {"GETEX", "k", "PX", "-1"}, {"GETEX", "k", "EX", "x"}, {"TTL", "k"},
				{"SETEX", "k", maxInt64, "v"}, {"SETEX", "k", maxSeconds, "v"}, {"SETEX", "k", "0", "v"}, {"SETEX", "k", "x", "v"},
				{"PSETEX", "k", maxInt64, "v"}, {"PSETEX", "k", "-1", "v"}, {"GET", "k"},
				{"SET", "k", "v", "EX", "100"}, {"TTL", "k"}, {"SET", "k", "v", "PX", "1600"}, {"TTL", "k"}, {"SETEX", "k", "50", "v"}, {"TTL", "k"},
				{"PSETEX", "k", "2600", "v"}, {"TTL", "k"}, {"GETEX", "k", "EX", "70"}, {"TTL", "k"}, {"GETEX", "k", "PERSIST"}, {"TTL", "k"},
			}},
		{id: "expire/past-deletes", desc: "A time already past deletes the key: EXPIRE with a negative time, EXPIREAT 1, GETEX PXAT 1 (which still returns the value), SET PXAT 1",
			cmds: [][]string{
				{"SET", "k", "v"}, {"EXPIRE", "k", "-1"}, {"EXISTS", "k"}, {"SET", "k", "v"}, {"EXPIRE", "k", "0"}, {"EXISTS", "k"},
				{"SET", "k", "v"}, {"EXPIREAT", "k", "1"}, {"EXISTS", "k"}, {"SET", "k", "v"}, {"PEXPIREAT", "k", "1"}, {"EXISTS", "k"},
				{"SET", "k", "v"}, {"GETEX", "k", "PXAT", "1"}, {"EXISTS", "k"}, {"SET", "k", "v"}, {"GETEX", "k", "EXAT", "1"}, {"EXISTS", "k"},
				{"GETEX", "nokey", "PXAT", "1"}, {"RPUSH", "l", "x"}, {"GETEX", "l", "PXAT", "1"}, {"EXISTS", "l"},
				{"SET", "k", "v", "PXAT", "1"}, {"EXISTS", "k"}, {"SET", "k", "old"}, {"SET", "k", "v", "EXAT", "1", "GET"}, {"EXISTS", "k"},
				{"SET", "k", "v"}, {"SET", "k", "w", "PXAT", "1", "NX"}, {"GET", "k"}, {"EXPIRE", "nokey", "-1"},
			}},
		{id: "expire/beyond-292-years", desc: "Times Redis accepts that lie more than 292 years on: the engine keeps them as 292 years, so TTL and EXPIRETIME read less (a known difference)",
			cmds: [][]string{{"SET", "k", "v"}, {"EXPIREAT", "k", maxSeconds}, farOff("EXPIRETIME", 1e12, "1e12 s (31,700 years)"), {"PEXPIREAT", "k", maxInt64}, farOff("PEXPIRETIME", 1e15, "1e15 ms (31,700 years)"),
				{"SET", "k", "v", "PXAT", maxInt64}, farOff("PEXPIRETIME", 1e15, "1e15 ms (31,700 years)")}},
		{id: "expire/nx-xx-gt-lt", desc: "EXPIRE and EXPIREAT with NX, XX, GT and LT on keys with and without a TTL, and the options' errors",
			cmds: [][]string{
				{"SET", "k", "v"}, {"EXPIRE", "k", "100", "XX"}, {"EXPIRE", "k", "100", "GT"}, {"TTL", "k"}, {"EXPIRE", "k", "100", "LT"}, {"TTL", "k"},
				{"EXPIRE", "k", "200", "NX"}, {"EXPIRE", "k", "50", "GT"}, {"EXPIRE", "k", "200", "GT"}, {"TTL", "k"}, {"EXPIRE", "k", "300", "LT"},
				{"EXPIRE", "k", "100", "LT"}, {"TTL", "k"}, {"EXPIRE", "k", "100", "XX"}, {"TTL", "k"},
				{"PERSIST", "k"}, {"EXPIREAT", "k", "7258118400", "GT"}, {"EXPIREAT", "k", "7258118400", "LT"}, {"EXPIRETIME", "k"},
				{"EXPIREAT", "k", "7258118399", "GT"}, {"EXPIREAT", "k", "7258118400", "GT"}, {"EXPIRETIME", "k"}, {"EXPIREAT", "k", "1", "LT"}, {"EXISTS", "k"},
				{"SET", "k", "v"}, {"EXPIRE", "k", "100", "NX", "XX"}, {"EXPIRE", "k", "100", "GT", "LT"}, {"EXPIRE", "k", "100", "NX", "GT"},
				{"EXPIRE", "k", "100", "foo"}, {"EXPIRE", "k", "abc", "foo"}, {"EXPIRE", "k", "abc", "NX", "XX"}, {"EXPIRE", "k", maxInt64, "NX"},
				{"EXPIRE", "k", "100", "nx"}, {"PEXPIRE", "k", "150000", "gt"}, {"PEXPIREAT", "k", "7258118400000", "xx"}, {"PEXPIRETIME", "k"},
				{"EXPIRE", "nokey", "10", "NX"}, {"EXPIRE", "nokey", "10", "XX"}, {"EXPIRE", "nokey", "-1", "LT"},
			}},
	}
}
