package engine

import "testing"

// Scripts that spend their time inside library functions, in fewer than the
// 1,024 instructions after which the VM first looks at the clock: each call
// is one instruction, however long it runs. They must still be stopped by
// the budget with the engine's usual error, a pcall around the call must
// not swallow the stop, and the engine must serve the next command.
func TestLongLibraryCallsAreStoppedByTheBudget(t *testing.T) {
	const (
		killed = "ERR Script killed by user with SCRIPT KILL... "
		memory = "ERR Script used more than 64 MiB of memory"
	)
	// A format of ten million options, which struct.size reads in about a
	// tenth of a second natively (longer in WebAssembly).
	const long = "local f = string.rep('x', 1e7) "
	// want is the error, or "" for either of the two: which budget ends a
	// script that allocates fast depends on how fast the machine is.
	for _, tc := range []struct {
		name, src, want string
	}{
		{"struct.size over and over", long + "for i = 1, 100 do struct.size(f) end return 1", killed},
		{"pcall around it", long + "for i = 1, 100 do pcall(struct.size, f) end return 'swallowed'", killed},
		{"pcall around the whole loop", long + "local ok, e = pcall(function() for i = 1, 100 do struct.size(f) end end) return {tostring(ok), e}", killed},
		{"xpcall with a handler", long + "return xpcall(function() for i = 1, 100 do struct.size(f) end end, function(e) return 'handled: ' .. e end)", killed},
		{"a pcall that is the script's last word", long + "return pcall(function() for i = 1, 100 do struct.size(f) end end)", killed},
		{"in a coroutine", long + "local co = coroutine.wrap(function() for i = 1, 100 do struct.size(f) end end) co() return 1", killed},
		{"cjson.decode of a long array", "local s = '[' .. string.rep('1,', 1e7) .. '1]' return #cjson.decode(s)", ""},
		{"table.concat of a big string over and over", "local s = string.rep('x', 1e6) local t = {} for i = 1, 200 do t[i] = s end return #table.concat(t)", ""},
		{"string.format of a big string over and over", "local s = string.rep('x', 1e6) local t = {} for i = 1, 100 do t[i] = s end return #string.format(string.rep('%s', 100), unpack(t))", ""},
		{"cmsgpack.pack of a big string over and over", "local s = string.rep('x', 1e6) local t = {} for i = 1, 200 do t[i] = s end return #cmsgpack.pack(t)", ""},
		{"cjson.encode of a big string over and over", "local s = string.rep('x', 1e6) local t = {} for i = 1, 200 do t[i] = s end return #cjson.encode(t)", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.want == "" {
				checkStopped(t, tc.src, killed, memory)
			} else {
				checkStopped(t, tc.src, tc.want)
			}
		})
	}
}
