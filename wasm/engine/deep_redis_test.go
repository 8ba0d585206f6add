//go:build !js

package engine

import (
	"fmt"
	"testing"

	"echomq.dev/playground/internal/redisserver"
	"echomq.dev/playground/wasm/resp"
)

// deepScripts nest what a script makes or reads far past what any lesson
// needs: replies, cjson and cmsgpack data. Each of the libraries has a
// nesting limit of its own in Redis 7.0, with its own error.
func deepScripts() []string {
	chain := func(n int) string {
		return fmt.Sprintf("local t={} local c=t for i=1,%d do local n={} c[1]=n c=n end", n)
	}
	// unpack decodes a string of headers (string.char arguments) repeated
	// n times, then one more value. (Errors are compared as the script's
	// reply, not through pcall: there Redis's message has no position,
	// where gopher-lua's library errors always have one.)
	unpack := func(header string, n int, last string) string {
		return fmt.Sprintf("local s = string.rep(string.char(%s), %d) .. string.char(%s) "+
			"return type(cmsgpack.unpack(s))", header, n, last)
	}
	var out []string
	for _, n := range []int{5000, 7994, 7995, 20000} {
		out = append(out, nestedScript(n))
	}
	for _, n := range []int{998, 999, 1000, 5000} {
		out = append(out, chain(n)+" return cjson.encode(t)")
	}
	out = append(out, chain(20000)+" return cjson.encode(t)")
	for _, n := range []int{1000, 1001, 20000} {
		out = append(out, fmt.Sprintf("return #cjson.decode(string.rep('[', %d) .. string.rep(']', %d))", n, n))
		out = append(out, fmt.Sprintf("return #cjson.decode(string.rep('{\"a\":', %d) .. '1' .. string.rep('}', %d))", n, n))
	}
	for _, n := range []int{15, 16, 17, 5000} {
		out = append(out, chain(n)+" return cmsgpack.pack(t)")
	}
	for _, n := range []int{3998, 3999, 4000, 20000} {
		out = append(out,
			unpack("0x91", n, "0x90"), unpack("0x91", n, "0x01"), unpack("0x91", n, "0x80"),
			unpack("0x81, 0xa1, 0x61", n, "0x80"), unpack("0x81, 0xa1, 0x61", n, "0x01"), unpack("0x81, 0xa1, 0x61", n, "0x90"),
			unpack("0x92, 0x01", n, "0x01"), unpack("0xdc, 0x00, 0x01", n, "0x90"))
	}
	return out
}

func TestDeepScriptsAnswerAsRedis(t *testing.T) {
	c := redisserver.Connect(t)
	e := MustNew()
	for _, src := range deepScripts() {
		want, err := c.Do("EVAL", src, "0")
		if err != nil {
			t.Fatal(err)
		}
		var got resp.Reply
		smallStack(t, func() { got = e.exec("EVAL", src, "0") })
		if !got.Equal(want) {
			t.Errorf("%s\n got %.300s\nwant %.300s", src, got, want)
		}
	}
}
