package fidelity

// Cases for the small items of the issue: BITCOUNT and BITPOS with a
// BIT|BYTE range (wasm/engine/bitrange.go).

func smallCases() []fcase {
	return []fcase{
		{id: "bits/bit-byte-ranges", desc: "BITCOUNT and BITPOS with a BIT or BYTE range: counts and positions in bits, negative and clamped ends, a missing key, another type, and Redis's order of errors",
			cmds: [][]string{
				{"set", "s", "foobar"},
				{"bitcount", "s", "0", "-1", "bit"},
				{"bitcount", "s", "5", "30", "BIT"},
				{"bitcount", "s", "1", "1", "byte"},
				{"bitcount", "s", "1", "1", "bits"},
				{"bitcount", "s", "a", "1", "bit"},
				{"bitcount", "none", "0", "1", "bit"},
				{"bitcount", "none", "0", "1", "bad"},
				{"bitcount", "none", "a", "1", "bad"},
				{"set", "n", "12"},
				{"bitcount", "n", "0", "-1", "bit"},
				{"lpush", "l", "a"},
				{"bitcount", "l", "0", "1", "bit"},
				{"bitcount", "l", "a", "1", "bit"},
				{"bitcount", "s", "0", "1", "bit", "x"},
				{"bitpos", "s", "1", "0", "-1", "bit"},
				{"bitpos", "s", "0", "3", "20", "bit"},
				{"bitpos", "s", "1", "7", "15", "BIT"},
				{"bitpos", "s", "0", "0", "-1", "bit"},
				{"setrange", "z", "0", "\\xff\\xff"},
				{"bitpos", "z", "0", "0", "-1", "bit"},
				{"bitpos", "z", "0", "3", "-1", "byte"},
				{"bitpos", "z", "0", "3", "4", "bitx"},
				{"bitpos", "z", "2", "0", "-1", "bit"},
				{"bitpos", "z", "x", "0", "-1", "bit"},
				{"bitpos", "none", "1", "0", "-1", "bit"},
				{"bitpos", "none", "0", "0", "-1", "bit"},
				{"bitpos", "l", "0", "0", "-1", "bit"},
				{"bitpos", "s", "1", "-5", "-1", "bit"},
				{"bitpos", "s", "1", "100", "200", "bit"},
				{"bitpos", "s", "0", "100", "200", "bit"},
				{"bitcount", "s", "-100", "-90", "bit"},
				{"bitcount", "s", "-100", "-1", "bit"},
				{"bitcount", "s", "3", "2", "bit"},
				{"set", "e", ""},
				{"bitcount", "e", "0", "-1", "bit"},
				{"bitpos", "e", "0", "0", "-1", "bit"},
				{"bitpos", "s", "0", "-1", "-1", "bit"},
				{"bitpos", "s", "1", "-8", "-1", "bit"},
				{"bitpos", "s", "1", "9", "9", "bit"},
				{"bitcount", "s", "9", "9", "bit"},
				{"bitcount", "s", "0", "100", "byte"}}},
	}
}
