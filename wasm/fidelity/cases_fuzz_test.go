package fidelity

import "strings"

// Cases from the fuzz targets' findings (see the targets in wasm/engine,
// wasm/rdb): the answers of Redis's C arithmetic and reader at the edges
// the Go code missed.
func fuzzFoundCases() []fcase {
	long := "1." + strings.Repeat("0", 5200) // past MAX_LONG_DOUBLE_CHARS
	return []fcase{
		{id: "numbers/incrbyfloat-edges", desc: "INCRBYFLOAT refuses what underflows a long double to zero, a number of 5120 bytes or more, and infinities that would add to NaN",
			cmds: [][]string{
				{"INCRBYFLOAT", "a", "1e-5000"}, {"INCRBYFLOAT", "a", "0x1p-16446"}, {"INCRBYFLOAT", "a", "1e-4951"},
				{"INCRBYFLOAT", "a", "0x1p-16445"}, {"INCRBYFLOAT", "a", "1e-4940"}, {"INCRBYFLOAT", "b", long},
				{"SET", "c", long}, {"INCRBYFLOAT", "c", "1"}, {"SET", "d", "-inf"}, {"INCRBYFLOAT", "d", "inf"},
				{"INCRBYFLOAT", "d", "1"}, {"SET", "e", "inf"}, {"INCRBYFLOAT", "e", "-inf"}, {"HSET", "h", "f", "-inf"},
				{"HINCRBYFLOAT", "h", "f", "1"}, {"HINCRBYFLOAT", "h", "f", "1e-5000"}, {"MGET", "a", "b", "c", "d", "e"},
				{"INCRBYFLOAT", "p", "0p3"}, {"INCRBYFLOAT", "p", "0b1"}, {"INCRBYFLOAT", "p", "INFINITY"}, {"INCRBYFLOAT", "p", "0x.8"},
				{"INCRBYFLOAT", "p", "1e"}, {"INCRBYFLOAT", "p", "0x"}, {"INCRBYFLOAT", "p", "1e1000000000"}, {"GET", "p"},
			}},
		{id: "numbers/score-underflow", desc: "A score that underflows a double to zero is not a valid float (strtod sets ERANGE); one that stays subnormal is",
			cmds: [][]string{
				{"ZADD", "z", "1e-400", "a"}, {"ZADD", "z", "0x1p-1080", "a"}, {"ZADD", "z", "4e-320", "b"}, {"ZADD", "z", "0e-999", "c"},
				{"ZINCRBY", "z", "1e-400", "b"}, {"ZADD", "z", "-0.000e5", "d"}, {"ZRANGE", "z", "0", "-1", "WITHSCORES"},
			}},
		{id: "numbers/score-bound-nul", desc: "A ZRANGEBYSCORE bound is read as C reads it: up to its first NUL byte; an empty one is 0, one of white space is not a float",
			cmds: [][]string{
				{"ZADD", "z", "-1", "a", "1", "b", "3", "c"}, {"ZRANGEBYSCORE", "z", "-1\x00ab", "2"}, {"ZCOUNT", "z", "(\x00", "+inf"},
				{"ZRANGEBYSCORE", "z", "\x00x", "(3\x00"}, {"ZRANGEBYSCORE", "z", " ", "2"}, {"ZCOUNT", "z", "( ", "2"},
				{"ZCOUNT", "z", "", "2"}, {"ZCOUNT", "z", "(", "2"},
			}},
		{id: "dump/lzf-length-past-its-bytes", desc: "RESTORE of a payload whose LZF string says it expands to 4 GiB: Bad data format, nothing allocated",
			cmds: [][]string{
				{"RESTORE", "k", "0", sealed("\x00\xc3\x01\x80\xff\xff\xff\xff\xe0", 10)},
				{"EXISTS", "k"},
			}},
	}
}
