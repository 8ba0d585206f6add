package engine

import "testing"

// TestGlobMatchesAsRedisDoes holds cases whose answers were read off
// redis-server 7.0.15 (KEYS against a key of that name); the live
// comparison is the fidelity suite's commands/keys-patterns case
// (wasm/fidelity, FIDELITY.md).
func TestGlobMatchesAsRedisDoes(t *testing.T) {
	for _, tc := range []struct {
		pattern, s string
		want       bool
	}{
		{"*", "", false}, // KEYS and SCAN treat a lone * as "everything" before they match
		{"*", "anything", true},
		{"a*", "abc", true},
		{"a*c", "abxc", true},
		{"a*c", "abxd", false},
		{"a?c", "abc", true},
		{"a?", "a\xc3\xa9", false}, // é is two bytes: ? takes one
		{"a??", "a\xc3\xa9", true},
		{"a[bc]", "ac", true},
		{"a[^b]", "ab", false},
		{"a[b-a]", "ab", true}, // a reversed range is swapped, not an error
		{"a[a-c]", "ab", true},
		{"a[\\]]", "a]", true},
		{"a[", "a", false},
		{"a[b", "ab", true}, // an unterminated class ends the pattern
		{"a\\*", "a*", true},
		{"a\\*", "ab", false},
		{"a\\", "a\\", true},
		{"emq:\\{q\\}:job:*", "emq:{q}:job:JOB-1", true},
		{"emq:{q}:job:*", "emq:{q}:pending", false},
		{"a\xff", "a\xff", true},
		{"[\x01-\xff]", "\x80", false}, // signed chars: 0xff is -1, so the range is -1..1
		{"**a", "xa", true},
		{"", "", true},
		{"", "a", false},
		{"a*", "a", true},
	} {
		if got := globMatch(tc.pattern, tc.s); got != tc.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", tc.pattern, tc.s, got, tc.want)
		}
	}
}

func TestBadPatternsDoNotBreakTheEngine(t *testing.T) {
	e := MustNew()
	e.exec("SET", "ab", "1")
	do(t, e, `1) "ab"`, "KEYS", "a[b-a]")
	do(t, e, `1) "0"`+"\n"+`2) 1) "ab"`, "SCAN", "0", "MATCH", "a[b-a]")
	do(t, e, "PONG", "PING")
}

func TestHincrbyChecksAsRedisDoes(t *testing.T) {
	e := MustNew()
	e.exec("HSET", "h", "n", "9223372036854775807", "s", "x", "z", "05")
	do(t, e, "(error) ERR increment or decrement would overflow", "HINCRBY", "h", "n", "1")
	do(t, e, `"9223372036854775807"`, "HGET", "h", "n")
	do(t, e, "(error) ERR hash value is not an integer", "HINCRBY", "h", "s", "1")
	do(t, e, "(error) ERR hash value is not an integer", "HINCRBY", "h", "z", "1")
	do(t, e, "(error) ERR value is not an integer or out of range", "HINCRBY", "h", "n", "+1")
	do(t, e, "(integer) 9223372036854775806", "HINCRBY", "h", "n", "-1")
	do(t, e, "(integer) 5", "HINCRBY", "h", "new", "5")
	e.exec("SET", "str", "x")
	do(t, e, "(error) WRONGTYPE Operation against a key holding the wrong kind of value", "HINCRBY", "str", "f", "1")
}
