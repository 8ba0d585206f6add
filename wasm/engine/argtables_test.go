package engine

import (
	"strings"
	"testing"

	emqlua "echomq.dev/playground/lua"
)

// A script is given its last run's KEYS and ARGV tables again only when its
// code can never hold one; any way of keeping a table makes new ones.
func TestArgTablesStayPut(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{emqlua.Enqueue().Source, true},
		{emqlua.Claim().Source, true},
		{"for i = 1, #KEYS do redis.call('DEL', KEYS[i]) end return #ARGV", true},
		{"local f = function() return ARGV[1] end return f()", true},
		{"return KEYS", false},
		{"local k = KEYS return k[1]", false},
		{"return unpack(ARGV)", false},
		{"return _G.KEYS[1]", false},
		{"return rawget(_G, 'ARGV')[1]", false},
		{"return loadstring('return KEYS')()[1]", false},
		{"local f = function() return ARGV end return f()[1]", false},
		{"for _, k in ipairs(KEYS) do end return 1", false},
		{"return KEYS:len()", false},
	} {
		c, errRep := compile(tc.src)
		if c == nil {
			t.Fatalf("%q does not compile: %s", tc.src, errRep)
		}
		if got := argTablesStayPut(c.proto); got != tc.want {
			t.Errorf("argTablesStayPut(%q) = %v, want %v", tc.src, got, tc.want)
		}
	}
}

// Each run of a script sees exactly the keys and arguments it was called
// with, whether the count changes between runs or not, an argument too
// long to be kept included, when another script runs in between, and
// after a script that may keep its tables has run in the same state.
func TestEachRunSeesItsOwnKeysAndArgv(t *testing.T) {
	e := MustNew()
	const src = "return {#KEYS, tostring(KEYS[1]), tostring(KEYS[2]), #ARGV, tostring(ARGV[1]), tostring(ARGV[2])}"
	if c, _ := compile(src); !argTablesStayPut(c.proto) {
		t.Fatal("the script must be one whose tables are refilled")
	}
	want := func(nkeys, k1, k2, nargv, a1, a2 string) string {
		return strings.Join([]string{"1) (integer) " + nkeys, `2) "` + k1 + `"`, `3) "` + k2 + `"`, "4) (integer) " + nargv, `5) "` + a1 + `"`, `6) "` + a2 + `"`}, "\n")
	}
	long := strings.Repeat("x", maxReusedArg+1)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"2", "a", "b", "1"}, want("2", "a", "b", "1", "1", "nil")},
		{[]string{"2", "a", "c", "1"}, want("2", "a", "c", "1", "1", "nil")},
		{[]string{"1", "a", "1", "2"}, want("1", "a", "nil", "2", "1", "2")},
		{[]string{"1", "a", long, "2"}, want("1", "a", "nil", "2", long, "2")},
		{[]string{"1", "a", "y" + long[1:], "2"}, want("1", "a", "nil", "2", "y"+long[1:], "2")},
		{[]string{"0"}, want("0", "nil", "nil", "0", "nil", "nil")},
	} {
		do(t, e, tc.want, append([]string{"EVAL", src}, tc.args...)...)
	}
	// Two such scripts in turn share the tables.
	const other = "return {KEYS[1], ARGV[1]}"
	do(t, e, "1) \"p\"\n2) \"q\"", "EVAL", other, "1", "p", "q")
	do(t, e, want("1", "a", "nil", "1", "2", "nil"), "EVAL", src, "1", "a", "2")
	do(t, e, "1) \"r\"\n2) \"s\"", "EVAL", other, "1", "r", "s")
	do(t, e, "(integer) 1", "EVAL", "local k = KEYS return #k", "1", "z")
	do(t, e, want("1", "b", "nil", "1", "2", "nil"), "EVAL", src, "1", "b", "2")
}
