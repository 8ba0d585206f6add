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
			}},
		{id: "dump/lzf-length-past-its-bytes", desc: "RESTORE of a payload whose LZF string says it expands to 4 GiB: Bad data format, nothing allocated",
			cmds: [][]string{
				{"RESTORE", "k", "0", sealed("\x00\xc3\x01\x80\xff\xff\xff\xff\xe0", 10)},
				{"EXISTS", "k"},
			}},
	}
}
