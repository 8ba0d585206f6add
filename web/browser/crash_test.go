package browser

import (
	"fmt"
	"strings"
	"testing"
)

// TestConsoleSurvivesWhatCouldCrashTheEngine types, at the console, scripts
// that once took the engine down in a browser: a reply nested thousands of
// arrays deep (a RangeError in the engine's worker, then a Go program that
// deadlocked), and data nested as deep for cjson and cmsgpack. Each gets
// an answer in words, and the console keeps working. The engine runs in a
// Web Worker here, whose stack is the smallest it meets.
func TestConsoleSurvivesWhatCouldCrashTheEngine(t *testing.T) {
	tb := openReady(t, "/")
	c := tb.in("#console")
	nested := func(n int) string {
		return fmt.Sprintf(`EVAL "local t={} local c=t for i=1,%d do local n={} c[1]=n c=n end return t" 0`, n)
	}

	// Redis would send all 5,000 arrays; the page says why it cannot show them.
	typeLine(c, nested(5000))
	c.wantText(lastOut, "The reply nests more than 500 levels deep", "Redis would send it")
	typeLine(c, "PING")
	wantOut(c, "PONG")

	// Up to the limit the reply comes through the worker whole, printed
	// as redis-cli prints it.
	typeLine(c, nested(499))
	wantOut(c, strings.Repeat("1) ", 499)+"(empty array)")

	// cjson and cmsgpack read data nested as deep as Redis's libraries
	// allow, and past that give their errors.
	typeLine(c, `EVAL "return #cjson.decode(string.rep('[', 1000) .. string.rep(']', 1000))" 0`)
	wantOut(c, "(integer) 1")
	typeLine(c, `EVAL "local t={} local c=t for i=1,999 do local n={} c[1]=n c=n end return #cjson.encode(t)" 0`)
	wantOut(c, "(integer) 2000")
	typeLine(c, `EVAL "return type(cmsgpack.unpack(string.rep(string.char(0x91), 3998) .. string.char(0x90)))" 0`)
	wantOut(c, `"table"`)
	typeLine(c, `EVAL "return type(cmsgpack.unpack(string.rep(string.char(0x91), 100000) .. string.char(0x90)))" 0`)
	c.wantText(lastOut, "(error) ERR user_script:1: stack overflow (in function mp_decode_to_lua_array)")

	typeLine(c, "PING")
	wantOut(c, "PONG")
}
